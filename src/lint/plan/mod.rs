//! Turns the selected roots and libraries into jobs: one per root × scenario (a root without
//! scenarios is linted once, with its own defaults) and one standalone check per private
//! library. A scenario's values files and data values are appended to the root's own flags as
//! `--data-values-file` and `--data-value-yaml` (one per key, the value written as JSON, which
//! is YAML), so a scenario means exactly what those ytt flags mean.

pub mod affinity;
pub mod content;
pub mod cost;
pub mod queue;
pub mod shard;

use std::collections::HashMap;
use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::config::flags;
use crate::lint::config::{Config, ScenarioConfig};
use crate::lint::discover::select::Selection;
use crate::lint::discover::{provenance, Discovery, Reason, Root};
use crate::lint::job::kubernetes::KubeCheck;
use crate::lint::job::repo_crds::RepoCrds;
use crate::lint::job::{Job, JobKind, ValuesFrom, PLAIN_ROOT};
use crate::lint::repo::crds::CrdDoc;
use crate::lint::repo::walk;
use crate::report::Span;
use crate::yaml::json::value_to_json;
use crate::yaml::Value;
use crate::ytt_flags::TemplateArgs;

/// How the roots' rendered objects are checked: the configured Kubernetes version, and every
/// CustomResourceDefinition of the repository's YAML (the walk read it, `kubernetes.schemas`
/// included).
fn kube_check(config: &Config, d: &Discovery) -> Option<KubeCheck> {
    let k = config.kubernetes.as_ref()?;
    let mut crds: Vec<(String, CrdDoc)> = d
        .files
        .iter()
        .flat_map(|f| f.crds.iter().map(|c| (f.path.clone(), c.clone())))
        .collect();
    // `kubernetes.schemas` directories count even where the walk does not go (ignored files).
    for dir in &k.schemas {
        for (path, found) in crate::lint::repo::crds::find_under(&config.dir, dir) {
            if !crds.iter().any(|(p, _)| *p == path) {
                crds.extend(found.into_iter().map(|c| (path.clone(), c)));
            }
        }
    }
    Some(KubeCheck {
        version: k.version.clone(),
        version_given: k.version_given,
        crds: RepoCrds::new(crds),
        schemas: k.schemas.clone(),
    })
}

/// The repository, its configuration and what the run will lint.
pub struct Planned {
    pub config: Config,
    pub discovery: Discovery,
    pub selection: Selection,
}

/// The jobs of a run, roots first, in discovery order. A root whose flags cannot be read gets
/// a job that reports it.
pub fn jobs(config: &Config, d: &Discovery, sel: &Selection) -> Vec<Job> {
    let mut out = Vec::new();
    let kubernetes = kube_check(config, d);
    let policies = crate::lint::job::policy::PolicyCheck::of(config);
    let mut sizes = cost::Sizes::new(&d.files);
    for root in sel.roots.iter().filter_map(|&i| d.roots.get(i)) {
        let first = out.len();
        if root.scenarios.is_empty() {
            out.push(root_job(config, root, None));
        }
        for sc in &root.scenarios {
            out.push(root_job(config, root, Some(sc)));
        }
        for job in &mut out[first..] {
            let sc = job
                .scenario
                .as_ref()
                .and_then(|n| root.scenarios.iter().find(|s| &s.name == n));
            job.provenance = Some(provenance::of(
                root,
                sc,
                &d.around(),
                config_file(config).as_deref(),
            ));
        }
        let root_cost = sizes.job(root.inputs.iter().map(String::as_str));
        for job in &mut out[first..] {
            job.kubernetes = kubernetes.clone();
            job.policies = policies.clone();
            job.cost = root_cost;
        }
        // The files' own checks run once per root, with its first scenario, which learns what
        // the other scenarios give (data values checked against the union of them all).
        let others: Option<Vec<(TemplateArgs, Vec<String>)>> = out[first..]
            .iter()
            .skip(1)
            .map(|j| j.flags.clone().ok().map(|f| (f, j.provided.clone())))
            .collect();
        if let Some(job) = out.get_mut(first) {
            job.check_files = true;
            if let (false, Some(others)) = (root.needs_input, others) {
                job.values_from = ValuesFrom::Scenarios(others);
            }
        }
        // A scenario with files of its own reads data values the first one does not see.
        let files = |j: &Job| {
            j.flags
                .as_ref()
                .ok()
                .map(|f| (f.files.clone(), f.file_marks.clone()))
        };
        let first_files = out.get(first).and_then(files);
        for job in out.iter_mut().skip(first + 1) {
            job.reads_values = files(job) != first_files;
        }
    }
    let mut closed_roots: HashMap<String, bool> = HashMap::new();
    let index = (!sel.libraries.is_empty()).then(|| content::Index::new(&d.files));
    for lib in sel.libraries.iter().filter_map(|&i| d.libraries.get(i)) {
        let owner = d
            .roots
            .iter()
            .find(|r| r.inputs.iter().any(|i| is_within(&lib.path, i)));
        // Only some files of the directory: each named by its path inside it. Paths in the
        // explicit form of `files::input`: ytt's syntax would read a directory named
        // `evil=decoy` as the file `decoy` named `evil`, and refuse `x=y=z`.
        let files = if lib.files.is_empty() {
            let abs = config.dir.join(&lib.path);
            vec![crate::files::input::path(&abs.to_string_lossy())]
        } else {
            let base = if lib.files.iter().any(|f| f == &lib.path) {
                paths::parent(&lib.path)
            } else {
                lib.path.as_str()
            };
            lib.files
                .iter()
                .map(|f| {
                    let abs = config.dir.join(f);
                    crate::files::input::named(&paths::between(base, f), &abs.to_string_lossy())
                })
                .collect()
        };
        let mut flags = TemplateArgs {
            files,
            ..TemplateArgs::default()
        };
        if let Some(Ok(owner)) = owner.map(|r| root_flags(&config.dir, r, &[])) {
            flags.ignore_unknown_comments = owner.ignore_unknown_comments;
            flags.implicit_map_key_overrides = owner.implicit_map_key_overrides;
            flags.strict = owner.strict;
        }
        let learned = |flag: &str| lib.flags.iter().any(|f| f == flag);
        // How a directory checked on its own is rendered is not known: plain comments are
        // not held against it.
        flags.ignore_unknown_comments |=
            learned("--ignore-unknown-comments") || lib.partial.is_some();
        flags.implicit_map_key_overrides |= learned("--implicit-map-key-overrides");
        let closed = match owner {
            Some(root) if lib.partial.is_none() => *closed_roots
                .entry(root.name.clone())
                .or_insert_with(|| gives_no_library_values(d, root)),
            _ => false,
        };
        let how = format!(
            "{} {} {} {closed}",
            flags.ignore_unknown_comments, flags.implicit_map_key_overrides, flags.strict
        );
        out.push(Job {
            kind: JobKind::Library,
            copy_of: index.as_ref().map(|i| i.library(lib, &how)),
            cost: if lib.files.is_empty() {
                sizes.job([lib.path.as_str()])
            } else {
                sizes.job(lib.files.iter().map(String::as_str))
            },
            provenance: provenance::of_library(lib, &d.around()),
            check_files: true,
            values_from: if closed {
                ValuesFrom::Scenarios(Vec::new())
            } else {
                ValuesFrom::Unknown
            },
            ..Job::new(config, &lib.path, Ok(flags))
        });
    }
    for (root, found) in notices(d) {
        out.push(Job {
            kind: JobKind::Notice,
            uncounted: crate::lint::discover::got_root::unplaced(
                &root,
                &found,
                &d.roots,
                &d.libraries,
            ),
            notices: found,
            ..Job::new(config, &root, Ok(TemplateArgs::default()))
        });
    }
    if config.kubevirt && !sel.plain.is_empty() {
        out.push(Job {
            kind: JobKind::Plain,
            kubevirt: true,
            plain_files: sel.plain.clone(),
            ..Job::new(config, PLAIN_ROOT, Ok(TemplateArgs::default()))
        });
    }
    out
}

/// Whether a root surely gives its private libraries no data values: it is run as declared,
/// no flag or scenario addresses a library (`@lib:`), and none of its files names
/// `with_data_values` or `library/ref` (read as text: a mention is enough to be unsure).
fn gives_no_library_values(d: &Discovery, root: &Root) -> bool {
    let addressed = |a: &String| a.starts_with('@') || a.contains("=@");
    let scenarios = root.scenarios.iter().any(|s| {
        s.args.iter().any(addressed)
            || s.values_files.iter().any(addressed)
            || s.data_values.iter().any(|(k, _, _)| k.starts_with('@'))
            || s.provided.iter().any(|p| p.starts_with('@') || p == "*")
    });
    if root.needs_input || root.args.iter().any(addressed) || scenarios {
        return false;
    }
    !d.files.iter().any(|f| {
        let read = matches!(
            f.kind,
            walk::Kind::YttYaml | walk::Kind::Starlark | walk::Kind::TextTemplate
        );
        // What the walk saw in the file's text (`RepoFile::library_values`).
        read && f.library_values && root.inputs.iter().any(|i| is_within(&f.path, i))
    })
}

/// Discovery's own findings, grouped by the root they are reported under.
fn notices(d: &Discovery) -> Vec<(String, Vec<crate::report::Diagnostic>)> {
    let mut out: Vec<(String, Vec<crate::report::Diagnostic>)> = Vec::new();
    for f in &d.findings {
        let root = f.root.clone().unwrap_or_else(|| ".".to_string());
        match out.iter_mut().find(|(r, _)| *r == root) {
            Some((_, list)) => list.push(f.clone()),
            None => out.push((root, vec![f.clone()])),
        }
    }
    out
}

/// The configuration file's repository path, when there is one.
fn config_file(config: &Config) -> Option<String> {
    config
        .file
        .as_deref()
        .and_then(|f| paths::relative(&config.dir, f))
}

fn root_flags(repo: &Path, root: &Root, extra: &[String]) -> Result<TemplateArgs, String> {
    let args: Vec<String> = root.args.iter().chain(extra).cloned().collect();
    flags::resolve(repo, &root.path, &root.inputs, &args)
}

fn root_job(config: &Config, root: &Root, sc: Option<&ScenarioConfig>) -> Job {
    let mut config_spans = Vec::new();
    let mut values_written = Vec::new();
    let extra = sc.map(|s| s.args.as_slice()).unwrap_or_default();
    let origin = sc
        .and_then(|s| s.origin.as_deref())
        .and_then(|o| o.rsplit_once(':'))
        .and_then(|(file, line)| Some(Span::point(file, line.parse().ok()?, 1)));
    let flags = root_flags(&config.dir, root, extra).map(|mut f| {
        if let Some(sc) = sc {
            (config_spans, values_written) = add_scenario(config, &mut f, sc, origin.as_ref());
        }
        f
    });
    let entry = match &root.reason {
        Reason::Config {
            package: Some(at), ..
        } => at
            .rsplit_once(':')
            .and_then(|(f, l)| Some(Span::point(f, l.parse().ok()?, 1))),
        Reason::Config { line, .. } => config
            .file
            .as_deref()
            .and_then(|f| paths::relative(&config.dir, f))
            .map(|f| Span::point(f, *line, 1)),
        Reason::Package { file, line, .. } => Some(Span::point(file.clone(), *line, 1)),
        _ => None,
    };
    Job {
        kind: JobKind::Root,
        entry,
        scenario: sc.map(|s| s.name.clone()),
        config_spans,
        values_written,
        // A scenario whose command names its inputs is judged as run, even in a root some of
        // whose other scenarios need input; the configuration may say so of a scenario
        // (`unset_values:`).
        needs_input: sc
            .and_then(|s| s.needs_input)
            .unwrap_or_else(|| root.needs_input && !sc.is_some_and(|s| s.inputs_known)),
        provided: sc.map(|s| s.provided.clone()).unwrap_or_default(),
        origin,
        split_output: sc.is_some_and(|s| s.split_output),
        output_deployed: sc.and_then(|s| s.output_deployed.clone()),
        output_compared: sc.and_then(|s| s.output_compared.clone()),
        ..Job::new(
            config,
            &root.name,
            flags.map_err(|e| format!("invalid ytt flags for root {}: {e}", root.name)),
        )
    }
}

/// Each data value flag with the place in the configuration that wrote it.
type FlagSpans = Vec<(String, Span)>;
/// Each data value flag with the committed file and line that gives it (`file:line`).
type FlagFiles = Vec<(String, String)>;

/// Adds a scenario's values to a root's flags; returns each data value flag with the place in
/// the configuration file that wrote it, and those a committed file gives with that file and
/// line ([`ScenarioConfig::values_written`]).
fn add_scenario(
    config: &Config,
    flags: &mut TemplateArgs,
    sc: &ScenarioConfig,
    origin: Option<&Span>,
) -> (FlagSpans, FlagFiles) {
    let repo = &config.dir;
    for vf in &sc.values_files {
        flags.dv_files.push(flags::values_file(repo, repo, vf));
    }
    let file = config
        .file
        .as_deref()
        .and_then(|f| paths::relative(repo, f));
    // Standard input (ytt's `stdin.yml`), where the command names it among its `-f` inputs;
    // text the configuration writes is in the configuration file.
    if let Some(text) = &sc.stdin {
        let mut text = text.clone();
        if text.file.is_empty() {
            text.file = file.clone().unwrap_or_default();
        }
        flags
            .files
            .insert(text.place(&flags.files), "-".to_string());
        flags.stdin = Some(text);
    }
    let mut spans = Vec::new();
    let mut written = Vec::new();
    for (i, (key, value, loc)) in sc.data_values.iter().enumerate() {
        // A string a command gives with `-v` stays that flag's: ytt orders and names it so.
        let string = match value {
            Value::String(text) if sc.string_values.contains(&i) => Some(text),
            _ => None,
        };
        let flag = match string {
            Some(text) => format!("{key}={text}"),
            None => {
                let yaml = value_to_json(value, 0, false).unwrap_or_else(|_| "null".to_string());
                format!("{key}={yaml}")
            }
        };
        if let Some((_, at)) = sc.values_written.iter().find(|(k, _)| k == key) {
            written.push((flag.clone(), at.clone()));
        }
        // Written in the configuration: there; learned from a command: at the command.
        let place = match (&file, loc.line) {
            (Some(file), line) if line > 0 => Some(Span::point(file, line, loc.column)),
            _ => origin.cloned(),
        };
        if let Some(span) = place {
            spans.push((flag.clone(), span));
        }
        match string {
            Some(_) => flags.dv.push(flag),
            None => flags.dv_yaml.push(flag),
        }
    }
    (spans, written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::config::Loc;
    use crate::lint::discover::{Library, Reason};
    use crate::yaml::Value;

    #[test]
    fn a_job_per_root_and_scenario_then_libraries() {
        let config = Config::default_for(Path::new("/repo"));
        let mut root = Root::found("app", Reason::Topmost);
        root.args = vec!["--strict".into()];
        for name in ["a", "b"] {
            root.scenarios.push(ScenarioConfig {
                name: name.into(),
                values_files: vec!["@lib:ci/v.yml".into()],
                data_values: vec![("x.y".into(), Value::Int(3), Loc::default())],
                loc: Default::default(),
                ..ScenarioConfig::default()
            });
        }
        let d = Discovery {
            roots: vec![root],
            libraries: vec![Library {
                path: "app/_ytt_lib/l".into(),
                parent: "app".into(),
                ..Library::default()
            }],
            ..Discovery::default()
        };
        let sel = Selection {
            roots: vec![0],
            libraries: vec![0],
            plain: Vec::new(),
            scope: Vec::new(),
        };
        let jobs = jobs(&config, &d, &sel);
        let names: Vec<_> = jobs
            .iter()
            .map(|j| (j.kind, j.root.as_str(), j.scenario.as_deref()))
            .collect();
        assert_eq!(
            names,
            vec![
                (JobKind::Root, "app", Some("a")),
                (JobKind::Root, "app", Some("b")),
                (JobKind::Library, "app/_ytt_lib/l", None),
            ]
        );
        let flags = jobs[0].flags.as_ref().unwrap();
        let native = |p: &str| p.replace('/', std::path::MAIN_SEPARATOR_STR);
        assert_eq!(flags.files, vec![format!("\0{}", native("/repo/app"))]);
        assert_eq!(
            flags.dv_files,
            vec![format!("@lib:\0{}", native("/repo/ci/v.yml"))]
        );
        assert_eq!(flags.dv_yaml, vec!["x.y=3"]);
        assert!(jobs[2].flags.as_ref().unwrap().strict);
    }

    #[test]
    fn the_first_job_learns_the_other_scenarios_and_libraries_learn_if_values_come_in() {
        let repo = std::env::temp_dir().join(format!("yttlint-plan-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&repo);
        for (file, text) in [
            ("open/app.yml", "#@ load(\"@ytt:library\", \"library\")\n#@ library.get(\"l\").with_data_values({})\n"),
            ("shut/app.yml", "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n"),
        ] {
            std::fs::create_dir_all(repo.join(file).parent().unwrap()).unwrap();
            std::fs::write(repo.join(file), text).unwrap();
        }
        let config = Config::default_for(&repo);
        let mut roots = Vec::new();
        for name in ["open", "shut"] {
            let mut root = Root::found(name, Reason::Topmost);
            root.needs_input = false;
            root.scenarios = ["a", "b"]
                .iter()
                .map(|s| ScenarioConfig {
                    name: s.to_string(),
                    provided: vec![format!("{s}_key")],
                    ..ScenarioConfig::default()
                })
                .collect();
            roots.push(root);
        }
        let mut found = Root::found("found", Reason::Topmost);
        found.needs_input = true;
        roots.push(found);
        // Each file as the walk classifies it: whether its text may give a library values.
        let policy = crate::files::ReadPolicy::repository(&repo);
        let file = |path: &str| {
            crate::lint::repo::walk::classify(&repo.join(path), path.to_string(), &policy)
        };
        let d = Discovery {
            roots,
            libraries: ["open", "shut"]
                .iter()
                .map(|r| Library {
                    path: format!("{r}/_ytt_lib/l"),
                    parent: r.to_string(),
                    ..Library::default()
                })
                .collect(),
            files: vec![file("open/app.yml"), file("shut/app.yml")],
            ..Discovery::default()
        };
        let sel = Selection {
            roots: vec![0, 1, 2],
            libraries: vec![0, 1],
            plain: Vec::new(),
            scope: Vec::new(),
        };
        let jobs = jobs(&config, &d, &sel);
        let learned: Vec<String> = jobs
            .iter()
            .map(|j| match &j.values_from {
                ValuesFrom::Unknown => format!("{} unknown", j.root),
                ValuesFrom::Scenarios(others) => {
                    let given: Vec<String> = others.iter().map(|(_, p)| p.join(",")).collect();
                    format!("{} [{}]", j.root, given.join(" "))
                }
            })
            .collect();
        let _ = std::fs::remove_dir_all(&repo);
        assert_eq!(
            learned,
            [
                // The first scenario's job knows what the second gives.
                "open [b_key]",
                "open unknown",
                "shut [b_key]",
                "shut unknown",
                // Found by discovery: its values come from outside.
                "found unknown",
                // `open` gives its library values; `shut` gives none.
                "open/_ytt_lib/l unknown",
                "shut/_ytt_lib/l []",
            ]
        );
    }
}
