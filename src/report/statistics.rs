//! `--statistics`: how many findings each rule has, most first, instead of the findings.
//!
//! ```text
//!     3  error    template-error        Template compile or evaluation error
//!     1  warning  unknown-annotation    Annotation ytt silently ignores
//! 3 errors, 1 warning in 5 roots
//! ```

use super::rules::Rule;
use std::collections::BTreeMap;
use std::fmt::Write;

use super::diagnostic::Report;
use super::options::RenderOptions;
use super::severity::Severity;
use super::terminal::summary;

/// One line per (rule, severity) with its count, then the summary line (unless turned off).
pub fn render(report: &Report, options: &RenderOptions) -> String {
    let mut counts: BTreeMap<(Rule, Severity), usize> = BTreeMap::new();
    for d in &report.diagnostics {
        *counts.entry((d.rule, d.severity)).or_default() += 1;
    }
    let mut rows: Vec<((Rule, Severity), usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0 .1.cmp(&a.0 .1))
            .then(a.0 .0.cmp(&b.0 .0))
    });
    let width = rows
        .iter()
        .map(|((r, _), _)| r.id().len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for ((rule, severity), n) in rows {
        let short = rule.summary();
        let _ = writeln!(
            out,
            "{n:>5}  {:<7}  {:<width$}  {short}",
            severity.as_str(),
            rule.id()
        );
    }
    if options.summary {
        out.push_str(&summary(report));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Diagnostic;

    #[test]
    fn counts_by_rule_most_first() {
        let mut report = Report::default();
        for _ in 0..2 {
            report
                .diagnostics
                .push(Diagnostic::new(Rule::TemplateError, "x"));
        }
        report
            .diagnostics
            .push(Diagnostic::new(Rule::UnknownAnnotation, "y"));
        let text = render(&report, &RenderOptions::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "    2  error    template-error      Template compile or evaluation error"
        );
        assert!(
            lines[1].starts_with("    1  warning  unknown-annotation"),
            "{text}"
        );
        assert_eq!(lines[2], "2 errors, 1 warning in 0 roots");
    }
}
