//! Files a command reads only as data: its `--file-mark 'PATH:type=data'` marks them so
//! (ytt's own site build reads every example of `examples/playground` that way, to embed their
//! text in the web page). Such a command does not render them, so it does not cover them: the
//! layout still gives them the root that renders them as templates (see `topmost.rs`).
//! A file is read as data by a root when every one of the root's scenarios marks it so, the
//! marks applied in order as ytt applies them (a later `type=` mark wins).

use std::collections::BTreeSet;

use crate::files::paths::{self, is_within};
use crate::lint::discover::Root;
use crate::lint::repo::walk::RepoFile;
use crate::ytt_flags::file_marks;

/// The files of `files` that a root of `roots` reads only as data, each with the root's name.
pub fn read_as_data(roots: &[Root], files: &[RepoFile]) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for root in roots {
        let sets = mark_sets(root);
        if sets.is_empty() || sets.iter().all(|s| s.is_empty()) {
            continue;
        }
        for f in files.iter().filter(|f| f.kind.is_ytt()) {
            let Some(rel) = relative(root, &f.path) else {
                continue;
            };
            if sets.iter().all(|marks| is_data(marks, &rel)) {
                out.insert((root.name.clone(), f.path.clone()));
            }
        }
    }
    out
}

/// The file marks of each way the root is run: its own, with each scenario's.
fn mark_sets(root: &Root) -> Vec<Vec<String>> {
    let own = marks(&root.args);
    if root.scenarios.is_empty() {
        return vec![own];
    }
    root.scenarios
        .iter()
        .map(|s| {
            let mut all = own.clone();
            all.extend(marks(&s.args));
            all
        })
        .collect()
}

/// The values of `--file-mark` flags (`--file-mark X` or `--file-mark=X`).
fn marks(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--file-mark" {
            if let Some(v) = it.next() {
                out.push(v.clone());
            }
        } else if let Some(v) = a.strip_prefix("--file-mark=") {
            out.push(v.to_string());
        }
    }
    out
}

/// The path ytt gives `path` among the root's inputs: relative to the input directory that
/// holds it, or the file's own name for a file input (`None`: no unnamed input holds it).
fn relative(root: &Root, path: &str) -> Option<String> {
    root.inputs
        .iter()
        .filter(|i| !i.contains('='))
        .find(|i| is_within(path, i))
        .map(|i| {
            if i == path {
                path.rsplit('/').next().unwrap_or(path).to_string()
            } else {
                paths::between(i, path)
            }
        })
}

/// Whether the last `type=` mark matching `rel` makes it data.
fn is_data(marks: &[String], rel: &str) -> bool {
    let mut data = false;
    for m in marks {
        let Some((pattern, kv)) = m.split_once(':') else {
            continue;
        };
        let Some(ty) = kv.strip_prefix("type=") else {
            continue;
        };
        if file_marks::matches(pattern, rel) {
            data = ty == "data";
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::Reason;

    #[test]
    fn the_marks_decide_in_order_per_input() {
        let mut root = Root::found("site", Reason::Topmost);
        root.inputs = vec!["site".into(), "examples/basics".into(), "one.yml".into()];
        root.args = vec![
            "--file-mark".into(),
            "example**/*:type=data".into(),
            "--file-mark=example-b/keep.yml:type=yaml-template".into(),
            "--file-mark".into(),
            "one.yml:type=data".into(),
        ];
        let marks = mark_sets(&root).remove(0);
        let data = |p: &str| relative(&root, p).is_some_and(|r| is_data(&marks, &r));
        assert!(data("examples/basics/example-a/config.yml"));
        assert!(!data("examples/basics/example-b/keep.yml"));
        assert!(data("one.yml"));
        assert!(!data("site/index.yml"));
        assert!(!data("elsewhere/example-a/config.yml"));
    }
}
