//! The shell invocation reader as a fuzz target: a small repository made of fuzz bytes, whose
//! scripts, Makefiles, CI files, Taskfiles, kuttl and Concourse files and READMEs are read for
//! `ytt` commands, followed and resolved, as `lint::discover::invocations::find` does after
//! reading them from disk.
//!
//! The bytes are files separated by NUL bytes; a file is its repository path on the first line
//! and its text after it (`hack/render.sh\n#!/bin/bash\nytt -f config/\n`). Paths are made
//! repository paths as the walk gives them (`./`, empty and `.` parts dropped); a path with a
//! `..` part is not one, and its file is left out.

use super::input::Input;
use super::setup;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::invocations::{find_in, worth_reading};
use crate::lint::repo::marker::{annotated, has_annotation};
use crate::lint::repo::walk::Kind;

/// The most files one input makes.
const MAX_FILES: usize = 32;

/// Reads the repository of `data` for ytt commands, twice: the result must depend on nothing
/// but the files (the reports list it in the same order every run).
pub fn invocations(data: &[u8]) {
    setup();
    let files = files(data);
    let texts: Vec<(String, Kind, String)> = files
        .iter()
        .filter(|(p, k, _)| worth_reading(p, *k))
        .cloned()
        .collect();
    let run = || {
        // A fresh index each time: it counts the comparisons pattern matching makes.
        let index = Index::new(files.iter().map(|(p, _, _)| p.as_str()));
        format!("{:?}", find_in("repo", &texts, &index, &[]))
    };
    let first = run();
    assert_eq!(first, run(), "the same files gave different commands");
}

/// The files of `data`: repository path, kind (as the walk decides it) and text.
fn files(data: &[u8]) -> Vec<(String, Kind, String)> {
    let mut input = Input::new(data);
    let mut out: Vec<(String, Kind, String)> = Vec::new();
    while !input.is_empty() && out.len() < MAX_FILES {
        let file = input.text();
        let (path, text) = file.split_once('\n').unwrap_or((file.as_str(), ""));
        let Some(path) = repository_path(path) else {
            continue;
        };
        if out.iter().any(|(p, _, _)| *p == path) {
            continue;
        }
        let kind = kind_of(&path, text);
        out.push((path, kind, text.to_string()));
    }
    out
}

/// `path` as the repository walk gives it, or `None` when it leaves the repository or is empty.
fn repository_path(path: &str) -> Option<String> {
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// What the walk takes a file for, from its name and text (`walk::classify` without the disk).
fn kind_of(path: &str, text: &str) -> Kind {
    match path.rsplit('.').next().unwrap_or("") {
        "star" => Kind::Starlark,
        "yml" | "yaml" if has_annotation(text) && annotated(path, text) => Kind::YttYaml,
        "yml" | "yaml" => Kind::PlainYaml,
        "txt" if text.contains("(@") => Kind::TextTemplate,
        _ => Kind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_repository_paths_and_texts() {
        let files = files(b"./hack//r.sh\n#!/bin/sh\nytt -f config/\0../x.sh\nytt\0config/a.yml\n");
        let paths: Vec<&str> = files.iter().map(|(p, _, _)| p.as_str()).collect();
        assert_eq!(paths, ["hack/r.sh", "config/a.yml"]);
        assert_eq!(files[0].2, "#!/bin/sh\nytt -f config/");
        assert_eq!(files[1].1, Kind::PlainYaml);
    }

    #[test]
    fn a_script_gives_its_command() {
        let data = b"render.sh\n#!/bin/sh\nytt -f config/ -v x=1\n\0config/a.yml\n#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.x\n\0config/values.yml\n#@data/values\n---\nx: 0\n";
        let files = files(data);
        let index = Index::new(files.iter().map(|(p, _, _)| p.as_str()));
        let found = find_in("repo", &files, &index, &[]);
        assert_eq!(found.invocations.len(), 1, "{found:?}");
        assert_eq!(found.invocations[0].inputs, ["config"]);
        invocations(data);
    }
}
