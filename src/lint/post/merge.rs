//! Identical findings print once. A file that several roots include, or a root that several
//! commands run, gives the same finding from each job: the same rule, severity, place,
//! message and help. The report keeps the first (by root, then scenario) with its root and
//! scenario, and lists every other one as a related location, `also in root R, scenario S`,
//! at the command that runs ytt that way, or at the finding's own place when nothing does.
//!
//! Run last, after the roots' statuses are settled and the baseline applied: both count
//! findings per root and scenario.

use std::collections::HashMap;

use crate::lint::job::model::ORIGIN_NOTE;
use crate::report::location::origin;
use crate::report::{Diagnostic, Related, Rule, Severity, Span};

/// What makes two findings the same, whatever root and scenario gave them.
type Key = (
    Span,
    Rule,
    Severity,
    String,
    Option<String>,
    Option<String>,
    Vec<Related>,
);

fn key(d: &Diagnostic, span: &Span) -> Key {
    let related = d
        .related
        .iter()
        .filter(|r| r.message != ORIGIN_NOTE)
        .cloned()
        .collect();
    (
        span.clone(),
        d.rule,
        d.severity,
        d.message.clone(),
        d.object.clone(),
        d.help.clone(),
        related,
    )
}

/// `found` with each set of identical findings made one.
pub fn once(mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    found.sort();
    let mut out: Vec<Diagnostic> = Vec::with_capacity(found.len());
    let mut first: HashMap<Key, usize> = HashMap::new();
    for d in found {
        // A finding with no place has nothing to list the others at.
        let Some(span) = d.span.clone() else {
            out.push(d);
            continue;
        };
        let k = key(&d, &span);
        match first.get(&k).and_then(|&i| out.get_mut(i)) {
            Some(kept) => also(kept, &d, span),
            None => {
                first.insert(k, out.len());
                out.push(d);
            }
        }
    }
    out
}

/// Lists `other` in `kept`, at the command that runs ytt the way `other` was found, or at `at`.
/// A fix that another root does not give alike was proved safe for one root only: it is
/// kept, unsafe.
fn also(kept: &mut Diagnostic, other: &Diagnostic, at: Span) {
    if kept.fix != other.fix {
        if let Some(fix) = kept.fix.as_mut() {
            fix.applicability = crate::fix::Applicability::Unsafe;
        }
    }
    let Some(where_) = origin(other).filter(|o| Some(o) != origin(kept).as_ref()) else {
        return;
    };
    let span = other
        .related
        .iter()
        .find(|r| r.message == ORIGIN_NOTE)
        .map_or(at, |r| r.span.clone());
    let related = Related {
        message: format!("also in {where_}"),
        span,
    };
    if !kept.related.contains(&related) {
        kept.related.push(related);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(root: &str, scenario: Option<&str>, command: Option<u32>) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::TemplateError, "boom").at(Span::point("t.yml", 3, 1));
        d.root = Some(root.to_string());
        d.scenario = scenario.map(str::to_string);
        if let Some(line) = command {
            d = d.with_related(ORIGIN_NOTE, Span::point("build.sh", line, 1));
        }
        d
    }

    #[test]
    fn identical_findings_of_several_roots_and_scenarios_print_once() {
        let mut other = found("a", Some("s1"), Some(1));
        other.message = "other".into();
        let merged = once(vec![
            found("b", None, None),
            found("a", Some("s2"), Some(2)),
            found("a", Some("s1"), Some(1)),
            other,
        ]);
        assert_eq!(merged.len(), 2);
        let d = &merged[0];
        assert_eq!(
            (d.root.as_deref(), d.scenario.as_deref()),
            (Some("a"), Some("s1"))
        );
        let related: Vec<(String, String, u32)> = d
            .related
            .iter()
            .map(|r| (r.message.clone(), r.span.file.clone(), r.span.line))
            .collect();
        assert_eq!(
            related,
            [
                (ORIGIN_NOTE.to_string(), "build.sh".to_string(), 1),
                (
                    "also in root a, scenario s2".to_string(),
                    "build.sh".to_string(),
                    2
                ),
                ("also in root b".to_string(), "t.yml".to_string(), 3),
            ]
        );
        assert_eq!(merged[1].message, "other");
    }

    #[test]
    fn a_fix_another_root_does_not_give_alike_is_unsafe() {
        use crate::fix::{Applicability, Edit, Fix};
        let edit = Edit::new("t.yml", "a\nb\nc\n", 0, 2, "").unwrap();
        let with = |fix: Option<Fix>, root: &str| {
            let mut d = found(root, None, None);
            d.fix = fix;
            d
        };
        let safe = Fix::safe("Remove", edit.clone());
        let merged = once(vec![
            with(Some(safe.clone()), "a"),
            with(Some(Fix::unsafe_("Remove", edit)), "b"),
        ]);
        assert_eq!(merged.len(), 1);
        let fix = merged[0].fix.as_ref().unwrap();
        assert_eq!(fix.applicability, Applicability::Unsafe);
        let merged = once(vec![with(Some(safe.clone()), "a"), with(Some(safe), "b")]);
        assert_eq!(
            merged[0].fix.as_ref().unwrap().applicability,
            Applicability::Safe
        );
    }
}
