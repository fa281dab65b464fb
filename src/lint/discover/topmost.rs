//! Roots for the ytt files nothing else covers: the topmost directories holding templates of
//! their own, each narrowed to the parts that hold no root found otherwise (ytt takes a
//! directory whole).
//!
//! A directory whose own ytt files only supplement others with a schema, Starlark or overlays
//! (not data values alone, which are as often given to a template directory below) supplements
//! the templates below it: `config/` holding `values-schema.yml` and `rules.star` above
//! `config/overlays/` is rendered whole (`ytt -f config`), so the root climbs to it. Files that
//! only supplement others make no root of their own, unless they hold overlays and their
//! directory also holds the upstream manifests they patch, which ytt takes as input (a Carvel
//! package's `config/upstream/*.yaml`, filled by vendir, next to `config/overlays/` and
//! `config/values.yml`); the others outside every root are checked on their own.

use std::collections::{BTreeMap, BTreeSet};

use crate::files::paths::{self, is_within};
use crate::library::tree::PRIVATE_DIR;
use crate::lint::config::Config;
use crate::lint::discover::vendir::Target;
use crate::lint::discover::{Library, Reason, Root};
use crate::lint::repo::supplementary::{self, Supplement};
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

/// What discovery knows when it looks for topmost directories.
struct Seen<'a> {
    files: &'a [RepoFile],
    known: &'a [Root],
    claimed: &'a [String],
    vendir: &'a [Target],
    /// Directories that directly hold ytt files that only supplement others (not claimed).
    supplementing: BTreeSet<String>,
    /// The files a known root reads only as data, with the root's name (see `data_marked.rs`).
    as_data: BTreeSet<(String, String)>,
}

impl Seen<'_> {
    /// Whether a root of `roots` renders `path` (a root that reads it only as data does not).
    fn covered(&self, path: &str, roots: &[Root]) -> bool {
        roots.iter().any(|r| {
            r.inputs.iter().any(|i| is_within(path, i))
                && !self.as_data.contains(&(r.name.clone(), path.to_string()))
        })
    }

    fn claimed(&self, path: &str) -> bool {
        self.claimed.iter().any(|c| is_within(path, c))
    }

    /// Whether a known root's input lies in `dir` (or covers it).
    fn holds_known(&self, dir: &str) -> bool {
        self.known.iter().any(|r| {
            r.inputs
                .iter()
                .any(|i| is_within(i, dir) || is_within(dir, i))
        })
    }

    /// `dir`, or the highest ancestor reached through directories whose own ytt files only
    /// supplement the ones below (never the repository itself, a private library's directory
    /// or one holding another root). Overlays below need the documents they patch: a
    /// directory holding overlays is climbed to only when it holds upstream manifests too.
    fn climb(&self, config: &Config, dir: String) -> String {
        let mut dir = dir;
        loop {
            let up = paths::parent(&dir);
            if dir == "." || up == "." || in_private_dir(up) {
                return dir;
            }
            if !self.supplementing.contains(up) || self.holds_known(up) {
                return dir;
            }
            if self.has_overlays(config, up) && !self.holds_upstream(config, up) {
                return dir;
            }
            dir = up.to_string();
        }
    }

    /// Whether a ytt file under `dir` that nothing else covers holds an overlay document.
    fn has_overlays(&self, config: &Config, dir: &str) -> bool {
        self.files
            .iter()
            .filter(|f| f.kind == Kind::YttYaml && is_within(&f.path, dir))
            .filter(|f| !in_private_dir(&f.path) && !self.covered(&f.path, self.known))
            .any(|f| {
                crate::files::repo_text::read_repo_text(&config.dir, &f.path)
                    .is_some_and(|t| supplementary::has_overlay_document(&f.path, &t))
            })
    }

    /// Whether `dir` holds upstream manifests: plain YAML documents (Kubernetes-style, with
    /// `apiVersion` and `kind`) that nothing else covers, in a directory below it that vendir
    /// fills or that is named `upstream` (the layout of a Carvel package's `config/`).
    fn holds_upstream(&self, config: &Config, dir: &str) -> bool {
        let named = paths::join(dir, "upstream");
        let upstream = |p: &str| {
            is_within(p, &named)
                || self.vendir.iter().any(|t| {
                    t.synced && t.dir != dir && is_within(&t.dir, dir) && is_within(p, &t.dir)
                })
        };
        self.files
            .iter()
            .filter(|f| f.kind == Kind::PlainYaml && upstream(&f.path))
            .filter(|f| !in_private_dir(&f.path) && !self.claimed(&f.path))
            .filter(|f| !self.covered(&f.path, self.known))
            .any(|f| {
                crate::files::repo_text::read_repo_text(&config.dir, &f.path)
                    .is_some_and(|t| is_resource_document(&t))
            })
    }
}

/// Whether YAML text starts a document with top-level `apiVersion` and `kind` keys.
fn is_resource_document(text: &str) -> bool {
    let top = |key: &str| text.lines().any(|l| l.starts_with(key));
    top("apiVersion:") && top("kind:")
}

/// Roots for the ytt files `known` roots do not cover: the topmost directories holding
/// templates of their own, or supplementing files with plain documents. Files that only
/// supplement others (overlays, data values, schemas, Starlark) or that the repository's
/// commands read only with other files (`claimed`) make no root: those outside every root
/// are checked on their own.
pub fn roots(
    config: &Config,
    files: &[RepoFile],
    known: &[Root],
    claimed: &[String],
    vendir: &[Target],
) -> (Vec<Root>, Vec<Library>) {
    let mut seen = Seen {
        files,
        known,
        claimed,
        vendir,
        supplementing: BTreeSet::new(),
        as_data: super::data_marked::read_as_data(known, files),
    };
    // What each supplementing file holds (claimed files and Starlark: code).
    let mut kinds: BTreeMap<&str, Supplement> = BTreeMap::new();
    let code = Supplement {
        code: true,
        ..Supplement::default()
    };
    for f in files
        .iter()
        .filter(|f| f.kind.is_ytt() && !in_private_dir(&f.path))
    {
        if seen.covered(&f.path, known) {
            continue;
        }
        let kind = if f.kind == Kind::Starlark || seen.claimed(&f.path) {
            Some(code)
        } else {
            crate::files::repo_text::read_repo_text(&config.dir, &f.path)
                .and_then(|text| supplementary::supplement(&f.path, &text))
        };
        if let Some(k) = kind {
            kinds.insert(&f.path, k);
        }
    }
    let (sup, main): (Vec<&RepoFile>, Vec<&RepoFile>) = files
        .iter()
        .filter(|f| f.kind.is_ytt() && !in_private_dir(&f.path))
        .filter(|f| !seen.covered(&f.path, known))
        .partition(|f| kinds.contains_key(f.path.as_str()));
    // Data values alone are given to the templates below as often as the directory is
    // rendered whole: only a schema, code or overlays make the directory the root.
    seen.supplementing = sup
        .iter()
        .filter(|f| !seen.claimed(&f.path))
        .filter(|f| kinds.get(f.path.as_str()).is_some_and(|k| !k.only_values()))
        .map(|f| paths::parent(&f.path).to_string())
        .collect();
    let dirs: BTreeSet<String> = main
        .iter()
        .map(|f| seen.climb(config, paths::parent(&f.path).to_string()))
        .collect();
    // A folder with a schema of its own that ytt cannot merge with the top's is a library of
    // its own (see `own_schema.rs`).
    let schemas: Vec<&str> = kinds
        .iter()
        .filter(|(p, k)| k.schema && !(k.values || k.overlay || k.code) && !seen.claimed(p))
        .map(|(p, _)| *p)
        .collect();
    let mut roots = Vec::new();
    for dir in topmost(&dirs) {
        let libraries = super::own_schema::libraries(&config.dir, &dir, &dirs, &schemas);
        let own: Vec<Root> = libraries
            .iter()
            .map(|lib| {
                let mut root = Root::found(lib, Reason::Topmost);
                root.inputs = narrow(lib, files.iter(), known, &seen, false);
                root
            })
            .collect();
        let all: Vec<Root> = known.iter().chain(&own).cloned().collect();
        let mut root = Root::found(&dir, Reason::Topmost);
        root.inputs = narrow(&dir, files.iter(), &all, &seen, false)
            .into_iter()
            .filter(|i| {
                let values = kinds.get(i.as_str()).is_some_and(|k| k.only_values());
                !(values && super::own_schema::beside_library(i, &dir, &libraries))
            })
            .collect();
        let shared =
            super::folder_values::beside(&config.dir, files, known, &seen.as_data, &root.inputs);
        if !shared.is_empty() {
            root.inputs.extend(shared);
            root.inputs.sort();
        }
        roots.push(root);
        roots.extend(own);
    }
    let rest: Vec<&RepoFile> = sup
        .into_iter()
        .filter(|f| !seen.covered(&f.path, &roots))
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
        let all_claimed = mine.iter().all(|f| seen.claimed(&f.path));
        let overlays = mine.iter().any(|f| {
            !seen.claimed(&f.path) && kinds.get(f.path.as_str()).is_some_and(|k| k.overlay)
        });
        if overlays && dir != "." && seen.holds_upstream(config, &dir) {
            let dir = seen.climb(config, dir);
            let mut root = Root::found(&dir, Reason::Topmost);
            root.inputs = narrow(&dir, files.iter(), known, &seen, false);
            roots.push(root);
            continue;
        }
        let why = if all_claimed {
            "read only together with other files by commands the linter cannot evaluate"
        } else {
            "its ytt files only hold overlays, data values, schemas or functions for other files"
        };
        let all: Vec<Root> = known.iter().chain(&roots).cloned().collect();
        // Files only commands the linter cannot evaluate read are still checked on their own
        // (their text: loads, annotations), not evaluated.
        for path in narrow(&dir, mine.iter().map(|f| **f), &all, &seen, all_claimed) {
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

/// The inputs of a topmost directory that holds roots found otherwise, or files only read
/// with inputs made at run time: the largest parts of it that hold none of them (ytt takes a
/// directory whole).
/// With `keep_claimed`, files read only with inputs made at run time count as the directory's
/// own (a directory of them is checked on its own).
fn narrow<'f>(
    dir: &str,
    files: impl Iterator<Item = &'f RepoFile>,
    known: &[Root],
    seen: &Seen,
    keep_claimed: bool,
) -> Vec<String> {
    let holds_root = |d: &str| {
        known
            .iter()
            .any(|r| r.inputs.iter().any(|i| is_within(i, d)))
            || (!keep_claimed && seen.claimed.iter().any(|c| is_within(c, d)))
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
        let claimed = !keep_claimed && seen.claimed(&f.path);
        if in_private_dir(&f.path) || claimed || seen.covered(&f.path, known) {
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
