//! The JUnit XML format, for the test report views of CI systems (GitLab, Jenkins, Azure).
//!
//! ```xml
//! <testsuites name="yttlint" tests="3" failures="2" errors="0" time="0.015">
//!   <testsuite name="config" tests="3" failures="2" errors="0" skipped="0" time="0.015">
//!     <testcase name="scenario prod" classname="config" time="0.012">
//!       <failure message="2 findings" type="findings">…</failure>
//!     </testcase>
//!     <testcase name="data-value-violation at config/values.yml:2:7" classname="config.prod">
//!       <failure message="port: must be &gt; 0" type="data-value-violation">full message,
//! location, related locations, help</failure>
//!     </testcase>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! One suite per root (its path; `(no root)` for findings outside every root), one case per
//! scenario and one per finding. A scenario's case passes when it produced no finding, fails when
//! it did and is an `<error>` when its evaluation could not finish because of a finding that is
//! still reported (one whose findings were all suppressed passes, with a `<system-out>` note).
//! A finding's case is named after its rule and position and always fails: its severity starts
//! the failure's body. The document is valid against Jenkins' junit-10.xsd (no `file` or `line`
//! attributes on cases: the position is in the case's name and body). Text that XML 1.0 cannot
//! carry (control characters) becomes U+FFFD.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::diagnostic::{Diagnostic, Report, RootOutcome, RootStatus};
use super::location::{anchor, origin, position};
use super::options::RenderOptions;
use super::sources::Sources;
use super::xml::escape;

/// The suite that holds findings that name no root.
const NO_ROOT: &str = "(no root)";

/// One suite: a root's scenarios and findings.
#[derive(Default)]
struct Suite<'a> {
    scenarios: Vec<&'a RootStatus>,
    findings: Vec<&'a Diagnostic>,
}

/// One `<testcase>` before it is written.
struct Case {
    name: String,
    classname: String,
    time_ms: Option<u64>,
    /// `(element, message, type, body)` for a failing or erroring case.
    outcome: Option<(&'static str, String, String, String)>,
    /// A note for `<system-out>`.
    note: Option<String>,
}

/// Renders the report as a JUnit XML document.
pub fn render(report: &Report, sources: &Sources, _options: &RenderOptions) -> String {
    let mut suites: BTreeMap<&str, Suite> = BTreeMap::new();
    for status in &report.roots {
        suites
            .entry(status.path.as_str())
            .or_default()
            .scenarios
            .push(status);
    }
    for d in &report.diagnostics {
        let root = d.root.as_deref().unwrap_or(NO_ROOT);
        suites.entry(root).or_default().findings.push(d);
    }
    let cases: Vec<(&str, Vec<Case>)> = suites
        .iter()
        .map(|(name, suite)| (*name, suite_cases(name, suite, sources)))
        .collect();
    let all: Vec<&Case> = cases.iter().flat_map(|(_, c)| c).collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"yttlint\"{}>",
        counts(&all, report.roots.iter().map(|r| r.duration_ms).sum())
    );
    for (name, suite_cases) in &cases {
        let refs: Vec<&Case> = suite_cases.iter().collect();
        let time = suites
            .get(name)
            .map_or(0, |s| s.scenarios.iter().map(|r| r.duration_ms).sum());
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\"{} skipped=\"0\">",
            escape(name),
            counts(&refs, time)
        );
        for case in suite_cases {
            write_case(&mut out, case);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// ` tests="…" failures="…" errors="…" time="…"`.
fn counts(cases: &[&Case], time_ms: u64) -> String {
    let with = |element: &str| {
        cases
            .iter()
            .filter(|c| c.outcome.as_ref().is_some_and(|o| o.0 == element))
            .count()
    };
    format!(
        " tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\"",
        cases.len(),
        with("failure"),
        with("error"),
        seconds(time_ms)
    )
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

fn suite_cases(root: &str, suite: &Suite, sources: &Sources) -> Vec<Case> {
    let mut cases: Vec<Case> = suite
        .scenarios
        .iter()
        .map(|status| scenario_case(root, status, &suite.findings))
        .collect();
    cases.extend(
        suite
            .findings
            .iter()
            .map(|d| finding_case(root, d, sources)),
    );
    cases
}

fn scenario_case(root: &str, status: &RootStatus, findings: &[&Diagnostic]) -> Case {
    let mine: Vec<&&Diagnostic> = findings
        .iter()
        .filter(|d| d.scenario == status.scenario)
        .collect();
    let body: String = mine
        .iter()
        .map(|d| format!("{} {}\n", case_name(d), d.summary()))
        .collect();
    let message = match mine.len() {
        1 => "1 finding".to_string(),
        n => format!("{n} findings"),
    };
    let suppressed = status.status == RootOutcome::Error && mine.is_empty();
    let outcome = match status.status {
        RootOutcome::Error if !suppressed => Some((
            "error",
            "evaluation did not finish".to_string(),
            "error".to_string(),
            body,
        )),
        _ if mine.is_empty() => None,
        _ => Some(("failure", message, "findings".to_string(), body)),
    };
    Case {
        name: format!(
            "scenario {}",
            status.scenario.as_deref().unwrap_or("default")
        ),
        classname: root.to_string(),
        time_ms: Some(status.duration_ms),
        outcome,
        note: suppressed.then(|| {
            "the evaluation stopped at an error whose finding is suppressed or turned off"
                .to_string()
        }),
    }
}

fn finding_case(root: &str, d: &Diagnostic, sources: &Sources) -> Case {
    let (span, _) = anchor(d, sources);
    let mut body = format!(
        "{}: {}[{}]\n{}\n",
        position(&span),
        d.severity.as_str(),
        d.rule,
        d.message
    );
    if let Some(object) = &d.object {
        let _ = writeln!(body, "object: {object}");
    }
    for related in &d.related {
        let _ = writeln!(body, "{}: {}", position(&related.span), related.message);
    }
    if let Some(origin) = origin(d) {
        let _ = writeln!(body, "in {origin}");
    }
    if let Some(help) = &d.help {
        let _ = writeln!(body, "help: {help}");
    }
    let classname = match &d.scenario {
        Some(scenario) => format!("{root}.{scenario}"),
        None => root.to_string(),
    };
    Case {
        name: case_name(d),
        classname,
        time_ms: None,
        outcome: Some(("failure", d.summary().to_string(), d.rule.to_string(), body)),
        note: None,
    }
}

/// `rule at file:line:column`, or the rule alone for a finding without a span.
fn case_name(d: &Diagnostic) -> String {
    match &d.span {
        Some(span) => format!("{} at {}", d.rule, position(span)),
        None => d.rule.to_string(),
    }
}

fn write_case(out: &mut String, case: &Case) {
    let _ = write!(
        out,
        "    <testcase name=\"{}\" classname=\"{}\"",
        escape(&case.name),
        escape(&case.classname)
    );
    if let Some(ms) = case.time_ms {
        let _ = write!(out, " time=\"{}\"", seconds(ms));
    }
    if case.outcome.is_none() && case.note.is_none() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    if let Some((element, message, kind, body)) = &case.outcome {
        let _ = writeln!(
            out,
            "      <{element} message=\"{}\" type=\"{}\">{}</{element}>",
            escape(message),
            escape(kind),
            escape(body)
        );
    }
    if let Some(note) = &case.note {
        let _ = writeln!(out, "      <system-out>{}</system-out>", escape(note));
    }
    out.push_str("    </testcase>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::Span;

    fn status(path: &str, scenario: Option<&str>, outcome: RootOutcome) -> RootStatus {
        RootStatus {
            path: path.into(),
            scenario: scenario.map(str::to_string),
            status: outcome,
            duration_ms: 1500,
        }
    }

    fn report() -> Report {
        let mut d = Diagnostic::new(
            Rule::DataValueViolation,
            "port: must be > 0 & \"set\"\nfound: 0",
        )
        .at(Span::point("config/values.yml", 2, 7))
        .with_help("give a port <above> 0");
        d.root = Some("config".into());
        d.scenario = Some("prod".into());
        let mut broken = Diagnostic::new(Rule::TemplateError, "undefined: x");
        broken.root = Some("broken".into());
        Report {
            roots: vec![
                status("config", Some("dev"), RootOutcome::Ok),
                status("config", Some("prod"), RootOutcome::Findings),
                status("broken", None, RootOutcome::Error),
            ],
            diagnostics: vec![d, broken],
        }
    }

    #[test]
    fn suites_per_root_cases_per_scenario_and_finding() {
        let xml = render(
            &report(),
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let top = doc.root_element();
        assert_eq!(top.tag_name().name(), "testsuites");
        assert_eq!(top.attribute("tests"), Some("5"));
        assert_eq!(top.attribute("failures"), Some("3"));
        assert_eq!(top.attribute("errors"), Some("1"));
        assert_eq!(top.attribute("time"), Some("4.500"));
        let suites: Vec<_> = top.children().filter(|n| n.is_element()).collect();
        let names: Vec<_> = suites
            .iter()
            .map(|s| s.attribute("name").unwrap())
            .collect();
        assert_eq!(names, ["broken", "config"]);
        let config: Vec<_> = suites[1].children().filter(|n| n.is_element()).collect();
        assert_eq!(config[0].attribute("name"), Some("scenario dev"));
        assert!(config[0].first_element_child().is_none());
        let failure = config[2].first_element_child().unwrap();
        assert_eq!(
            config[2].attribute("name"),
            Some("data-value-violation at config/values.yml:2:7")
        );
        assert_eq!(config[2].attribute("classname"), Some("config.prod"));
        assert_eq!(
            failure.attribute("message"),
            Some("port: must be > 0 & \"set\"")
        );
        assert_eq!(
            failure.attribute("type"),
            Some(Rule::DataValueViolation.id())
        );
        let body = failure.text().unwrap();
        assert!(body.starts_with("config/values.yml:2:7: error[data-value-violation]\n"));
        assert!(body.contains("found: 0\n"), "{body}");
        assert!(body.contains("help: give a port <above> 0"), "{body}");
        let broken = suites[0].first_element_child().unwrap();
        assert_eq!(
            broken.first_element_child().unwrap().tag_name().name(),
            "error"
        );
    }

    #[test]
    fn escaping_keeps_everything() {
        let mut d = Diagnostic::new(Rule::TemplateError, "a\u{1}b\tc\r\nd ' \u{1F600}");
        d.root = Some("r<1>".into());
        let report = Report {
            roots: vec![],
            diagnostics: vec![d],
        };
        let xml = render(
            &report,
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert_eq!(failure.attribute("message"), Some("a\u{FFFD}b\tc"));
        assert!(failure
            .text()
            .unwrap()
            .contains("a\u{FFFD}b\tc\r\nd ' \u{1F600}"));
        let suite = doc
            .descendants()
            .find(|n| n.has_tag_name("testsuite"))
            .unwrap();
        assert_eq!(suite.attribute("name"), Some("r<1>"));
    }

    #[test]
    fn findings_outside_roots_get_their_own_suite() {
        let report = Report {
            roots: vec![],
            diagnostics: vec![Diagnostic::new(Rule::InternalError, "no roots")],
        };
        let xml = render(
            &report,
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        assert!(xml.contains("<testsuite name=\"(no root)\""), "{xml}");
    }

    #[test]
    fn a_root_stopped_by_a_suppressed_error_passes() {
        let report = Report {
            roots: vec![status("config", None, RootOutcome::Error)],
            diagnostics: vec![],
        };
        let xml = render(
            &report,
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(doc.root_element().attribute("errors"), Some("0"));
        let case = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap();
        let children: Vec<_> = case.children().filter(|n| n.is_element()).collect();
        assert_eq!(children.len(), 1);
        assert_eq!(children[0].tag_name().name(), "system-out");
    }

    #[test]
    fn clean_run_passes() {
        let report = Report {
            roots: vec![status("config", None, RootOutcome::Ok)],
            diagnostics: vec![],
        };
        let xml = render(
            &report,
            &Sources::new("/nonexistent"),
            &RenderOptions::default(),
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(doc.root_element().attribute("failures"), Some("0"));
        assert!(xml
            .contains("<testcase name=\"scenario default\" classname=\"config\" time=\"1.500\"/>"));
    }
}
