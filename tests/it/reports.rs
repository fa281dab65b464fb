//! The report formats end to end: one realistic report rendered in every format and read back
//! the way its consumer reads it (SARIF checked against the SARIF 2.1.0 JSON schema and GitHub's
//! rules, JUnit and GitLab Code Quality parsed back, annotations unescaped).

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;
use yttlint::report::{
    render, Diagnostic, Format, RenderOptions, Report, RootOutcome, RootStatus, Rule, Severity,
    Sources, Span,
};

use crate::util::repo_root;

const VALUES: &str = "#@data/values\n---\nhostname: \"\"\nport: 0\nreplicas: 3\n";
const SCHEMA: &str = "#@data/values-schema\n---\n#@schema/validation min=1\nport: 1\n";

fn sources() -> Sources {
    let sources = Sources::new("/nonexistent");
    sources.insert("packages/app/config/values.yml", VALUES);
    sources.insert("packages/app/config/schema.yml", SCHEMA);
    sources.insert("packages/web/config/deploy.yml", "kind: Deployment\n");
    sources
}

fn status(path: &str, scenario: Option<&str>, outcome: RootOutcome, ms: u64) -> RootStatus {
    RootStatus {
        path: path.into(),
        scenario: scenario.map(str::to_string),
        status: outcome,
        duration_ms: ms,
        provenance: None,
        unchecked: Vec::new(),
    }
}

fn in_root(mut d: Diagnostic, root: &str, scenario: Option<&str>) -> Diagnostic {
    d.root = Some(root.into());
    d.scenario = scenario.map(str::to_string);
    d
}

/// Findings of every shape: spans on one and several lines, related locations, help, objects,
/// a finding about a whole root, a rule the catalogue lacks, text that needs escaping in every
/// format, and the same finding in two scenarios.
fn report() -> Report {
    let violation = Diagnostic::new(
        Rule::DataValueViolation,
        "port: must be: > 0 (by: schema.yml:3)\nfound: 0",
    )
    .at(Span {
        file: "packages/app/config/values.yml".into(),
        line: 4,
        column: 7,
        end_line: 4,
        end_column: 8,
    })
    .with_related(
        "rule declared here",
        Span::point("packages/app/config/schema.yml", 3, 1),
    )
    .with_help("give a port above 0");
    let mut required =
        Diagnostic::new(Rule::RequiredValue, "hostname: must be non-empty").at(Span {
            file: "packages/app/config/values.yml".into(),
            line: 3,
            column: 1,
            end_line: 4,
            end_column: 1,
        });
    required.severity = Severity::Warning;
    let mut output = Diagnostic::new(
        Rule::OutputViolation,
        "spec.replicas: <script>&\"quoted\", 100% sure: it's wrong\r\n\u{7}bell",
    )
    .at(Span::point("packages/web/config/deploy.yml", 1, 1));
    output.object = Some("apps/v1/Deployment/default/web".into());
    let mut info = Diagnostic::new(Rule::UnreachableCode, "something new").at(Span::point(
        "packages/web/config/deploy.yml",
        1,
        7,
    ));
    info.severity = Severity::Info;
    let twice = Diagnostic::new(
        Rule::UnknownAnnotation,
        "unknown annotation @schema/exampel",
    )
    .at(Span::point("packages/app/config/values.yml", 5, 1));
    let twice_again = twice.clone();
    let mut report = Report {
        roots: vec![
            status(
                "packages/app/config",
                Some("defaults"),
                RootOutcome::Findings,
                12,
            ),
            status(
                "packages/app/config",
                Some("prod"),
                RootOutcome::Findings,
                30,
            ),
            status("packages/web/config", None, RootOutcome::Findings, 7),
            status("packages/broken", None, RootOutcome::Error, 2),
        ],
        diagnostics: vec![
            in_root(violation, "packages/app/config", Some("prod")),
            in_root(required, "packages/app/config", Some("defaults")),
            in_root(output, "packages/web/config", None),
            in_root(info, "packages/web/config", None),
            in_root(
                Diagnostic::new(
                    Rule::InternalError,
                    "evaluation panicked: index out of range",
                ),
                "packages/broken",
                None,
            ),
            in_root(twice, "packages/app/config", Some("defaults")),
            in_root(twice_again, "packages/app/config", Some("prod")),
        ],
    };
    report.normalize();
    report
}

fn clean() -> Report {
    Report {
        roots: vec![status("packages/app/config", None, RootOutcome::Ok, 5)],
        diagnostics: vec![],
    }
}

fn rendered(format: Format, report: &Report) -> String {
    render(format, report, &sources(), &RenderOptions::default())
}

// ---------------------------------------------------------------- JUnit XSD

/// The checks that need `xmllint` (Debian's libxml2-utils): ignored by default, run by CI
/// (which installs it) with `cargo test --release --test it reports::xmllint:: -- --ignored`.
mod xmllint {
    use super::*;
    use crate::util::TempDir;

    /// The errors of validating `xml` against Jenkins' junit-10.xsd with xmllint; empty when
    /// it is valid.
    fn xsd_errors(xml: &str) -> String {
        let xsd = repo_root().join("tests/data/junit-10.xsd");
        let dir = TempDir::new();
        let file = dir.write("report.xml", xml);
        let out = std::process::Command::new("xmllint")
            .args(["--noout", "--schema"])
            .arg(&xsd)
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("cannot run xmllint ({e}): apt-get install libxml2-utils"));
        if out.status.success() {
            String::new()
        } else {
            String::from_utf8_lossy(&out.stderr).into_owned()
        }
    }

    #[test]
    #[ignore = "needs xmllint"]
    fn junit_of_findings_and_warnings_is_valid_against_junit_10_xsd() {
        for (name, xml) in junit_variants() {
            let errors = xsd_errors(&xml);
            assert!(errors.is_empty(), "{name}: {errors}\n{xml}");
        }
    }

    #[test]
    #[ignore = "needs xmllint"]
    fn junit_is_valid_against_jenkins_junit_10_xsd() {
        let mut suppressed = clean();
        suppressed.roots[0].status = RootOutcome::Error;
        for (name, report) in [
            ("full", report()),
            ("clean", clean()),
            ("suppressed", suppressed),
        ] {
            let xml = rendered(Format::Junit, &report);
            let errors = xsd_errors(&xml);
            assert!(errors.is_empty(), "{name}: {errors}\n{xml}");
        }
        let bad = rendered(Format::Junit, &clean()).replace("<testcase ", "<testcase line=\"1\" ");
        let errors = xsd_errors(&bad);
        assert!(
            errors.contains("line"),
            "the check rejects what the XSD forbids: {errors}"
        );
    }
}

// ---------------------------------------------------------------- SARIF

pub(crate) fn sarif_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo_root().join("tests/data/sarif-schema-2.1.0.json"))
        .expect("the SARIF schema is in tests/data");
    // The schema as published before OASIS's errata 01 has a typo in the `language` pattern
    // (an unbalanced `]`) that the validator refuses to compile; errata 01 corrected it to this.
    let text = text.replace(
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#,
        r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#,
    );
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

pub(crate) fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn sarif_is_valid_against_the_sarif_2_1_0_schema() {
    let validator = sarif_validator();
    for report in [report(), clean()] {
        let log: Value = serde_json::from_str(&rendered(Format::Sarif, &report)).unwrap();
        let errors = schema_errors(&validator, &log);
        assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
    }
    let options = RenderOptions {
        automation_id: Some("yttlint/shard-2/".into()),
        information_uri: Some("https://example.com/yttlint".into()),
        ..RenderOptions::default()
    };
    let text = render(Format::Sarif, &report(), &sources(), &options);
    let log: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        log["runs"][0]["automationDetails"]["id"],
        "yttlint/shard-2/"
    );
    assert!(log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"].is_string());
    let errors = schema_errors(&validator, &log);
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
}

/// GitHub rejects a run of more than 25 000 results: a run keeps the most severe 25 000 and a
/// notification says how many were left out; the log stays valid.
#[test]
fn sarif_is_capped_at_25000_results_most_severe_first() {
    let mut diagnostics = Vec::new();
    for i in 0..30_000u32 {
        let mut d = Diagnostic::new(
            Rule::UnusedLoad,
            format!("name{i} is loaded but never used"),
        )
        .at(Span::point("packages/app/config/values.yml", 1 + i % 5, 1));
        // 1 000 errors, placed last in file order so that keeping them means reordering.
        d.severity = if i >= 29_000 {
            Severity::Error
        } else {
            Severity::Warning
        };
        diagnostics.push(in_root(d, "packages/app/config", None));
    }
    let report = Report {
        roots: vec![status(
            "packages/app/config",
            None,
            RootOutcome::Findings,
            9,
        )],
        diagnostics,
    };
    let log: Value = serde_json::from_str(&rendered(Format::Sarif, &report)).unwrap();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 25_000);
    assert!(results[..1_000].iter().all(|r| r["level"] == "error"));
    assert!(results[1_000..].iter().all(|r| r["level"] == "warning"));
    let notices = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notices.len(), 1);
    let text = notices[0]["message"]["text"].as_str().unwrap();
    assert!(text.starts_with("5000 of 30000 results left out"), "{text}");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let errors = schema_errors(&sarif_validator(), &log);
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
    // Under the cap, nothing is said.
    let small: Value = serde_json::from_str(&rendered(Format::Sarif, &clean())).unwrap();
    assert!(small["runs"][0].get("invocations").is_none());
}

#[test]
fn the_schema_check_rejects_invalid_sarif() {
    let validator = sarif_validator();
    let mut log: Value = serde_json::from_str(&rendered(Format::Sarif, &report())).unwrap();
    log["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!schema_errors(&validator, &log).is_empty());
    let mut log: Value = serde_json::from_str(&rendered(Format::Sarif, &report())).unwrap();
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(!schema_errors(&validator, &log).is_empty());
    let mut log: Value = serde_json::from_str(&rendered(Format::Sarif, &report())).unwrap();
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        Value::from("a file with spaces.yml");
    assert!(
        !schema_errors(&validator, &log).is_empty(),
        "formats (uri-reference) are checked"
    );
    let mut log: Value = serde_json::from_str(&rendered(Format::Sarif, &report())).unwrap();
    log["runs"][0]["tool"]["driver"]
        .as_object_mut()
        .unwrap()
        .remove("name");
    assert!(!schema_errors(&validator, &log).is_empty());
}

#[test]
fn sarif_follows_github_code_scanning_rules() {
    let report = report();
    let log: Value = serde_json::from_str(&rendered(Format::Sarif, &report)).unwrap();
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "one run");
    let run = &runs[0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "yttlint");
    assert!(driver["version"].is_string());
    assert!(
        run.get("automationDetails").is_none(),
        "no category unless asked, so that upload-sarif's category applies"
    );
    let rules = driver["rules"].as_array().unwrap();
    let mut ids = HashSet::new();
    for rule in rules {
        assert!(
            ids.insert(rule["id"].as_str().unwrap()),
            "rule ids are unique"
        );
        for key in ["shortDescription", "fullDescription", "help"] {
            assert!(
                !rule[key]["text"].as_str().unwrap().is_empty(),
                "{key} of {}",
                rule["id"]
            );
        }
        assert!(["error", "warning", "note"]
            .contains(&rule["defaultConfiguration"]["level"].as_str().unwrap()));
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), report.diagnostics.len());
    let mut prints = HashSet::new();
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            uri.starts_with("packages/") && !uri.contains("://"),
            "repository-relative uri, got {uri}"
        );
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
        let print = result["partialFingerprints"]["yttlint/v1"]
            .as_str()
            .unwrap();
        assert!(prints.insert(print.to_string()), "fingerprints are unique");
    }
    let clean: Value = serde_json::from_str(&rendered(Format::Sarif, &clean())).unwrap();
    assert_eq!(clean["runs"][0]["results"], Value::Array(vec![]));
}

// ---------------------------------------------------------------- JUnit

#[test]
fn junit_parses_back() {
    let report = report();
    let xml = rendered(Format::Junit, &report);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let top = doc.root_element();
    assert_eq!(top.tag_name().name(), "testsuites");
    let suites: Vec<_> = top
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    let names: Vec<&str> = suites
        .iter()
        .map(|s| s.attribute("name").unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "packages/app/config",
            "packages/broken",
            "packages/web/config"
        ]
    );
    let mut total = 0;
    let mut failures = 0;
    for suite in &suites {
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let failing = cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
            .count();
        assert_eq!(
            suite.attribute("tests"),
            Some(cases.len().to_string().as_str())
        );
        assert_eq!(
            suite.attribute("failures"),
            Some(failing.to_string().as_str())
        );
        total += cases.len();
        failures += failing;
    }
    assert_eq!(top.attribute("tests"), Some(total.to_string().as_str()));
    assert_eq!(
        top.attribute("failures"),
        Some(failures.to_string().as_str())
    );
    // One case per finding (no scenario here is clean): none twice, none named by position.
    assert_eq!(total, report.diagnostics.len());
    assert_eq!(failures, 2, "the two errors; warnings and info pass");
    assert_eq!(top.attribute("errors"), Some("1"), "the internal error");
    let names: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|c| {
            format!(
                "{}/{}",
                c.attribute("classname").unwrap(),
                c.attribute("name").unwrap()
            )
        })
        .collect();
    let unique: HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    assert!(
        names.contains(&"packages/app/config.prod/data-value-violation in packages/app/config/values.yml: port: must be: > 0 (by: schema.yml)".to_string()),
        "{names:?}"
    );
    // The full message, unescaped, in the failure's body; the rule as its type.
    let output = doc
        .descendants()
        .find(|n| n.has_tag_name("failure") && n.attribute("type") == Some("output-violation"))
        .unwrap();
    let body = output.text().unwrap();
    assert!(
        body.contains("packages/web/config/deploy.yml:1:1"),
        "{body}"
    );
    assert!(
        body.contains("spec.replicas: <script>&\"quoted\", 100% sure: it's wrong\r\n\u{FFFD}bell"),
        "{body}"
    );
    assert!(
        body.contains("object: apps/v1/Deployment/default/web"),
        "{body}"
    );
    // A root the linter could not check is an error, not a failure.
    let broken = suites[1]
        .descendants()
        .find(|n| {
            n.has_tag_name("testcase")
                && n.attribute("name")
                    .is_some_and(|a| a.starts_with("internal-error in packages/broken"))
        })
        .unwrap();
    assert!(broken.children().any(|n| n.has_tag_name("error")));
}

/// Four error findings in two scenarios of one root, and a clean scenario.
fn four_errors() -> Report {
    let at = |line| Span::point("packages/app/config/values.yml", line, 1);
    let mut report = Report {
        roots: vec![
            status("packages/app/config", Some("dev"), RootOutcome::Ok, 3),
            status(
                "packages/app/config",
                Some("prod"),
                RootOutcome::Findings,
                4,
            ),
            status("packages/app/config", Some("qa"), RootOutcome::Findings, 5),
        ],
        diagnostics: vec![
            in_root(
                Diagnostic::new(Rule::DataValueViolation, "port: must be > 0").at(at(4)),
                "packages/app/config",
                Some("prod"),
            ),
            in_root(
                Diagnostic::new(Rule::TemplateError, "undefined: hostnme").at(at(3)),
                "packages/app/config",
                Some("prod"),
            ),
            in_root(
                Diagnostic::new(Rule::DataValueViolation, "port: must be > 0").at(at(4)),
                "packages/app/config",
                Some("qa"),
            ),
            in_root(
                Diagnostic::new(Rule::SchemaTypeMismatch, "replicas: wants an int").at(at(5)),
                "packages/app/config",
                Some("qa"),
            ),
        ],
    };
    report.normalize();
    report
}

fn junit_cases(xml: &str) -> Vec<(String, bool)> {
    let doc = roxmltree::Document::parse(xml).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|c| {
            let name = format!(
                "{}/{}",
                c.attribute("classname").unwrap(),
                c.attribute("name").unwrap()
            );
            (name, c.children().any(|n| n.has_tag_name("failure")))
        })
        .collect()
}

#[test]
fn junit_has_one_failing_case_per_finding_and_warnings_pass() {
    let report = four_errors();
    let xml = rendered(Format::Junit, &report);
    let cases = junit_cases(&xml);
    assert_eq!(
        cases.len(),
        5,
        "4 findings and the clean scenario: {cases:?}"
    );
    assert_eq!(cases.iter().filter(|(_, failed)| *failed).count(), 4);
    let names: HashSet<&String> = cases.iter().map(|(n, _)| n).collect();
    assert_eq!(names.len(), 5, "no case twice: {cases:?}");
    assert!(names.contains(&"packages/app/config/scenario dev".to_string()));
    // Names do not move with the lines.
    let mut shifted = report.clone();
    for d in &mut shifted.diagnostics {
        if let Some(span) = &mut d.span {
            span.line += 10;
            span.end_line += 10;
        }
    }
    let moved: Vec<String> = junit_cases(&rendered(Format::Junit, &shifted))
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let before: Vec<String> = cases.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(moved, before);
    // The same findings as warnings fail nothing by default, and fail at --fail-on warning.
    let mut warnings = report.clone();
    for d in &mut warnings.diagnostics {
        d.severity = Severity::Warning;
    }
    let passing = rendered(Format::Junit, &warnings);
    assert!(junit_cases(&passing).iter().all(|(_, failed)| !failed));
    assert!(passing.contains("<testsuites name=\"yttlint\" tests=\"5\" failures=\"0\""));
    let strict = RenderOptions {
        fail_on: Severity::Warning,
        ..RenderOptions::default()
    };
    let failing = render(Format::Junit, &warnings, &sources(), &strict);
    assert_eq!(junit_cases(&failing).iter().filter(|(_, f)| *f).count(), 4);
    let _ = (xml, passing, failing);
}

/// The three JUnit documents of [`junit_has_one_failing_case_per_finding_and_warnings_pass`]:
/// four failing findings, the same as warnings, and the warnings at `--fail-on warning`.
fn junit_variants() -> Vec<(&'static str, String)> {
    let report = four_errors();
    let mut warnings = report.clone();
    for d in &mut warnings.diagnostics {
        d.severity = Severity::Warning;
    }
    let strict = RenderOptions {
        fail_on: Severity::Warning,
        ..RenderOptions::default()
    };
    vec![
        ("four", rendered(Format::Junit, &report)),
        ("warnings", rendered(Format::Junit, &warnings)),
        (
            "strict",
            render(Format::Junit, &warnings, &sources(), &strict),
        ),
    ]
}

#[test]
fn junit_for_a_clean_run_has_only_passing_cases() {
    let xml = rendered(Format::Junit, &clean());
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 1);
    assert!(cases[0].first_element_child().is_none());
}

// ---------------------------------------------------------------- GitLab Code Quality

#[derive(Deserialize)]
struct Issue {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: String,
    location: IssueLocation,
}

#[derive(Deserialize)]
struct IssueLocation {
    path: String,
    lines: IssueLines,
}

#[derive(Deserialize)]
struct IssueLines {
    begin: u32,
}

#[test]
fn gitlab_code_quality_parses_back() {
    let report = report();
    let issues: Vec<Issue> =
        serde_json::from_str(&rendered(Format::Gitlab, &report)).expect("a Code Quality array");
    assert_eq!(issues.len(), report.diagnostics.len());
    let mut prints = HashSet::new();
    for (issue, d) in issues.iter().zip(&report.diagnostics) {
        assert_eq!(issue.check_name, d.rule.id());
        assert!(issue.description.starts_with(d.summary()));
        assert!(
            ["info", "minor", "major", "critical", "blocker"].contains(&issue.severity.as_str())
        );
        assert!(issue.location.path.starts_with("packages/"));
        assert!(issue.location.lines.begin >= 1);
        assert!(
            prints.insert(issue.fingerprint.clone()),
            "unique fingerprints"
        );
    }
    let broken = issues
        .iter()
        .find(|i| i.check_name == "internal-error")
        .unwrap();
    assert_eq!(broken.location.path, "packages/broken");
    let clean: Vec<Issue> = serde_json::from_str(&rendered(Format::Gitlab, &clean())).unwrap();
    assert!(clean.is_empty());
}

#[test]
fn gitlab_fingerprints_survive_line_shifts() {
    let shifted = Sources::new("/nonexistent");
    shifted.insert(
        "packages/app/config/values.yml",
        &format!("#! a comment\n#! and another\n{VALUES}"),
    );
    shifted.insert("packages/app/config/schema.yml", SCHEMA);
    shifted.insert("packages/web/config/deploy.yml", "kind: Deployment\n");
    let mut moved = report();
    for d in &mut moved.diagnostics {
        if let Some(span) = &mut d.span {
            if span.file == "packages/app/config/values.yml" {
                span.line += 2;
                span.end_line += 2;
            }
        }
    }
    let before: Vec<Issue> = serde_json::from_str(&rendered(Format::Gitlab, &report())).unwrap();
    let after: Vec<Issue> = serde_json::from_str(&render(
        Format::Gitlab,
        &moved,
        &shifted,
        &RenderOptions::default(),
    ))
    .unwrap();
    for (a, b) in before.iter().zip(&after) {
        assert_eq!(a.fingerprint, b.fingerprint, "{}", a.description);
    }
    assert!(before
        .iter()
        .zip(&after)
        .any(|(a, b)| a.location.lines.begin != b.location.lines.begin));
}

// ---------------------------------------------------------------- JSON

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonReport {
    version: u32,
    roots: Vec<JsonRoot>,
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonRoot {
    path: String,
    scenario: Option<String>,
    status: String,
    duration_ms: u64,
    provenance: Option<JsonProvenance>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonProvenance {
    source: String,
    origin: Option<String>,
    assumptions: Vec<JsonAssumption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonAssumption {
    kind: String,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonCertainty {
    source: String,
    origin: Option<String>,
    certain: bool,
    assumptions: Vec<JsonAssumption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonDiagnostic {
    rule: String,
    severity: String,
    message: String,
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    end_line: Option<u32>,
    end_column: Option<u32>,
    root: Option<String>,
    scenario: Option<String>,
    object: Option<String>,
    related: Vec<JsonRelated>,
    help: Option<String>,
    fix: Option<JsonFix>,
    certainty: Option<JsonCertainty>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonFix {
    title: String,
    applicability: String,
    edits: Vec<JsonEdit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonEdit {
    file: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    start: usize,
    end: usize,
    replacement: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonRelated {
    message: String,
    file: String,
    line: u32,
    column: u32,
}

#[test]
fn json_report_has_exactly_the_design_keys() {
    let report = report();
    let text = rendered(Format::Json, &report);
    let parsed: JsonReport = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed.version, 1);
    assert_eq!(parsed.roots.len(), report.roots.len());
    assert_eq!(parsed.diagnostics.len(), report.diagnostics.len());
    let statuses: HashSet<&str> = parsed.roots.iter().map(|r| r.status.as_str()).collect();
    assert!(statuses.is_subset(&HashSet::from(["ok", "findings", "error"])));
    let broken = parsed
        .diagnostics
        .iter()
        .find(|d| d.rule == "internal-error")
        .unwrap();
    assert_eq!((broken.file.as_deref(), broken.line), (None, None));
    let violation = parsed
        .diagnostics
        .iter()
        .find(|d| d.rule == "data-value-violation")
        .unwrap();
    assert_eq!(violation.related[0].file, "packages/app/config/schema.yml");
    assert_eq!(violation.severity, "error");
}

// ---------------------------------------------------------------- GitHub annotations

/// Undoes GitHub's escaping of a message or a property value.
fn unescape(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

#[test]
fn github_annotations_parse_back() {
    let report = report();
    let text = rendered(Format::Github, &report);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), report.diagnostics.len() + 1);
    let mut in_order: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    in_order.sort_by_key(|d| std::cmp::Reverse(d.severity));
    for (line, d) in lines.iter().zip(in_order) {
        let rest = line.strip_prefix("::").unwrap();
        let (command, rest) = rest.split_once(' ').unwrap();
        let expected = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        assert_eq!(command, expected);
        let (properties, message) = rest.split_once("::").unwrap();
        assert!(!message.contains('\n') && !message.contains('\r'));
        let expected_message = d.message.replace('\u{7}', "\u{FFFD}");
        assert!(unescape(message).starts_with(&expected_message), "{line}");
        for property in properties.split(',') {
            let (key, value) = property.split_once('=').unwrap();
            let value = unescape(value);
            match key {
                "file" => assert_eq!(
                    Some(value.as_str()),
                    d.span.as_ref().map(|s| s.file.as_str())
                ),
                "title" => assert_eq!(value, d.rule.id()),
                "line" | "endLine" | "col" | "endColumn" => {
                    assert!(value.parse::<u32>().is_ok())
                }
                other => panic!("unexpected property {other}"),
            }
        }
    }
    assert_eq!(
        lines.last(),
        Some(&"3 errors, 3 warnings, 1 info in 3 roots")
    );
}

// ---------------------------------------------------------------- terminal

#[test]
fn terminal_shows_code_frames_and_the_summary() {
    let text = rendered(Format::Terminal, &report());
    assert!(text.contains("error[data-value-violation]: port: must be: > 0 (by: schema.yml:3)"));
    assert!(
        text.contains("packages/app/config/values.yml:4:7"),
        "{text}"
    );
    assert!(text.contains("4 │ port: 0"), "{text}");
    assert!(text.contains("rule declared here"), "{text}");
    assert!(text.contains("= help: give a port above 0"), "{text}");
    assert!(text.contains("error[internal-error]: evaluation panicked"));
    assert!(text.contains("= in root packages/broken"), "{text}");
    assert!(!text.contains('\u{1b}'));
    assert!(text.ends_with("3 errors, 3 warnings, 1 info in 3 roots\n"));
    let colored = render(
        Format::Terminal,
        &report(),
        &sources(),
        &RenderOptions {
            color: true,
            ..RenderOptions::default()
        },
    );
    assert!(colored.contains('\u{1b}'));
}

#[test]
fn every_format_is_deterministic_and_newline_terminated() {
    for format in Format::ALL {
        let a = rendered(format, &report());
        let b = rendered(format, &report());
        assert_eq!(a, b, "{format}");
        assert!(a.ends_with('\n'), "{format}");
    }
}
