//! The inputs of a Concourse task that hold this repository. A task runs in a build directory
//! where each input is a directory named after it (or after its `path:`); an input a `get:`
//! step fills from a `git` resource is a checkout of that resource's `uri`. When the uri names
//! this repository (its last segment, without `.git`, is the checkout's name, as for the
//! repository's own URLs in `remote.rs`), `INPUT/rest` in the task's script is the
//! repository's `rest`. When no git input's uri names a repository (it is a
//! `((variable))` that `fly set-pipeline` fills) and the task has exactly one git input, that
//! input is taken to be this repository where the rest's first directory exists in it: the
//! pipeline is kept with the code it builds. A command whose mapped input does not exist is
//! then an `input-missing` warning at its line, as for any other script.

use std::collections::BTreeMap;

use super::resolve::Repo;
use super::shell::Call;
use super::word::{Piece, Word, REPO};
use crate::lint::repo::yaml_doc::{entries, get, items, string};
use crate::report::{Assumption, AssumptionKind};
use crate::yaml::Value;

/// A task input filled from a git resource: the directory it is mounted at, and the uri.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checkout {
    pub dir: String,
    pub uri: String,
    /// The task runs its script from this input (`run.path: INPUT/ci/task.sh`, that script
    /// being this repository's): the input is this repository, whatever its uri.
    pub own: bool,
}

/// The git resources of a pipeline document, by the name of the artifact a `get:` makes.
pub fn git_artifacts(doc: &Value) -> BTreeMap<String, String> {
    let mut uris: BTreeMap<&str, &str> = BTreeMap::new();
    for r in items(get(doc, "resources")) {
        if string(get(r, "type")) != Some("git") {
            continue;
        }
        if let (Some(name), Some(uri)) = (
            string(get(r, "name")),
            string(get(r, "source").and_then(|s| get(s, "uri"))),
        ) {
            uris.insert(name, uri);
        }
    }
    let mut out = BTreeMap::new();
    gets(doc, &uris, &mut out, 0);
    out
}

fn gets(v: &Value, uris: &BTreeMap<&str, &str>, out: &mut BTreeMap<String, String>, depth: usize) {
    if depth > 64 {
        return;
    }
    if let Some(name) = string(get(v, "get")) {
        let resource = string(get(v, "resource")).unwrap_or(name);
        if let Some(uri) = uris.get(resource) {
            out.insert(name.to_string(), (*uri).to_string());
        }
    }
    match v {
        Value::Map(_) => {
            for e in entries(Some(v)) {
                gets(&e.value, uris, out, depth + 1);
            }
        }
        Value::Array(_) => {
            for i in items(Some(v)) {
                gets(i, uris, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// The inputs of the task `config` (the map holding its `run`) that git resources fill.
pub fn checkouts(config: &Value, git: &BTreeMap<String, String>) -> Vec<Checkout> {
    items(get(config, "inputs"))
        .into_iter()
        .filter_map(|i| {
            let name = string(get(i, "name"))?;
            let uri = git.get(name)?;
            let dir = string(get(i, "path")).unwrap_or(name);
            let dir = dir.trim_start_matches("./").trim_end_matches('/');
            (!dir.is_empty() && !dir.contains("..")).then(|| Checkout {
                dir: dir.to_string(),
                uri: uri.clone(),
                own: false,
            })
        })
        .collect()
}

/// What a task whose one git input is taken to be this repository assumes, when that is a
/// guess among several: its uri is a `((variable))` and the pipeline checks out another uri
/// too (`config-repo` of `((app.codeRepo))` beside `infra-repo` of `((app.infraRepo))`), so
/// the input may hold another repository's files (round twelve's steeltoe-governance-lab).
pub fn guessed(checkouts: &[Checkout], git: &BTreeMap<String, String>) -> Option<Assumption> {
    let [one] = checkouts else {
        return None;
    };
    if !(one.uri.starts_with("((") && one.uri.ends_with("))")) {
        return None;
    }
    let mut others: Vec<&str> = git
        .values()
        .map(String::as_str)
        .filter(|u| *u != one.uri)
        .collect();
    others.sort_unstable();
    others.dedup();
    if others.is_empty() {
        return None;
    }
    let shown: Vec<String> = others.iter().take(3).map(|u| format!("`{u}`")).collect();
    Some(Assumption::new(
        AssumptionKind::CallerCheckout,
        format!(
            "the task's input {} is a checkout of `{}`, which `fly set-pipeline` fills: taken to \
             be this repository, though the pipeline also checks out {}",
            one.dir,
            one.uri,
            shown.join(", ")
        ),
    ))
}

/// Whether a git uri names this repository.
fn names_this(uri: &str, repo: &Repo) -> bool {
    let uri = uri.trim_end_matches('/');
    let uri = uri.strip_suffix(".git").unwrap_or(uri);
    let mut segs = uri.rsplit(['/', ':']);
    let (Some(name), Some(org)) = (segs.next(), segs.next()) else {
        return false;
    };
    super::remote::names_this_repository(org, name, repo)
}

/// The input directory that holds this repository, and whether the rest must be checked
/// (the guess of a `((variable))` uri).
fn this_repository<'c>(checkouts: &'c [Checkout], repo: &Repo) -> Option<(&'c str, bool)> {
    if let Some(c) = checkouts.iter().find(|c| c.own || names_this(&c.uri, repo)) {
        return Some((&c.dir, false));
    }
    match checkouts {
        [one] if one.uri.starts_with("((") && one.uri.ends_with("))") => Some((&one.dir, true)),
        _ => None,
    }
}

/// `call` with paths under the input that holds this repository made repository paths:
/// arguments (`-f source/config`) when the task runs in its build directory, arguments
/// through the build directory (`-f "${PWD}/source/config"` before any `cd`) wherever it
/// runs, and the working directory (`cd source`).
pub fn mapped(call: &Call, checkouts: &[Checkout], caller: &str, repo: &Repo) -> Call {
    let Some((dir, guessed)) = this_repository(checkouts, repo) else {
        return call.clone();
    };
    let Some(cwd) = &call.cwd else {
        return call.clone();
    };
    let in_build_dir = cwd.literal().as_deref() == Some(caller);
    let prefix = format!("{dir}/");
    let inside = format!("{caller}/{dir}");
    let mut out = call.clone();
    // A path through the build directory (`${PWD}/INPUT/config` of a script run there) is
    // the repository's wherever the command runs.
    let through = format!("{inside}/");
    for a in &mut out.args {
        let Some(Piece::Lit { text, glob }) = a.0.first() else {
            continue;
        };
        let Some(rest) = text.strip_prefix(&through) else {
            continue;
        };
        let first = rest.split('/').next().unwrap_or("");
        if guessed && !repo.index.exists(first) {
            continue;
        }
        let mut w = Word::default();
        w.push_lit(&format!("{REPO}/{rest}"), *glob);
        w.0.extend(a.0.iter().skip(1).cloned());
        *a = w;
    }
    if in_build_dir {
        for a in &mut out.args {
            let Some(Piece::Lit { text, glob }) = a.0.first() else {
                continue;
            };
            let Some(rest) = text.strip_prefix(&prefix) else {
                continue;
            };
            let first = rest.split('/').next().unwrap_or("");
            if guessed && !repo.index.exists(first) {
                continue;
            }
            let mut w = Word::default();
            w.push_lit(rest, *glob);
            w.0.extend(a.0.iter().skip(1).cloned());
            *a = w;
        }
    } else if let Some(rest) = cwd.strip_prefix(&inside) {
        let mut w = Word::lit(caller);
        w.extend(&rest);
        out.cwd = Some(w.normalized());
    }
    out
}
