//! Which roots and libraries a run lints, from the paths on the command line. No path, or the
//! repository itself: everything. A directory: the roots and libraries inside it or containing
//! it. A file (pre-commit passes the staged files): the roots and libraries that contain it
//! when ytt reads it (YAML, Starlark, text), the roots whose scenarios or flags name it as a
//! data values file, and everything for the configuration file itself; a deleted file or a file
//! of another kind selects nothing.

use std::path::{Path, PathBuf};

use globset::GlobSet;

use crate::files::paths::{self, is_within};
use crate::lint::config::flags;
use crate::lint::config::parse::split_lib_ref;
use crate::lint::config::Config;
use crate::lint::discover::{Discovery, Root};

/// Indices into [`Discovery::roots`] and [`Discovery::libraries`], ascending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub roots: Vec<usize>,
    pub libraries: Vec<usize>,
    /// The plain YAML files of [`Discovery::kubevirt_files`] that are checked: those in the
    /// directories given, or all of them when one of them is given as a file (VirtualMachines
    /// and their Templates may be in different files).
    pub plain: Vec<String>,
    /// The paths given, repository-relative (empty: the whole repository). `--list-roots`
    /// shows only the skipped commands and notes that concern them.
    pub scope: Vec<String>,
}

impl Selection {
    fn all(d: &Discovery) -> Selection {
        Selection {
            roots: (0..d.roots.len()).collect(),
            libraries: (0..d.libraries.len()).collect(),
            plain: d.kubevirt_files.clone(),
            scope: Vec::new(),
        }
    }

    /// Whether `text` (a command's origin, a reason or a note) concerns what was asked for.
    pub fn concerns(&self, text: &str) -> bool {
        self.scope.is_empty()
            || self.scope.iter().any(|dir| {
                dir == "."
                    || text
                        .split([' ', ':', ',', '(', ')', '`'])
                        .any(|w| overlaps(w, dir))
            })
    }

    fn add(&mut self, other: Selection) {
        self.roots.extend(other.roots);
        self.libraries.extend(other.libraries);
        self.plain.extend(other.plain);
    }
}

/// The selection for `targets` (absolute paths inside the repository).
pub fn select(config: &Config, d: &Discovery, exclude: &GlobSet, targets: &[PathBuf]) -> Selection {
    if targets.is_empty() {
        return Selection::all(d);
    }
    let mut sel = Selection::default();
    for t in targets {
        let Some(rel) = paths::relative(&config.dir, t) else {
            continue;
        };
        if t.is_dir() {
            sel.add(by_directory(d, &rel));
        } else if t.is_file() && config.file.as_deref() == Some(t.as_path()) {
            sel.add(Selection::all(d));
        } else if t.is_file() && !exclude.is_match(&rel) {
            sel.add(by_file(config, d, &rel));
        }
    }
    sel.roots.sort_unstable();
    sel.roots.dedup();
    sel.libraries.sort_unstable();
    sel.libraries.dedup();
    sel.plain.sort_unstable();
    sel.plain.dedup();
    sel.scope = targets
        .iter()
        .filter_map(|t| paths::relative(&config.dir, t))
        .collect();
    sel
}

fn overlaps(a: &str, b: &str) -> bool {
    is_within(a, b) || is_within(b, a)
}

fn by_directory(d: &Discovery, dir: &str) -> Selection {
    Selection {
        roots: positions(&d.roots, |r| r.inputs.iter().any(|i| overlaps(i, dir))),
        libraries: positions(&d.libraries, |l| overlaps(&l.path, dir)),
        plain: d
            .kubevirt_files
            .iter()
            .filter(|f| is_within(f, dir))
            .cloned()
            .collect(),
        scope: Vec::new(),
    }
}

/// Whether ytt reads a file of this name as input (YAML, Starlark, text).
fn read_by_ytt(path: &str) -> bool {
    let ext = path.rsplit('.').next().unwrap_or("");
    matches!(ext, "yml" | "yaml" | "star" | "txt")
}

fn by_file(config: &Config, d: &Discovery, file: &str) -> Selection {
    let ytt = read_by_ytt(file);
    Selection {
        roots: positions(&d.roots, |r| {
            (ytt && r.inputs.iter().any(|i| is_within(file, i)))
                || values_inputs(&config.dir, r)
                    .iter()
                    .any(|v| is_within(file, v))
        }),
        libraries: positions(&d.libraries, |l| ytt && is_within(file, &l.path)),
        plain: if d.kubevirt_files.iter().any(|f| f == file) {
            d.kubevirt_files.clone()
        } else {
            Vec::new()
        },
        scope: Vec::new(),
    }
}

/// Repository-relative data values files a root reads: its scenarios' `values_files` and the
/// paths of `--data-values-file` and `--data-value-file` in its flags.
fn values_inputs(repo: &Path, root: &Root) -> Vec<String> {
    let mut out: Vec<String> = root
        .scenarios
        .iter()
        .flat_map(|s| &s.values_files)
        .map(|v| strip_prefixes(v).to_string())
        .collect();
    if let Ok(resolved) = flags::resolve(repo, &root.path, &root.inputs, &root.args) {
        let from_flags = resolved
            .dv_files
            .iter()
            .map(|f| strip_prefixes(f))
            .map(crate::files::input::path_of)
            .chain(
                resolved
                    .dv_file
                    .iter()
                    .filter_map(|kv| kv.split_once('=').map(|(_, p)| p)),
            );
        out.extend(from_flags.filter_map(|p| paths::relative(repo, Path::new(p))));
    }
    out
}

fn strip_prefixes(arg: &str) -> &str {
    let rest = split_lib_ref(arg).1;
    rest.strip_prefix("+:").unwrap_or(rest)
}

fn positions<T>(items: &[T], keep: impl Fn(&T) -> bool) -> Vec<usize> {
    items
        .iter()
        .enumerate()
        .filter(|(_, x)| keep(x))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
