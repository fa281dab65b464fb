//! GitLab Code Quality: a JSON array of issues (the subset of the Code Climate format that
//! GitLab reads), shown in merge requests and pipelines.
//!
//! ```json
//! [{"description": "port: must be > 0", "check_name": "data-value-violation",
//!   "fingerprint": "…", "severity": "major",
//!   "location": {"path": "config/values.yml", "lines": {"begin": 2, "end": 2}}}]
//! ```
//!
//! `description` is the message's first line (plus the scenario when there is one, since the
//! same finding can come from several); the whole message goes to `content.body`. Severity:
//! error → `major`, warning → `minor`, info → `info`; `critical` and `blocker` are not used, as
//! yttlint has no level above error. The fingerprint is [`fingerprint`](super::fingerprint)'s:
//! it hashes the flagged line's text, not its number, so lines inserted above a finding leave it
//! unchanged and GitLab does not report it as new. A finding about a whole root is anchored as
//! [`location`](super::location) describes.

use serde::Serialize;

use super::diagnostic::{Diagnostic, Report};
use super::fingerprint::fingerprints;
use super::location::{anchor, assumed, origin, position};
use super::options::RenderOptions;
use super::severity::Severity;
use super::sources::Sources;

#[derive(Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    check_name: &'a str,
    fingerprint: &'a str,
    severity: &'static str,
    location: Location,
    content: Content,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

#[derive(Serialize)]
struct Content {
    body: String,
}

/// Renders the report as a Code Quality JSON array (`[]` when clean), newline-terminated.
pub fn render(report: &Report, sources: &Sources, options: &RenderOptions) -> String {
    let prints = fingerprints(&report.diagnostics, sources);
    let issues: Vec<Issue> = report
        .diagnostics
        .iter()
        .zip(&prints)
        .map(|(d, print)| issue(d, print, sources, options))
        .collect();
    let mut text = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".to_string());
    text.push('\n');
    text
}

fn issue<'a>(
    d: &'a Diagnostic,
    print: &'a str,
    sources: &Sources,
    options: &RenderOptions,
) -> Issue<'a> {
    let (span, anchored) = anchor(d, sources);
    let mut description = d.summary().to_string();
    if let Some(scenario) = &d.scenario {
        description.push_str(&format!(" (scenario {scenario})"));
    }
    let mut body = d.message.clone();
    for related in &d.related {
        body.push_str(&format!(
            "\n{}: {}",
            position(&related.span),
            related.message
        ));
    }
    if let Some(object) = &d.object {
        body.push_str(&format!("\nobject: {object}"));
    }
    if anchored || d.scenario.is_some() {
        if let Some(origin) = origin(d) {
            body.push_str(&format!("\nin {origin}"));
        }
    }
    if let Some(assumed) = assumed(d) {
        body.push_str(&format!("\n{assumed}"));
    }
    if let Some(help) = &d.help {
        body.push_str(&format!("\nhelp: {help}"));
    }
    Issue {
        kind: "issue",
        description,
        check_name: d.rule.id(),
        fingerprint: print,
        severity: severity(d.severity),
        location: Location {
            path: options.checkout_path(&span.file),
            lines: Lines {
                begin: span.line.max(1),
                end: span.end_line.max(span.line).max(1),
            },
        },
        content: Content { body },
    }
}

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::Span;
    use serde_json::Value;

    fn violation(line: u32) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::DataValueViolation, "port: must be > 0\nfound: 0")
            .at(Span::point("config/values.yml", line, 7))
            .with_help("give a port above 0");
        d.root = Some("config".into());
        d.scenario = Some("prod".into());
        d
    }

    fn render_value(diagnostics: Vec<Diagnostic>, sources: &Sources) -> Value {
        let report = Report {
            roots: vec![],
            diagnostics,
        };
        serde_json::from_str(&render(&report, sources, &RenderOptions::default())).unwrap()
    }

    #[test]
    fn issues_carry_what_gitlab_reads() {
        let sources = Sources::new("/nonexistent");
        sources.insert("config/values.yml", "a: 1\nport: 0\n");
        let mut whole = Diagnostic::new(Rule::InternalError, "boom");
        whole.root = Some("config".into());
        whole.severity = Severity::Warning;
        let issues = render_value(vec![violation(2), whole], &sources);
        let first = &issues[0];
        assert_eq!(first["description"], "port: must be > 0 (scenario prod)");
        assert_eq!(first["check_name"], Rule::DataValueViolation.id());
        assert_eq!(first["severity"], "major");
        assert_eq!(first["location"]["path"], "config/values.yml");
        assert_eq!(first["location"]["lines"]["begin"], 2);
        assert_eq!(
            first["content"]["body"],
            "port: must be > 0\nfound: 0\nin root config, scenario prod\nhelp: give a port above 0"
        );
        assert_eq!(first["fingerprint"].as_str().unwrap().len(), 64);
        let second = &issues[1];
        assert_eq!(second["severity"], "minor");
        assert_eq!(second["location"]["path"], "config/values.yml");
        assert_eq!(second["location"]["lines"]["begin"], 1);
    }

    #[test]
    fn fingerprint_survives_line_shifts() {
        let before = Sources::new("/nonexistent");
        before.insert("config/values.yml", "a: 1\nport: 0\n");
        let after = Sources::new("/nonexistent");
        after.insert("config/values.yml", "#! more\n#! lines\na: 1\nport: 0\n");
        let a = render_value(vec![violation(2)], &before);
        let b = render_value(vec![violation(4)], &after);
        assert_eq!(a[0]["fingerprint"], b[0]["fingerprint"]);
        assert_ne!(a[0]["location"], b[0]["location"]);
    }

    #[test]
    fn clean_is_an_empty_array() {
        let sources = Sources::new("/nonexistent");
        assert_eq!(render_value(vec![], &sources), Value::Array(vec![]));
    }
}
