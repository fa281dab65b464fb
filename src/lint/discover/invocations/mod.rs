//! How the repository runs ytt: every `ytt` command in its shell scripts, Makefiles, GitHub
//! workflows, GitLab CI files, Taskfiles, kuttl tests, Concourse tasks and READMEs, followed without
//! running anything (see [`shell`]) and resolved into what the linter can evaluate (see
//! [`resolve`]), or skipped with a reason.

pub mod accelerator_page;
pub mod action_calls;
pub mod added;
pub mod angle;
pub mod anywhere;
pub mod assembled;
pub mod author_clone;
pub mod bosh_packaging;
pub mod braces;
pub mod bundle_push;
mod chosen_values;
pub mod ci;
pub mod cloudbuild;
pub mod commands;
pub mod compared_output;
pub mod compiled;
pub mod concourse;
pub mod concourse_inputs;
pub mod conditional_cd;
pub mod container_run;
pub mod copied_input;
pub mod copied_within;
pub mod corrected_page;
pub mod direnv;
pub mod documented_example;
pub mod edited_copy;
pub mod edits;
pub mod educates;
pub mod entry_tests;
pub mod env;
pub mod env_files;
pub mod env_template;
pub mod example_beside;
pub mod expand;
mod fence;
pub mod find_loop;
pub mod flags;
pub mod flow;
pub mod glob_loop;
mod heredoc_wrapper;
pub mod ignored;
pub mod image_build;
pub mod image_entry;
pub mod index;
pub mod input_missing;
mod inspected;
pub mod instance;
pub mod jenkins;
pub mod justfile;
pub mod katacoda;
pub mod kubectl_got;
pub mod kuttl;
pub mod links;
pub mod listing;
pub mod ls_loop;
pub mod made;
pub mod make;
mod make_define;
mod make_here;
pub mod make_wildcard;
pub mod makefile_dir;
pub mod missing;
pub mod moved_page;
pub mod moved_tree;
pub mod named_copy;
pub mod output_deploy;
pub mod outputs;
pub mod own_checkout;
pub mod own_clone;
pub mod package_json;
pub mod page_cd;
pub mod page_exports;
pub mod page_lines;
pub mod page_links;
pub mod page_marks;
mod piped_stdin;
mod piped_ytt;
mod pipeline_file;
pub mod placeholder_file;
pub mod printed;
pub mod prose_copy;
pub mod prose_dir;
pub mod readme;
pub mod remote;
pub mod rendered;
mod rendered_dir;
pub mod resolve;
pub mod reusable;
pub mod script_set;
pub mod scripts;
pub mod settled;
pub mod shell;
mod shell_options;
pub mod snippet;
pub mod sole_match;
mod sops_values;
pub mod starting_point;
pub mod subfolder;
pub mod substitution_data;
pub mod subtree_copies;
pub mod task_script;
pub mod taskfile;
pub mod terraform;
pub mod through_links;
pub mod tree_copy;
pub mod truncated;
mod unfilled_dir;
pub mod unknown_flag;
pub mod unread;
pub mod word;
pub mod wrapped_ytt;
pub mod writes;
pub mod written_keys;
pub mod ytt_args;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use self::ignored::Ignored;
use self::index::Index;
use self::made::MadeAt;
use self::resolve::{Invocation, Outcome, Repo, Skipped};
use self::script_set::ScriptSet;
use self::shell::{Call, Entered};
use self::snippet::Snippet;
use super::vendir::Target;
use crate::files::paths;
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::Diagnostic;

/// What the repository's own ways of running ytt give.
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub invocations: Vec<Invocation>,
    pub skipped: Vec<Skipped>,
    /// Files that hold at least one `ytt` command.
    pub sources: Vec<String>,
    /// Repository paths deployed as they are (`kapp deploy -f config/`), with the command
    /// (`kapp deploy at deploy.sh:4`).
    pub deployed: Vec<(String, String)>,
    /// Commands whose inputs do not exist (`input-missing`).
    pub findings: Vec<Diagnostic>,
    /// Files with ytt commands in another project's directory (vendir-synced): not the
    /// repository's commands (their scripts still run when a command of it calls them).
    pub third_party: Vec<String>,
    /// The values examples its pages tell the reader to copy (see [`documented_example`]).
    pub documented: Vec<documented_example::Documented>,
    /// The Secrets its commands make from files (`kubectl create secret generic`).
    pub secrets: Vec<documented_example::SecretFromFiles>,
    /// Repository paths its commands copy to other committed places of it (see
    /// [`copied_within`]).
    pub copied_within: Vec<crate::lint::discover::copied::Copied>,
    /// The committed templates its commands render into other files (see [`rendered`]).
    pub templates: Vec<rendered::Template>,
    /// The imgpkg bundles its commands push from its folders (see [`bundle_push`]).
    pub pushed: Vec<bundle_push::Pushed>,
}

/// What is known of the repository besides its files' paths.
#[derive(Default)]
pub struct Facts {
    /// Its `.gitignore` rules.
    pub ignored: Ignored,
    /// The module path its top `go.mod` declares.
    pub module: Option<String>,
    /// The variables each directory's direnv `.envrc` exports (see `direnv.rs`).
    pub envrc: Vec<(String, Vec<(String, word::Word)>)>,
    /// The names of the variables the environment files set (see `env_files.rs`).
    pub env_files: Vec<env_files::EnvFile>,
    /// Its values examples (`values-example.yaml`: see [`documented_example`]).
    pub examples: Vec<documented_example::Example>,
    /// Its directory, whose committed files a `grep` of a loop's entry reads.
    pub root: Option<std::path::PathBuf>,
    /// The folders its App Accelerators include (see [`accelerator_page`]).
    pub accelerated: Vec<accelerator_page::Included>,
}

impl Facts {
    /// The facts of the repository at `repo`, from its walked `files`.
    pub fn read(repo: &Path, files: &[RepoFile], index: &Index) -> Facts {
        let ignores = files
            .iter()
            .filter(|f| f.path == ".gitignore" || f.path.ends_with("/.gitignore"))
            .filter_map(|f| Some((f.path.clone(), scripts::read(repo, &f.path, 1 << 20)?)));
        let module = files
            .iter()
            .find(|f| f.path == "go.mod")
            .and_then(|f| scripts::read(repo, &f.path, 1 << 20))
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.trim().strip_prefix("module "))
                    .map(|m| m.trim().trim_matches('"').to_string())
            });
        let envrc = files
            .iter()
            .filter(|f| f.path == ".envrc" || f.path.ends_with("/.envrc"))
            .filter_map(|f| {
                let dir = paths::parent(&f.path).to_string();
                let text = scripts::read(repo, &f.path, 1 << 20)?;
                Some((dir.clone(), direnv::exports(&dir, &text)))
            })
            .collect();
        let env_files = files
            .iter()
            .filter(|f| env_files::is_env_file(&f.path))
            .take(env_files::MAX_FILES)
            .filter_map(|f| {
                Some(env_files::read(
                    &f.path,
                    &scripts::read(repo, &f.path, 1 << 20)?,
                ))
            })
            .collect();
        let examples = files
            .iter()
            .filter(|f| documented_example::is_example(&f.path))
            .take(documented_example::MAX_EXAMPLES)
            .map(|f| documented_example::Example {
                path: f.path.clone(),
                data_values: scripts::read(repo, &f.path, 1 << 20)
                    .is_some_and(|t| missing::is_values_text(&t)),
            })
            .collect();
        let accelerated = files
            .iter()
            .filter(|f| accelerator_page::is_accelerator(&f.path))
            .take(accelerator_page::MAX_ACCELERATORS)
            .filter_map(|f| {
                let text = scripts::read(repo, &f.path, 1 << 20)?;
                Some(accelerator_page::included(&f.path, &text, index))
            })
            .flatten()
            .collect();
        Facts {
            ignored: Ignored::new(ignores),
            accelerated,
            module,
            envrc,
            env_files,
            examples,
            root: Some(repo.to_path_buf()),
        }
    }
}

/// A snippet followed: its `ytt` commands, the files it names from its caller's directory,
/// and what it copies.
type Followed = (
    Snippet,
    Vec<Call>,
    Vec<word::Word>,
    Vec<tree_copy::TreeCopy>,
    Vec<shell::Deploy>,
);

/// What [`snippets_of`] knows of the repository: its scripts, its files, the calls of its
/// reusable workflows and of its local actions.
type Calls<'a> = (
    &'a ScriptSet,
    &'a Index,
    &'a [reusable::Caller],
    &'a [action_calls::ActionCall],
);

/// The snippets of one file, by what it is.
fn snippets_of(path: &str, kind: Kind, text: &str, calls: Calls) -> Vec<Snippet> {
    let set = calls.0;
    // Text that runs ytt, or deploys files as they are (which says they are no ytt input).
    let wanted = |t: &str| set.mentioned_in(t) || deploys_files(t);
    snippets_with(path, kind, text, calls, &wanted, &|t| set.mentioned_in(t))
}

/// The snippets of one file, by what it is, that hold text `wanted` accepts (a page's
/// blocks, text `page` accepts).
fn snippets_with(
    path: &str,
    kind: Kind,
    text: &str,
    (set, index, callers, actions): Calls,
    wanted: &dyn Fn(&str) -> bool,
    page: &dyn Fn(&str) -> bool,
) -> Vec<Snippet> {
    // A Katacoda scenario's `index.json` runs nothing itself (`image_entry` reads it).
    if !wanted(text) || katacoda::candidate(path) {
        return Vec::new();
    }
    if ci::is_workflow(path) {
        return reusable::snippets(path, text, &wanted, callers);
    }
    if ci::is_action(path) {
        return action_calls::snippets(path, text, &wanted, actions);
    }
    if ci::is_gitlab(path) {
        return ci::gitlab(path, text, &wanted);
    }
    if image_build::candidate(path) {
        return image_build::snippets(path, text, &wanted);
    }
    if jenkins::candidate(path) || pipeline_file::is_pipeline(path, text) {
        return jenkins::snippets(path, text, &wanted);
    }
    if make::candidate(path) {
        return make::snippets_in(path, text, &wanted, Some(index));
    }
    if justfile::candidate(path) {
        return justfile::snippets(path, text, &wanted);
    }
    if taskfile::candidate(path) {
        return taskfile::snippets(path, text, &wanted);
    }
    if package_json::candidate(path) {
        return package_json::snippets(path, text, &wanted);
    }
    if cloudbuild::candidate(path) {
        return cloudbuild::snippets(path, text, &wanted);
    }
    if terraform::candidate(path) {
        return terraform::snippets(path, text);
    }
    if readme::candidate(path) {
        // The ytt commands a README shows, and the repository's scripts it runs, from where
        // the page says.
        let mut snippets = readme::snippets(path, text, page);
        prose_dir::place(&mut snippets, text, index);
        page_cd::place(&mut snippets, text);
        return snippets;
    }
    if educates::candidate(path) {
        let exercises = paths::join(educates::workshop_dir(path), "exercises");
        return educates::snippets(path, text, index.is_dir(&exercises), &|t| {
            t.contains("ytt") && set.mentioned_in(t)
        });
    }
    if kind == Kind::PlainYaml {
        let mut out = Vec::new();
        if kuttl::candidate(text) {
            out.extend(kuttl::snippets(path, text));
        }
        if concourse::candidate(text) {
            out.extend(concourse::snippets(path, text));
        }
        return out;
    }
    scripts::snippet(path, text).into_iter().collect()
}

/// The variables of the `.envrc` files above a snippet that its own runner does not set (a
/// CI job's shell has no direnv).
fn direnv_vars(snippet: &mut Snippet, envrc: &[(String, Vec<(String, word::Word)>)]) {
    let ci = super::provenance::source_of(&snippet.file) == crate::report::Source::Ci;
    if ci {
        return;
    }
    // direnv loads the nearest `.envrc` only.
    let nearest = envrc
        .iter()
        .filter(|(dir, _)| paths::is_within(&snippet.file, dir))
        .max_by_key(|(dir, _)| if dir == "." { 0 } else { dir.len() + 1 });
    for (name, value) in nearest.map(|(_, v)| v.as_slice()).unwrap_or_default() {
        if !snippet.vars.iter().any(|(n, _)| n == name) {
            snippet.vars.push((name.clone(), value.clone()));
        }
    }
}

/// Whether text may deploy files without ytt (`kapp deploy`, `kubectl apply`).
fn deploys_files(text: &str) -> bool {
    text.contains("kapp deploy")
        || text.contains("kubectl apply")
        || text.contains("kubectl create")
}

/// Whether a walked file (repository path and kind) may hold ytt commands.
pub fn worth_reading(path: &str, kind: Kind) -> bool {
    if ci::is_workflow(path) || ci::is_action(path) || ci::is_gitlab(path) {
        return true;
    }
    if jenkins::candidate(path) {
        return true;
    }
    match kind {
        Kind::PlainYaml => true,
        Kind::Other => {
            scripts::candidate(path)
                || package_json::candidate(path)
                || terraform::candidate(path)
                || make::candidate(path)
                || justfile::candidate(path)
                || readme::candidate(path)
                || educates::candidate(path)
                || katacoda::candidate(path)
                || image_build::candidate(path)
        }
        _ => false,
    }
}

/// Whether the repository walk keeps a text it read for [`find`]: a file worth reading that
/// [`scripts::read`] would read (the walk keeps only UTF-8 with no NUL byte).
pub fn worth_keeping(path: &str, kind: Kind, text: &str) -> bool {
    text.len() <= shell::MAX_SCRIPT && worth_reading(path, kind)
}

/// What the repository walk already has for [`find`], which then reads no file twice.
#[derive(Default)]
pub struct Seen {
    /// The texts it kept ([`worth_keeping`]), by repository path.
    pub kept: std::collections::HashMap<String, String>,
    /// The symbolic links of the directories it listed (`None`: not listed, [`find`] lists
    /// them).
    pub links: Option<Vec<crate::lint::repo::walk::Link>>,
}

/// Every `ytt` command of the repository at `repo`, resolved; `seen` is what the walk already
/// read and listed.
pub fn find(
    repo: &Path,
    files: &[RepoFile],
    index: &Index,
    vendir: &[Target],
    seen: Seen,
) -> Found {
    let name = repo
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    let mut texts: Vec<(String, Kind, String)> = Vec::new();
    // A file not read is said (`unread`), and the others are read on.
    let mut unread = Vec::new();
    let Seen { mut kept, links } = seen;
    for f in files.iter().filter(|f| worth_reading(&f.path, f.kind)) {
        let text = kept
            .remove(&f.path)
            .or_else(|| scripts::read(repo, &f.path, shell::MAX_SCRIPT));
        match text {
            Some(text) => texts.push((f.path.clone(), f.kind, text)),
            None => unread.extend(
                unread::why_file(repo, &f.path, shell::MAX_SCRIPT)
                    .map(|why| unread::finding(&f.path, &why)),
            ),
        }
    }
    // A Makefile or script linked from elsewhere runs where its link is.
    let linked = match &links {
        Some(listed) => links::linked_in(listed, files, index),
        None => links::linked_commands(repo, files, index),
    };
    for (link, target) in linked {
        if let Some(text) = scripts::read(repo, &target, shell::MAX_SCRIPT) {
            texts.push((link, Kind::Other, text));
        }
    }
    let mut found = find_with(
        &name,
        &texts,
        index,
        vendir,
        &Facts::read(repo, files, index),
    );
    found.findings.extend(unread);
    // A page's `ytt -f YOUR_FILE` that fails for every file the reader may give.
    let read = |p: &str| scripts::read(repo, p, shell::MAX_SCRIPT);
    let failing: Vec<Diagnostic> = found
        .skipped
        .iter()
        .filter_map(|s| placeholder_file::finding(s, files, &read))
        .collect();
    found.findings.extend(failing);
    // An overlay that cannot match what a `kubectl get … -o yaml` prints.
    let got: Vec<Diagnostic> = found
        .skipped
        .iter()
        .filter_map(|s| kubectl_got::finding(s, &read))
        .collect();
    found.findings.extend(got);
    inspected::fill(repo, files, &mut found.invocations);
    piped_ytt::merge(&mut found.invocations, files, &read);
    chosen_values::settle(repo, &mut found.invocations);
    found
}

/// Every `ytt` command of the files `texts` (repository path, kind, text: the files worth
/// reading, as [`find`] read them) of the repository named `name`, resolved against `index`.
pub fn find_in(
    name: &str,
    texts: &[(String, Kind, String)],
    index: &Index,
    vendir: &[Target],
) -> Found {
    find_with(name, texts, index, vendir, &Facts::default())
}

/// [`find_in`], knowing the repository's `facts`.
pub fn find_with(
    name: &str,
    texts: &[(String, Kind, String)],
    index: &Index,
    vendir: &[Target],
    facts: &Facts,
) -> Found {
    let set = ScriptSet::new(
        texts
            .iter()
            .filter(|(p, _, t)| scripts::is_script(p, t))
            .map(|(p, _, t)| (p.clone(), t.clone())),
    );
    let mut followed: Vec<Followed> = Vec::new();
    let mut deployed: Vec<(String, String)> = Vec::new();
    let mut entered: BTreeSet<Entered> = BTreeSet::new();
    let mut made: Vec<MadeAt> = Vec::new();
    let mut renderings: Vec<(String, Vec<rendered::Rendering>)> = Vec::new();
    let mut followed_files: BTreeSet<String> = BTreeSet::new();
    // The moves and copies of each page outside its blocks that run ytt (see `moved_tree`).
    let mut page_steps: BTreeMap<String, Vec<tree_copy::TreeCopy>> = BTreeMap::new();
    let mut third_party: Vec<String> = Vec::new();
    // Reusable workflows: the calls of this repository's workflows, and those it never calls.
    let callers = reusable::callers(texts);
    let foreign = reusable::foreign(texts, &callers);
    // Local composite actions: the steps of this repository's workflows that use them.
    let actions = action_calls::calls(texts);
    // What the Dockerfiles copy into their images, for the scripts the images run.
    let images = image_entry::images(texts, index);
    // The scripts Concourse tasks run by path, and the inputs they run them from.
    let task_inputs = task_script::inputs(texts, index);
    for (path, kind, text) in texts {
        if super::third_party::holding(vendir, path).is_some() {
            let snippets = snippets_of(path, *kind, text, (&set, index, &callers, &actions));
            if snippets.iter().any(|s| s.text.contains("ytt")) {
                third_party.push(path.clone());
            }
            continue;
        }
        if readme::candidate(path) {
            let at_page = |m| MadeAt {
                file: path.clone(),
                made: m,
            };
            made.extend(readme::written(text).into_iter().map(at_page));
            // A file the page says to create from an example ("… as a starting point").
            made.extend(
                starting_point::made(path, text, index)
                    .into_iter()
                    .map(at_page),
            );
            // A copy its prose tells the reader to make ("copy `A` to `B`").
            made.extend(prose_copy::made(path, text, index).into_iter().map(at_page));
            // The page's other shell blocks run nothing of ytt, but may make its inputs
            // (`cp values-example.yml values.yml`), or move what a later command reads
            // (`mv _ytt_lib1 _ytt_lib`, as its prose may say: see `moved_tree`).
            let mut steps = prose_copy::steps(text);
            for snippet in readme::snippets(path, text, &|t| !set.mentioned_in(t)) {
                let (m, copies, r) = made_by(&snippet, &set);
                renderings.push((path.clone(), r));
                made.extend(m.into_iter().map(|m| MadeAt {
                    file: path.clone(),
                    made: m,
                }));
                steps.extend(copies);
            }
            if !steps.is_empty() {
                page_steps.insert(path.clone(), steps);
            }
        }
        for mut snippet in snippets_of(path, *kind, text, (&set, index, &callers, &actions)) {
            direnv_vars(&mut snippet, &facts.envrc);
            if let Some(dir) = task_inputs.get(&snippet.file) {
                if snippet.checkouts.is_empty() {
                    snippet.checkouts.push(concourse_inputs::Checkout {
                        dir: dir.clone(),
                        uri: String::new(),
                        own: true,
                    });
                }
            }
            let script = word::Word::lit(format!("{}/{}", word::REPO, snippet.file));
            let sctx = shell::Context {
                script,
                line_offset: snippet.line_offset,
            };
            let Ok(mut f) = shell::follow(&snippet.text, &sctx, snippet.env(), &set, None) else {
                continue;
            };
            renderings.push((path.clone(), std::mem::take(&mut f.rendered)));
            // A script a README runs still runs on its own (with the arguments the README
            // gives, it is one more way to run it).
            if !readme::candidate(path) {
                entered.extend(f.entered.into_iter().filter(|e| entered_file(e) != path));
            }
            made.extend(f.made.into_iter().map(|m| {
                let mut at = MadeAt {
                    file: path.clone(),
                    made: m,
                };
                image_entry::map_made(&mut at, &images, index);
                at
            }));
            for d in &f.deploys {
                for p in resolve::deployed(d, &snippet, index) {
                    deployed.push((p, format!("`{}` at {}:{}", d.tool, snippet.file, d.line)));
                }
            }
            followed_files.insert(snippet.file.clone());
            followed.push((snippet, f.calls, f.anchors, f.tree_copies, f.deploys));
        }
    }
    // A script that runs no ytt still makes what another's command reads: it copies a
    // catalog's scripts into place (`cp -R .catalog/tanzu-sync/$V/* clusters/$1/tanzu-sync`),
    // where they are meant to run. Run from the repository's top, as its README runs it, and
    // for its copies from any folder above it too (a GitOps tree in a subfolder copies its
    // own `.catalog/`: round seventeen's R17A-1; see `subtree_copies`).
    let mut copies: Vec<MadeAt> = made.clone();
    for (path, _, text) in texts.iter().filter(|(p, _, t)| scripts::is_script(p, t)) {
        if followed_files.contains(path) {
            continue;
        }
        let sctx = shell::Context {
            script: word::Word::lit(format!("{}/{}", word::REPO, path)),
            line_offset: 0,
        };
        let top = env::Env::at(word::Word::lit(word::REPO.to_string()));
        copies.extend(subtree_copies::of(path, text, &sctx, &set));
        if let Ok(mut f) = shell::follow(text, &sctx, top, &set, None) {
            renderings.push((path.clone(), std::mem::take(&mut f.rendered)));
            // Only its copies: what it writes elsewhere (`mkdir -p "$tmp"`) says nothing of
            // the inputs of commands it does not run.
            copies.extend(f.made.iter().filter(|m| m.from.is_some()).map(|m| MadeAt {
                file: path.clone(),
                made: m.clone(),
            }));
            // A file it writes from a here-document is made for some reader (a values schema
            // a script generates before another runs ytt on it: round nine's LA-6).
            made.extend(
                f.made
                    .into_iter()
                    .filter(|m| m.text.is_some())
                    .map(|m| MadeAt {
                        file: path.clone(),
                        made: m,
                    }),
            );
        }
    }
    // A BOSH packaging script runs in its package's compile folder: what it makes, copies or
    // moves is none of the repository's paths (`bosh_packaging.rs`).
    let packaging: BTreeSet<&str> = texts
        .iter()
        .filter(|(p, _, t)| bosh_packaging::is_packaging(p, t, index))
        .map(|(p, _, _)| p.as_str())
        .collect();
    made.retain(|m| !packaging.contains(m.file.as_str()));
    copies.retain(|m| !packaging.contains(m.file.as_str()));
    let pages: Vec<(String, &str)> = texts
        .iter()
        .map(|(p, _, t)| (p.clone(), t.as_str()))
        .collect();
    let documented = documented_example::documented(&pages, &facts.examples, |p| {
        readme::candidate(p) || educates::candidate(p)
    });
    // A page that clones this repository and runs ytt from the clone's parent.
    let clones = own_clone::all(
        texts,
        own_clone::This {
            name,
            module: facts.module.as_deref(),
            index,
        },
    );
    for (snippet, ..) in &followed {
        if let Some(dirs) = clones.get(&snippet.file) {
            own_clone::map_made(&mut made, &snippet.file, &snippet.cwd, dirs, index);
        }
    }
    // The committed templates of environment files the scripts source (`env_template.rs`).
    let mut env_templates = match facts.root.as_deref() {
        Some(root) => env_template::find(texts, index, &|p| scripts::read(root, p, 1 << 20)),
        None => Vec::new(),
    };
    // A page's own `export PREFIX_…` lines (`page_exports.rs`).
    env_templates.extend(page_exports::find(texts));
    let ctx = Repo {
        index,
        vendir,
        name,
        made: &made,
        copies: &[],
        ignored: Some(&facts.ignored),
        module: facts.module.as_deref(),
        nested: false,
        documented: &documented,
        settled: false,
        root: facts.root.as_deref(),
        env_files: &facts.env_files,
        env_templates: &env_templates,
        accelerated: &facts.accelerated,
    };
    let templates = rendered::templates(&renderings, index);
    let read_text = |p: &str| {
        facts
            .root
            .as_deref()
            .and_then(|root| scripts::read(root, p, shell::MAX_SCRIPT))
    };
    let mut found = Found {
        deployed,
        third_party,
        templates: templates.clone(),
        secrets: documented_example::secrets(&pages),
        pushed: bundle_push::all(texts, (&set, index, &callers, &actions)),
        ..Found::default()
    };
    let mut missing: Vec<resolve::MissingInput> = Vec::new();
    let recipe_made = added::recipe_writes(texts, &set);
    let run_with_f = makefile_dir::named_with_f(texts.iter().map(|(_, _, t)| t.as_str()));
    // The base names of what the repository's commands deploy (see `compared_output`).
    let deployed_names: Vec<String> = followed
        .iter()
        .flat_map(|f| f.4.iter())
        .flat_map(|d| d.paths.iter())
        .filter_map(|w| w.literal())
        .filter_map(|p| {
            let p = p.trim_end_matches('/');
            let name = p.rsplit('/').next().unwrap_or(p);
            (!name.is_empty() && name != "-").then(|| name.to_string())
        })
        .collect();
    for (snippet, calls, anchors, tree_copies, deploys) in followed {
        // The commands an image's script runs on what its Dockerfile copies, by stage.
        let (calls, imaged): (Vec<Call>, Vec<Option<usize>>) = calls
            .iter()
            .map(|c| image_entry::mapped(c, &snippet.file, &images, index))
            .unzip();
        let calls: Vec<Call> = calls
            .iter()
            .map(|c| concourse_inputs::mapped(c, &snippet.checkouts, self::snippet::CALLER, &ctx))
            .map(|c| own_checkout::mapped(&c, &ctx))
            .map(|c| {
                let dirs = clones.get(&snippet.file).map_or(&[][..], Vec::as_slice);
                own_clone::mapped(&c, &snippet, dirs, index)
            })
            .collect();
        let path = &snippet.file;
        let whole = set.get(path).is_some();
        let mut any = false;
        let placed = resolve::placements(&calls, &snippet, &ctx, &anchors);
        let prefer = resolve::preferred_base(&placed, &snippet, &ctx, &anchors);
        let known = settled::own_dir(&placed, &snippet);
        let mut steps = tree_copies.clone();
        steps.extend(page_steps.get(path).into_iter().flatten().cloned());
        for (call, image) in calls.iter().zip(imaged.iter().copied()) {
            // A script or function another file runs takes its arguments from there: what it
            // runs on its own with arguments nobody gave is not a root.
            let elsewhere = match &call.uncalled {
                Some(name) => entered.contains(&Entered::Function {
                    file: path.clone(),
                    name: name.clone(),
                }),
                None => {
                    whole
                        && call.uses_arguments()
                        && entered.contains(&Entered::Script(path.clone()))
                }
            };
            any = true;
            if elsewhere {
                continue;
            }
            found
                .findings
                .extend(substitution_data::findings(call, &snippet.file));
            found.findings.extend(page_lines::findings(call, &snippet));
            let here = Repo {
                copies: &tree_copies,
                nested: call.scripted,
                settled: makefile_dir::runs_here(&snippet, call.cwd.as_ref(), &run_with_f),
                ..ctx
            };
            for outcome in
                resolve::resolve_from(call, &snippet, &here, prefer.as_ref(), known.as_ref())
            {
                // A page's command naming its folder by an old path: reported as written,
                // and linted as corrected, its steps on the old path read the same way.
                let (outcome, moves) = match outcome {
                    Outcome::Missing(mut m) => match m.corrected.take() {
                        Some((inv, moves)) => {
                            missing.push(m);
                            (Outcome::Found(inv), moves)
                        }
                        None => (Outcome::Missing(m), Vec::new()),
                    },
                    other => (other, Vec::new()),
                };
                match outcome {
                    Outcome::Found(mut inv) => {
                        moved_tree::apply(&mut inv, &steps, index, &moves);
                        if inv.split_output {
                            inv.output_deployed =
                                output_deploy::find(call, &deploys, path, &inv.inputs, index);
                        } else {
                            inv.output_compared = compared_output::find(
                                call,
                                &snippet,
                                ctx.root,
                                &deployed_names,
                                index,
                            );
                        }
                        rendered_dir::add(&mut inv, &templates, index, &read_text);
                        edits::mark(&mut inv, &made, index);
                        edited_copy::mark(&mut inv, &made, index);
                        added::mark(&mut inv, (&made, &recipe_made), &snippet, index);
                        written_keys::add(&mut inv, &made, &pages);
                        if let Some(image) = image.and_then(|i| images.get(i)) {
                            image_entry::give_written(&mut inv, &made, image, index);
                        }
                        through_links::settle(&mut inv, index);
                        inv.assumptions.extend(snippet.assumed.iter().cloned());
                        found.invocations.push(*inv);
                    }
                    Outcome::Skipped(s) => found.skipped.push(s),
                    Outcome::Missing(m) => missing.push(m),
                    Outcome::Ignored => {}
                }
            }
        }
        if any && found.sources.last() != Some(path) {
            found.sources.push(path.clone());
        }
    }
    for m in input_missing::once_each(missing, &entered) {
        let why = reusable::excuse(&m.origin.file, &foreign)
            .or_else(|| input_missing::excused(&m, vendir, &copies));
        if let Some((skip, note)) = through_links::beyond(&m, index).filter(|_| why.is_none()) {
            found.findings.push(note);
            found.skipped.push(skip);
            continue;
        }
        if let Some(note) = why
            .as_deref()
            .and_then(|why| input_missing::excused_note(&m, why))
        {
            found.findings.push(note);
        }
        match why {
            Some(why) => found.skipped.push(Skipped {
                origin: m.origin,
                reason: why,
                claims: m.claims,
                placeholder: None,
                left_out: Vec::new(),
                got: None,
            }),
            None => {
                found.findings.push(input_missing::finding(&m));
                found.skipped.push(input_missing::skip(m, index));
            }
        }
    }
    found.copied_within = copied_within::all(&copies, index);
    found.invocations.dedup();
    found.skipped.dedup();
    found.findings.dedup();
    found.documented = documented;
    found
}

/// The paths a snippet's commands make, and what they copy or move.
fn made_by(snippet: &Snippet, set: &ScriptSet) -> MadeBy {
    let script = word::Word::lit(format!("{}/{}", word::REPO, snippet.file));
    let ctx = shell::Context {
        script,
        line_offset: snippet.line_offset,
    };
    shell::follow(&snippet.text, &ctx, snippet.env(), set, None)
        .map(|f| (f.made, f.tree_copies, f.rendered))
        .unwrap_or_default()
}

/// What a page's block makes, copies and renders.
type MadeBy = (
    Vec<outputs::Made>,
    Vec<tree_copy::TreeCopy>,
    Vec<rendered::Rendering>,
);

/// The file an entry of [`Entered`] names.
fn entered_file(e: &Entered) -> &str {
    match e {
        Entered::Script(f) | Entered::Function { file: f, .. } => f,
    }
}
