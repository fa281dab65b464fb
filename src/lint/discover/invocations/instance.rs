//! One placed `ytt` command: each path it names found in the repository (a glob expanded, a
//! CI input named after the repository or an absolute path to a checkout or an image layout
//! mapped back), and the command turned into an [`Invocation`], or skipped with the reason.

use super::index::Binding;
use super::resolve::{
    skipped, split_name, split_values_prefix, substitute, DataValue, Invocation, Origin, Outcome,
    Repo, NOT_IN_REPOSITORY,
};
use super::word::Word;
use super::ytt_args::{ValueKind, YttArgs};
use crate::lint::discover::vendir::{self, Target};

/// Where a path word points: repository paths (globs expanded), or why not.
enum Place {
    Paths(Vec<String>),
    Stdin,
    /// Content a command makes at run time (`<(./gen.sh)`): never a path.
    Generated(String),
    /// A URL (`-f https://...`): ytt downloads it.
    Remote(String),
    Unknown(String),
    Missing(String),
    Outside(String),
}

fn locate(word: &Word, cwd: &Word, b: &Binding, repo: &Repo, caller: bool) -> Place {
    if word.literal().as_deref() == Some("-") {
        return Place::Stdin;
    }
    if word
        .unknowns()
        .any(|u| u.starts_with("<(") || u.starts_with(">("))
    {
        return Place::Generated(word.to_string());
    }
    let prefix = word.literal_prefix();
    if prefix.starts_with("https://") || prefix.starts_with("http://") {
        return Place::Remote(word.to_string());
    }
    let full = substitute(&word.relative_to(cwd), b);
    if full.unknowns().next().is_some() {
        return Place::Unknown(word.to_string());
    }
    if full.has_glob() {
        let found = repo.index.glob(&full);
        if !found.is_empty() {
            return Place::Paths(found);
        }
    }
    let Some(path) = full.repo_path() else {
        return match full.literal().and_then(|abs| elsewhere(&abs, repo)) {
            Some(p) => Place::Paths(vec![p]),
            None => Place::Outside(word.to_string()),
        };
    };
    if repo.index.exists(&path) {
        return Place::Paths(vec![path]);
    }
    // From a CI build directory, a path starts with the name of the input holding the
    // repository (`cf-for-k8s/config`).
    if let (true, Some((first, rest))) = (caller, path.split_once('/')) {
        if !repo.index.exists(first)
            && (first.contains(repo.name) || repo.name.contains(first))
            && repo.index.exists(rest)
        {
            return Place::Paths(vec![rest.to_string()]);
        }
    }
    Place::Missing(path)
}

/// An absolute path to a copy of the repository (`/tmp/kind/cf-for-k8s/config`, a checkout
/// named after it) or to where an image holds its files (`/opt/app/etc/x.yaml` for the
/// repository's `image/opt/app/etc/x.yaml`: the whole path), when exactly one repository path
/// fits.
fn elsewhere(abs: &str, repo: &Repo) -> Option<String> {
    if !abs.starts_with('/') {
        return None;
    }
    let segs: Vec<&str> = abs.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(i) = segs.iter().rposition(|s| *s == repo.name) {
        let rest = segs[i + 1..].join("/");
        let rest = if rest.is_empty() {
            ".".to_string()
        } else {
            rest
        };
        if repo.index.exists(&rest) {
            return Some(rest);
        }
    }
    // The whole path, not its last segments only: `/tmp/harbor/config/_ytt_lib/bundle/config`,
    // a bundle pulled at run time, is not the repository's `multus/config/_ytt_lib/bundle/config`.
    (segs.len() >= 2)
        .then(|| repo.index.by_suffix(&segs.join("/")))
        .flatten()
}

pub(super) fn instance(
    origin: &Origin,
    args: &YttArgs,
    cwd: &Word,
    b: &Binding,
    repo: &Repo,
    caller: bool,
) -> Outcome {
    let mut inv = Invocation {
        origin: origin.clone(),
        inputs: Vec::new(),
        values_files: Vec::new(),
        values: Vec::new(),
        value_files: Vec::new(),
        unknown: Vec::new(),
        flags: args.flags.clone(),
        file_marks: args.file_marks.iter().filter_map(Word::literal).collect(),
        inspect: args.inspect,
        binding: b.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
    };
    let mut problems: Vec<String> = Vec::new();
    let mut stdin = false;
    let mut generated = false;
    for f in &args.files {
        let (name, path) = split_name(f);
        match locate(&path, cwd, b, repo, caller) {
            Place::Paths(found) => inv
                .inputs
                .extend(found.into_iter().map(|p| format!("{name}{p}"))),
            Place::Stdin => stdin = true,
            Place::Generated(w) => {
                generated = true;
                inv.unknown.push(format!("-f {name}{w} (made at run time)"));
            }
            Place::Remote(w) => problems.push(format!("remote input {w}")),
            Place::Unknown(w) => inv.unknown.push(format!("-f {w}")),
            Place::Missing(p) | Place::Outside(p) if looks_like_values(&p) => {
                inv.unknown.push(format!("-f {p} {NOT_IN_REPOSITORY}"));
            }
            Place::Missing(p) => problems.push(missing(&p, repo.vendir)),
            Place::Outside(w) => problems.push(format!("input {w} is outside the repository")),
        }
    }
    for v in &args.values_files {
        let (prefix, path) = split_values_prefix(v);
        match locate(&path, cwd, b, repo, caller) {
            Place::Paths(found) => inv
                .values_files
                .extend(found.into_iter().map(|p| format!("{prefix}{p}"))),
            Place::Stdin | Place::Unknown(_) | Place::Generated(_) | Place::Remote(_) => {
                inv.unknown.push(format!("--data-values-file {v}"))
            }
            Place::Missing(p) => inv
                .unknown
                .push(format!("--data-values-file {p} {NOT_IN_REPOSITORY}")),
            Place::Outside(w) => inv
                .unknown
                .push(format!("--data-values-file {w} (outside the repository)")),
        }
    }
    for (key, path) in &args.value_files {
        match (key.literal(), locate(path, cwd, b, repo, caller)) {
            (Some(k), Place::Paths(found)) if found.len() == 1 => {
                inv.value_files.push((k, found[0].clone()));
            }
            (Some(k), _) => inv.values.push(DataValue {
                kind: ValueKind::String,
                key: k,
                value: None,
            }),
            (None, _) => inv.unknown.push(format!("--data-value-file {key}={path}")),
        }
    }
    for (kind, key, value) in &args.values {
        match key.literal().filter(|k| !k.is_empty()) {
            Some(k) => inv.values.push(DataValue {
                kind: *kind,
                key: k,
                value: substitute(value, b).literal(),
            }),
            None => inv.unknown.push(format!("-v {key}")),
        }
    }
    for p in &args.env_prefixes {
        inv.unknown.push(format!("--data-values-env {p}"));
    }
    for a in &args.unknown {
        inv.unknown.push(format!("argument {a}"));
    }
    let claims = inv
        .inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string())
        .collect();
    if stdin {
        return skipped(
            origin,
            "it renders templates from standard input".into(),
            claims,
        );
    }
    if let Some(p) = problems.into_iter().next() {
        return skipped(origin, p, claims);
    }
    if inv.inputs.is_empty() && generated {
        return skipped(
            origin,
            "its inputs are made at run time (process substitution)".into(),
            claims,
        );
    }
    if inv.inputs.is_empty() {
        return skipped(
            origin,
            "none of its inputs is in the repository".into(),
            claims,
        );
    }
    Outcome::Found(inv)
}

/// A `-f` path that is not in the repository but reads like data values made at run time.
fn looks_like_values(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    (name.ends_with(".yml") || name.ends_with(".yaml"))
        && (name.contains("value") || name.contains("vars"))
}

fn missing(path: &str, targets: &[Target]) -> String {
    match vendir::unsynced(targets, path) {
        Some(t) => format!(
            "{path} is filled by `vendir sync` ({}:{}) and is not synced",
            t.file, t.line
        ),
        None => format!("{path} is not in the repository (made by an earlier command?)"),
    }
}
