//! The JSON report (docs/json-report.md): what tests and scripts read.
//!
//! ```json
//! {"version": 1,
//!  "roots": [{"path": "config", "scenario": null, "status": "findings", "duration_ms": 12}],
//!  "diagnostics": [{"rule": "data-value-violation", "severity": "error", "message": "...",
//!                   "file": "config/values.yml", "line": 3, "column": 7, "end_line": 3,
//!                   "end_column": 7, "root": "config", "scenario": null, "object": null,
//!                   "related": [{"message": "...", "file": "config/schema.yml", "line": 2,
//!                                "column": 1}],
//!                   "help": null,
//!                   "fix": {"title": "...", "applicability": "safe",
//!                           "edits": [{"file": "config/t.yml", "line": 1, "column": 1,
//!                                      "end_line": 2, "end_column": 1, "start": 0,
//!                                      "end": 29, "replacement": ""}]}}]}
//! ```
//!
//! Paths are relative to the version-control checkout that holds the repository (see
//! [`RenderOptions::checkout_path`]); roots are named as in the repository.
//!
//! A finding about a root as a whole has `file`, `line`, `column`, `end_line` and `end_column`
//! null; one yttlint knows no fix for has `fix` null. Keys are written in the order above.

use serde::Serialize;

use super::diagnostic::{Diagnostic, Related, Report, RootStatus};
use super::options::RenderOptions;
use super::severity::Severity;
use super::sources::Sources;

/// The version of this schema; bumped when a key changes meaning or goes away.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    roots: &'a [RootStatus],
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    severity: Severity,
    message: &'a str,
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    end_line: Option<u32>,
    end_column: Option<u32>,
    root: Option<&'a str>,
    scenario: Option<&'a str>,
    object: Option<&'a str>,
    related: Vec<JsonRelated<'a>>,
    help: Option<&'a str>,
    fix: Option<JsonFix<'a>>,
    certainty: Option<JsonCertainty<'a>>,
}

/// Where the command of a finding came from and what the finding assumes (see
/// [`crate::report::provenance`]); `null` for a finding about text alone.
#[derive(Serialize)]
struct JsonCertainty<'a> {
    source: crate::report::Source,
    origin: Option<&'a str>,
    certain: bool,
    assumptions: &'a [crate::report::Assumption],
}

#[derive(Serialize)]
struct JsonFix<'a> {
    title: &'a str,
    applicability: &'static str,
    edits: Vec<JsonEdit<'a>>,
}

/// An edit: its range as lines and columns (the end exclusive) and as bytes of the file.
#[derive(Serialize)]
struct JsonEdit<'a> {
    file: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    start: usize,
    end: usize,
    replacement: &'a str,
}

impl<'a> JsonFix<'a> {
    fn new(f: &'a crate::fix::Fix, options: &RenderOptions) -> JsonFix<'a> {
        JsonFix {
            title: &f.title,
            applicability: f.applicability.as_str(),
            edits: f
                .edits
                .iter()
                .map(|e| JsonEdit {
                    file: options.checkout_path(&e.file),
                    line: e.line,
                    column: e.column,
                    end_line: e.end_line,
                    end_column: e.end_column,
                    start: e.start,
                    end: e.end,
                    replacement: &e.replacement,
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    message: &'a str,
    file: String,
    line: u32,
    column: u32,
}

impl<'a> JsonDiagnostic<'a> {
    fn new(d: &'a Diagnostic, options: &RenderOptions) -> JsonDiagnostic<'a> {
        let span = d.span.as_ref();
        JsonDiagnostic {
            rule: d.rule.id(),
            severity: d.severity,
            message: &d.message,
            file: span.map(|s| options.checkout_path(&s.file)),
            line: span.map(|s| s.line),
            column: span.map(|s| s.column),
            end_line: span.map(|s| s.end_line),
            end_column: span.map(|s| s.end_column),
            root: d.root.as_deref(),
            scenario: d.scenario.as_deref(),
            object: d.object.as_deref(),
            related: d
                .related
                .iter()
                .map(|r| JsonRelated::new(r, options))
                .collect(),
            help: d.help.as_deref(),
            fix: d.fix.as_ref().map(|f| JsonFix::new(f, options)),
            certainty: d.certainty.as_ref().map(|c| JsonCertainty {
                source: c.source,
                origin: c.origin.as_deref(),
                certain: c.certain(),
                assumptions: &c.assumed,
            }),
        }
    }
}

impl<'a> JsonRelated<'a> {
    fn new(r: &'a Related, options: &RenderOptions) -> JsonRelated<'a> {
        JsonRelated {
            message: &r.message,
            file: options.checkout_path(&r.span.file),
            line: r.span.line,
            column: r.span.column,
        }
    }
}

/// Renders the report as pretty-printed JSON followed by a newline.
pub fn render(report: &Report, _sources: &Sources, options: &RenderOptions) -> String {
    let json = JsonReport {
        version: VERSION,
        roots: &report.roots,
        diagnostics: report
            .diagnostics
            .iter()
            .map(|d| JsonDiagnostic::new(d, options))
            .collect(),
    };
    // Serializing these plain structs cannot fail (string keys, no maps, no floats).
    let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::{RootOutcome, Span};
    use serde_json::{json, Value};

    fn report() -> Report {
        let mut d = Diagnostic::new(Rule::DataValueViolation, "port: must be > 0\nfound: 0")
            .at(Span {
                file: "config/values.yml".into(),
                line: 2,
                column: 7,
                end_line: 2,
                end_column: 8,
            })
            .with_related("rule declared here", Span::point("config/schema.yml", 4, 3))
            .with_help("give a port above 0");
        let text = "port: 0\n";
        let edit = crate::fix::Edit::new("config/values.yml", text, 6, 7, "1").unwrap();
        d.fix = Some(crate::fix::Fix::unsafe_("Set 1", edit));
        d.root = Some("config".into());
        d.scenario = Some("prod".into());
        let mut whole = Diagnostic::new(Rule::InternalError, "evaluation panicked");
        whole.root = Some("other".into());
        Report {
            roots: vec![
                RootStatus {
                    path: "config".into(),
                    scenario: Some("prod".into()),
                    status: RootOutcome::Findings,
                    duration_ms: 12,
                    provenance: None,
                },
                RootStatus {
                    path: "other".into(),
                    scenario: None,
                    status: RootOutcome::Error,
                    duration_ms: 3,
                    provenance: None,
                },
            ],
            diagnostics: vec![d, whole],
        }
    }

    #[test]
    fn matches_the_design_schema() {
        let text = render(
            &report(),
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        assert!(text.ends_with("}\n"));
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value,
            json!({
                "version": 1,
                "roots": [
                    {"path": "config", "scenario": "prod", "status": "findings", "duration_ms": 12},
                    {"path": "other", "scenario": null, "status": "error", "duration_ms": 3}
                ],
                "diagnostics": [
                    {
                        "rule": Rule::DataValueViolation, "severity": "error",
                        "message": "port: must be > 0\nfound: 0",
                        "file": "config/values.yml", "line": 2, "column": 7,
                        "end_line": 2, "end_column": 8,
                        "root": "config", "scenario": "prod", "object": null,
                        "related": [{"message": "rule declared here", "file": "config/schema.yml",
                                     "line": 4, "column": 3}],
                        "help": "give a port above 0",
                        "fix": {"title": "Set 1", "applicability": "unsafe", "edits": [
                            {"file": "config/values.yml", "line": 1, "column": 7,
                             "end_line": 1, "end_column": 8, "start": 6, "end": 7,
                             "replacement": "1"}
                        ]}
                    },
                    {
                        "rule": Rule::InternalError, "severity": "error",
                        "message": "evaluation panicked",
                        "file": null, "line": null, "column": null,
                        "end_line": null, "end_column": null,
                        "root": "other", "scenario": null, "object": null,
                        "related": [], "help": null, "fix": null
                    }
                ]
            })
        );
    }

    #[test]
    fn keys_keep_the_documented_order() {
        let text = render(
            &report(),
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let keys = [
            "\"rule\"",
            "\"severity\"",
            "\"message\"",
            "\"file\"",
            "\"line\"",
            "\"column\"",
            "\"end_line\"",
            "\"end_column\"",
            "\"root\"",
            "\"scenario\"",
            "\"object\"",
            "\"related\"",
            "\"help\"",
            "\"fix\"",
        ];
        let diagnostics = &text[text.find("\"diagnostics\"").unwrap()..];
        let positions: Vec<usize> = keys.iter().map(|k| diagnostics.find(k).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    }

    #[test]
    fn clean_report() {
        let text = render(
            &Report::default(),
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value, json!({"version": 1, "roots": [], "diagnostics": []}));
    }
}
