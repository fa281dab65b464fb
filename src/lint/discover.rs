//! Finds what to lint: the library roots (listed in the configuration; otherwise named by Carvel
//! `Package` resources, and, for ytt files no Package covers, the topmost directory holding
//! them) and every private library (`_ytt_lib/<name>`), each with the reason it was found.

use std::collections::BTreeSet;
use std::fmt;

use super::config::{Config, ScenarioConfig};
use super::paths::{self, is_within};
use super::walk::{self, Kind, RepoFile};
use super::{flags, package};
use crate::library::tree::PRIVATE_DIR;

/// Why a root is a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Listed in the configuration at this line.
    Config { line: u32 },
    /// Named by a Package resource's ytt step.
    Package {
        file: String,
        line: u32,
        name: String,
    },
    /// The topmost directory holding ytt files.
    Topmost,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Config { line } => write!(f, "listed in the configuration (line {line})"),
            Reason::Package { file, line, name } => {
                write!(f, "ytt path of Package {name} ({file}:{line})")
            }
            Reason::Topmost => f.write_str("topmost directory holding ytt files"),
        }
    }
}

/// A library root: one ytt invocation per scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// Repository-relative path (`.` for the repository itself).
    pub path: String,
    /// Repository-relative `-f` inputs (the path itself unless its flags or Package say more).
    pub inputs: Vec<String>,
    pub reason: Reason,
    /// ytt flags from the configuration.
    pub args: Vec<String>,
    /// Scenarios from the configuration (none: the root's own defaults).
    pub scenarios: Vec<ScenarioConfig>,
}

/// A private library, checked on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// Repository-relative directory (`.../_ytt_lib/<name>`).
    pub path: String,
    /// The directory whose `_ytt_lib` holds it.
    pub parent: String,
}

/// What discovery found.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    pub roots: Vec<Root>,
    pub libraries: Vec<Library>,
    /// Things worth telling (`--list-roots` and stderr): unreadable entries, Package paths
    /// that do not exist.
    pub notes: Vec<String>,
    /// Every file the walk found (suppression comments are looked for in them).
    pub files: Vec<RepoFile>,
    /// Plain YAML files outside every root that may hold KubeVirt Templates or
    /// VirtualMachines (files inside a root are checked in its rendered output).
    pub kubevirt_files: Vec<String>,
}

/// Walks the repository of `config` and finds its roots and libraries.
pub fn discover(config: &Config) -> Result<Discovery, String> {
    let exclude = walk::exclude_set(&config.exclude)?;
    let (files, problems) = walk::walk(&config.dir, &exclude);
    let mut d = from_files(config, &files);
    d.notes.splice(0..0, problems);
    d.files = files;
    Ok(d)
}

/// Roots and libraries from the walked `files` of the repository of `config`.
pub fn from_files(config: &Config, files: &[RepoFile]) -> Discovery {
    let mut d = Discovery::default();
    if config.roots.is_empty() {
        d.roots = package_roots(config, files, &mut d.notes);
        d.roots.extend(topmost_roots(files, &d.roots));
    } else {
        d.roots = configured_roots(config, &mut d.notes);
    }
    d.roots.sort_by(|a, b| a.path.cmp(&b.path));
    d.libraries = libraries(files);
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
    d
}

fn configured_roots(config: &Config, notes: &mut Vec<String>) -> Vec<Root> {
    let mut out = Vec::new();
    for rc in &config.roots {
        let inputs = match flags::resolve(
            &config.dir,
            &rc.path,
            std::slice::from_ref(&rc.path),
            &rc.args,
        ) {
            Ok(resolved) => flags::inputs(&config.dir, &resolved),
            Err(e) => {
                notes.push(format!("root {}: {e}", rc.path));
                vec![rc.path.clone()]
            }
        };
        out.push(Root {
            path: rc.path.clone(),
            inputs,
            reason: Reason::Config { line: rc.loc.line },
            args: rc.args.clone(),
            scenarios: rc.scenarios.clone(),
        });
    }
    out
}

fn package_roots(config: &Config, files: &[RepoFile], notes: &mut Vec<String>) -> Vec<Root> {
    let mut out: Vec<Root> = Vec::new();
    for f in files.iter().filter(|f| f.package) {
        let Ok(text) = std::fs::read_to_string(config.dir.join(&f.path)) else {
            continue;
        };
        for pkg in package::packages(&config.dir, &f.path, &text) {
            for m in &pkg.missing {
                notes.push(format!(
                    "{}:{}: ytt path \"{m}\" of Package {} not found in the repository",
                    pkg.file, pkg.line, pkg.name
                ));
            }
            let Some(first) = pkg.inputs.first().cloned() else {
                continue;
            };
            if out.iter().any(|r| r.path == first) {
                continue;
            }
            out.push(Root {
                path: first,
                inputs: pkg.inputs,
                reason: Reason::Package {
                    file: pkg.file,
                    line: pkg.line,
                    name: pkg.name,
                },
                args: Vec::new(),
                scenarios: Vec::new(),
            });
        }
    }
    out
}

/// Whether a repository-relative path lies inside some `_ytt_lib`.
fn in_private_dir(path: &str) -> bool {
    path.split('/').any(|c| c == PRIVATE_DIR)
}

/// The directories of `dirs` that have no ancestor in `dirs`.
fn topmost(dirs: &BTreeSet<String>) -> Vec<String> {
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

fn topmost_roots(files: &[RepoFile], known: &[Root]) -> Vec<Root> {
    let covered = |path: &str| {
        known
            .iter()
            .any(|r| r.inputs.iter().any(|i| is_within(path, i)))
    };
    let dirs: BTreeSet<String> = files
        .iter()
        .filter(|f| f.kind.is_ytt() && !in_private_dir(&f.path) && !covered(&f.path))
        .map(|f| paths::parent(&f.path).to_string())
        .collect();
    topmost(&dirs)
        .into_iter()
        .map(|path| Root {
            inputs: vec![path.clone()],
            path,
            reason: Reason::Topmost,
            args: Vec::new(),
            scenarios: Vec::new(),
        })
        .collect()
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
        for path in topmost(&dirs) {
            out.push(Library {
                path,
                parent: paths::parent(&private).to_string(),
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[cfg(test)]
#[path = "discover_tests.rs"]
mod tests;
