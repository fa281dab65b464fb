//! The fixture repository `fixtures/static-analysis/` shows each rule of static analysis once:
//! findings in branches no scenario takes, in a private library nothing uses, and in files the
//! evaluation never reaches, each at its template position.

use std::path::Path;
use std::process::Command;

#[test]
fn the_fixture_shows_every_static_rule_once() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/static-analysis");
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(&dir)
        .args(["--format", "json"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}:{}-{}",
                d["rule"].as_str().unwrap(),
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["end_column"]
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "load-unknown-name config/_ytt_lib/tools/list.star:1:22-28",
            "unused-load config/app.yml:2:22-28",
            // The branch no scenario takes, where the static findings are.
            "branch-never-evaluated config/app.yml:14:3-3",
            "wrong-arguments config/app.yml:14:14-20",
            "data-value-unknown-reference config/app.yml:16:34-41",
            "data-value-unused config/schema.yml:5:1-9",
            "branch-never-evaluated config/values.star:7:5-5",
            "unknown-module-attribute config/values.star:7:5-18",
            "unused-function config/values.star:12:5-20",
            "unreachable-code config/values.star:18:3-3",
        ]
    );
    let rules: std::collections::BTreeSet<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    for rule in yttlint::analysis::RULES {
        assert!(rules.contains(rule), "{rule} is not shown");
    }
}
