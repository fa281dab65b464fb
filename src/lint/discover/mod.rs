//! Finds what to lint: the library roots (listed in the configuration; otherwise learned from
//! how the repository runs ytt, named by Carvel `Package` resources, and, for ytt files nothing
//! else covers, the topmost directory holding them) and every private library
//! (`_ytt_lib/<name>`), each with the reason it was found. Directories whose ytt files only
//! supplement others (overlays, data values, schemas, or files the repository's commands only
//! use together with others) are checked on their own like private libraries, not evaluated.

pub mod alternatives;
pub mod app_fetched;
pub mod app_git_refs;
pub mod configured;
pub mod copied;
pub mod copied_defaults;
pub mod data_marked;
pub mod design_docs;
pub mod documented_values;
pub mod folder_values;
pub mod foreign_star;
pub mod got_root;
pub mod grep_reads;
pub mod handed_values;
pub mod heredoc_apps;
pub mod ignored_skip;
pub mod init;
pub mod invocations;
pub mod kpt;
pub mod kustomize;
pub mod learned;
pub mod loads;
pub mod own_schema;
pub mod package;
pub mod package_build;
pub mod package_locate;
pub mod package_nearest;
pub mod package_overlay;
pub mod page_skip;
pub mod provenance;
pub mod provisioner_sources;
pub mod rendered_output;
pub mod same_first_path;
pub mod samples;
pub mod scenario_cap;
pub mod schema_extension;
pub mod script_vars;
pub mod secret_files;
pub mod select;
pub mod shalm;
pub mod sibling_command;
mod sibling_dir;
pub mod third_party;
pub mod tkg_overlays;
pub mod tool_reads;
pub mod topmost;
pub mod vendir;
pub mod vendir_library;
pub mod wrappers;

use std::collections::BTreeSet;
use std::fmt;

use crate::files::paths::{self, is_within};
use crate::library::tree::PRIVATE_DIR;
use crate::lint::config::{Config, ScenarioConfig};
use crate::lint::repo::walk::{self, Kind, RepoFile};
use crate::report::Diagnostic;
use invocations::index::Index;
use invocations::resolve::Skipped;
use vendir::Target;

/// Why a root is a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Listed in the configuration at this line, with what the configuration says its
    /// command assumes (`assumes:`).
    Config {
        line: u32,
        assumed: Vec<crate::report::Assumption>,
        /// `package:`: the Package whose ytt step renders it (`FILE:LINE`).
        package: Option<String>,
    },
    /// Named by the ytt step of a Package or App resource.
    Package {
        /// `Package` or `App`.
        kind: &'static str,
        file: String,
        line: u32,
        name: String,
    },
    /// Rendered this way by the repository's own commands (`hack/build.sh:12`, ...).
    Invocation { origins: Vec<String> },
    /// The topmost directory holding ytt files.
    Topmost,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Config { line, .. } => write!(f, "listed in the configuration (line {line})"),
            Reason::Package {
                kind,
                file,
                line,
                name,
            } => {
                write!(f, "ytt path of {kind} {name} ({file}:{line})")
            }
            Reason::Invocation { origins } => {
                let shown: Vec<&str> = origins.iter().take(3).map(String::as_str).collect();
                write!(f, "run by {}", shown.join(", "))?;
                if origins.len() > 3 {
                    write!(f, " and {} more", origins.len() - 3)?;
                }
                Ok(())
            }
            Reason::Topmost => f.write_str("topmost directory holding ytt files"),
        }
    }
}

/// A library root: one ytt invocation per scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// What findings and reports call it: its path, or its inputs joined with ` + `.
    pub name: String,
    /// Repository-relative path (`.` for the repository itself).
    pub path: String,
    /// Repository-relative `-f` inputs (the path itself unless its flags or Package say more).
    pub inputs: Vec<String>,
    pub reason: Reason,
    /// ytt flags from the configuration.
    pub args: Vec<String>,
    /// Scenarios from the configuration (none: the root's own defaults).
    pub scenarios: Vec<ScenarioConfig>,
    /// Nobody declared how the root is run (found by discovery): a failure caused only by
    /// data values nobody set is one `needs-input` finding.
    pub needs_input: bool,
}

impl Root {
    /// A root found by discovery at `path`, evaluated with its own inputs.
    pub fn found(path: &str, reason: Reason) -> Root {
        Root {
            name: path.to_string(),
            path: path.to_string(),
            inputs: vec![path.to_string()],
            reason,
            args: Vec::new(),
            scenarios: Vec::new(),
            needs_input: true,
        }
    }
}

/// A directory checked on its own (parse, compile, schema, annotations), not evaluated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Library {
    /// Repository-relative directory (`.../_ytt_lib/<name>`).
    pub path: String,
    /// The directory whose `_ytt_lib` holds it.
    pub parent: String,
    /// Not a private library: a directory whose files only supplement others, and why.
    pub partial: Option<String>,
    /// Flags the repository's commands use with its files.
    pub flags: Vec<String>,
    /// The files checked, when not every file of the directory is (repository-relative).
    pub files: Vec<String>,
}

/// What discovery found.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    pub roots: Vec<Root>,
    pub libraries: Vec<Library>,
    /// Things worth telling (`--list-roots` and stderr): unreadable entries, Package paths
    /// that do not exist.
    pub notes: Vec<String>,
    /// The notes of [`Discovery::notes`] that every run tells (the ignore files not read:
    /// what they would hide is linted).
    pub told: Vec<String>,
    /// Every file the walk found (suppression comments are looked for in them).
    pub files: Vec<RepoFile>,
    /// Plain YAML files outside every root that may hold KubeVirt Templates or
    /// VirtualMachines (files inside a root are checked in its rendered output).
    pub kubevirt_files: Vec<String>,
    /// The repository's ytt commands the linter cannot evaluate, with why.
    pub skipped: Vec<Skipped>,
    /// Files that hold ytt commands.
    pub sources: Vec<String>,
    /// Directories vendir configurations fill.
    pub vendir: Vec<Target>,
    /// Findings of discovery itself (`vendir-not-synced`), by the root they are reported under.
    pub findings: Vec<Diagnostic>,
    /// Directories that tools wrapping ytt render with inputs of their own.
    pub wrappers: Vec<wrappers::Wrapper>,
    /// Repository paths its commands copy into other tools' trees.
    pub copied: Vec<copied::Copied>,
    /// The committed templates its commands render into other files (see
    /// `invocations::rendered`).
    pub templates: Vec<invocations::rendered::Template>,
    /// Files in another project's directories whose ytt commands were left out
    /// (`third_party`).
    pub third_party: Vec<String>,
    /// Keys of repository files that its scripts read with another tool (`yq`).
    pub tool_reads: Vec<tool_reads::ToolRead>,
    /// Repository paths the commands deploy as they are (`kapp deploy -f config/`), with the
    /// command (`` `kapp` at hack/deploy.sh:3 ``).
    pub deployed: Vec<(String, String)>,
    /// The inputs of the repository's commands that print the data values or their schema
    /// (`--data-values-inspect`, `--data-values-schema-inspect`): every value they declare is
    /// read, by whoever reads what the command prints.
    pub inspected: Vec<String>,
    /// The private libraries a committed ytt file hands data values whole, whether or not a
    /// root gives that file (see `handed_values`).
    pub handed_over: Vec<String>,
}

impl Discovery {
    /// Whether another tool renders the file at `path`: a tool that wraps ytt, or another
    /// tool's tree a command copies it into.
    pub fn around_of(&self, path: &str) -> bool {
        wrappers::around(&self.wrappers, path).is_some()
            || copied::around(&self.copied, path).is_some()
    }

    /// What surrounds the repository's files, for their provenance.
    pub fn around(&self) -> provenance::Around<'_> {
        provenance::Around {
            wrappers: &self.wrappers,
            copied: &self.copied,
            templates: &self.templates,
        }
    }
}

/// Symbolic links of the repository as repository paths with their targets: to its own
/// directories, and out of it.
pub type Links = (Vec<(String, String)>, Vec<(String, String)>);

/// Walks the repository of `config` and finds its roots and libraries.
pub fn discover(config: &Config) -> Result<Discovery, String> {
    discover_listed(config, None)
}

/// [`discover`], walking the listing `tree` when it is that of the repository of `config`
/// (`repo::tree::Tree::serves`), else a listing of its own.
pub fn discover_listed(
    config: &Config,
    tree: Option<&crate::lint::repo::tree::Tree>,
) -> Result<Discovery, String> {
    let exclude = walk::exclude_set(&config.exclude)?;
    let own;
    let tree = match tree.filter(|t| t.serves(&config.dir, &config.exclude)) {
        Some(t) => t,
        None => {
            own = crate::lint::repo::tree::list(&config.dir, &config.exclude, &exclude);
            &own
        }
    };
    // The texts the repository's commands are read from, kept as the walk reads them.
    let keep = |path: &str, kind: walk::Kind, text: &str| {
        config.invocations && invocations::worth_keeping(path, kind, text)
    };
    let walk::Walked {
        files,
        problems,
        not_utf8,
        others,
        ignore_notes,
        links,
        kept,
    } = walk::walk_tree(tree, &keep);
    let seen = invocations::Seen {
        kept,
        links: Some(links),
    };
    let dir_links = (
        invocations::through_links::dir_links(&config.dir, &others),
        invocations::through_links::leaving(&config.dir, &others),
    );
    let mut d = from_walk(config, &files, seen, dir_links);
    if config.roots.is_empty() && config.invocations {
        // Scripts and Makefiles the walk found as links or special files: not read, said.
        let index = Index::new(files.iter().map(|f| f.path.as_str()));
        let worth = |p: &&String| invocations::unread::worth_a_note(p);
        d.findings
            .extend(others.iter().filter(worth).filter_map(|p| {
                let why = invocations::unread::why_entry(&config.dir, p, Some(&index))?;
                Some(invocations::unread::finding(p, &why))
            }));
    }
    d.notes.splice(0..0, problems);
    d.notes.extend(ignore_notes.iter().cloned());
    d.told = ignore_notes;
    let reader = |p: &str| {
        let holds = |r: &&Root| r.inputs.iter().any(|i| is_within(p, i));
        d.roots.iter().find(holds).map(|r| r.name.clone())
    };
    let found = walk::not_utf8_findings(&not_utf8, &reader);
    d.findings.extend(found);
    d.files = files;
    if d.roots.is_empty() && d.libraries.is_empty() && d.kubevirt_files.is_empty() {
        // The ytt files the walk did not give (design documents it gave, and set aside).
        let walked: std::collections::HashSet<&str> =
            d.files.iter().map(|f| f.path.as_str()).collect();
        let mut hidden = walk::ignored_ytt_files(&config.dir, &exclude);
        hidden.retain(|f| !walked.contains(f.as_str()));
        if let Some(first) = hidden.first() {
            return Err(format!(
                "nothing to lint: .gitignore or .ignore files ignore every ytt file of the repository ({} {}, the first {first}); un-ignore them, or list the roots in {}",
                hidden.len(),
                if hidden.len() == 1 { "file" } else { "files" },
                crate::lint::config::FILE_NAME
            ));
        }
    }
    Ok(d)
}

/// Roots and libraries from the walked `files` of the repository of `config`.
pub fn from_files(config: &Config, files: &[RepoFile]) -> Discovery {
    from_walk(
        config,
        files,
        invocations::Seen::default(),
        (Vec::new(), Vec::new()),
    )
}

/// [`from_files`], knowing what the walk already has for the repository's commands (`seen`)
/// and the repository's symbolic links: `(to its own directories, out of it)` (see
/// `invocations::through_links`).
pub fn from_walk(
    config: &Config,
    files: &[RepoFile],
    seen: invocations::Seen,
    links: Links,
) -> Discovery {
    let mut d = Discovery::default();
    let index = Index::new(files.iter().map(|f| f.path.as_str()))
        .with_links(links.0)
        .with_leaving(links.1);
    d.vendir = vendir::repository_targets(config, files, &index);
    d.wrappers = wrappers::find(&config.dir, files);
    d.copied = copied_out(config, files, &index);
    d.tool_reads = read_by_tools(config, files, &index);
    d.handed_over = handed_values::of(&config.dir, files);
    if config.roots.is_empty() {
        d.roots = learn(config, files, &index, &mut d, seen);
    } else {
        d.roots = configured::roots(config, &mut d.notes);
        d.libraries = configured::libraries(config);
        // The repository's commands still name their inputs: one that names a file that is
        // not there fails whatever the configuration lists (`input-missing`), and the ones
        // the linter cannot run still say which files the repository renders (`skipped`).
        if config.invocations {
            let found = invocations::find(&config.dir, files, &index, &d.vendir, seen);
            d.skipped = found.skipped;
            d.third_party = found.third_party;
            d.deployed = found.deployed;
            d.findings.extend(
                found
                    .findings
                    .into_iter()
                    .filter(|f| f.rule == crate::report::Rule::InputMissing),
            );
        }
        // A directory listed with `evaluate: false` because a load names a file held
        // elsewhere keeps the note that says so (a whole directory, as discovery judges
        // them: not one listed with some of its files).
        let read = |p: &str| crate::files::repo_text::read_repo_text(&config.dir, p);
        for lib in d.libraries.iter().filter(|l| l.files.is_empty()) {
            if let loads::Verdict::Incomplete(u) = loads::judge(&lib.path, files, &index, &read) {
                d.findings.push(loads::finding(&lib.path, &u));
            }
        }
    }
    d.roots.sort_by(|a, b| a.name.cmp(&b.name));
    let learned = config.roots.is_empty();
    d.libraries.extend(libraries(files).into_iter().filter(|l| {
        // Private libraries of design documents only when a root uses them.
        !learned
            || design_docs::dir_of(&l.path).is_none()
            || d.roots.iter().any(|r| is_within(&l.path, &r.path))
    }));
    d.libraries.sort_by(|a, b| a.path.cmp(&b.path));
    d.kubevirt_files = files
        .iter()
        .filter(|f| f.kubevirt && f.kind == Kind::PlainYaml)
        .filter(|f| private_location(&f.path).is_none())
        .filter(|f| {
            !d.roots
                .iter()
                .any(|r| r.inputs.iter().any(|i| is_within(&f.path, i)))
        })
        .map(|f| f.path.clone())
        .collect();
    d.kubevirt_files.sort();
    d.findings.extend(vendir::findings(&d.vendir));
    // Another project's directories: its private libraries are not the repository's, with
    // roots listed too (those roots are kept, whatever holds them).
    let commands = std::mem::take(&mut d.third_party);
    third_party::leave_out(&mut d, files, &commands);
    let tests = third_party::filetest_notes(&config.dir, files, &d.vendir);
    d.notes.extend(tests);
    got_root::settle(&mut d.findings, &d.roots, &d.libraries);
    d
}

/// What the repository's READMEs, scripts and Makefiles copy out of it, and the folders its
/// TAP values files hand to the namespace provisioner (`provisioner_sources`).
fn copied_out(config: &Config, files: &[RepoFile], index: &Index) -> Vec<copied::Copied> {
    let provisioned = files
        .iter()
        .filter(|f| provisioner_sources::candidate(&f.path))
        .filter_map(|f| {
            let text = invocations::scripts::read(&config.dir, &f.path, 1 << 20)?;
            provisioner_sources::mentions(&text)
                .then(|| provisioner_sources::in_text(&f.path, &text, index))
        })
        .flatten();
    files
        .iter()
        .filter(|f| copied::candidate(&f.path))
        .filter_map(|f| {
            let text = invocations::scripts::read(&config.dir, &f.path, 1 << 20)?;
            let mut out = Vec::new();
            if text.contains("cp ") {
                out.extend(copied::in_text(&f.path, &text, index));
            }
            // Files shipped in a Secret, which kapp-controller renders (`secret_files`).
            if secret_files::mentions(&text) {
                out.extend(secret_files::in_text(&f.path, &text, index));
            }
            // Overlays a package install hands to the package (`package_overlay`).
            if package_overlay::mentions(&text) {
                out.extend(package_overlay::in_text(&f.path, &text, index));
            }
            Some(out)
        })
        .flatten()
        .chain(provisioned)
        .collect()
}

/// The keys of repository files that its scripts and Makefiles read with `yq` or `grep`.
fn read_by_tools(config: &Config, files: &[RepoFile], index: &Index) -> Vec<tool_reads::ToolRead> {
    files
        .iter()
        .filter(|f| {
            invocations::scripts::candidate(&f.path) || invocations::make::candidate(&f.path)
        })
        .filter_map(|f| {
            let text = invocations::scripts::read(&config.dir, &f.path, 1 << 20)?;
            let mut reads = Vec::new();
            if text.contains("yq") {
                reads.extend(tool_reads::in_text(&f.path, &text, index));
            }
            if text.contains("grep") {
                reads.extend(grep_reads::in_text(&f.path, &text, index));
            }
            Some(reads)
        })
        .flatten()
        .collect()
}

/// Roots without configuration: from the repository's commands, its Packages, then the
/// topmost directories of the ytt files nothing else covers.
fn learn(
    config: &Config,
    files: &[RepoFile],
    index: &Index,
    d: &mut Discovery,
    seen: invocations::Seen,
) -> Vec<Root> {
    let found = if config.invocations {
        invocations::find(&config.dir, files, index, &d.vendir, seen)
    } else {
        invocations::Found::default()
    };
    let (mut roots, inspections) = learned::roots(&found.invocations);
    let known = alternatives::Files {
        repo: &config.dir,
        files,
    };
    alternatives::add(&mut roots, &found.invocations, &known);
    d.skipped = found.skipped;
    d.findings.extend(ignored_skip::notes(&d.skipped));
    d.findings.extend(page_skip::notes(&d.skipped));
    // Only a command that prints the values reads them all: a schema's inspection prints what
    // may be set (a Package's OpenAPI document), and a value nothing reads is still unused.
    d.inspected = found
        .invocations
        .iter()
        .filter(|i| i.prints_values)
        .flat_map(learned::plain_inputs)
        .collect();
    d.skipped.extend(inspections);
    d.third_party = found.third_party;
    d.findings.extend(found.findings);
    d.sources = found.sources;
    d.templates = found.templates;
    let copies = (&found.documented[..], &found.secrets[..]);
    for p in package_roots(config, files, index, d, (copies, &found.pushed)) {
        if !roots.iter().any(|r| r.inputs == p.inputs) {
            roots.push(p);
        }
    }
    // Files read only with inputs made at run time: by skipped commands, or by a Package's
    // ytt step after the step whose output it takes.
    let mut claimed: Vec<String> = d.skipped.iter().flat_map(|s| s.claims.clone()).collect();
    claimed.extend(d.libraries.iter().flat_map(|l| l.files.clone()));
    // Templates a command copies to another committed place, rendered there (see
    // `invocations::copied_within`).
    // A data values file copied as a starting point stays where it is (`copied_defaults`).
    let copied_within = copied_defaults::moved(&config.dir, files, found.copied_within);
    claimed.extend(copied_within.iter().map(|c| c.path.clone()));
    // Design documents make no root of their own (see `design_docs`).
    let (undesigned, set_aside) = design_docs::set_aside(&config.dir, files);
    d.notes.extend(set_aside);
    // Nor do other Starlark tools' files that nothing of ytt reads (see `foreign_star`).
    let (undesigned, foreign) =
        foreign_star::set_aside(&config.dir, &undesigned, &roots, &d.wrappers);
    d.notes.extend(foreign);
    let (top, partial) = topmost::roots(config, &undesigned, &roots, &claimed, &d.vendir);
    let partial = schema_extension::join_libraries(config, &undesigned, partial, &top);
    let top = schema_extension::join(config, &undesigned, top);
    let top = settle_loads(config, files, index, top, d);
    let top = not_deployed_as_is(top, &found.deployed, d);
    d.deployed = found.deployed;
    let top = not_copied_out(top, files, d);
    let top = rendered_output::set_apart(&config.dir, files, top, d);
    let top = sibling_command::modelled(&config.dir, files, index, &roots, top);
    let top = sibling_dir::modelled(&config.dir, files, index, &roots, top);
    let partial: Vec<Library> = partial
        .into_iter()
        .filter(|l| {
            !top.iter()
                .any(|r| r.inputs.iter().any(|i| is_within(&l.path, i)))
        })
        .collect();
    roots.extend(top);
    for mut lib in partial {
        let listed = |f: &String| d.libraries.iter().any(|l| l.files.contains(f));
        if d.libraries.iter().any(|l| l.path == lib.path) || lib.files.iter().all(listed) {
            continue;
        }
        if let Some(c) = copied_within_all(&lib.files, &copied_within) {
            d.notes.push(c.note(&lib.path));
            lib.partial = Some(c.reason());
        }
        lib.flags =
            learned::flags_for(&Root::found(&lib.path, Reason::Topmost), &found.invocations);
        d.libraries.push(lib);
    }
    copied_within_libraries(&copied_within, files, &roots, d);
    for r in roots.iter_mut().filter(|r| r.needs_input) {
        let learned = learned::flags_for(r, &found.invocations);
        r.args.extend(learned);
    }
    let vendored = |r: &Root| {
        let unsynced = vendir::consumed_target(r, &d.vendir)
            .or_else(|| vendir_library::filled_library(&config.dir, files, r, &d.vendir))
            .map(|t| (t, false));
        unsynced.or_else(|| vendir::vendored_topmost(r, &d.vendir).map(|t| (t, true)))
    };
    let (kept, unsynced): (Vec<Root>, Vec<Root>) =
        roots.into_iter().partition(|r| vendored(r).is_none());
    for r in unsynced {
        let Some((t, synced)) = vendored(&r) else {
            continue;
        };
        // Another project's directory: said once, by `third_party::leave_out`.
        if synced && t.third_party {
            continue;
        }
        let partial = match synced {
            false => {
                d.notes.push(format!(
                    "root {} is not evaluated: it needs {}, which `vendir sync` fills ({}:{})",
                    r.name, t.dir, t.file, t.line
                ));
                format!("not evaluated until `vendir sync` fills {}", t.dir)
            }
            true => {
                d.notes.push(format!(
                    "{} is not evaluated alone: `vendir sync` wrote it ({}:{}) and nothing in the repository renders it (list it under roots in .yttlint.yaml to evaluate it)",
                    r.name, t.file, t.line
                ));
                format!(
                    "written by `vendir sync` ({}:{}); not evaluated alone",
                    t.file, t.line
                )
            }
        };
        // Its own files are still checked (parse, compile, annotations).
        if !d.libraries.iter().any(|l| l.path == r.path) && !kept.iter().any(|k| k.path == r.path) {
            d.libraries.push(Library {
                path: r.path.clone(),
                parent: paths::parent(&r.path).to_string(),
                partial: Some(partial),
                flags: r
                    .args
                    .iter()
                    .filter(|a| a.starts_with("--"))
                    .cloned()
                    .collect(),
                // Its ytt files only: a directory vendir fills may hold anything.
                files: files
                    .iter()
                    .filter(|f| f.kind.is_ytt() && !topmost::in_private_dir(&f.path))
                    .filter(|f| r.inputs.iter().any(|i| is_within(&f.path, i)))
                    .map(|f| f.path.clone())
                    .collect(),
            });
        }
    }
    let mut kept = kept;
    let capped = scenario_cap::cap(&mut kept, config.max_learned_scenarios);
    d.findings.extend(capped);
    kept
}

/// Topmost roots without those the repository deploys as they are, never through ytt
/// (`kapp deploy -f config/`, `kubectl apply -f manifests/`): their `#@` lines are comments
/// to those tools. Each one dropped is a note.
fn not_deployed_as_is(
    top: Vec<Root>,
    deployed: &[(String, String)],
    d: &mut Discovery,
) -> Vec<Root> {
    top.into_iter()
        .filter(|r| {
            let Some((path, by)) = deployed.iter().find(|(p, _)| is_within(&r.path, p)) else {
                return true;
            };
            d.notes.push(format!(
                "{} is not linted as a ytt root: the repository deploys {path} as it is, with {by}, and no ytt command reads it",
                r.path
            ));
            false
        })
        .collect()
}

/// Topmost roots without those whose ytt files the repository copies into another tool's tree
/// to be rendered there: each is checked on its own instead, with a note.
fn not_copied_out(top: Vec<Root>, files: &[RepoFile], d: &mut Discovery) -> Vec<Root> {
    let mut kept = Vec::new();
    for r in top {
        let ytt: Vec<&RepoFile> = files
            .iter()
            .filter(|f| f.kind.is_ytt() && !topmost::in_private_dir(&f.path))
            .filter(|f| r.inputs.iter().any(|i| is_within(&f.path, i)))
            .collect();
        let copies: Vec<&copied::Copied> = ytt
            .iter()
            .filter_map(|f| copied::around(&d.copied, &f.path))
            .collect();
        let Some(first) = copies.first().filter(|_| copies.len() == ytt.len()) else {
            kept.push(r);
            continue;
        };
        d.notes.push(format!(
            "{} is not evaluated: {} copies it into {} to be rendered there",
            r.name, first.origin, first.to
        ));
        d.libraries.push(Library {
            parent: paths::parent(&r.path).to_string(),
            partial: Some(format!(
                "copied into {} by {} and rendered there",
                first.to, first.origin
            )),
            flags: Vec::new(),
            files: Vec::new(),
            path: r.path,
        });
    }
    kept
}

/// The ytt files a command copies to another committed place that no root renders where
/// they lie: each copied path is checked on its own, not evaluated (the copy is rendered
/// there: `invocations::copied_within`), with a note saying so.
fn copied_within_libraries(
    copied: &[copied::Copied],
    files: &[RepoFile],
    roots: &[Root],
    d: &mut Discovery,
) {
    for c in copied {
        let rendered = |f: &str| {
            roots
                .iter()
                .any(|r| r.inputs.iter().any(|i| is_within(f, i)))
        };
        let listed = |f: &str| d.libraries.iter().any(|l| l.files.iter().any(|g| g == f));
        let mine: Vec<String> = files
            .iter()
            .filter(|f| f.kind.is_ytt() && is_within(&f.path, &c.path))
            .filter(|f| !topmost::in_private_dir(&f.path))
            .filter(|f| !rendered(&f.path) && !listed(&f.path))
            .map(|f| f.path.clone())
            .collect();
        if mine.is_empty() {
            continue;
        }
        d.notes.push(c.note(&c.path));
        d.libraries.push(Library {
            parent: paths::parent(&c.path).to_string(),
            partial: Some(c.reason()),
            flags: Vec::new(),
            files: mine,
            path: c.path.clone(),
        });
    }
}

/// The copy to another committed place that takes every one of `files`, if one does.
fn copied_within_all<'c>(
    files: &[String],
    copied: &'c [copied::Copied],
) -> Option<&'c copied::Copied> {
    let by = |f: &String| copied.iter().find(|c| is_within(f, &c.path));
    let first = by(files.first()?)?;
    files.iter().all(|f| by(f).is_some()).then_some(first)
}

/// Topmost roots as their loads place them: climbed to the ancestor an absolute load needs,
/// or, when a load names a file the repository holds elsewhere, only checked, with a
/// `needs-input` finding.
fn settle_loads(
    config: &Config,
    files: &[RepoFile],
    index: &Index,
    top: Vec<Root>,
    d: &mut Discovery,
) -> Vec<Root> {
    let read = |p: &str| crate::files::repo_text::read_repo_text(&config.dir, p);
    let mut out: Vec<Root> = Vec::new();
    for mut root in top {
        if root.inputs != [root.path.clone()] {
            out.push(root);
            continue;
        }
        match loads::judge(&root.path, files, index, &read) {
            loads::Verdict::Fine => out.push(root),
            loads::Verdict::Climb(up) => {
                root.name = up.clone();
                root.path = up.clone();
                root.inputs = vec![up];
                out.retain(|r| !is_within(&r.path, &root.path));
                out.push(root);
            }
            loads::Verdict::Incomplete(u) => {
                d.findings.push(loads::finding(&root.name, &u));
                d.libraries.push(Library {
                    parent: paths::parent(&root.path).to_string(),
                    partial: Some(format!(
                        "{}:{} loads \"{}\", which only {} holds",
                        u.file,
                        u.line,
                        u.module,
                        u.elsewhere.join(", ")
                    )),
                    flags: Vec::new(),
                    files: Vec::new(),
                    path: root.path,
                });
            }
        }
    }
    // A root that climbed may now hold another (one its narrowed inputs leave out, a library
    // of its own (`own_schema.rs`), it does not).
    let holds = |outer: &Root, inner: &Root| {
        outer.path != inner.path
            && is_within(&inner.path, &outer.path)
            && outer.inputs.iter().any(|i| is_within(&inner.path, i))
    };
    let mut kept: Vec<Root> = Vec::new();
    for r in out {
        if !kept.iter().any(|k| holds(k, &r)) {
            kept.retain(|k| k.path != r.path && !holds(&r, k));
            kept.push(r);
        }
    }
    kept
}

/// Roots from the ytt steps of Package and App resources; a step that takes the output of
/// the step before (`-`) that the repository does not hold is only checked.
fn package_roots(
    config: &Config,
    files: &[RepoFile],
    index: &Index,
    d: &mut Discovery,
    (copies, pushed): (Copies, &[invocations::bundle_push::Pushed]),
) -> Vec<Root> {
    let mut out: Vec<Root> = Vec::new();
    let mut guessed_roots: Vec<String> = Vec::new();
    let ytt_files: std::collections::HashSet<&str> = files
        .iter()
        .filter(|f| f.kind.is_ytt())
        .map(|f| f.path.as_str())
        .collect();
    // Every Package and App, with what was assumed to read it.
    let mut all: Vec<(package::PackageYtt, Option<crate::report::Assumption>)> = Vec::new();
    for f in files.iter().filter(|f| f.package) {
        let Some(text) = crate::files::repo_text::read_repo_text(&config.dir, &f.path) else {
            continue;
        };
        let pkgs = package::packages(&config.dir, index, &f.path, &text, pushed);
        // An App's copies of what it renders with fetched inputs (see `app_fetched`).
        let rendered: Vec<u32> = pkgs.iter().map(|p| p.line).collect();
        let is_ytt = |p: &str| ytt_files.contains(p);
        // A branch's ref file an App's ytt step names that its git fetch does not leave:
        // the step stops there (see `app_git_refs`); what it would render is claimed.
        for m in app_git_refs::missing(&f.path, &text, index) {
            d.findings.push(m.finding());
            let first = d.skipped.last().map(|s| (&s.origin.file, s.origin.line))
                != Some((&m.file, m.doc_line));
            if first && !m.claims.is_empty() {
                d.skipped.push(invocations::resolve::Skipped {
                    origin: invocations::resolve::Origin {
                        file: m.file.clone(),
                        line: m.doc_line,
                    },
                    reason: format!(
                        "its ytt step stops at {}, which its git fetch does not give",
                        m.path
                    ),
                    claims: m.claims,
                    placeholder: None,
                    left_out: Vec::new(),
                    got: None,
                });
            }
        }
        for app in app_fetched::apps(&f.path, &text, index, &rendered, is_ytt) {
            d.skipped.push(invocations::resolve::Skipped {
                origin: invocations::resolve::Origin {
                    file: app.file.clone(),
                    line: app.line,
                },
                reason: app.reason(),
                claims: app.copies,
                placeholder: None,
                left_out: Vec::new(),
                got: None,
            });
        }
        all.extend(pkgs.into_iter().map(|p| (p, None)));
    }
    // The Apps scripts write in here-documents and apply (see `heredoc_apps`).
    for f in files.iter().filter(|f| {
        f.kind == crate::lint::repo::walk::Kind::Other
            && (f.path.ends_with(".sh") || f.path.ends_with(".bash"))
    }) {
        let Some(text) = crate::files::repo_text::read_repo_text(&config.dir, &f.path)
            .filter(|t| t.contains("kappctrl.k14s.io/"))
        else {
            continue;
        };
        let dirs = |parent: &str| -> Vec<String> {
            let parent = if parent.is_empty() { "." } else { parent };
            index
                .entries_in(parent)
                .filter(|e| index.is_dir(e))
                .map(|e| e.rsplit('/').next().unwrap_or(e).to_string())
                .collect()
        };
        for app in heredoc_apps::apps(&f.path, &text, &dirs) {
            for mut pkg in package::packages(&config.dir, index, &app.file, &app.text, pushed) {
                pkg.line = app.first_line + pkg.line.saturating_sub(1);
                all.push((pkg, app.bound.clone()));
            }
        }
    }
    for (pkg, bound) in all {
        {
            for m in &pkg.missing {
                d.notes.push(package::missing_note(&pkg, m));
            }
            if !pkg.own_folder.is_empty() {
                d.notes.push(format!(
                    "{}:{}: the ytt paths {:?} of {} {} name the folder holding it, and its fetch path is known only at run time: not rendered",
                    pkg.file, pkg.line, pkg.own_folder, pkg.kind, pkg.name
                ));
            }
            if !pkg.computed.is_empty() {
                let what = match pkg.name.as_str() {
                    "" => pkg.kind.to_string(),
                    name => format!("{} {name}", pkg.kind),
                };
                d.notes.push(format!(
                    "{}:{}: the ytt paths {:?} of {what} are relative to its git fetch's `subPath`, which a template computes: where they are is known only when the resource is rendered, and the repository's top is not taken for it: not rendered (name the folder as a root in .yttlint.yaml to lint it)",
                    pkg.file, pkg.line, pkg.computed
                ));
            }
            let Some(first) = pkg.inputs.first().cloned() else {
                continue;
            };
            // A root found by a resource whose folder is known wins over one guessed; two
            // such resources are each linted (see `same_first_path`).
            let replaced = out.iter().position(|r| r.path == first);
            if replaced.is_some() && pkg.guessed.is_some() {
                continue;
            }
            let beside = replaced.is_some() && !guessed_roots.contains(&first);
            let origin = format!("{}:{}", pkg.file, pkg.line);
            if pkg.previous_step {
                d.libraries.push(previous_step_library(files, &pkg));
                continue;
            }
            // A ytt path that is a kustomize tree (see `kustomize`).
            let step = format!("{} {} ({origin})", pkg.kind, pkg.name);
            let kustomized = kustomize::assumption(files, &pkg.inputs, &step);
            let kind = pkg.kind;
            let mut root = Root::found(
                &first,
                Reason::Package {
                    kind: pkg.kind,
                    file: pkg.file,
                    line: pkg.line,
                    name: pkg.name,
                },
            );
            // `kctrl package release` gives a PackageBuild's template no values: what fails
            // with the defaults fails the release (not a note of missing input), unless a
            // step makes one of its files first (see `package_build`).
            let made = (kind == "PackageBuild")
                .then(|| package_build::made_inside(&config.dir, files, index, &pkg.inputs))
                .flatten();
            root.needs_input = kind != "PackageBuild" || made.is_some();
            if let Some(a) = made {
                root.scenarios.push(ScenarioConfig {
                    name: origin.clone(),
                    origin: Some(origin.clone()),
                    assumptions: vec![a],
                    ..ScenarioConfig::default()
                });
            }
            root.inputs = pkg.inputs;
            // The step's own options (`ignoreUnknownComments: true` ...) are its flags.
            root.args = pkg.flags;
            let guessed = pkg.guessed;
            if !pkg.values.is_empty()
                || pkg.given_values
                || kustomized.is_some()
                || guessed.is_some()
                || bound.is_some()
            {
                root.scenarios.push(ScenarioConfig {
                    name: origin.clone(),
                    values_files: pkg.values,
                    provided: if pkg.given_values {
                        vec!["*".to_string()]
                    } else {
                        Vec::new()
                    },
                    origin: Some(origin),
                    ..ScenarioConfig::default()
                });
            }
            if let Some(sc) = root.scenarios.last_mut().filter(|_| pkg.given_values) {
                documented_values_from(sc, &pkg.value_secrets, copies, index);
            }
            if guessed.is_some() {
                guessed_roots.push(first.clone());
            } else if let Some(at) = replaced.filter(|_| !beside) {
                out.remove(at);
                guessed_roots.retain(|g| g != &first);
            }
            for a in kustomized.into_iter().chain(guessed).chain(bound) {
                for sc in &mut root.scenarios {
                    sc.assumptions.push(a.clone());
                }
            }
            match beside {
                true => same_first_path::add(&mut out, root),
                false => out.push(root),
            }
        }
    }
    out
}

/// The values examples the pages document, and the Secrets the commands make from files.
type Copies<'a> = (
    &'a [invocations::documented_example::Documented],
    &'a [invocations::documented_example::SecretFromFiles],
);

/// A step's `valuesFrom` Secrets, each made from the user's copy of a values example a page
/// tells them to fill in (`kubectl create secret generic NAME --from-file=values.yaml`): the
/// examples stand in for them, as the `example-values` assumption (see
/// `invocations::documented_example`). Only when every Secret has its example.
fn documented_values_from(
    sc: &mut ScenarioConfig,
    secrets: &[String],
    (documented, made): Copies,
    index: &Index,
) {
    use invocations::documented_example as example;
    let bound: Vec<(&String, &example::Documented)> = secrets
        .iter()
        .filter_map(|s| Some((s, example::for_secret(s, made, documented, index)?)))
        .collect();
    if bound.is_empty() || bound.len() < secrets.len() {
        return;
    }
    sc.provided.clear();
    sc.inputs_known = true;
    for (secret, doc) in bound {
        sc.values_files.push(doc.example.path.clone());
        sc.assumptions.push(example::assumption(
            &format!("the Secret `{secret}` of `valuesFrom`"),
            doc,
        ));
    }
}

/// The files of a ytt step whose first input is the previous step's output, made at run time:
/// checked on their own.
fn previous_step_library(files: &[RepoFile], pkg: &package::PackageYtt) -> Library {
    let path = pkg.inputs.first().cloned().unwrap_or_default();
    Library {
        parent: paths::parent(&path).to_string(),
        partial: Some(format!(
            "the ytt step of {} {} ({}:{}) renders `-`, the output of the step before it, made at run time",
            pkg.kind, pkg.name, pkg.file, pkg.line
        )),
        flags: Vec::new(),
        files: files
            .iter()
            .filter(|f| f.kind.is_ytt() && pkg.inputs.iter().any(|i| is_within(&f.path, i)))
            .map(|f| f.path.clone())
            .collect(),
        path,
    }
}

/// `(private dir, library candidate dir)` of a file inside a `_ytt_lib`, if it lies in a
/// library (not directly in the `_ytt_lib` directory).
fn private_location(path: &str) -> Option<(String, String)> {
    let marker = format!("{PRIVATE_DIR}/");
    let start = match path.rfind(&format!("/{marker}")) {
        Some(i) => i + 1,
        None if path.starts_with(&marker) => 0,
        None => return None,
    };
    let private = &path[..start + PRIVATE_DIR.len()];
    let dir = paths::parent(path);
    (dir.len() > private.len()).then(|| (private.to_string(), dir.to_string()))
}

fn libraries(files: &[RepoFile]) -> Vec<Library> {
    let mut by_private: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for f in files.iter().filter(|f| f.kind.is_ytt()) {
        if let Some((private, dir)) = private_location(&f.path) {
            by_private.entry(private).or_default().insert(dir);
        }
    }
    let mut out = Vec::new();
    for (private, dirs) in by_private {
        for path in topmost::topmost(&dirs) {
            out.push(Library {
                path,
                parent: paths::parent(&private).to_string(),
                partial: None,
                flags: Vec::new(),
                files: Vec::new(),
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
