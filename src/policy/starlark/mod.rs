//! The repository's own policies, written in ytt's Starlark: every `.star` file directly in a
//! directory listed under `policies:` in .yttlint.yaml defines `check(obj)`, which receives
//! one rendered Kubernetes object (a dict, as `yaml.decode` would give it) and returns a list
//! of `violation(...)`s (`None` counts as none). Each violation is a finding of the rule
//! `policy/NAME` (NAME the file name without `.star`), at the template line of the field its
//! `path` names, with the severity it gives.
//!
//! Policies are untrusted input (they come with the pull request): they run in the sandbox of
//! [`host`], with the limits of a template. A policy that does not load, has no `check`,
//! fails on an object, exceeds a limit or returns something else is one `policy-error`
//! finding at its line; it checks no further object of the job.

pub mod files;
pub mod host;
pub mod module;

use starlark::environment::Module;
use starlark::eval::Evaluator;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::Value;

use super::object::Object;
use super::{At, Finding};
use crate::eval::convert::{value_to_starlark, MapAs};
use crate::eval::host::Extra;
use crate::eval::run::EvalError;
use crate::kubernetes::{written_at, Step};
use crate::pos::Pos;
use crate::report::policy_name::PolicyName;
use crate::report::{Rule, Severity};
use crate::yaml::Document;
use files::{Listed, Source};
use host::PolicyHost;
use module::{violation_of, PathStep};

/// The findings of the policies `listed` (whose files and helpers are in `sources`, under the
/// directories `dirs`) over the objects among `docs`.
pub fn run(
    dirs: &[String],
    listed: &[Listed],
    sources: &[Source],
    docs: &[&Document],
) -> Vec<Finding> {
    run_with(&PolicyHost::new(dirs, sources), listed, docs)
}

/// [`run`] in the sandbox `host`.
fn run_with(host: &PolicyHost<'_>, listed: &[Listed], docs: &[&Document]) -> Vec<Finding> {
    let objects: Vec<Object> = docs.iter().filter_map(|d| Object::new(d)).collect();
    let mut findings = Vec::new();
    for policy in listed {
        if crate::eval::cancel::requested() {
            break;
        }
        let Some(name) = PolicyName::new(&policy.name) else {
            findings.push(error_at(
                &policy.path,
                None,
                "the policy's name cannot be a rule id".into(),
            ));
            continue;
        };
        findings.extend(one(host, name, &policy.path, &objects));
    }
    findings
}

/// A `policy-error` finding at the policy file `path` (at `pos` when known, else its first
/// line).
fn error_at(path: &str, pos: Option<Pos>, message: String) -> Finding {
    let pos = pos
        .filter(|p| p.is_known() && p.file.as_deref() == Some(path))
        .map(|p| Pos {
            col: p.col.max(1),
            ..p
        })
        .unwrap_or_else(|| Pos::new(&std::sync::Arc::from(path), 1, 1, 0));
    Finding {
        rule: Rule::PolicyError,
        severity: None,
        message,
        object: None,
        at: At::Policy(pos),
        related: Vec::new(),
        cite_places: false,
    }
}

/// A `policy-error` for the evaluation error `e` of the policy `path`: at the line of the
/// policy file (or of a file it loads) where it failed.
fn failed(
    host: &PolicyHost<'_>,
    policy: PolicyName,
    path: &str,
    what: &str,
    e: &EvalError,
) -> Finding {
    // ytt's layout (`- message`, then the trace): the message goes on the first line.
    let text = e.message.trim_start_matches('\n');
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let first = first.trim_start_matches("- ");
    let message = match rest {
        "" => format!("{} failed {what}: {first}", policy.id()),
        _ => format!("{} failed {what}: {first}\n{rest}", policy.id()),
    };
    let pos = e
        .pos
        .clone()
        .filter(|p| p.file.as_deref().is_some_and(|f| host.has_source(f)));
    let file = pos
        .as_ref()
        .and_then(|p| p.file.as_deref())
        .unwrap_or(path)
        .to_string();
    error_at(&file, pos, message)
}

/// The findings of one policy over every object.
fn one(
    host: &PolicyHost<'_>,
    name: PolicyName,
    path: &str,
    objects: &[Object<'_>],
) -> Vec<Finding> {
    let module = match host.module(path) {
        Ok(m) => m,
        Err(e) => return vec![failed(host, name, path, "to load", &e)],
    };
    let Ok(check) = module.get("check") else {
        let message = format!("{} defines no check(obj) function", name.id());
        return vec![error_at(path, None, message)];
    };
    let mut findings = Vec::new();
    let extra = Extra {
        host,
        ctx: host.ctx_of(path),
    };
    Module::with_temp_heap(|heap_module| {
        let mut eval = Evaluator::new(&heap_module);
        eval.extra = Some(&extra);
        // SAFETY: `owned_frozen_value` makes the evaluator's frozen heap keep the policy
        // module's heap alive, and that heap outlives every value of this evaluation.
        let f = unsafe { check.owned_frozen_value(eval.frozen_heap()) }.to_value();
        if !crate::stdlib::args::is_callable(f) {
            let message = format!("{}: check is a {}, not a function", name.id(), f.get_type());
            findings.push(error_at(path, None, message));
            return;
        }
        host.env.limits.apply(&mut eval);
        for obj in objects {
            let arg = value_to_starlark(&obj.doc.value, heap_module.heap(), MapAs::Dict);
            let result = {
                let _entered = crate::eval::progress::enter(path);
                eval.eval_function(f, &[arg], &[])
            };
            let what = format!("on {}", obj.describe());
            let returned = match result {
                Ok(v) => v,
                Err(e) => {
                    let e = crate::eval::errors::format_error(&e, &host.env);
                    findings.push(failed(host, name, path, &what, &e));
                    return;
                }
            };
            match violations(name, obj, returned) {
                Ok(found) => findings.extend(found),
                Err(m) => {
                    let message = format!(
                        "{} returned what is not a list of violations {what}: {m}",
                        name.id()
                    );
                    findings.push(error_at(path, None, message));
                    return;
                }
            }
        }
    });
    findings
}

/// The findings of what `check(obj)` returned.
fn violations(name: PolicyName, obj: &Object<'_>, v: Value<'_>) -> Result<Vec<Finding>, String> {
    if v.is_none() {
        return Ok(Vec::new());
    }
    let items: Vec<Value> = if let Some(list) = ListRef::from_value(v) {
        list.content().to_vec()
    } else if let Some(tuple) = TupleRef::from_value(v) {
        tuple.content().to_vec()
    } else {
        return Err(format!("a {}", v.get_type()));
    };
    items
        .into_iter()
        .map(|item| {
            let found = violation_of(item)?;
            let steps: Vec<Step> = found
                .path
                .iter()
                .map(|s| match s {
                    PathStep::Key(k) => Step::Key(k.clone()),
                    PathStep::Index(i) => Step::Index(*i),
                })
                .collect();
            Ok(Finding {
                rule: Rule::Policy(name),
                severity: Severity::parse(&found.severity),
                message: format!("{}: {}", obj.describe(), found.message),
                object: Some(obj.describe()),
                at: At::Output(written_at(obj.doc, &steps)),
                related: Vec::new(),
                cite_places: false,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
