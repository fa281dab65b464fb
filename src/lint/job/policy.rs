//! The policy layer ([`crate::policy`]) over a root's rendered objects: the built-in checks
//! that are on (the cross-object ones by default, kube-linter's when asked for) and the
//! repository's own Starlark policies, each finding placed at the template line that wrote
//! the field it names (through the same [`SpanOf`] as `k8s-schema`'s findings). Only the
//! objects something applies are checked (see [`super::kubernetes::applied`]).
//!
//! The policy files are read once per run, by the plan, and travel with each job (their
//! text is part of the job, so of its cache key): a worker process reads no policy file.

use serde::{Deserialize, Serialize};

use crate::lint::config::Config;
use crate::lint::job::engine::SpanOf;
use crate::policy::starlark::files::{read, Listed, Source};
use crate::policy::{At, Finding};
use crate::report::{Diagnostic, Rule, Span};
use crate::yaml::{DocSet, Document};

/// What a job checks its rendered objects with.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PolicyCheck {
    /// The built-in checks that are on.
    pub rules: Vec<Rule>,
    /// The policy directories, the policies on, and every `.star` file under them.
    pub dirs: Vec<String>,
    pub policies: Vec<Listed>,
    pub sources: Vec<Source>,
}

impl PolicyCheck {
    /// What the configuration turns on; `None` when nothing is (no cost at all).
    pub fn of(config: &Config) -> Option<PolicyCheck> {
        let rules: Vec<Rule> = crate::policy::checks()
            .map(|c| c.rule)
            .filter(|r| config.check_on(*r))
            .collect();
        let p = &config.policies;
        // A policy runs when its rule is on, or `policy-error` is (to say it fails).
        let on = |r: Rule| config.level(r) != Some(crate::lint::config::RuleLevel::Off);
        let policies: Vec<Listed> = p
            .listed
            .iter()
            .filter(|l| {
                Rule::from_id(&format!("policy/{}", l.name))
                    .is_some_and(|r| on(r) || on(Rule::PolicyError))
            })
            .cloned()
            .collect();
        if rules.is_empty() && policies.is_empty() {
            return None;
        }
        let sources = match policies.is_empty() {
            true => Vec::new(),
            false => read(&config.dir, &p.dirs),
        };
        Some(PolicyCheck {
            rules,
            dirs: p.dirs.clone(),
            policies,
            sources,
        })
    }
}

/// The findings of `check` over the objects of `docs`.
pub fn findings(check: &PolicyCheck, docs: &DocSet, span_of: SpanOf<'_>) -> Vec<Diagnostic> {
    let (objects, others): (Vec<&Document>, Vec<&Document>) = docs
        .items
        .iter()
        .partition(|d| super::kubernetes::applied(d));
    if objects.is_empty() {
        return Vec::new();
    }
    let mut found = crate::policy::run(&check.rules, &objects, &others);
    if !check.policies.is_empty() {
        found.extend(crate::policy::starlark::run(
            &check.dirs,
            &check.policies,
            &check.sources,
            &objects,
        ));
    }
    found.into_iter().map(|f| diagnostic(f, span_of)).collect()
}

fn span(at: &At, span_of: SpanOf<'_>) -> Option<Span> {
    match at {
        At::Output(pos) => span_of(pos),
        At::Policy(pos) => {
            let file = pos.file.as_deref()?;
            Some(Span::point(file, pos.line.max(1), pos.col.max(1)))
        }
    }
}

fn diagnostic(f: Finding, span_of: SpanOf<'_>) -> Diagnostic {
    let at = span(&f.at, span_of);
    let related: Vec<(String, Option<Span>)> = f
        .related
        .iter()
        .map(|(m, a)| (m.clone(), span(a, span_of)))
        .collect();
    let mut message = f.message;
    if f.cite_places {
        let places: Vec<String> = related
            .iter()
            .filter_map(|(_, s)| s.as_ref())
            .chain(at.as_ref())
            .map(|s| format!("{}:{}", s.file, s.line))
            .collect();
        if !places.is_empty() {
            message = format!("{message}: at {}", places.join(" and "));
        }
    }
    let mut d = Diagnostic::new(f.rule, message);
    if let Some(s) = f.severity {
        d.severity = s;
    }
    if let Some(span) = at {
        d = d.at(span);
    }
    for (m, s) in related {
        if let Some(s) = s {
            d = d.with_related(m, s);
        }
    }
    d.object = f.object;
    d
}
