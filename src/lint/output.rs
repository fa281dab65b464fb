//! Renders a report for the linter's command line. Stand-in until the report formats of
//! `crate::report` are wired in (then [`render`] becomes a call to them): `terminal`, `json`
//! (the schema of DESIGN.md) and `github` (workflow commands) are written here; the other
//! formats are refused.

use serde_json::{json, Value};

use crate::report::{Diagnostic, Report, Severity, Sources};

/// Every format name the command line accepts.
pub const FORMATS: &[&str] = &["terminal", "json", "junit", "sarif", "github", "gitlab"];

/// The report in `format`.
pub fn render(format: &str, report: &Report, _sources: &Sources) -> Result<String, String> {
    match format {
        "terminal" => Ok(terminal(report)),
        "json" => Ok(json_report(report)),
        "github" => Ok(github(report)),
        other => Err(format!("the {other} format is not available in this build")),
    }
}

fn location(d: &Diagnostic) -> String {
    match (&d.span, &d.root) {
        (Some(s), _) => format!("{}:{}:{}", s.file, s.line, s.column),
        (None, Some(root)) => root.clone(),
        (None, None) => "yttlint".to_string(),
    }
}

fn terminal(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        out.push_str(&format!(
            "{}: {}[{}]: {}\n",
            location(d),
            d.severity.as_str(),
            d.rule,
            d.summary()
        ));
        for line in d.message.lines().skip(1) {
            out.push_str(&format!("  {line}\n").replace("  \n", "\n"));
        }
        if let Some(help) = &d.help {
            out.push_str(&format!("  help: {help}\n"));
        }
        match (&d.root, &d.scenario) {
            (Some(r), Some(s)) => out.push_str(&format!("  in root {r}, scenario {s}\n")),
            (Some(r), None) => out.push_str(&format!("  in root {r}\n")),
            _ => {}
        }
    }
    out.push_str(&summary(report));
    out
}

fn summary(report: &Report) -> String {
    let count = |s: Severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == s)
            .count()
    };
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let jobs = plural(report.roots.len(), "job");
    if report.diagnostics.is_empty() {
        return format!("no problems found ({jobs})\n");
    }
    format!(
        "found {}, {}, {} ({jobs})\n",
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
        plural(count(Severity::Info), "info"),
    )
}

fn json_report(report: &Report) -> String {
    let roots: Vec<Value> = report
        .roots
        .iter()
        .map(|r| json!({"path": r.path, "scenario": r.scenario, "status": r.status, "duration_ms": r.duration_ms}))
        .collect();
    let diagnostics: Vec<Value> = report.diagnostics.iter().map(json_diagnostic).collect();
    let doc = json!({"version": 1, "roots": roots, "diagnostics": diagnostics});
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

fn json_diagnostic(d: &Diagnostic) -> Value {
    let span = d.span.as_ref();
    let related: Vec<Value> = d
        .related
        .iter()
        .map(|r| json!({"message": r.message, "file": r.span.file, "line": r.span.line, "column": r.span.column}))
        .collect();
    json!({
        "rule": d.rule,
        "severity": d.severity,
        "message": d.message,
        "file": span.map(|s| s.file.clone()),
        "line": span.map(|s| s.line),
        "column": span.map(|s| s.column),
        "end_line": span.map(|s| s.end_line),
        "end_column": span.map(|s| s.end_column),
        "root": d.root,
        "scenario": d.scenario,
        "object": d.object,
        "related": related,
        "help": d.help,
    })
}

/// GitHub Actions workflow commands (`::error file=...::message`).
fn github(report: &Report) -> String {
    let escape = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |s: &str| escape(s).replace(':', "%3A").replace(',', "%2C");
    let mut out = String::new();
    for d in &report.diagnostics {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let at = d
            .span
            .as_ref()
            .map(|s| {
                format!(
                    "file={},line={},col={},",
                    property(&s.file),
                    s.line,
                    s.column
                )
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "::{level} {at}title={}::{}\n",
            property(&d.rule),
            escape(&d.message)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{RootOutcome, RootStatus, Span};

    fn report() -> Report {
        let mut d = Diagnostic::new("template-error", "undefined: x\n\nin <toplevel>")
            .at(Span::point("c/a.yml", 3, 5));
        d.root = Some("c".into());
        Report {
            roots: vec![RootStatus {
                path: "c".into(),
                scenario: None,
                status: RootOutcome::Error,
                duration_ms: 4,
            }],
            diagnostics: vec![d],
        }
    }

    #[test]
    fn terminal_lines_start_with_the_location() {
        let text = render("terminal", &report(), &Sources::new("/x")).unwrap();
        assert_eq!(
            text,
            "c/a.yml:3:5: error[template-error]: undefined: x\n\n  in <toplevel>\n  in root c\nfound 1 error, 0 warnings, 0 infos (1 job)\n"
        );
    }

    #[test]
    fn json_follows_the_design() {
        let text = render("json", &report(), &Sources::new("/x")).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["roots"][0]["status"], "error");
        assert_eq!(v["diagnostics"][0]["line"], 3);
        assert_eq!(v["diagnostics"][0]["object"], Value::Null);
    }

    #[test]
    fn github_commands_escape_line_breaks() {
        let text = render("github", &report(), &Sources::new("/x")).unwrap();
        assert!(text.starts_with("::error file=c/a.yml,line=3,col=5,title=template-error::undefined: x%0A%0Ain <toplevel>"));
        assert!(render("sarif", &report(), &Sources::new("/x")).is_err());
    }
}
