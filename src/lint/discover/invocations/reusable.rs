//! Reusable GitHub workflows (`on: workflow_call`). A workflow that only runs when another
//! calls it runs in its caller's checkout, with its caller's `inputs`:
//!
//! - called by a workflow of this repository (`uses: ./.github/workflows/F.yml`), the
//!   checkout is this repository and each `${{ inputs.X }}` is the caller's `with: X` (or the
//!   input's `default:`), as GitHub writes it into the step's text: its commands are read once
//!   per caller with those values;
//! - called by none of them, the checkout is another repository's (`uses:
//!   org/repo/.github/workflows/F.yml@v1`, written elsewhere): its inputs are the caller's
//!   files. A command whose inputs this repository does not hold is not reported missing (see
//!   [`excuse`]), and what is found with its inputs here assumes the caller's checkout holds
//!   the same files (`caller-checkout`).

use std::collections::BTreeSet;

use super::ci;
use super::snippet::Snippet;
use crate::lint::repo::walk::Kind;
use crate::lint::repo::yaml_doc::{documents, entries, get, string};
use crate::report::{Assumption, AssumptionKind};
use crate::yaml::Value;

/// The most callers of one workflow read (each reads the workflow's steps again).
const MAX_CALLERS: usize = 16;

/// A job of a workflow of this repository that calls a reusable workflow of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    /// The called workflow (`.github/workflows/release.yml`).
    pub called: String,
    /// Where the call is (`.github/workflows/ci.yml:12`).
    pub at: String,
    /// Its `with:` values: literal text, or `None` for an expression known at run time.
    pub with: Vec<(String, Option<String>)>,
}

/// The `on:` of a workflow (YAML 1.1 reads the key `on` as `true`).
pub(super) fn triggers(wf: &Value) -> Option<&Value> {
    get(wf, "on").or_else(|| get(wf, "true"))
}

/// Whether a workflow runs only when another calls it.
fn only_called(wf: &Value) -> bool {
    let names: Vec<String> = match triggers(wf) {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .items
            .iter()
            .filter_map(|i| i.value.as_str().map(str::to_string))
            .collect(),
        Some(Value::Map(m)) => m
            .items
            .iter()
            .map(|i| crate::yaml::scalar_key_string(&i.key))
            .collect(),
        _ => Vec::new(),
    };
    !names.is_empty() && names.iter().all(|n| n == "workflow_call")
}

/// The `default:` of each of a reusable workflow's inputs.
fn defaults(wf: &Value) -> Vec<(String, String)> {
    let inputs = triggers(wf)
        .and_then(|t| get(t, "workflow_call"))
        .and_then(|c| get(c, "inputs"));
    entries(inputs)
        .into_iter()
        .filter_map(|i| {
            let value = literal(get(&i.value, "default")?)?;
            Some((crate::yaml::scalar_key_string(&i.key), value))
        })
        .collect()
}

/// A YAML value as the text GitHub writes for it; `None` for an expression or a collection.
pub(super) fn literal(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.contains("${{") => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) => Some(i.to_string()),
        Value::Uint(u) => Some(u.to_string()),
        Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

/// The calls of the repository's workflows (`texts`: repository path, kind, text) to its own
/// reusable workflows.
pub fn callers(texts: &[(String, Kind, String)]) -> Vec<Caller> {
    let mut out = Vec::new();
    for (path, _, text) in texts.iter().filter(|(p, _, _)| ci::is_workflow(p)) {
        if !text.contains("uses:") || !text.contains(".github/workflows/") {
            continue;
        }
        for doc in documents(path, text) {
            for job in entries(get(&doc.value, "jobs")) {
                let Some(uses) = string(get(&job.value, "uses")) else {
                    continue;
                };
                let Some(called) = uses.trim().strip_prefix("./") else {
                    continue;
                };
                if !ci::is_workflow(called) {
                    continue;
                }
                let with = entries(get(&job.value, "with"))
                    .into_iter()
                    .map(|i| (crate::yaml::scalar_key_string(&i.key), literal(&i.value)))
                    .collect();
                out.push(Caller {
                    called: called.to_string(),
                    at: format!("{path}:{}", job.pos.line),
                    with,
                });
            }
        }
    }
    out
}

/// The workflows that run only in another repository's checkout: reusable, and called by no
/// workflow of this one.
pub fn foreign(texts: &[(String, Kind, String)], callers: &[Caller]) -> BTreeSet<String> {
    texts
        .iter()
        .filter(|(p, _, t)| ci::is_workflow(p) && t.contains("workflow_call"))
        .filter(|(p, _, _)| !callers.iter().any(|c| c.called == *p))
        .filter(|(p, _, t)| documents(p, t).iter().any(|d| only_called(&d.value)))
        .map(|(p, _, _)| p.clone())
        .collect()
}

/// The snippets of a workflow: a reusable one's once per caller of this repository, with the
/// caller's inputs; one nothing here calls, assuming the caller's checkout holds these files.
pub fn snippets(
    path: &str,
    src: &str,
    mentions: &dyn Fn(&str) -> bool,
    callers: &[Caller],
) -> Vec<Snippet> {
    let docs = documents(path, src);
    if !docs.iter().any(|d| only_called(&d.value)) {
        return ci::workflow(path, src, mentions);
    }
    let defaults: Vec<(String, String)> = docs.iter().flat_map(|d| defaults(&d.value)).collect();
    let mine: Vec<&Caller> = callers
        .iter()
        .filter(|c| c.called == path)
        .take(MAX_CALLERS)
        .collect();
    if mine.is_empty() {
        let mut out = ci::workflow(path, src, mentions);
        let a = Assumption::new(
            AssumptionKind::CallerCheckout,
            format!(
                "{path} is a reusable workflow (`on: workflow_call`) that no workflow of this repository calls: it runs in its caller's checkout, taken to hold this repository's files"
            ),
        );
        for s in &mut out {
            s.assumed.push(a.clone());
        }
        return out;
    }
    let mut out: Vec<Snippet> = Vec::new();
    for caller in mine {
        let value = |expr: &str| -> Option<String> {
            let name = expr.strip_prefix("inputs.")?;
            if !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
            {
                return None;
            }
            match caller.with.iter().find(|(k, _)| k == name) {
                Some((_, v)) => v.clone(),
                None => defaults
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone()),
            }
        };
        for s in ci::workflow_with(path, src, mentions, &value) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// Why a command of `file` whose inputs this repository does not hold is not reported: the
/// workflow runs in its caller's checkout, which holds them.
pub fn excuse(file: &str, foreign: &BTreeSet<String>) -> Option<String> {
    foreign.contains(file).then(|| {
        format!(
            "{file} is a reusable workflow (`on: workflow_call`) that no workflow of this repository calls: its inputs are in its caller's checkout"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALLED: &str = "on:\n  workflow_call:\n    inputs:\n      env:\n        type: string\n        required: true\n      app:\n        type: string\n        default: web\njobs:\n  render:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ytt -f deploy/${{ inputs.app }} --data-values-file env/${{ inputs.env }}.yml\n";

    fn texts(caller: Option<&str>) -> Vec<(String, Kind, String)> {
        let mut t = vec![(
            ".github/workflows/render.yml".to_string(),
            Kind::PlainYaml,
            CALLED.to_string(),
        )];
        if let Some(c) = caller {
            t.push((
                ".github/workflows/ci.yml".to_string(),
                Kind::PlainYaml,
                c.to_string(),
            ));
        }
        t
    }

    #[test]
    fn a_caller_of_this_repository_gives_the_inputs_and_defaults_fill_the_rest() {
        let caller = "on: push\njobs:\n  prod:\n    uses: ./.github/workflows/render.yml\n    with:\n      env: prod\n  dev:\n    uses: ./.github/workflows/render.yml\n    with:\n      env: ${{ github.ref_name }}\n";
        let t = texts(Some(caller));
        let found = callers(&t);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].at, ".github/workflows/ci.yml:3");
        assert!(foreign(&t, &found).is_empty());
        let s = snippets(".github/workflows/render.yml", CALLED, &|_| true, &found);
        assert_eq!(s.len(), 2);
        assert!(
            s[0].text
                .starts_with("ytt -f deploy/web --data-values-file env/prod.yml"),
            "{}",
            s[0].text
        );
        // An expression of the caller is known at run time only.
        assert!(
            s[1].text.contains("env/${__yttlint_0}.yml"),
            "{}",
            s[1].text
        );
        assert!(s.iter().all(|s| s.assumed.is_empty()));
    }

    #[test]
    fn a_workflow_nothing_here_calls_runs_in_its_caller_s_checkout() {
        let t = texts(None);
        let found = callers(&t);
        let away = foreign(&t, &found);
        assert!(away.contains(".github/workflows/render.yml"));
        assert!(excuse(".github/workflows/render.yml", &away).is_some());
        let s = snippets(".github/workflows/render.yml", CALLED, &|_| true, &found);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].assumed[0].kind, AssumptionKind::CallerCheckout);
        // A workflow that also runs on its own events runs in this repository too.
        let both = CALLED.replace("on:\n", "on:\n  push: {}\n");
        let t = vec![(
            ".github/workflows/render.yml".to_string(),
            Kind::PlainYaml,
            both.clone(),
        )];
        assert!(foreign(&t, &[]).is_empty());
        let s = snippets(".github/workflows/render.yml", &both, &|_| true, &[]);
        assert!(s[0].assumed.is_empty());
    }
}
