//! Files a command reads only as data: its `--file-mark 'PATH:type=data'` marks them so
//! (ytt's own site build reads every example of `examples/playground` that way, to embed their
//! text in the web page). Such a command does not render them, so it does not cover them: the
//! layout still gives them the root that renders them as templates (see `topmost.rs`).
//! Only a directory input whose ytt files are all data counts (the examples' folder); a data
//! file among the command's own templates is theirs to read (`data.read("values.yml")`), and
//! the command's root is the one that renders its directory. A file is data for a root when
//! every one of the root's scenarios marks it so, the marks applied in order as ytt applies
//! them (a later `type=` mark wins).

use std::collections::BTreeSet;

use crate::files::paths::{self, is_within};
use crate::lint::discover::Root;
use crate::lint::repo::walk::RepoFile;
use crate::ytt_flags::file_marks;

/// The files of `files` that a root of `roots` reads only as data, each with the root's name:
/// those of a directory input all of whose ytt files every scenario marks as data. A data file
/// among the templates of its input (`config/values.yml` that `config/main.yml` reads with
/// `data.read`) stays covered: the command's root is the one that renders that directory.
pub fn read_as_data(roots: &[Root], files: &[RepoFile]) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for root in roots {
        let sets = mark_sets(root);
        if sets.iter().all(|s| s.is_empty()) {
            continue;
        }
        for input in root.inputs.iter().filter(|i| !i.contains('=')) {
            let mine: Vec<&RepoFile> = files
                .iter()
                .filter(|f| f.kind.is_ytt() && f.path != *input && is_within(&f.path, input))
                .collect();
            let data = |f: &&RepoFile| {
                let rel = paths::between(input, &f.path);
                sets.iter().all(|marks| is_data(marks, &rel))
            };
            if !mine.is_empty() && mine.iter().all(data) {
                out.extend(mine.iter().map(|f| (root.name.clone(), f.path.clone())));
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
    use crate::lint::repo::walk::Kind;

    fn file(path: &str) -> RepoFile {
        RepoFile::for_test(path, Kind::YttYaml)
    }

    #[test]
    fn only_an_input_read_wholly_as_data_leaves_its_files_uncovered() {
        let mut root = Root::found("site", Reason::Topmost);
        root.inputs = vec!["site".into(), "examples".into(), "config".into()];
        root.args = vec![
            "--file-mark".into(),
            "example**/*:type=data".into(),
            "--file-mark=values.yml:type=data".into(),
        ];
        let files = [
            file("site/index.yml"),
            file("examples/example-a/config.yml"),
            file("examples/example-b/x.yml"),
            file("config/main.yml"),
            file("config/values.yml"),
        ];
        let data: Vec<String> = read_as_data(&[root.clone()], &files)
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        assert_eq!(
            data,
            ["examples/example-a/config.yml", "examples/example-b/x.yml"]
        );
        // A later mark makes one of them a template again: the input is not all data.
        root.args.extend([
            "--file-mark".into(),
            "example-b/x.yml:type=yaml-template".into(),
        ]);
        assert!(read_as_data(&[root], &files).is_empty());
    }
}
