//! A Concourse pipeline that sets itself with a task of another repository. `ci/pipeline.yml`
//! loads `funcs.lib.yml`, which this repository does not hold; the pipeline's own job gets a
//! second repository (`get: pipeline-tasks`) and runs its task (`file:
//! pipeline-tasks/tasks/boot.yml`), which renders the pipeline with that repository's
//! libraries and overlays (`ytt -f src/ci/pipeline.yml -f pipeline-tasks/common`) before
//! `set_pipeline` (round eleven's FW11-B1, six cloud-gov repositories).
//!
//! The rule: a `load()` of a file that is not there, in a root whose command is only inferred
//! from the layout, in a pipeline that has a `set_pipeline` step and runs a task whose `file:`
//! comes from an input that is not this repository (a `get:` of a git resource whose uri
//! names another repository, or of a resource the pipeline declares without a source, which
//! an overlay of that other repository fills in), rests on that input: the finding assumes
//! `missing-input`, naming the input and its task, and is a note. A pipeline whose every task
//! comes from this repository keeps the load's finding.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::lint::discover::invocations::concourse_inputs::git_artifacts;
use crate::lint::job::Job;
use crate::lint::repo::yaml_doc::{documents, entries, get, items, string};
use crate::report::{Assumption, AssumptionKind, Basis, Diagnostic, Rule};
use crate::yaml::Value;

use super::appended::{inferred_roots, read_small};

/// `found` with each missing `load()` of a self-setting pipeline whose task comes from
/// another repository marked as resting on that repository.
pub fn settle(repo: &Path, jobs: &[Job], mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let inferred = inferred_roots(jobs);
    let name = repo
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut seen: BTreeMap<String, Option<(String, String)>> = BTreeMap::new();
    for d in &mut found {
        if d.rule != Rule::LoadError || !d.message.contains("Expected to find file") {
            continue;
        }
        let Some(p) = d.root.as_deref().and_then(|r| inferred.get(r)) else {
            continue;
        };
        let Some(file) = d.span.as_ref().map(|s| s.file.clone()) else {
            continue;
        };
        let sibling = seen
            .entry(file.clone())
            .or_insert_with(|| {
                let text = read_small(repo, &file)?;
                foreign_task(&file, &text, &name)
            })
            .clone();
        let Some((input, task)) = sibling else {
            continue;
        };
        let mut p = (*p).clone();
        p.assume(Assumption::new(
            AssumptionKind::MissingInput,
            format!(
                "the pipeline sets itself with the task {task} of its input `{input}`, another \
                 repository the linter does not see, which may give the file loaded here"
            ),
        ));
        d.basis = Some(Basis::Command);
        d.certainty = Some(p.certainty(Basis::Command));
    }
    found
}

/// The input and the task file of a self-setting pipeline's task that comes from another
/// repository than the one named `repo` (its directory's name), if any.
fn foreign_task(file: &str, text: &str, repo: &str) -> Option<(String, String)> {
    if !text.contains("set_pipeline") {
        return None;
    }
    for doc in documents(file, text) {
        let v = &doc.value;
        let git = git_artifacts(v);
        let mut gets = BTreeSet::new();
        let mut tasks = Vec::new();
        walk(v, &mut gets, &mut tasks, 0);
        for task in tasks {
            let Some((input, _)) = task.split_once('/') else {
                continue;
            };
            let own = git.get(input).is_some_and(|uri| names_repo(uri, repo));
            if gets.contains(input) && !own {
                return Some((input.to_string(), task));
            }
        }
    }
    None
}

/// The `get:` names and the task `file:` paths of a pipeline document.
fn walk(v: &Value, gets: &mut BTreeSet<String>, tasks: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    if let Some(g) = string(get(v, "get")) {
        gets.insert(g.to_string());
    }
    if let (Some(_), Some(f)) = (get(v, "task"), string(get(v, "file"))) {
        tasks.push(f.to_string());
    }
    match v {
        Value::Map(_) => {
            for e in entries(Some(v)) {
                walk(&e.value, gets, tasks, depth + 1);
            }
        }
        Value::Array(_) => {
            for i in items(Some(v)) {
                walk(i, gets, tasks, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether a git uri names the repository whose directory is `repo` (`NAME`, or `ORG+NAME`,
/// `ORG-NAME`, `ORG_NAME`, as the checkouts are named).
fn names_repo(uri: &str, repo: &str) -> bool {
    let uri = uri.trim_end_matches('/');
    let uri = uri.strip_suffix(".git").unwrap_or(uri).to_ascii_lowercase();
    let mut segs = uri.rsplit(['/', ':']);
    let (Some(name), Some(org)) = (segs.next(), segs.next()) else {
        return false;
    };
    repo == name
        || ["-", "_", "+"]
            .iter()
            .any(|s| repo == format!("{org}{s}{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PIPELINE: &str = "#@ load(\"funcs.lib.yml\", \"notify\")\n---\njobs:\n\
        - name: set-self\n  plan:\n  - get: src\n  - get: pipeline-tasks\n  - task: boot\n    \
        file: pipeline-tasks/tasks/boot.yml\n  - set_pipeline: app\n    file: compiled/p.yml\n\
        resources:\n- name: src\n  type: git\n  source: {uri: https://github.com/example/app}\n\
        - name: pipeline-tasks\n";

    #[test]
    fn a_task_of_another_repository_is_found() {
        let found = foreign_task("ci/pipeline.yml", PIPELINE, "app");
        assert_eq!(
            found,
            Some((
                "pipeline-tasks".to_string(),
                "pipeline-tasks/tasks/boot.yml".to_string()
            ))
        );
        // Every task from this repository, or no `set_pipeline`: none.
        let own = PIPELINE.replace("pipeline-tasks/tasks/boot.yml", "src/ci/boot.yml");
        assert_eq!(foreign_task("ci/pipeline.yml", &own, "app"), None);
        let unset = PIPELINE.replace("set_pipeline", "put");
        assert_eq!(foreign_task("ci/pipeline.yml", &unset, "app"), None);
        assert!(names_repo("git@github.com:example/app.git", "example+app"));
        assert!(!names_repo("https://github.com/example/tasks", "app"));
    }
}
