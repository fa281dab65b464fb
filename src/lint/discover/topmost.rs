//! Roots for the ytt files nothing else covers: the topmost directories holding templates of
//! their own, each narrowed to the parts that hold no root found otherwise (ytt takes a
//! directory whole). Files that only supplement others make no root; those outside every root
//! are checked on their own.

use std::collections::BTreeSet;

use crate::files::paths::{self, is_within};
use crate::library::tree::PRIVATE_DIR;
use crate::lint::config::Config;
use crate::lint::discover::{Library, Reason, Root};
use crate::lint::repo::supplementary;
use crate::lint::repo::walk::{Kind, RepoFile};

/// Whether a repository-relative path lies inside some `_ytt_lib`.
pub fn in_private_dir(path: &str) -> bool {
    path.split('/').any(|c| c == PRIVATE_DIR)
}

/// The directories of `dirs` that have no ancestor in `dirs`.
pub fn topmost(dirs: &BTreeSet<String>) -> Vec<String> {
    dirs.iter()
        .filter(|d| {
            let mut p = d.as_str();
            while p != "." {
                p = paths::parent(p);
                if dirs.contains(p) {
                    return false;
                }
            }
            true
        })
        .cloned()
        .collect()
}

/// Roots for the ytt files `known` roots do not cover: the topmost directories holding
/// templates of their own. Files that only supplement others (overlays, data values,
/// schemas, Starlark) or that the repository's commands read only with other files
/// (`claimed`) make no root: those outside every root are checked on their own.
pub fn roots(
    config: &Config,
    files: &[RepoFile],
    known: &[Root],
    claimed: &[String],
) -> (Vec<Root>, Vec<Library>) {
    let covered = |path: &str, roots: &[Root]| {
        roots
            .iter()
            .any(|r| r.inputs.iter().any(|i| is_within(path, i)))
    };
    let is_claimed = |f: &RepoFile| claimed.iter().any(|c| is_within(&f.path, c));
    let supplements = |f: &RepoFile| {
        f.kind == Kind::Starlark
            || is_claimed(f)
            || std::fs::read_to_string(config.dir.join(&f.path))
                .is_ok_and(|text| supplementary::is_supplementary(&f.path, &text))
    };
    let (sup, main): (Vec<&RepoFile>, Vec<&RepoFile>) = files
        .iter()
        .filter(|f| f.kind.is_ytt() && !in_private_dir(&f.path) && !covered(&f.path, known))
        .partition(|f| supplements(f));
    let dirs: BTreeSet<String> = main
        .iter()
        .map(|f| paths::parent(&f.path).to_string())
        .collect();
    let mut roots = Vec::new();
    for dir in topmost(&dirs) {
        let mut root = Root::found(&dir, Reason::Topmost);
        root.inputs = narrow(&dir, files.iter(), known);
        roots.push(root);
    }
    let all: Vec<Root> = known.iter().chain(&roots).cloned().collect();
    let rest: Vec<&RepoFile> = sup
        .into_iter()
        .filter(|f| !covered(&f.path, &roots))
        .collect();
    let dirs: BTreeSet<String> = rest
        .iter()
        .map(|f| paths::parent(&f.path).to_string())
        .collect();
    let mut partial = Vec::new();
    for dir in topmost(&dirs) {
        let mine: Vec<&&RepoFile> = rest.iter().filter(|f| is_within(&f.path, &dir)).collect();
        if mine.iter().all(|f| f.kind == Kind::Starlark) {
            // Starlark that no ytt template loads may be Bazel's, Tilt's or another tool's.
            continue;
        }
        let why = if mine.iter().all(|f| is_claimed(f)) {
            "read only together with other files by commands the linter cannot evaluate"
        } else {
            "its ytt files only hold overlays, data values, schemas or functions for other files"
        };
        for path in narrow(&dir, mine.iter().map(|f| **f), &all) {
            let files = mine
                .iter()
                .filter(|f| is_within(&f.path, &path))
                .map(|f| f.path.clone())
                .collect();
            partial.push(Library {
                parent: paths::parent(&path).to_string(),
                path,
                partial: Some(why.to_string()),
                flags: Vec::new(),
                files,
            });
        }
    }
    (roots, partial)
}

/// The inputs of a topmost directory that holds roots found otherwise: the largest parts of
/// it that hold none of them (ytt takes a directory whole).
fn narrow<'f>(dir: &str, files: impl Iterator<Item = &'f RepoFile>, known: &[Root]) -> Vec<String> {
    let holds_root = |d: &str| {
        known
            .iter()
            .any(|r| r.inputs.iter().any(|i| is_within(i, d)))
    };
    if !holds_root(dir) {
        return vec![dir.to_string()];
    }
    let read_by_ytt = |p: &str| {
        let ext = p.rsplit('.').next().unwrap_or("");
        matches!(ext, "yml" | "yaml" | "star" | "txt" | "json")
    };
    let mut out: BTreeSet<String> = BTreeSet::new();
    for f in files.filter(|f| is_within(&f.path, dir) && read_by_ytt(&f.path)) {
        if in_private_dir(&f.path)
            || known
                .iter()
                .any(|r| r.inputs.iter().any(|i| is_within(&f.path, i)))
        {
            continue;
        }
        let mut best = f.path.clone();
        let mut p = paths::parent(&f.path);
        while p != dir && is_within(p, dir) {
            if !holds_root(p) {
                best = p.to_string();
            }
            p = paths::parent(p);
        }
        out.insert(best);
    }
    out.into_iter().collect()
}
