//! vendir configurations (`vendir.yml`): the directories `vendir sync` fills. A directory the
//! configuration names that the repository does not hold has not been synced: the linter says
//! so once (`vendir-not-synced`) instead of reporting every file its consumers cannot find.

use crate::files::paths::{self, is_within};
use crate::lint::config::Config;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::Root;
use crate::lint::repo::walk::RepoFile;
use crate::lint::repo::yaml_doc::{documents, entry, get, items, string};
use crate::report::Rule;
use crate::report::{Diagnostic, Span};

/// A directory a vendir configuration fills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The configuration file (repository-relative) and the line of the path.
    pub file: String,
    pub line: u32,
    /// The directory (repository-relative).
    pub dir: String,
    /// Whether the repository holds it.
    pub synced: bool,
    /// Whether vendir fetches it from elsewhere (`git`, `helmChart`, `http`, an image ...):
    /// another project's files, not the repository's own (`manual` and `directory` are).
    pub third_party: bool,
}

/// The content sources that bring another project's files.
const FETCHED: [&str; 7] = [
    "git",
    "hg",
    "http",
    "image",
    "imgpkgBundle",
    "githubRelease",
    "helmChart",
];

/// Whether a repository file may be a vendir configuration: `vendir.yml` and its lock file,
/// or any YAML file whose name says vendir (`vendir-k8s-manifest.yml`, which `vendir sync -f`
/// reads); [`targets`] reads only the documents whose `apiVersion` is vendir's.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.contains("vendir") && (name.ends_with(".yml") || name.ends_with(".yaml"))
}

/// The directories the vendir configuration at `file` fills.
pub fn targets(file: &str, text: &str, index: &Index) -> Vec<Target> {
    let base = paths::parent(file);
    let mut out = Vec::new();
    for doc in documents(file, text) {
        let v = &doc.value;
        let api = string(get(v, "apiVersion")).unwrap_or("");
        // A lock file (`kind: LockConfig`) records what the last sync wrote.
        let kind = string(get(v, "kind"));
        if !api.starts_with("vendir.k14s.io/") || !matches!(kind, Some("Config" | "LockConfig")) {
            continue;
        }
        let lock = kind == Some("LockConfig");
        for dir in items(get(v, "directories")) {
            let Some(p) = entry(dir, "path") else {
                continue;
            };
            let Some(dir_path) = p.value.as_str() else {
                continue;
            };
            // A path that leaves the repository (`../../x`) is no directory of it.
            let Some(dir_path) = normalized(&paths::join(
                base,
                dir_path.trim_start_matches("./").trim_end_matches('/'),
            )) else {
                continue;
            };
            for content in items(get(dir, "contents")) {
                let Some(c) = entry(content, "path") else {
                    continue;
                };
                let Some(sub) = c.value.as_str() else {
                    continue;
                };
                let target = match sub.trim_start_matches("./").trim_end_matches('/') {
                    "" | "." => dir_path.clone(),
                    sub => paths::join(&dir_path, sub),
                };
                let synced = index.exists(&target);
                // A lock file only tells what was synced (its configuration says what is not).
                if lock && !synced {
                    continue;
                }
                out.push(Target {
                    file: file.to_string(),
                    line: c.pos.line,
                    synced,
                    third_party: FETCHED.iter().any(|k| get(content, k).is_some()),
                    dir: target,
                });
            }
        }
    }
    out
}

/// `path` with its `.` and `..` parts resolved, `None` when it leaves the repository.
fn normalized(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

/// The unsynced target `path` lies in, if any.
pub fn unsynced<'t>(targets: &'t [Target], path: &str) -> Option<&'t Target> {
    targets
        .iter()
        .find(|t| !t.synced && is_within(path, &t.dir))
}

/// The unsynced vendir directory a root holds or reads from, if any. (A directory a
/// configuration places outside the root, `../.github/workflows/vendor` from `ci/`, is not
/// the root's: [`targets`] resolves such paths.)
pub fn consumed_target<'t>(root: &Root, targets: &'t [Target]) -> Option<&'t Target> {
    targets.iter().filter(|t| !t.synced).find(|t| {
        root.inputs
            .iter()
            .any(|i| is_within(&t.dir, i) || is_within(i, &t.dir))
    })
}

/// The synced vendir directory a root found only as a topmost directory lies in, if any: its
/// files are another project's, written by `vendir sync` (often only some of them, by
/// `includePaths`), and nothing in the repository renders that directory alone.
pub fn vendored_topmost<'t>(root: &Root, targets: &'t [Target]) -> Option<&'t Target> {
    if root.reason != crate::lint::discover::Reason::Topmost {
        return None;
    }
    let vendored = |t: &&Target| t.synced && is_within(&root.path, &t.dir);
    targets.iter().find(vendored)
}

pub fn repository_targets(config: &Config, files: &[RepoFile], index: &Index) -> Vec<Target> {
    let mut out = Vec::new();
    // Configurations first: a directory is named where it is configured.
    let mut configs: Vec<&RepoFile> = files.iter().filter(|f| candidate(&f.path)).collect();
    configs.sort_by_key(|f| (f.path.contains(".lock."), f.path.as_str()));
    for f in configs {
        if let Some(text) = crate::files::repo_text::read_repo_text(&config.dir, &f.path) {
            for t in targets(&f.path, &text, index) {
                // The lock file of a configuration names its directories again.
                if let Some(seen) = out.iter_mut().find(|s: &&mut Target| s.dir == t.dir) {
                    seen.third_party |= t.third_party;
                    continue;
                }
                out.push(t);
            }
        }
    }
    out
}

/// One `vendir-not-synced` finding per configuration with directories not synced.
pub fn findings(targets: &[Target]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for t in targets.iter().filter(|t| !t.synced) {
        let dir = paths::parent(&t.file);
        if let Some(d) = out
            .iter_mut()
            .find(|d| d.span.as_ref().is_some_and(|s| s.file == t.file))
        {
            d.message.push_str(&format!(", {}", t.dir));
            continue;
        }
        let mut d = Diagnostic::new(
            Rule::VendirNotSynced,
            format!("vendir has not synced the directories of {}: {}", t.file, t.dir),
        )
        .at(Span::point(&t.file, t.line, 1))
        .with_help(format!(
            "run `vendir sync` in {dir}; until then the roots that use these directories are not linted"
        ));
        d.root = Some(dir.to_string());
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_and_their_state() {
        let index = Index::new([
            "pkg/vendir.yml",
            "pkg/config/overlay.yml",
            "pkg/config/upstream/a/x.yml",
        ]);
        let text = "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n- path: config/upstream\n  contents:\n  - path: a\n    git: {}\n  - path: b\n    git: {}\n";
        let t = targets("pkg/vendir.yml", text, &index);
        assert_eq!(t.len(), 2);
        assert!(t[0].synced);
        assert_eq!(t[1].dir, "pkg/config/upstream/b");
        assert!(!t[1].synced);
        assert_eq!(t[1].line, 8);
        assert!(unsynced(&t, "pkg/config/upstream/b/c.yml").is_some());
        assert!(unsynced(&t, "pkg/config/upstream/a/x.yml").is_none());
    }

    #[test]
    fn a_path_up_and_out_is_resolved() {
        let index = Index::new([".github/workflows/vendor/x.yml"]);
        let text = "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n- path: ../.github/workflows/vendor\n  contents:\n  - path: .\n    git: {}\n- path: ../../out\n  contents:\n  - path: .\n";
        let t = targets("ci/vendir.yml", text, &index);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].dir, ".github/workflows/vendor");
        assert!(t[0].synced);
    }
}
