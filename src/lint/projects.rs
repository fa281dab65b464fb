//! The projects of one run, found as ruff finds nested configurations: every path given (the
//! working directory when none is) is linted with the configuration closest above it, and a
//! directory below a linted one that has its own `.yttlint.yaml` is linted with that one
//! ([`crate::lint::repo::nested`]), however deep. Each project runs as a run of its own
//! ([`session::lint_unfinished`]); their reports are merged into one whose paths and root
//! names are relative to the directory that holds them all (the run's base: its paths are
//! checkout-relative as a single project's are), then finished once (the baseline, statuses).
//! `--config` names the configuration of the paths given; directories below with their own
//! still use theirs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::files::paths;
use crate::lint::config::{self, Config};
use crate::lint::plan::Planned;
use crate::lint::post;
use crate::lint::repo::tree::Tree;
use crate::lint::repo::{nested, tree, walk};
use crate::lint::session::{self, Linted, Settings};
use crate::report::{Diagnostic, Sources};

/// One configuration's part of a run.
#[derive(Debug)]
pub struct Project {
    pub config: Config,
    /// The paths given that lie in it (absolute); none: what a run of it alone lints.
    pub paths: Vec<PathBuf>,
    /// The listing of its whole directory, when the search for sub-projects made one: its
    /// repository walk uses it rather than list the directories again.
    pub tree: Option<Arc<Tree>>,
}

/// The projects of a run, and the directory that holds them all.
#[derive(Debug)]
pub struct Projects {
    pub base: PathBuf,
    pub list: Vec<Project>,
}

impl Projects {
    /// The path of a project's directory from the base (`.` for the base itself).
    pub fn prefix(&self, project: &Project) -> String {
        paths::relative(&self.base, &project.config.dir).unwrap_or_else(|| ".".to_string())
    }

    /// The base's own project (the one configuration of a run without sub-projects).
    pub fn first(&self) -> Option<&Config> {
        self.list.first().map(|p| &p.config)
    }
}

/// Finds the projects of the run `s`; `prepare` adjusts each configuration as it is read (the
/// command line's `--select`, `--ignore`, `--kubernetes-version`).
pub fn find(
    s: &Settings,
    prepare: &dyn Fn(&mut Config) -> Result<(), String>,
) -> Result<Projects, String> {
    let load = |f: &Path| -> Result<Config, String> {
        let mut c = session::load_config_file(s, f)?;
        prepare(&mut c)?;
        Ok(c)
    };
    let mut list: Vec<Project> = Vec::new();
    if s.config.is_some() || s.paths.is_empty() {
        let mut c = session::load_config(s)?;
        prepare(&mut c)?;
        let paths = s.paths.iter().map(|p| paths::absolute(&s.cwd, p)).collect();
        add(&mut list, c, paths);
    } else {
        // Each path with the configuration closest above it.
        for p in &s.paths {
            let abs = paths::absolute(&s.cwd, p);
            let (start, itself) = session::search_start(s, Some(p));
            // Without a configuration file: the work tree that holds the path, else the path.
            let file = config::find_upward(&start);
            let dir = match &file {
                Some(f) => f.parent().map(Path::to_path_buf).unwrap_or_default(),
                None => paths::work_tree(&start).unwrap_or(itself),
            };
            if let Some(known) = list
                .iter_mut()
                .find(|k| k.config.file == file && k.config.dir == dir)
            {
                known.paths.push(abs);
                continue;
            }
            let c = match &file {
                Some(f) => load(f)?,
                None => {
                    let mut c = Config::default_for(&dir);
                    prepare(&mut c)?;
                    c
                }
            };
            add(&mut list, c, vec![abs]);
        }
    }
    // The sub-projects below the directories linted, and theirs in turn.
    let mut at = 0;
    while let Some(project) = list.get(at) {
        let (found, listed) = sub_projects(s, project)?;
        if let Some(t) = listed {
            list[at].tree = Some(Arc::new(t));
        }
        for dir in found {
            if let Some(f) = config::file_in(&dir) {
                let c = load(&f)?;
                add(&mut list, c, vec![dir]);
            }
        }
        at += 1;
    }
    let base = common_ancestor(list.iter().map(|p| p.config.dir.as_path()));
    Ok(Projects { base, list })
}

/// Adds the project of `config` with `paths`, or the paths to the project of the same
/// directory already listed.
fn add(list: &mut Vec<Project>, config: Config, paths: Vec<PathBuf>) {
    match list.iter_mut().find(|p| p.config.dir == config.dir) {
        Some(known) => {
            for p in paths {
                if !known.paths.contains(&p) {
                    known.paths.push(p);
                }
            }
        }
        None => list.push(Project {
            config,
            paths,
            tree: None,
        }),
    }
}

/// The directories with their own configuration below what `project` lints, and the listing of
/// the project's whole directory when the search made one (it searched from the top).
fn sub_projects(s: &Settings, project: &Project) -> Result<(Vec<PathBuf>, Option<Tree>), String> {
    let dir = &project.config.dir;
    let exclude = walk::exclude_set(&project.config.exclude)?;
    let mut from: Vec<PathBuf> = project
        .paths
        .iter()
        .filter(|p| p.is_dir())
        .cloned()
        .collect();
    if project.paths.is_empty() {
        // As a run without paths: the working directory when it is below the repository.
        let below = paths::relative(dir, &s.cwd).is_some();
        from.push(if below { s.cwd.clone() } else { dir.clone() });
    }
    let mut found = Vec::new();
    let mut listed = None;
    for start in from {
        // From the top: one listing for this search and the project's repository walk.
        let whole = (start == *dir && listed.is_none())
            .then(|| tree::list(dir, &project.config.exclude, &exclude));
        let dirs = whole
            .as_ref()
            .and_then(|t| nested::in_tree(t, &start))
            .unwrap_or_else(|| nested::find(dir, &start, &exclude));
        listed = listed.or(whole);
        for d in dirs {
            if !found.contains(&d) {
                found.push(d);
            }
        }
    }
    Ok((found, listed))
}

/// The deepest directory that holds every one of `dirs`.
fn common_ancestor<'a>(mut dirs: impl Iterator<Item = &'a Path>) -> PathBuf {
    let Some(first) = dirs.next() else {
        return PathBuf::new();
    };
    let mut base = first.to_path_buf();
    for d in dirs {
        while !d.starts_with(&base) {
            if !base.pop() {
                break;
            }
        }
    }
    base
}

/// Lints every project (each with `adjust` applied to its plan) and merges their reports, or
/// runs the one project as a run of it alone does.
pub fn lint(
    s: &Settings,
    projects: &Projects,
    asked: &str,
    adjust: &dyn Fn(&mut Planned),
) -> Result<Linted, String> {
    if let [only] = projects.list.as_slice() {
        let alone = Settings {
            paths: only.paths.clone(),
            tree: only.tree.clone(),
            ..s.clone()
        };
        return session::plan_and_lint(&alone, only.config.clone(), asked, adjust);
    }
    let mut merged = Linted {
        report: Default::default(),
        sources: Sources::new(&projects.base),
        cached: None,
        coverage: Vec::new(),
        unchecked_kinds: Vec::new(),
        strings: 0,
        notes: Vec::new(),
        hidden_by_baseline: 0,
    };
    for project in &projects.list {
        let own = Settings {
            paths: project.paths.clone(),
            baseline: None,
            tree: project.tree.clone(),
            ..s.clone()
        };
        let linted = session::lint_unfinished(&own, project.config.clone(), asked, adjust)?;
        add_linted(&mut merged, linted, &projects.prefix(project));
    }
    merged.unchecked_kinds.sort();
    merged.unchecked_kinds.dedup();
    merged.coverage.sort_by(|a, b| a.root.cmp(&b.root));
    merged.hidden_by_baseline =
        post::finish(&mut merged.report, &merged.sources, s.baseline.as_ref());
    Ok(merged)
}

/// Adds the run of a project whose directory is `prefix` from the base to `merged`.
fn add_linted(merged: &mut Linted, linted: Linted, prefix: &str) {
    let at = |p: &str| paths::join(prefix, p);
    let name = |p: &str| if p == "." { prefix.to_string() } else { at(p) };
    for mut root in linted.report.roots {
        root.path = name(&root.path);
        merged.report.roots.push(root);
    }
    for mut d in linted.report.diagnostics {
        move_diagnostic(&mut d, &at, &name);
        merged.report.diagnostics.push(d);
    }
    for mut c in linted.coverage {
        c.root = name(&c.root);
        for f in &mut c.files {
            f.file = at(&f.file);
        }
        merged.coverage.push(c);
    }
    merged.unchecked_kinds.extend(linted.unchecked_kinds);
    merged.strings += linted.strings;
    let shown = if prefix == "." { "" } else { prefix };
    merged.notes.extend(linted.notes.into_iter().map(|n| {
        if shown.is_empty() {
            n
        } else {
            format!("{shown}: {n}")
        }
    }));
    merged.cached = match (merged.cached, linted.cached) {
        (Some((a, b)), Some((c, d))) => Some((a + c, b + d)),
        (one, other) => one.or(other),
    };
}

/// The finding `d` of a project, its paths and root name made relative to the base.
fn move_diagnostic(d: &mut Diagnostic, at: &dyn Fn(&str) -> String, name: &dyn Fn(&str) -> String) {
    if let Some(span) = &mut d.span {
        span.file = at(&span.file);
    }
    for r in &mut d.related {
        r.span.file = at(&r.span.file);
    }
    if let Some(root) = &mut d.root {
        *root = name(root);
    }
    if let Some(fix) = &mut d.fix {
        for e in &mut fix.edits {
            e.file = at(&e.file);
        }
    }
}

/// `--list-roots` of every project: a single project's as it lists itself; with several, each
/// root and library named from the base and followed by the configuration it came from.
pub fn list_roots(
    s: &Settings,
    projects: &Projects,
    adjust: &dyn Fn(&mut Planned),
) -> Result<String, String> {
    let mut out = String::new();
    let several = projects.list.len() > 1;
    for project in &projects.list {
        let own = Settings {
            paths: project.paths.clone(),
            tree: project.tree.clone(),
            ..s.clone()
        };
        let mut planned = session::plan_with(&own, project.config.clone())?;
        adjust(&mut planned);
        if !several {
            return Ok(session::list_roots(&planned));
        }
        let prefix = projects.prefix(project);
        let from = match &project.config.file {
            Some(f) => paths::relative(&projects.base, f)
                .unwrap_or_else(|| f.to_string_lossy().into_owned()),
            None => "none (the defaults)".to_string(),
        };
        for line in session::list_roots(&planned).lines() {
            match line.split_once('\t') {
                Some((name, rest))
                    if !line.starts_with("skipped: ") && !line.starts_with("note: ") =>
                {
                    let name = if name == "." {
                        prefix.clone()
                    } else {
                        paths::join(&prefix, name)
                    };
                    out.push_str(&format!("{name}\t{rest}; configuration: {from}\n"));
                }
                _ if prefix == "." => out.push_str(&format!("{line}\n")),
                _ => out.push_str(&format!("{prefix}: {line}\n")),
            }
        }
    }
    Ok(out)
}
