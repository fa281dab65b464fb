//! Carvel `Package` resources (kapp-controller's `data.packaging.carvel.dev`) and kapp-controller
//! `App` resources (`kappctrl.k14s.io`): the ytt paths their template steps name
//! (`spec.template.spec.template[].ytt.paths` of a Package, `spec.template[].ytt.paths` of an
//! App) and the values an App's ytt step reads (`valuesFrom[].path`), found on disk.
//!
//! A Package's paths are relative to the fetched bundle, which the repository usually holds
//! next to the Package file or under its `git` fetch's `subPath`: each path is looked up there,
//! then at the repository root, and the first place it exists wins. An App fetches a git
//! repository, usually the one holding it: its paths are relative to `subPath` (the root when
//! there is none). A `subPath` written as a template (`#@ data.values.git.sub_path`) is known
//! only at run time: the App's paths then name the one directory of the repository, nearest to
//! the App, under which all of them exist (and which does not hold the App itself). An App
//! whose paths are not in the repository, or that would render the whole repository or its own
//! directory, fetches another repository: it gives nothing.
//!
//! A kctrl `PackageBuild` (`kctrl.carvel.dev`, the file `kctrl package init` writes) is a
//! command: `kctrl package release` renders its App template's ytt paths, relative to the
//! PackageBuild's directory, with no data values at all.
//!
//! A ytt step whose paths start with `-` takes the output of the step before it (kbld): the
//! files that step reads, when the repository holds them, else input given at run time.
//!
//! A Package whose one fetch is an imgpkg bundle that a command of the repository pushes from
//! one of its folders (`imgpkg push -b IMAGE -f DIR`, the same image repository at any tag:
//! see `invocations::bundle_push`) renders that folder: its ytt paths are relative to `DIR`
//! (`ytt: {}` renders all of it), wherever the Package file is.

use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::bundle_push::{pushed_as, Pushed};
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::package_locate::{place, Step};
use crate::lint::discover::package_nearest::{clean, guessed, nearest_holding};
use crate::lint::repo::yaml_doc::{documents, get, items, string};
use crate::report::Assumption;
use crate::yaml::Value;

/// The ytt step of one Package or App.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageYtt {
    /// Repository-relative file of the resource.
    pub file: String,
    /// Line of its document.
    pub line: u32,
    /// `Package`, `App` or `PackageBuild`.
    pub kind: &'static str,
    /// `metadata.name`.
    pub name: String,
    /// The ytt paths found on disk (repository-relative), in the resource's order.
    pub inputs: Vec<String>,
    /// Paths that exist nowhere (reported by `--list-roots`).
    pub missing: Vec<String>,
    /// The image of its one fetch, an imgpkg bundle no command of the repository pushes: its
    /// paths are the bundle's, which the repository holds only in a bundle folder beside it.
    pub bundle: Option<String>,
    /// `valuesFrom` paths found on disk: values files or directories, in order.
    pub values: Vec<String>,
    /// Some values are given at run time (a `valuesFrom` secret or config map, or a path
    /// that is not in the repository).
    pub given_values: bool,
    /// The names of the Secrets its `valuesFrom` reads (`secretRef.name`), when they are
    /// all it reads besides paths (no config map, no inline files).
    pub value_secrets: Vec<String>,
    /// The paths take `-`, the output of the step before, and the repository does not hold
    /// what that step reads: an input given at run time.
    pub previous_step: bool,
    /// The ytt flags its step's options give (`ignoreUnknownComments`, `strict`,
    /// `fileMarks`): see [`step_flags`].
    pub flags: Vec<String>,
    /// Its fetch path is known only at run time and its paths were looked up in a folder
    /// the linter chose (see [`crate::lint::discover::package_nearest`]): what that assumes.
    pub guessed: Option<Assumption>,
    /// Paths that name the folder holding the Package itself, which its unknown fetch path
    /// does not, with no other folder to take them from: nothing is rendered.
    pub own_folder: Vec<String>,
    /// Paths under a git `subPath` that a template computes, found nowhere the linter may
    /// take them from (never the repository's top): nothing is rendered.
    pub computed: Vec<String>,
}

/// Where a resource's paths are relative to.
enum SubPath<'v> {
    /// No git fetch of this repository (an imgpkg bundle, an inline fetch...).
    None,
    Absent,
    Literal(&'v str),
    /// Written as a template: known at run time.
    Unknown,
}

/// The Packages and Apps of one YAML file (`text`, at repository-relative `file`) that have a
/// ytt step.
pub fn packages(
    base: &Path,
    index: &Index,
    file: &str,
    text: &str,
    pushed: &[Pushed],
) -> Vec<PackageYtt> {
    let mut out = Vec::new();
    for doc in documents(file, text) {
        let v = &doc.value;
        let api = string(get(v, "apiVersion")).unwrap_or("");
        let kind = string(get(v, "kind"));
        let (kind, spec) = match kind {
            Some("Package") if api.starts_with("data.packaging.carvel.dev/") => (
                "Package",
                get(v, "spec")
                    .and_then(|s| get(s, "template"))
                    .and_then(|t| get(t, "spec")),
            ),
            Some("App") if api.starts_with("kappctrl.k14s.io/") => ("App", get(v, "spec")),
            // `kctrl package release` renders the App template of its PackageBuild, with no
            // data values, from the PackageBuild's directory.
            Some("PackageBuild") if api.starts_with("kctrl.carvel.dev/") => (
                "PackageBuild",
                get(v, "spec")
                    .and_then(|s| get(s, "template"))
                    .and_then(|t| get(t, "spec"))
                    .and_then(|s| get(s, "app"))
                    .and_then(|a| get(a, "spec")),
            ),
            _ => continue,
        };
        let Some(spec) = spec else { continue };
        let name = string(get(v, "metadata").and_then(|m| get(m, "name"))).unwrap_or("");
        let mut pkg = PackageYtt {
            file: file.to_string(),
            line: doc.pos.line.max(1),
            kind,
            name: name.to_string(),
            inputs: Vec::new(),
            missing: Vec::new(),
            bundle: None,
            values: Vec::new(),
            given_values: false,
            value_secrets: Vec::new(),
            previous_step: false,
            flags: Vec::new(),
            guessed: None,
            own_folder: Vec::new(),
            computed: Vec::new(),
        };
        if step(base, index, spec, pushed, &mut pkg) {
            out.push(pkg);
        }
    }
    out
}

/// Reads the first ytt step of `spec` into `pkg`; false when there is none to lint.
fn step(base: &Path, index: &Index, spec: &Value, pushed: &[Pushed], pkg: &mut PackageYtt) -> bool {
    let steps = items(get(spec, "template"));
    let Some(at) = steps.iter().position(|s| get(s, "ytt").is_some()) else {
        return false;
    };
    let ytt = get(steps[at], "ytt");
    pkg.flags = ytt.map(step_flags).unwrap_or_default();
    let mut wanted: Vec<&str> = items(ytt.and_then(|y| get(y, "paths")))
        .into_iter()
        .filter_map(Value::as_str)
        .collect();
    let values_from = items(ytt.and_then(|y| get(y, "valuesFrom")));
    let value_paths: Vec<&str> = values_from
        .iter()
        .filter_map(|f| string(get(f, "path")))
        .collect();
    pkg.given_values = value_paths.len() < values_from.len();
    pkg.value_secrets = values_from
        .iter()
        .filter_map(|f| string(get(f, "secretRef").and_then(|s| get(s, "name"))))
        .map(str::to_string)
        .collect();
    // Files written in the resource itself (`inline.paths`, or taken from a secret or config
    // map, `inline.pathsFrom`) join the step: its inputs are not all in the repository.
    if ytt.and_then(|y| get(y, "inline")).is_some() {
        pkg.given_values = true;
        pkg.value_secrets.clear();
    }
    if value_paths.len() + pkg.value_secrets.len() < values_from.len() {
        pkg.value_secrets.clear();
    }
    let sub_path = sub_path(spec);
    if let Some(dir) = (pkg.kind == "Package")
        .then(|| pushed_bundle(spec, pushed))
        .flatten()
    {
        if wanted.is_empty() {
            pkg.inputs.push(dir.to_string());
            return true;
        }
        let previous = previous_paths(&steps, at);
        let step = Step {
            wanted: &wanted,
            previous: &previous,
            values: &value_paths,
        };
        place(base, index, &[dir.to_string()], &|_, _| true, &step, pkg);
        return true;
    }
    pkg.bundle = bundle_image(spec).map(str::to_string);
    if wanted.is_empty() {
        match (pkg.kind, &sub_path) {
            // `ytt: {}`: every file it fetched (for a Package, its git fetch's `subPath`).
            ("App", SubPath::Literal(_)) => wanted.push("."),
            ("Package", SubPath::Literal(s)) => {
                let dir = clean(s);
                if index.is_dir(dir) && !is_within(&pkg.file, dir) {
                    pkg.inputs.push(dir.to_string());
                    return true;
                }
                pkg.missing.push(s.to_string());
                return true;
            }
            _ => return false,
        }
    }
    // Several fetches, each into its own `path:`: a ytt path under one of them is under
    // that fetch's `subPath` in the repository.
    let fetched = fetch_dirs(spec);
    let mapped: Vec<String> = wanted
        .iter()
        .filter_map(|w| under_fetch(&fetched, w))
        .collect();
    if !fetched.is_empty() && mapped.len() == wanted.len() {
        for m in mapped {
            match index.exists(&m) {
                true => push_new(&mut pkg.inputs, m),
                false => pkg.missing.push(m),
            }
        }
        for v in value_paths {
            match under_fetch(&fetched, v).filter(|m| index.exists(m)) {
                Some(m) => add_values(base, index, pkg, m),
                None => pkg.given_values = true,
            }
        }
        return pkg.missing.is_empty() && !pkg.inputs.is_empty();
    }
    let from_bundle = items(get(spec, "fetch"))
        .iter()
        .any(|f| get(f, "imgpkgBundle").is_some());
    let bases = match bases(
        base,
        index,
        pkg,
        &sub_path,
        from_bundle,
        &wanted,
        &value_paths,
    ) {
        Some(b) => b,
        None => return false,
    };
    let origin = format!("{}:{}", pkg.file, pkg.line);
    if pkg.kind == "App" && matches!(sub_path, SubPath::Unknown) {
        if let Some(dir) = bases.first() {
            let all: Vec<&str> = wanted.iter().chain(&value_paths).copied().collect();
            let why = fetch_path(&sub_path, from_bundle);
            pkg.guessed = Some(guessed(pkg.kind, &pkg.name, &origin, why, &all, dir));
        }
    }
    let previous = previous_paths(&steps, at);
    // A Package renders the folder holding it only where its literal `subPath` says so.
    let literal = match sub_path {
        SubPath::Literal(s) => Some(clean(s)),
        _ => None,
    };
    let own = pkg.file.clone();
    let package = pkg.kind == "Package";
    let accept = |b: &str, found: &str| !package || !is_within(&own, found) || literal == Some(b);
    let given = pkg.given_values;
    let step = Step {
        wanted: &wanted,
        previous: &previous,
        values: &value_paths,
    };
    let held_own = place(base, index, &bases, &accept, &step, pkg);
    // A Package's `subPath` computed by a template: its paths are nowhere the linter knows,
    // least of all at the repository's top.
    let computed = package && !from_bundle && matches!(sub_path, SubPath::Unknown);
    if (held_own && literal.is_none()) || (computed && !pkg.missing.is_empty()) {
        // Its fetch path is unknown: for a git fetch (of this repository, perhaps), the
        // nearest folder holding every path; an image's content is not here at all.
        let git = !from_bundle && matches!(sub_path, SubPath::Unknown | SubPath::Absent);
        let all: Vec<&str> = wanted
            .iter()
            .chain(&value_paths)
            .copied()
            .filter(|p| *p != "-")
            .collect();
        pkg.inputs.clear();
        pkg.missing.clear();
        pkg.values.clear();
        pkg.previous_step = false;
        pkg.given_values = given;
        let nearest = nearest_holding(index, &all, &own).filter(|d| git && !(computed && d == "."));
        match nearest {
            Some(dir) => {
                place(base, index, std::slice::from_ref(&dir), &accept, &step, pkg);
                let why = fetch_path(&sub_path, from_bundle);
                pkg.guessed = Some(guessed(pkg.kind, &pkg.name, &origin, why, &all, &dir));
            }
            None if held_own => pkg.own_folder = all.iter().map(|p| p.to_string()).collect(),
            None => pkg.computed = all.iter().map(|p| p.to_string()).collect(),
        }
    }
    // An App whose paths are not here, or that would render the whole repository or the
    // directory holding it, fetches another repository (or another branch).
    let own = |i: &String| i == "." || is_within(&pkg.file, i);
    pkg.kind == "Package"
        || (pkg.missing.is_empty() && !pkg.inputs.is_empty() && !pkg.inputs.iter().any(own))
}

/// The paths of the step before step `at` (for a `-` path), without the bundle's own lock.
fn previous_paths<'v>(steps: &[&'v Value], at: usize) -> Vec<&'v str> {
    at.checked_sub(1)
        .and_then(|p| steps.get(p))
        .and_then(|s| match s {
            Value::Map(m) => m.items.first().map(|i| &i.value),
            _ => None,
        })
        .map(|s| items(get(s, "paths")))
        .unwrap_or_default()
        .into_iter()
        .filter_map(Value::as_str)
        .filter(|p| !p.starts_with(".imgpkg"))
        .collect()
}

/// The repository folder a Package's one fetch, an imgpkg bundle at the top of what it
/// fetches (no `path:`), was pushed from by a command of the repository.
fn pushed_bundle<'p>(spec: &Value, pushed: &'p [Pushed]) -> Option<&'p str> {
    pushed_as(pushed, bundle_image(spec)?).map(|p| p.dir.as_str())
}

/// The image of `spec`'s one fetch, when that is an imgpkg bundle fetched into the step's own
/// folder (no `path:`).
fn bundle_image(spec: &Value) -> Option<&str> {
    let [fetch] = items(get(spec, "fetch"))[..] else {
        return None;
    };
    if get(fetch, "path").is_some() {
        return None;
    }
    string(get(fetch, "imgpkgBundle").and_then(|b| get(b, "image")))
}

/// How a resource's fetch path is unknown, for its assumption.
fn fetch_path(sub_path: &SubPath, from_bundle: bool) -> &'static str {
    match sub_path {
        SubPath::Unknown => "is a template given when it is made (`subPath`)",
        SubPath::Absent => "its git fetch does not name (no `subPath`)",
        _ if from_bundle => "lies in an image bundle",
        _ => "it does not name",
    }
}

/// The ytt flags of a step's options, as kapp-controller passes them: `ignoreUnknownComments:
/// true` is `--ignore-unknown-comments`, `strict: true` is `--strict`, each of `fileMarks` a
/// `--file-mark` (its paths name files relative to the step's paths, as the root's inputs do).
pub fn step_flags(ytt: &Value) -> Vec<String> {
    let on = |key: &str| matches!(get(ytt, key), Some(Value::Bool(true)));
    let mut out = Vec::new();
    if on("ignoreUnknownComments") {
        out.push("--ignore-unknown-comments".to_string());
    }
    if on("strict") {
        out.push("--strict".to_string());
    }
    for mark in items(get(ytt, "fileMarks"))
        .into_iter()
        .filter_map(Value::as_str)
    {
        out.push("--file-mark".to_string());
        out.push(mark.to_string());
    }
    out
}

/// A `valuesFrom` path found in the repository: values files encrypted with sops (decrypted
/// by a `sops` step at run time) are given at run time; a directory holding some is replaced
/// by its other files.
pub(super) fn add_values(base: &Path, index: &Index, pkg: &mut PackageYtt, found: String) {
    let encrypted = |f: &str| {
        crate::files::repo_text::read_repo_text(base, f)
            .is_some_and(|t| t.lines().any(|l| l.starts_with("sops:")))
    };
    let yaml = |f: &&str| f.ends_with(".yml") || f.ends_with(".yaml");
    let inside: Vec<&str> = index.files_under(&found).filter(yaml).collect();
    let sealed: Vec<&&str> = inside.iter().filter(|f| encrypted(f)).collect();
    if sealed.is_empty() {
        push_new(&mut pkg.values, found);
        return;
    }
    pkg.given_values = true;
    for f in inside.iter().filter(|f| !sealed.contains(f)) {
        push_new(&mut pkg.values, f.to_string());
    }
}

pub(super) fn push_new(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The git fetches of a resource that name the directory they land in (`path:`), with the
/// repository directory each takes (its `subPath`, or the repository's top): empty unless
/// every fetch names one.
fn fetch_dirs(spec: &Value) -> Vec<(String, String)> {
    let fetches = items(get(spec, "fetch"));
    let mut out = Vec::new();
    for f in &fetches {
        let (Some(path), Some(git)) = (string(get(f, "path")), get(f, "git")) else {
            return Vec::new();
        };
        let dir = match get(git, "subPath") {
            None => ".".to_string(),
            Some(Value::String(s)) => clean(s).to_string(),
            Some(_) => return Vec::new(),
        };
        out.push((clean(path).to_string(), dir));
    }
    out
}

/// The repository path a ytt path under one of `fetched` names.
fn under_fetch(fetched: &[(String, String)], wanted: &str) -> Option<String> {
    let w = clean(wanted);
    fetched.iter().find_map(|(path, dir)| {
        let rest = if w == path {
            "."
        } else {
            w.strip_prefix(path.as_str())?.strip_prefix('/')?
        };
        Some(match rest {
            "." => dir.clone(),
            rest => paths::join(dir, rest),
        })
    })
}

fn sub_path(spec: &Value) -> SubPath<'_> {
    let Some(git) = items(get(spec, "fetch"))
        .into_iter()
        .find_map(|f| get(f, "git"))
    else {
        return SubPath::None;
    };
    match get(git, "subPath") {
        None => SubPath::Absent,
        Some(Value::String(s)) => SubPath::Literal(s.as_str()),
        Some(_) => SubPath::Unknown,
    }
}

/// The directories the paths of `pkg` are looked up under, in order; `None` when an App's
/// are not in the repository.
fn bases(
    base: &Path,
    index: &Index,
    pkg: &PackageYtt,
    sub_path: &SubPath,
    from_bundle: bool,
    wanted: &[&str],
    values: &[&str],
) -> Option<Vec<String>> {
    let dir = paths::parent(&pkg.file).to_string();
    if pkg.kind == "App" {
        return match sub_path {
            SubPath::None => None,
            SubPath::Absent => Some(vec![".".to_string()]),
            SubPath::Literal(s) => Some(vec![clean(s).to_string()]),
            SubPath::Unknown => {
                let all: Vec<&str> = wanted.iter().chain(values).copied().collect();
                nearest_holding(index, &all, &pkg.file).map(|d| vec![d])
            }
        };
    }
    let mut bases = vec![dir.clone()];
    if let SubPath::Literal(s) = sub_path {
        bases.push(clean(s).to_string());
    }
    if from_bundle {
        // The bundle's directory: one next to the Package holding `.imgpkg`.
        bases.splice(0..0, bundle_dirs(base, &dir));
    } else if !matches!(sub_path, SubPath::Unknown) {
        // A git fetch of the repository itself: paths are relative to its root.
        bases.push(".".to_string());
    }
    Some(bases)
}

/// Directories of imgpkg bundles at or just below `dir` (they hold `.imgpkg`, or are named
/// `bundle`).
fn bundle_dirs(base: &Path, dir: &str) -> Vec<String> {
    let abs = base.join(dir);
    let mut out = Vec::new();
    if abs.join(".imgpkg").is_dir() {
        out.push(dir.to_string());
    }
    if let Ok(entries) = std::fs::read_dir(&abs) {
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| {
                e.file_type().is_ok_and(|t| t.is_dir())
                    && (e.path().join(".imgpkg").is_dir() || e.file_name() == "bundle")
            })
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|n| paths::join(dir, &n)));
    }
    out
}

/// The note for a ytt path of `pkg` found nowhere: in the imgpkg bundle it fetches, when that
/// is its one fetch and nothing of it was found (the paths are the bundle's, not the
/// repository's, whose own folder of that name, if any, is another thing), else simply not in
/// the repository.
pub fn missing_note(pkg: &PackageYtt, path: &str) -> String {
    let at = format!("{}:{}", pkg.file, pkg.line);
    match pkg.bundle.as_ref().filter(|_| pkg.inputs.is_empty()) {
        Some(image) => format!(
            "{at}: ytt path \"{path}\" of {} {} is in the imgpkg bundle {image} it fetches, which the repository does not hold (no folder beside it holds `.imgpkg`, and no command of the repository pushes that image from one of its folders): not linted",
            pkg.kind, pkg.name
        ),
        None => format!(
            "{at}: ytt path \"{path}\" of {} {} not found in the repository",
            pkg.kind, pkg.name
        ),
    }
}

#[cfg(test)]
#[path = "package_tests.rs"]
mod tests;
