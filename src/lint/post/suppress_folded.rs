//! Suppressions of findings folded by cause ([`crate::lint::job::same_cause`]): the uses of
//! one missing data value are one finding, the others its related locations. A suppression
//! still applies where it applied before the folding, use by use:
//!
//! - one that covers a related use (`data-value-unknown-reference` at that line) keeps that
//!   use out of the finding, and counts as used;
//! - one that covers the finding itself (its rule at its line) suppresses it there, and the
//!   uses left are still reported: the first of them becomes the finding, with the others
//!   related (a use is a `data-value-unknown-reference`, even where the suppressed finding
//!   was the evaluation's error that the missing value caused).

use crate::lint::job::same_cause::folded_use;
use crate::lint::post::suppress::{Suppression, Used};
use crate::report::{Diagnostic, Related, Rule, Span};

/// `found` with the suppressed uses of folded findings taken out; adds the suppressions
/// that did so to `used`.
pub fn settle(found: Vec<Diagnostic>, sups: &[Suppression], used: &mut Used) -> Vec<Diagnostic> {
    let covering = |rule: Rule, span: &Span, used: &mut Used| -> bool {
        let hits: Vec<usize> = (0..sups.len())
            .filter(|&i| sups[i].covers_at(rule, span))
            .collect();
        for &i in &hits {
            used.insert((i, rule.id().to_string()));
        }
        !hits.is_empty()
    };
    let mut out = Vec::with_capacity(found.len());
    for mut d in found {
        if !d.related.iter().any(|r| folded_use(r).is_some()) {
            out.push(d);
            continue;
        }
        let reference = Rule::DataValueUnknownReference;
        d.related
            .retain(|r| folded_use(r).is_none() || !covering(reference, &r.span, used));
        let held = d.span.clone().is_some_and(|s| covering(d.rule, &s, used));
        if !held {
            out.push(d);
            continue;
        }
        // The finding itself is suppressed; its other uses are still read.
        let (uses, _own): (Vec<Related>, Vec<Related>) = d
            .related
            .iter()
            .cloned()
            .partition(|r| folded_use(r).is_some());
        let Some((first, rest)) = uses.split_first() else {
            continue;
        };
        let mut next = d.clone();
        next.span = Some(first.span.clone());
        next.related = rest.to_vec();
        if d.rule != reference {
            let name = folded_use(first).unwrap_or_default();
            let at = d
                .span
                .as_ref()
                .map_or(String::new(), |s| format!(" at line {}", s.line));
            next.rule = reference;
            next.message = format!(
                "{name}: nothing sets it; the failure it causes{at} is suppressed, this use is not"
            );
            next.fix = None;
            next.help = None;
        }
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::post::suppress::Scope;
    use crate::report::Severity;

    const CAUSE: &str =
        "data.values.registry: no data values document or input sets registry at the top";

    fn folded(holder: Rule, message: &str) -> Diagnostic {
        let mut d = Diagnostic::new(holder, message).at(Span::point("base/secret.yaml", 14, 5));
        d.severity = Severity::Error;
        for line in [15, 17] {
            d.related.push(Related {
                message: "also reads data.values.registry, the same missing value".into(),
                span: Span::point("base/secret.yaml", line, 5),
            });
        }
        d
    }

    fn disable(rule: &str, line: u32) -> Suppression {
        Suppression {
            file: "base/secret.yaml".into(),
            line,
            column: 20,
            rules: vec![rule.into()],
            scope: Scope::Lines {
                first: line,
                last: line,
            },
            problem: None,
        }
    }

    /// What `settle` leaves of the one finding [`folded`] makes, under `sups`, and the
    /// suppressions it used.
    fn settled(holder: Rule, message: &str, sups: &[Suppression]) -> (Vec<Diagnostic>, Used) {
        let mut used = Used::new();
        let out = settle(vec![folded(holder, message)], sups, &mut used);
        (out, used)
    }

    fn lines(d: &Diagnostic) -> (u32, Vec<u32>) {
        (
            d.span.as_ref().map_or(0, |s| s.line),
            d.related.iter().map(|r| r.span.line).collect(),
        )
    }

    #[test]
    fn a_suppression_at_a_related_use_keeps_that_use_out() {
        let sups = [disable("data-value-unknown-reference", 15)];
        let (out, used) = settled(Rule::DataValueUnknownReference, CAUSE, &sups);
        assert_eq!(out.len(), 1);
        assert_eq!(lines(&out[0]), (14, vec![17]));
        assert!(used.contains(&(0, "data-value-unknown-reference".to_string())));
    }

    #[test]
    fn a_suppression_of_the_finding_leaves_the_other_uses_reported() {
        let sups = [disable("data-value-unknown-reference", 14)];
        let (out, used) = settled(Rule::DataValueUnknownReference, CAUSE, &sups);
        assert_eq!(out.len(), 1);
        assert_eq!(lines(&out[0]), (15, vec![17]));
        assert_eq!(out[0].message, CAUSE);
        assert_eq!(used.len(), 1);
        // The evaluation's error suppressed: the uses are still unknown references.
        let sups = [disable("template-error", 14)];
        let (out, _) = settled(
            Rule::TemplateError,
            "struct has no .registry field or method",
            &sups,
        );
        assert_eq!(out[0].rule, Rule::DataValueUnknownReference);
        assert_eq!(lines(&out[0]), (15, vec![17]));
        assert!(out[0].message.starts_with("data.values.registry: nothing sets it; the failure it causes at line 14 is suppressed"), "{}", out[0].message);
        // Every use suppressed: nothing is left.
        let sups = [
            disable("template-error", 14),
            disable("data-value-unknown-reference", 15),
            disable("data-value-unknown-reference", 17),
        ];
        let (out, used) = settled(
            Rule::TemplateError,
            "struct has no .registry field or method",
            &sups,
        );
        assert!(out.is_empty(), "{out:#?}");
        assert_eq!(used.len(), 3);
    }

    #[test]
    fn findings_without_folded_uses_are_left_to_the_suppressions() {
        let d = Diagnostic::new(Rule::TemplateError, "boom").at(Span::point("a.yml", 3, 1));
        let out = settle(
            vec![d.clone()],
            &[disable("template-error", 3)],
            &mut Used::new(),
        );
        assert_eq!(out, [d]);
    }
}
