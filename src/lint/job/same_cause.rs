//! One finding per cause. A data value that nothing sets is read at every line that uses it:
//! `data.values.registry.server`, `.username`, `.password` give one
//! `data-value-unknown-reference` each, and the evaluation stops at the first of them with
//! `struct has no .registry field or method`. That is one defect (the values lack `registry`),
//! fixed in one place, so it is one finding: the evaluation's error where there is one (the
//! static finding at its line names the cause), else the first use, with every other use as a
//! related location (`also reads data.values.registry, which nothing sets`).
//!
//! Only findings without a fix are folded: a name with a suggestion (`did you mean
//! registry?`) is a typo at that use, each one its own defect with its own fix.

use std::collections::BTreeMap;

use crate::report::{Diagnostic, Related, Rule, Severity, Span};

/// `kept` with each group of unknown references to one missing value folded into one finding.
/// `dropped` are the static findings the evaluation's errors stood for (at their lines): they
/// say which error a missing value caused.
pub fn fold(kept: Vec<Diagnostic>, dropped: &[Diagnostic]) -> Vec<Diagnostic> {
    // Each cause, by the first line of its message, and where it is read.
    let mut uses: BTreeMap<(Severity, String), Vec<Span>> = BTreeMap::new();
    for d in kept.iter().filter(|d| foldable(d)) {
        if let Some(s) = &d.span {
            uses.entry(cause(d)).or_default().push(s.clone());
        }
    }
    uses.retain(|_, spans| !spans.is_empty());
    if uses.is_empty() {
        return kept;
    }
    // The evaluation's error that a cause explains: the one whose line a dropped finding of
    // that cause was at.
    let mut explained: BTreeMap<(String, u32), (Severity, String)> = BTreeMap::new();
    for d in dropped.iter().filter(|d| foldable(d)) {
        if let Some(s) = &d.span {
            explained.insert((s.file.clone(), s.line), cause(d));
        }
    }
    let error_of = |d: &Diagnostic| -> Option<(Severity, String)> {
        if d.rule.is_static() || d.severity != Severity::Error {
            return None;
        }
        let s = d.span.as_ref()?;
        let c = explained.get(&(s.file.clone(), s.line))?;
        uses.contains_key(c).then(|| c.clone())
    };
    let mut holder: BTreeMap<(Severity, String), usize> = BTreeMap::new();
    for (i, d) in kept.iter().enumerate() {
        if let Some(c) = error_of(d) {
            holder.entry(c).or_insert(i);
        }
    }
    for (i, d) in kept.iter().enumerate() {
        if foldable(d) && d.span.is_some() {
            holder.entry(cause(d)).or_insert(i);
        }
    }
    let mut out: Vec<Diagnostic> = Vec::with_capacity(kept.len());
    let mut index_of: BTreeMap<usize, usize> = BTreeMap::new();
    let mut folded: Vec<(usize, (Severity, String), Span)> = Vec::new();
    for (i, d) in kept.into_iter().enumerate() {
        let key = foldable(&d).then(|| cause(&d));
        match (key, &d.span) {
            (Some(k), Some(s)) if holder.get(&k) != Some(&i) => {
                let at = holder.get(&k).copied().unwrap_or(i);
                folded.push((at, k, s.clone()));
            }
            _ => {
                index_of.insert(i, out.len());
                out.push(d);
            }
        }
    }
    for (at, (_, message), span) in folded {
        let Some(d) = index_of.get(&at).and_then(|&j| out.get_mut(j)) else {
            continue;
        };
        let name = message.split(':').next().unwrap_or_default();
        let r = Related {
            message: format!("{ALSO_READS}{name}{SAME_VALUE}"),
            span,
        };
        if !d.related.contains(&r) {
            d.related.push(r);
        }
    }
    out
}

/// How a folded use is said as a related location: `also reads NAME, the same missing value`.
const ALSO_READS: &str = "also reads ";
const SAME_VALUE: &str = ", the same missing value";

/// Whether `r` is another use of the missing value of the finding it is related to (one
/// `data-value-unknown-reference` that [`fold`] folded): the name it reads, if it is.
pub fn folded_use(r: &Related) -> Option<&str> {
    r.message.strip_prefix(ALSO_READS)?.strip_suffix(SAME_VALUE)
}

/// Whether `d` reads a data value that nothing sets or declares, without a suggestion.
fn foldable(d: &Diagnostic) -> bool {
    d.rule == Rule::DataValueUnknownReference
        && d.fix.is_none()
        && !d.message.contains("(did you mean")
}

/// What a finding about a missing value is about: its severity and message's first line
/// (`data.values.registry: no data values document or input sets registry at the top`).
fn cause(d: &Diagnostic) -> (Severity, String) {
    let first = d.message.lines().next().unwrap_or_default().to_string();
    (d.severity, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn missing(line: u32) -> Diagnostic {
        Diagnostic::new(
            Rule::DataValueUnknownReference,
            "data.values.registry: no data values document or input sets registry at the top",
        )
        .at(Span::point("base/secret.yaml", line, 5))
    }

    #[test]
    fn the_uses_of_one_missing_value_are_one_finding_at_the_error() {
        let error = Diagnostic::new(
            Rule::TemplateError,
            "struct has no .registry field or method",
        )
        .at(Span::point("base/secret.yaml", 13, 5));
        let other = Diagnostic::new(Rule::UnusedLoad, "overlay is loaded but never used")
            .at(Span::point("base/secret.yaml", 2, 1));
        let kept = vec![other.clone(), error, missing(14), missing(15), missing(17)];
        let out = fold(kept, &[missing(13)]);
        assert_eq!(out.len(), 2, "{out:#?}");
        assert_eq!(out[0], other);
        assert_eq!(out[1].rule, Rule::TemplateError);
        let lines: Vec<u32> = out[1].related.iter().map(|r| r.span.line).collect();
        assert_eq!(lines, [14, 15, 17]);
        assert!(out[1].related[0]
            .message
            .contains("also reads data.values.registry"));
        assert_eq!(folded_use(&out[1].related[0]), Some("data.values.registry"));
    }

    #[test]
    fn without_an_error_the_first_use_holds_the_others() {
        let out = fold(vec![missing(14), missing(15)], &[]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].span.as_ref().map(|s| s.line), Some(14));
        assert_eq!(out[0].related.len(), 1);
    }

    #[test]
    fn typos_with_a_suggestion_each_stay() {
        let typo = |line| {
            Diagnostic::new(
                Rule::DataValueUnknownReference,
                "data.values.prot: the schema declares no prot at the top (did you mean port?)",
            )
            .at(Span::point("t.yml", line, 5))
        };
        assert_eq!(fold(vec![typo(3), typo(4)], &[]).len(), 2);
        // Two different missing values are two findings.
        let other = Diagnostic::new(
            Rule::DataValueUnknownReference,
            "data.values.tls: no data values document or input sets tls at the top",
        )
        .at(Span::point("base/secret.yaml", 20, 5));
        assert_eq!(fold(vec![missing(14), other], &[]).len(), 2);
    }
}
