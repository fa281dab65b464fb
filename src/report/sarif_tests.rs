//! Tests of the SARIF report: one run with its rules, results that point into the repository,
//! root-level anchors, clean runs and encoded URIs.

use super::*;
use crate::report::{RootOutcome, RootStatus};

fn report() -> Report {
    let mut d = Diagnostic::new(Rule::DataValueViolation, "port: must be > 0\nfound: 0")
        .at(Span {
            file: "config/my values.yml".into(),
            line: 2,
            column: 7,
            end_line: 2,
            end_column: 8,
        })
        .with_related("rule declared here", Span::point("config/schema.yml", 3, 1))
        .with_help("give a port above 0");
    d.root = Some("config".into());
    let mut whole = Diagnostic::new(Rule::InternalError, "evaluation panicked");
    whole.root = Some("config".into());
    whole.scenario = Some("prod".into());
    let mut odd =
        Diagnostic::new(Rule::UnreachableCode, "something").at(Span::point("a.yml", 1, 1));
    odd.severity = Severity::Info;
    Report {
        roots: vec![RootStatus {
            path: "config".into(),
            scenario: None,
            status: RootOutcome::Findings,
            duration_ms: 1,
            provenance: None,
            unchecked: Vec::new(),
        }],
        diagnostics: vec![d, whole, odd],
    }
}

fn sources() -> Sources {
    let sources = Sources::new("/nonexistent");
    sources.insert("config/my values.yml", "a: 1\nport: 0\n");
    sources.insert("config/schema.yml", "#@data/values-schema\n---\nport: 1\n");
    sources
}

fn render_value(report: &Report) -> Value {
    let text = render(report, &sources(), &RenderOptions::default());
    serde_json::from_str(&text).unwrap()
}

#[test]
fn one_run_with_rules_and_automation_details() {
    let log = render_value(&report());
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "yttlint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), Rule::ALL.len());
    let violation = rules
        .iter()
        .find(|r| r["id"] == Rule::DataValueViolation.id())
        .unwrap();
    assert_eq!(violation["name"], "DataValueViolation");
    assert!(violation["shortDescription"]["text"].is_string());
    assert!(violation["fullDescription"]["text"].is_string());
    assert!(violation["help"]["text"].is_string());
    assert_eq!(violation["defaultConfiguration"]["level"], "error");
    assert!(runs[0].get("automationDetails").is_none());
    let options = RenderOptions {
        automation_id: Some("yttlint/shard-1/".into()),
        information_uri: Some("https://example.com/yttlint".into()),
        ..RenderOptions::default()
    };
    let log: Value = serde_json::from_str(&render(&report(), &sources(), &options)).unwrap();
    let run = &log["runs"][0];
    assert_eq!(run["automationDetails"]["id"], "yttlint/shard-1/");
    assert_eq!(
        run["tool"]["driver"]["informationUri"],
        "https://example.com/yttlint"
    );
    assert_eq!(
        run["tool"]["driver"]["rules"][0]["helpUri"],
        format!(
            "https://example.com/yttlint/blob/v{}/docs/rules/yaml-syntax.md",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn results_point_into_the_repository() {
    let log = render_value(&report());
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let first = &results[0];
    let index = first["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], first["ruleId"]);
    assert_eq!(first["level"], "error");
    assert_eq!(
        first["message"]["text"],
        "port: must be > 0\nfound: 0\nhelp: give a port above 0\nrule declared here: [config/schema.yml:3:1](0)"
    );
    let location = &first["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "config/my%20values.yml"
    );
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        location["region"],
        json!({"startLine": 2, "startColumn": 7, "endLine": 2, "endColumn": 8})
    );
    let related = &first["relatedLocations"][0];
    assert_eq!(related["id"], 0);
    assert_eq!(related["message"]["text"], "rule declared here");
    assert_eq!(
        related["physicalLocation"]["region"],
        json!({"startLine": 3, "startColumn": 1})
    );
    let print = first["partialFingerprints"]["yttlint/v1"].as_str().unwrap();
    assert_eq!(print.len(), 64);
    assert_eq!(results[2]["level"], "note");
    assert_eq!(results[2]["ruleId"], "unreachable-code");
}

#[test]
fn root_level_findings_are_anchored_at_the_root_s_first_file() {
    let log = render_value(&report());
    let whole = &log["runs"][0]["results"][1];
    assert_eq!(
        whole["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "config/my%20values.yml"
    );
    assert_eq!(
        whole["message"]["text"],
        "evaluation panicked\nin root config, scenario prod"
    );
    assert_eq!(
        whole["properties"],
        json!({"root": "config", "scenario": "prod"})
    );
}

#[test]
fn clean_run_has_empty_results() {
    let log = render_value(&Report::default());
    assert_eq!(log["runs"][0]["results"], json!([]));
    assert!(!log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn uris_are_encoded() {
    assert_eq!(uri("./a b/c:d%.yml"), "a%20b/c%3Ad%25.yml");
    assert_eq!(uri("é.yml"), "%C3%A9.yml");
    assert_eq!(uri("x/(y)+z@1.yaml"), "x/(y)+z@1.yaml");
}
