//! GitHub Actions workflow commands: one annotation per finding, errors first, then the summary
//! line. This is the default standard output under GitHub Actions ([`Format::default_for`]).
//!
//! GitHub shows at most [`SHOWN_PER_KIND`] annotations of each kind (error, warning, notice)
//! per step and drops the rest; errors come first so that the ones shown are the ones that
//! fail the run. When some are dropped, [`step_summary`] gives a Markdown table of every finding
//! by rule for the job's summary page (`$GITHUB_STEP_SUMMARY`), and a last line says so.
//!
//! ```text
//! ::error file=config/values.yml,line=2,col=7,title=data-value-violation::port: must be > 0%0Ahelp: …
//! ```
//!
//! Errors are `::error`, warnings `::warning`, info `::notice`. `col` and `endColumn` are given
//! only for a span on one line (GitHub ignores columns across lines); a finding without a span
//! has no `file` and names its root in the message. Messages escape `%`, CR and LF; property
//! values escape `:` and `,` as well (as GitHub's toolkit does), so no finding can end the
//! command early or inject another.
//!
//! [`Format::default_for`]: super::format::Format::default_for

use std::fmt::Write;

use super::diagnostic::{Diagnostic, Report};
use super::location::{assumed, origin, position};
use super::options::RenderOptions;
use super::severity::Severity;
use super::sources::Sources;
use super::terminal::{printable, summary};

/// How many annotations of one kind GitHub shows for a step.
pub const SHOWN_PER_KIND: usize = 10;

/// Renders one workflow command per finding (errors, then warnings, then notices) and the
/// summary line.
pub fn render(report: &Report, _sources: &Sources, options: &RenderOptions) -> String {
    let mut out = String::new();
    for severity in [Severity::Error, Severity::Warning, Severity::Info] {
        for d in report.diagnostics.iter().filter(|d| d.severity == severity) {
            out.push_str(&annotation(d, options));
            out.push('\n');
        }
    }
    if options.summary {
        out.push_str(&summary(report));
        out.push('\n');
        let hidden = hidden(report);
        if hidden > 0 {
            let _ = writeln!(
                out,
                "GitHub shows {SHOWN_PER_KIND} annotations of each kind: {hidden} more findings are in the job summary"
            );
        }
    }
    out
}

/// How many findings GitHub will not show as annotations.
pub fn hidden(report: &Report) -> usize {
    [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .map(|s| {
            let n = report
                .diagnostics
                .iter()
                .filter(|d| d.severity == s)
                .count();
            n.saturating_sub(SHOWN_PER_KIND)
        })
        .sum()
}

/// A Markdown summary for `$GITHUB_STEP_SUMMARY` when GitHub cannot show every finding as an
/// annotation: counts by rule, then every finding's place and message; `None` when all are shown.
pub fn step_summary(report: &Report) -> Option<String> {
    if hidden(report) == 0 {
        return None;
    }
    let mut by_rule: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
    for d in &report.diagnostics {
        let counts = by_rule.entry(d.rule.id()).or_default();
        counts[2 - d.severity as usize] += 1;
    }
    let mut out = format!("## yttlint: {}\n\n", summary(report));
    out.push_str("| rule | errors | warnings | info |\n|---|---:|---:|---:|\n");
    for (rule, [e, w, i]) in &by_rule {
        let _ = writeln!(out, "| `{rule}` | {e} | {w} | {i} |");
    }
    out.push_str("\n| severity | rule | where | message |\n|---|---|---|---|\n");
    for severity in [Severity::Error, Severity::Warning, Severity::Info] {
        for d in report.diagnostics.iter().filter(|d| d.severity == severity) {
            let at = d
                .span
                .as_ref()
                .map(position)
                .or_else(|| origin(d))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} |",
                severity.as_str(),
                d.rule,
                cell(&at),
                cell(d.summary())
            );
        }
    }
    Some(out)
}

/// Text that reads as itself in a Markdown table cell: every ASCII punctuation character
/// backslash-escaped (a message quotes the repository's text, which may hold a link, an image
/// that would be fetched when the page is shown, or HTML), `&` and `<` as entities, one line.
fn cell(text: &str) -> String {
    let mut out = String::new();
    for c in printable(text, "").chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

fn annotation(d: &Diagnostic, options: &RenderOptions) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut properties: Vec<(&str, String)> = Vec::new();
    if let Some(span) = &d.span {
        properties.push(("file", options.checkout_path(&span.file)));
        properties.push(("line", span.line.to_string()));
        if span.end_line > span.line {
            properties.push(("endLine", span.end_line.to_string()));
        } else {
            properties.push(("col", span.column.to_string()));
            if span.end_column > span.column {
                properties.push(("endColumn", span.end_column.to_string()));
            }
        }
    }
    properties.push(("title", d.rule.to_string()));
    let properties: Vec<String> = properties
        .into_iter()
        .map(|(key, value)| format!("{key}={}", escape_property(&value)))
        .collect();
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&message(d))
    )
}

/// The whole message, with related locations, object, root and help on lines of their own.
fn message(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    for related in &d.related {
        let _ = write!(text, "\n{}: {}", position(&related.span), related.message);
    }
    if let Some(object) = &d.object {
        let _ = write!(text, "\nobject: {object}");
    }
    if d.span.is_none() || d.scenario.is_some() {
        if let Some(origin) = origin(d) {
            let _ = write!(text, "\nin {origin}");
        }
    }
    if let Some(assumed) = assumed(d) {
        let _ = write!(text, "\n{assumed}");
    }
    if let Some(help) = &d.help {
        let _ = write!(text, "\nhelp: {help}");
    }
    text
}

/// Escapes a command's message; other control characters than CR, LF and tab become U+FFFD.
fn escape_data(text: &str) -> String {
    printable(text, "\r")
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::{RootOutcome, RootStatus, Span};

    #[test]
    fn one_annotation_per_finding() {
        let mut d = Diagnostic::new(Rule::DataValueViolation, "port: must be > 0\nfound: 100%")
            .at(Span {
                file: "config/a,b:c.yml".into(),
                line: 2,
                column: 7,
                end_line: 2,
                end_column: 9,
            })
            .with_related("rule declared here", Span::point("config/schema.yml", 3, 1))
            .with_help("give a port above 0");
        d.root = Some("config".into());
        let mut warning = Diagnostic::new(Rule::RequiredValue, "hostname: required").at(Span {
            file: "config/values.yml".into(),
            line: 4,
            column: 1,
            end_line: 6,
            end_column: 2,
        });
        warning.severity = Severity::Warning;
        let mut whole = Diagnostic::new(Rule::InternalError, "boom\r\n");
        whole.root = Some("other".into());
        whole.severity = Severity::Info;
        let report = Report {
            roots: vec![RootStatus {
                path: "config".into(),
                scenario: None,
                status: RootOutcome::Findings,
                duration_ms: 1,
                provenance: None,
            }],
            diagnostics: vec![d, warning, whole],
        };
        let text = render(
            &report,
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "::error file=config/a%2Cb%3Ac.yml,line=2,col=7,endColumn=9,title=data-value-violation::port: must be > 0%0Afound: 100%25%0Aconfig/schema.yml:3:1: rule declared here%0Ahelp: give a port above 0",
                "::warning file=config/values.yml,line=4,endLine=6,title=required-value::hostname: required",
                "::notice title=internal-error::boom%0D%0A%0Ain root other",
                "1 error, 1 warning, 1 info in 1 root",
            ]
        );
    }

    #[test]
    fn markdown_in_a_message_reads_as_text_in_the_summary() {
        assert_eq!(
            cell("![x](https://t.example/p.png) <img src=y> | *a*_b_ & `c`\nd"),
            r"\!\[x\]\(https\:\/\/t\.example\/p\.png\) &lt;img src\=y\> \| \*a\*\_b\_ &amp; \`c\` d"
        );
    }

    #[test]
    fn errors_first_and_a_step_summary_past_github_s_limit() {
        let mut report = Report::default();
        for i in 0..12 {
            let mut w = Diagnostic::new(Rule::UnusedSuppression, format!("w{i}")).at(Span::point(
                "a.yml",
                i + 1,
                1,
            ));
            w.severity = Severity::Warning;
            report.diagnostics.push(w);
        }
        report
            .diagnostics
            .push(Diagnostic::new(Rule::TemplateError, "e | <b>").at(Span::point("b.yml", 1, 1)));
        let text = render(
            &report,
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        assert!(text.starts_with("::error "), "{text}");
        assert!(
            text.ends_with("2 more findings are in the job summary\n"),
            "{text}"
        );
        let md = step_summary(&report).unwrap();
        assert!(md.contains("| `unused-suppression` | 0 | 12 | 0 |"), "{md}");
        assert!(
            md.contains(r"| error | `template-error` | b\.yml\:1\:1 | e \| &lt;b\> |"),
            "{md}"
        );
        report.diagnostics.truncate(10);
        assert_eq!(step_summary(&report), None);
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_data("a%b\r\nc:d,e"), "a%25b%0D%0Ac:d,e");
        assert_eq!(escape_data("\u{1b}[31m\u{7}"), "\u{FFFD}[31m\u{FFFD}");
        assert_eq!(escape_property("a%b\r\nc:d,e"), "a%25b%0D%0Ac%3Ad%2Ce");
    }
}
