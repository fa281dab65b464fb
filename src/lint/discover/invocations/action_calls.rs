//! Local composite actions (`.github/actions/NAME/action.yml`) called by this repository's
//! own workflows (`uses: ./.github/actions/NAME`, round twenty-eight's R28-3 and R28-4). GitHub
//! writes each `${{ inputs.X }}` of the action's steps from the calling step's `with: X`:
//!
//! - a literal is that text;
//! - the calling workflow's own input (`${{ inputs.Y }}`, `${{ github.event.inputs.Y }}`)
//!   declared `type: choice` with `options:` is each option in turn, one reading of the
//!   action's steps per combination (at most [`MAX_READINGS`] per call: beyond, the choices are
//!   left to run time);
//! - an input the caller leaves out is the action's `default:`;
//! - anything else is known at run time only, as when nothing calls the action.
//!
//! The caller's job also says where the workspace is: a checkout with `path:` moves the
//! repository below `$GITHUB_WORKSPACE`.

use super::ci;
use super::reusable::{literal, triggers};
use super::snippet::Snippet;
use crate::lint::repo::walk::Kind;
use crate::lint::repo::yaml_doc::{documents, entries, get, items, string};
use crate::yaml::Value;

/// The most readings of one call's choice inputs (each reads the action's steps again).
const MAX_READINGS: usize = 16;

/// The most calls of one action read.
const MAX_CALLS: usize = 16;

/// What a calling step gives one input of the action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Given {
    /// Literal text.
    Text(String),
    /// One of the options of the calling workflow's choice input.
    Choice(Vec<String>),
    /// Known at run time only.
    RunTime,
}

/// A step of a workflow of this repository that uses a local action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionCall {
    /// The action's directory (`.github/actions/publish`).
    pub action: String,
    /// Whether the calling job checks the repository out below the workspace.
    pub moved: bool,
    /// Its `with:` inputs.
    pub with: Vec<(String, Given)>,
}

/// The options of a workflow's `workflow_dispatch` inputs of `type: choice`.
fn choices(wf: &Value) -> Vec<(String, Vec<String>)> {
    let inputs = triggers(wf)
        .and_then(|t| get(t, "workflow_dispatch"))
        .and_then(|d| get(d, "inputs"));
    entries(inputs)
        .into_iter()
        .filter(|i| string(get(&i.value, "type")) == Some("choice"))
        .filter_map(|i| {
            let options: Vec<String> = items(get(&i.value, "options"))
                .into_iter()
                .filter_map(literal)
                .collect();
            (!options.is_empty()).then(|| (crate::yaml::scalar_key_string(&i.key), options))
        })
        .collect()
}

/// The name of the workflow input a `with:` value is exactly (`${{ inputs.Y }}`,
/// `${{ github.event.inputs.Y }}`).
fn workflow_input(text: &str) -> Option<&str> {
    let inner = text.trim().strip_prefix("${{")?.strip_suffix("}}")?.trim();
    let name = inner
        .strip_prefix("inputs.")
        .or_else(|| inner.strip_prefix("github.event.inputs."))?;
    name.chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        .then_some(name)
}

/// What a calling step's `with:` value gives, knowing the workflow's choice inputs.
fn given(v: &Value, choices: &[(String, Vec<String>)]) -> Given {
    if let Some(text) = literal(v) {
        return Given::Text(text);
    }
    let named = string(Some(v)).and_then(workflow_input);
    match named.and_then(|n| choices.iter().find(|(k, _)| k == n)) {
        Some((_, options)) => Given::Choice(options.clone()),
        None => Given::RunTime,
    }
}

/// The steps of the repository's workflows (`texts`: repository path, kind, text) that use
/// one of its local actions (`uses: ./DIR`).
pub fn calls(texts: &[(String, Kind, String)]) -> Vec<ActionCall> {
    let mut out = Vec::new();
    for (path, _, text) in texts.iter().filter(|(p, _, _)| ci::is_workflow(p)) {
        if !["uses: ./", "uses: \"./", "uses: './"]
            .iter()
            .any(|u| text.contains(u))
        {
            continue;
        }
        for doc in documents(path, text) {
            let choices = choices(&doc.value);
            for job in entries(get(&doc.value, "jobs")) {
                let moved = ci::moved_checkout(&job.value);
                for step in items(get(&job.value, "steps")) {
                    let Some(uses) = string(get(step, "uses")) else {
                        continue;
                    };
                    let Some(dir) = uses.trim().strip_prefix("./") else {
                        continue;
                    };
                    let with = entries(get(step, "with"))
                        .into_iter()
                        .map(|i| {
                            let key = crate::yaml::scalar_key_string(&i.key);
                            (key, given(&i.value, &choices))
                        })
                        .collect();
                    out.push(ActionCall {
                        action: dir.trim_end_matches('/').to_string(),
                        moved,
                        with,
                    });
                }
            }
        }
    }
    out
}

/// The `default:` of each of an action's inputs.
fn defaults(action: &Value) -> Vec<(String, String)> {
    entries(get(action, "inputs"))
        .into_iter()
        .filter_map(|i| {
            let value = literal(get(&i.value, "default")?)?;
            Some((crate::yaml::scalar_key_string(&i.key), value))
        })
        .collect()
}

/// Each reading of one call: the value of every input it binds. Choice inputs multiply; more
/// than [`MAX_READINGS`] leave them to run time.
fn readings(call: &ActionCall, defaults: &[(String, String)]) -> Vec<Vec<(String, String)>> {
    let mut fixed: Vec<(String, String)> = defaults
        .iter()
        .filter(|(k, _)| !call.with.iter().any(|(w, _)| w == k))
        .cloned()
        .collect();
    let mut chosen: Vec<(&str, &[String])> = Vec::new();
    for (key, g) in &call.with {
        match g {
            Given::Text(t) => fixed.push((key.clone(), t.clone())),
            Given::Choice(options) => chosen.push((key, options)),
            Given::RunTime => {}
        }
    }
    let count = chosen
        .iter()
        .try_fold(1usize, |n, (_, o)| n.checked_mul(o.len()));
    if count.is_none_or(|n| n > MAX_READINGS) {
        chosen.clear();
    }
    let mut out = vec![fixed];
    for (key, options) in chosen {
        out = out
            .into_iter()
            .flat_map(|base| {
                options.iter().map(move |o| {
                    let mut next = base.clone();
                    next.push((key.to_string(), o.clone()));
                    next
                })
            })
            .collect();
    }
    out
}

/// The snippets of a local composite action: once per reading of each call of this
/// repository's workflows, with the inputs it gives; as written (inputs known at run time)
/// when nothing here calls it.
pub fn snippets(
    path: &str,
    src: &str,
    mentions: &dyn Fn(&str) -> bool,
    calls: &[ActionCall],
) -> Vec<Snippet> {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let mine: Vec<&ActionCall> = calls
        .iter()
        .filter(|c| c.action == dir)
        .take(MAX_CALLS)
        .collect();
    if mine.is_empty() {
        return ci::action(path, src, mentions, false, &|_| None);
    }
    let defaults: Vec<(String, String)> = documents(path, src)
        .iter()
        .flat_map(|d| defaults(&d.value))
        .collect();
    let mut out: Vec<Snippet> = Vec::new();
    for call in mine {
        for reading in readings(call, &defaults) {
            let value = |expr: &str| -> Option<String> {
                let name = expr.strip_prefix("inputs.")?;
                reading
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone())
            };
            for s in ci::action(path, src, mentions, call.moved, &value) {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACTION: &str = "inputs:\n  service:\n    required: true\n  env:\n    required: true\n  mode:\n    default: fast\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: ytt -f deploy/${{ inputs.env }} -f deploy/${{ inputs.service }}.yaml -v mode=${{ inputs.mode }}\n";

    fn texts(workflow: &str) -> Vec<(String, Kind, String)> {
        vec![(
            ".github/workflows/publish.yml".to_string(),
            Kind::PlainYaml,
            workflow.to_string(),
        )]
    }

    #[test]
    fn literal_and_choice_inputs_give_one_reading_each() {
        let wf = "on:\n  workflow_dispatch:\n    inputs:\n      service:\n        type: choice\n        options: [api, web]\njobs:\n  p:\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./.github/actions/publish\n        with:\n          service: ${{ github.event.inputs.service }}\n          env: prod\n";
        let found = calls(&texts(wf));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].action, ".github/actions/publish");
        assert!(!found[0].moved);
        let s = snippets(
            ".github/actions/publish/action.yml",
            ACTION,
            &|_| true,
            &found,
        );
        let texts: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "ytt -f deploy/prod -f deploy/api.yaml -v mode=fast",
                "ytt -f deploy/prod -f deploy/web.yaml -v mode=fast"
            ]
        );
        assert!(s[0].vars.iter().any(|(k, _)| k == "GITHUB_WORKSPACE"));
    }

    #[test]
    fn a_free_input_or_no_caller_is_known_at_run_time() {
        let wf = "on:\n  workflow_dispatch:\n    inputs:\n      service:\n        type: string\njobs:\n  p:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          path: src\n      - uses: ./.github/actions/publish\n        with:\n          service: ${{ inputs.service }}\n          env: prod\n";
        let found = calls(&texts(wf));
        assert_eq!(found[0].with[0].1, Given::RunTime);
        assert!(found[0].moved);
        let s = snippets(
            ".github/actions/publish/action.yml",
            ACTION,
            &|_| true,
            &found,
        );
        assert_eq!(s.len(), 1);
        assert!(
            s[0].text.contains("deploy/${__yttlint_0}.yaml"),
            "{}",
            s[0].text
        );
        assert!(!s[0].vars.iter().any(|(k, _)| k == "GITHUB_WORKSPACE"));
        let alone = snippets(".github/actions/publish/action.yml", ACTION, &|_| true, &[]);
        assert!(
            alone[0].text.contains("mode=${__yttlint_2}"),
            "{}",
            alone[0].text
        );
    }

    #[test]
    fn too_many_choices_are_left_to_run_time() {
        let call = ActionCall {
            action: "a".to_string(),
            moved: false,
            with: vec![
                ("x".to_string(), Given::Choice(vec!["1".into(); 5])),
                ("y".to_string(), Given::Choice(vec!["2".into(); 5])),
            ],
        };
        assert_eq!(readings(&call, &[]), vec![Vec::<(String, String)>::new()]);
    }
}
