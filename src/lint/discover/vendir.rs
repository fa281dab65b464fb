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
}

/// Whether a repository file is a vendir configuration.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "vendir.yml" | "vendir.yaml")
}

/// The directories the vendir configuration at `file` fills.
pub fn targets(file: &str, text: &str, index: &Index) -> Vec<Target> {
    let base = paths::parent(file);
    let mut out = Vec::new();
    for doc in documents(file, text) {
        let v = &doc.value;
        let api = string(get(v, "apiVersion")).unwrap_or("");
        if !api.starts_with("vendir.k14s.io/") || string(get(v, "kind")) != Some("Config") {
            continue;
        }
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
                out.push(Target {
                    file: file.to_string(),
                    line: c.pos.line,
                    synced: index.exists(&target),
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

/// The unsynced vendir directory a root needs, if any: one its inputs lie in, or one it holds
/// and uses (a private library under its `_ytt_lib`, or a directory its files load from or
/// name). A directory the root holds but never uses does not stop it. `text` gives the text
/// of a repository file.
pub fn consumed_target<'t>(
    root: &Root,
    targets: &'t [Target],
    files: &[RepoFile],
    text: &dyn Fn(&str) -> Option<String>,
) -> Option<&'t Target> {
    targets.iter().filter(|t| !t.synced).find(|t| {
        root.inputs.iter().any(|i| {
            if is_within(i, &t.dir) {
                return true;
            }
            if !is_within(&t.dir, i) {
                return false;
            }
            let inside = t.dir.strip_prefix(i.as_str()).unwrap_or(&t.dir);
            if inside
                .split('/')
                .any(|p| p == crate::library::tree::PRIVATE_DIR)
            {
                return true;
            }
            let name = t.dir.rsplit('/').next().unwrap_or(&t.dir);
            files
                .iter()
                .filter(|f| f.kind.is_ytt() && is_within(&f.path, i) && !is_within(&f.path, &t.dir))
                .any(|f| text(&f.path).is_some_and(|x| names(&x, name)))
        })
    })
}

/// Whether a file's text names the directory `name` in a string (a `load()` path, a
/// `library.get()` name).
fn names(text: &str, name: &str) -> bool {
    ["\"", "'"].iter().any(|q| {
        text.contains(&format!("{q}{name}/"))
            || text.contains(&format!("/{name}/"))
            || text.contains(&format!("{q}{name}{q}"))
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
    for f in files.iter().filter(|f| candidate(&f.path)) {
        if let Ok(text) = std::fs::read_to_string(config.dir.join(&f.path)) {
            out.extend(targets(&f.path, &text, index));
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

    #[test]
    fn a_root_needs_only_the_directories_it_uses() {
        let target = |dir: &str| Target {
            file: "app/vendir.yml".into(),
            line: 1,
            dir: dir.into(),
            synced: false,
        };
        let file = |p: &str| RepoFile {
            path: p.into(),
            kind: crate::lint::repo::walk::Kind::YttYaml,
            package: false,
            kubevirt: false,
            directives: false,
            crds: Vec::new(),
        };
        let root = Root::found("app", crate::lint::discover::Reason::Topmost);
        let files = [file("app/a.yml"), file("app/b.yml")];
        let text = |p: &str| {
            Some(match p {
                "app/a.yml" => "#@ load(\"helpers/x.star\", \"x\")\n".to_string(),
                _ => "a: 1\n".to_string(),
            })
        };
        let used = [target("app/helpers")];
        assert!(consumed_target(&root, &used, &files, &text).is_some());
        let unused = [target("app/docs-vendor")];
        assert!(consumed_target(&root, &unused, &files, &text).is_none());
        let library = [target("app/_ytt_lib/dep")];
        assert!(consumed_target(&root, &library, &files, &text).is_some());
    }
}
