//! The scripts Concourse tasks run by path. A task (a task file, or a step's inline
//! `config:`) whose `run.path` is `INPUT/REST`, `INPUT` one of its inputs and `REST` a
//! script of this repository, runs that script from its build directory with the input
//! mounted there: the input is a checkout of this repository (the script is found in it),
//! whatever resource fills it, and the script's `${PWD}/INPUT/...` paths are this
//! repository's. Round 6–22's N33-1 (cloudfoundry/bosh-bootloader's `ROOT="${PWD}"` and
//! `ytt -f "${ROOT}/bbl-ci/ci/tasks/…"`), where the script's own directory had been taken.

use std::collections::BTreeMap;

use super::index::Index;
use crate::lint::repo::yaml_doc::{documents, entries, get, items, string};
use crate::yaml::Value;

/// The most task files read.
const MAX_FILES: usize = 256;

/// For each script of the repository that a task runs by path, the input it runs it from.
/// A script two tasks run from inputs of different names is left out: its directory is not
/// known.
pub fn inputs<K>(texts: &[(String, K, String)], index: &Index) -> BTreeMap<String, String> {
    let mut found: BTreeMap<String, Option<String>> = BTreeMap::new();
    let candidates = texts
        .iter()
        .filter(|(p, _, t)| yaml_file(p) && candidate(t))
        .take(MAX_FILES);
    for (path, _, text) in candidates {
        for doc in documents(path, text) {
            runs(&doc.value, index, &mut found, 0);
        }
    }
    found
        .into_iter()
        .filter_map(|(script, input)| Some((script, input?)))
        .collect()
}

fn yaml_file(path: &str) -> bool {
    path.ends_with(".yml") || path.ends_with(".yaml")
}

/// Whether a text may hold a task that runs a script by path.
fn candidate(text: &str) -> bool {
    text.contains("run:") && text.contains("path:") && text.contains("inputs:")
}

fn runs(v: &Value, index: &Index, found: &mut BTreeMap<String, Option<String>>, depth: usize) {
    if depth > 64 {
        return;
    }
    if let Some((script, input)) = task(v, index) {
        let slot = found.entry(script).or_insert_with(|| Some(input.clone()));
        if slot.as_deref() != Some(input.as_str()) {
            *slot = None;
        }
    }
    match v {
        Value::Map(_) => {
            for e in entries(Some(v)) {
                runs(&e.value, index, found, depth + 1);
            }
        }
        Value::Array(_) => {
            for i in items(Some(v)) {
                runs(i, index, found, depth + 1);
            }
        }
        _ => {}
    }
}

/// The script and input of the task `config` (the map holding `run` and `inputs`).
fn task(config: &Value, index: &Index) -> Option<(String, String)> {
    let run = string(get(config, "run").and_then(|r| get(r, "path")))?;
    let run = run.trim_start_matches("./");
    if run.contains("((") || run.contains('$') {
        return None;
    }
    let (input, rest) = run.split_once('/')?;
    let mounted = items(get(config, "inputs")).into_iter().any(|i| {
        let dir = string(get(i, "path"))
            .or(string(get(i, "name")))
            .unwrap_or("");
        dir.trim_start_matches("./").trim_end_matches('/') == input
    });
    let rest = rest.trim_start_matches("./");
    let plain = rest
        .split('/')
        .all(|c| !c.is_empty() && c != "." && c != "..");
    (mounted && plain && index.is_file(rest)).then(|| (rest.to_string(), input.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(files: &[&str]) -> Index {
        Index::new(files.iter().copied())
    }

    #[test]
    fn a_task_file_runs_its_script_from_the_input_that_holds_the_repository() {
        let task = "platform: linux\ninputs:\n- name: bbl-ci\n- name: state\n\
outputs:\n- name: out\nrun:\n  path: bbl-ci/ci/tasks/make/task\n";
        let idx = index(&["ci/tasks/make/task", "ci/tasks/make/task.yml"]);
        let texts = vec![("ci/tasks/make/task.yml".to_string(), (), task.to_string())];
        let found = inputs(&texts, &idx);
        assert_eq!(
            found.get("ci/tasks/make/task").map(String::as_str),
            Some("bbl-ci")
        );

        // A path through an input the task does not have, a script the repository lacks, or
        // a path the pipeline fills: nothing is known.
        for run in [
            "other/ci/tasks/make/task",
            "bbl-ci/ci/tasks/gone",
            "((dir))/task",
        ] {
            let text = task.replace("bbl-ci/ci/tasks/make/task", run);
            let texts = vec![("ci/t.yml".to_string(), (), text)];
            assert!(inputs(&texts, &idx).is_empty(), "{run}");
        }
    }

    #[test]
    fn a_script_two_tasks_run_from_different_inputs_is_left_out() {
        let task =
            |input: &str| format!("inputs:\n- name: {input}\nrun:\n  path: {input}/ci/run.sh\n");
        let idx = index(&["ci/run.sh"]);
        let texts = vec![
            ("a.yml".to_string(), (), task("src")),
            ("b.yml".to_string(), (), task("repo")),
        ];
        assert!(inputs(&texts, &idx).is_empty());
        let texts = vec![
            ("a.yml".to_string(), (), task("src")),
            ("b.yml".to_string(), (), task("src")),
        ];
        assert_eq!(inputs(&texts, &idx).len(), 1);
    }
}
