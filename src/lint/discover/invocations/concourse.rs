//! Concourse tasks: a task's `run` (in a task file, or inline under a pipeline step's
//! `config:`) whose `path` is a shell and whose `args` hold `-c SCRIPT`. Concourse runs it in
//! a build directory where each input is a directory named after it, so paths start with an
//! input's name (`cf-for-k8s/config`): the script starts from the caller's directory, which
//! the resolution maps to the repository.

use std::collections::BTreeMap;

use super::snippet::{Snippet, CALLER};
use super::word::Word;
use crate::lint::repo::yaml_doc::{documents, entries, entry, get, items, string, text_offset};
use crate::yaml::Value;

/// Whether a YAML file may hold Concourse tasks (worth parsing).
pub fn candidate(text: &str) -> bool {
    text.contains("run:") && text.contains("path:") && text.contains("ytt")
}

/// The shell scripts of the Concourse file at repository-relative `path`.
pub fn snippets(path: &str, src: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    for doc in documents(path, src) {
        let git = super::concourse_inputs::git_artifacts(&doc.value);
        find_runs(&doc.value, path, src, &mut out, 0, &git);
    }
    out
}

fn find_runs(
    v: &Value,
    path: &str,
    src: &str,
    out: &mut Vec<Snippet>,
    depth: usize,
    git: &BTreeMap<String, String>,
) {
    if depth > 64 {
        return;
    }
    if let Some(run) = get(v, "run") {
        let before = out.len();
        task(run, path, src, out);
        let checkouts = super::concourse_inputs::checkouts(v, git);
        let guessed = super::concourse_inputs::guessed(&checkouts, git);
        for s in &mut out[before..] {
            s.checkouts.clone_from(&checkouts);
            s.assumed.extend(guessed.clone());
        }
    }
    match v {
        Value::Map(_) => {
            for e in entries(Some(v)) {
                if crate::yaml::scalar_key_string(&e.key) != "run" {
                    find_runs(&e.value, path, src, out, depth + 1, git);
                }
            }
        }
        Value::Array(_) => {
            for i in items(Some(v)) {
                find_runs(i, path, src, out, depth + 1, git);
            }
        }
        _ => {}
    }
}

fn task(run: &Value, path: &str, src: &str, out: &mut Vec<Snippet>) {
    let program = string(get(run, "path")).unwrap_or("");
    let shell = matches!(program.rsplit('/').next(), Some("sh" | "bash" | "zsh"));
    let Some(args) = entry(run, "args") else {
        return;
    };
    let Value::Array(list) = &args.value else {
        return;
    };
    if !shell {
        return;
    }
    let mut after_c = false;
    for item in &list.items {
        let Some(text) = item.value.as_str() else {
            continue;
        };
        if after_c {
            if text.contains("ytt") {
                let offset = text_offset(src, item.pos.line);
                out.push(Snippet::new(
                    path,
                    offset,
                    text.to_string(),
                    Word::lit(CALLER),
                ));
            }
            after_c = false;
        } else if text.starts_with('-') && text.contains('c') && !text.starts_with("--") {
            after_c = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_task_scripts() {
        let src = "jobs:\n- name: deploy\n  plan:\n  - task: install\n    config:\n      platform: linux\n      run:\n        path: /bin/bash\n        args:\n        - -ec\n        - |\n          kapp deploy -a cf -f <(ytt -f cf-for-k8s-main/config -f values.yml) -y\n";
        assert!(candidate(src));
        let s = snippets("ci/pipelines/p.yml", src);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line_offset, 11);
    }
}
