//! Tests of the JUnit report: one test case per finding and per clean scenario, the `--fail-on`
//! threshold, stable names, internal errors and XML escaping.

use super::*;
use crate::report::severity::Severity;
use crate::report::Rule;
use crate::report::Span;

fn status(path: &str, scenario: Option<&str>, outcome: RootOutcome) -> RootStatus {
    RootStatus {
        path: path.into(),
        scenario: scenario.map(str::to_string),
        status: outcome,
        duration_ms: 1500,
        provenance: None,
        unchecked: Vec::new(),
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

fn xml_of(report: &Report, fail_on: Severity) -> String {
    let options = RenderOptions {
        fail_on,
        ..RenderOptions::default()
    };
    render(report, &Sources::new("/nonexistent"), &options)
}

#[test]
fn one_case_per_finding_and_per_clean_scenario() {
    let xml = xml_of(&report(), Severity::Error);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let top = doc.root_element();
    assert_eq!(top.tag_name().name(), "testsuites");
    assert_eq!(top.attribute("tests"), Some("3"));
    assert_eq!(top.attribute("failures"), Some("2"));
    assert_eq!(top.attribute("errors"), Some("0"));
    assert_eq!(top.attribute("time"), Some("4.500"));
    let suites: Vec<_> = top.children().filter(|n| n.is_element()).collect();
    let names: Vec<_> = suites
        .iter()
        .map(|s| s.attribute("name").unwrap())
        .collect();
    assert_eq!(names, ["broken", "config"]);
    let config: Vec<_> = suites[1].children().filter(|n| n.is_element()).collect();
    assert_eq!(
        config.len(),
        2,
        "no case for the scenario that has a finding"
    );
    assert_eq!(config[0].attribute("name"), Some("scenario dev"));
    assert!(config[0].first_element_child().is_none());
    assert_eq!(
        config[1].attribute("name"),
        Some("data-value-violation in config/values.yml: port: must be > 0 & \"set\"")
    );
    assert_eq!(config[1].attribute("classname"), Some("config.prod"));
    let failure = config[1].first_element_child().unwrap();
    assert_eq!(failure.tag_name().name(), "failure");
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
        broken.attribute("name"),
        Some("template-error in broken: undefined: x")
    );
    assert_eq!(
        broken.first_element_child().unwrap().tag_name().name(),
        "failure"
    );
}

#[test]
fn findings_below_fail_on_pass_with_their_text() {
    let mut report = report();
    for d in &mut report.diagnostics {
        d.severity = Severity::Warning;
    }
    let xml = xml_of(&report, Severity::Error);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    assert_eq!(doc.root_element().attribute("tests"), Some("3"));
    let outs: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("system-out"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(outs.len(), 2, "{outs:?}");
    assert!(
        outs[1].contains("warning[data-value-violation]"),
        "{outs:?}"
    );
    let xml = xml_of(&report, Severity::Warning);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("2"));
}

#[test]
fn names_hold_no_position_and_repeats_are_numbered() {
    let mut report = report();
    let mut moved = report.diagnostics[0].clone();
    moved.span = Some(Span::point("config/values.yml", 9, 3));
    report.diagnostics.push(moved);
    let xml = xml_of(&report, Severity::Error);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert!(
        names.contains(
            &"data-value-violation in config/values.yml: port: must be > 0 & \"set\" (2)"
        ),
        "{names:?}"
    );
    assert!(names
        .iter()
        .all(|n| !n.contains(":2:") && !n.contains(":9:")));
}

#[test]
fn names_quote_no_line_numbers() {
    assert_eq!(
        without_positions("expected integer (by schema.yml:3)"),
        "expected integer (by schema.yml)"
    );
    assert_eq!(
        without_positions("yaml: line 12: did not find 'a.yml:3:7' at 10:30"),
        "yaml: line: did not find 'a.yml' at 10:30"
    );
    assert_eq!(without_positions("port: must be > 0"), "port: must be > 0");
}

#[test]
fn internal_errors_are_junit_errors() {
    let mut d = Diagnostic::new(Rule::InternalError, "worker crashed");
    d.root = Some("broken".into());
    let report = Report {
        roots: vec![status("broken", None, RootOutcome::Error)],
        diagnostics: vec![d],
    };
    let xml = xml_of(&report, Severity::Error);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("errors"), Some("1"));
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
}

#[test]
fn escaping_keeps_everything() {
    let mut d = Diagnostic::new(Rule::TemplateError, "a\u{1}b\tc\r\nd ' \u{1F600}");
    d.root = Some("r<1>".into());
    let report = Report {
        roots: vec![],
        diagnostics: vec![d],
    };
    let xml = xml_of(&report, RenderOptions::default().fail_on);
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
    let xml = xml_of(&report, RenderOptions::default().fail_on);
    assert!(xml.contains("<testsuite name=\"(no root)\""), "{xml}");
}

#[test]
fn a_root_stopped_by_a_suppressed_error_passes() {
    let report = Report {
        roots: vec![status("config", None, RootOutcome::Error)],
        diagnostics: vec![],
    };
    let xml = xml_of(&report, RenderOptions::default().fail_on);
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
    let xml = xml_of(&report, RenderOptions::default().fail_on);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    assert!(
        xml.contains("<testcase name=\"scenario default\" classname=\"config\" time=\"1.500\"/>")
    );
}
