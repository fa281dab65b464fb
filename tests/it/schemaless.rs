//! Data values checked without a schema, end to end on `fixtures/schemaless/`: references are
//! checked against what the `@data/values` documents and every scenario of the root set; a
//! root whose values come from outside (`unset_values: needs-input`) and a private library a
//! caller gives values (`with_data_values`) are not checked.

use std::path::Path;
use std::process::Command;

#[test]
fn references_are_checked_against_the_data_values_documents_and_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/schemaless");
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(&dir)
        .args(["--format", "json", "--no-cache"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"].as_str().unwrap().starts_with("data-value-"))
        .map(|d| {
            format!(
                "{} {}:{}:{}-{} {}",
                d["rule"].as_str().unwrap(),
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["end_column"],
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            // ytt accepts the scenario's new key without a schema; the linter warns.
            "data-value-undeclared .yttlint.yaml:9:23-30 data value ingress is set but nothing declares it (no schema, no earlier data value)",
            // A private library nothing gives values to: its own documents are all there is.
            "data-value-unknown-reference app/_ytt_lib/theme/theme.yml:3:24-30 data.values.colour: no data values document or input sets colour at the top (did you mean color?)",
            "data-value-unused app/_ytt_lib/theme/values.yml:3:1-6 data value color is set in a data values document but nothing in the library reads it",
            // `ingress.host` is set by a scenario, `extra` is null (its keys come later), `tls`
            // is probed with hasattr: only the typo is sure to fail.
            "data-value-unknown-reference app/service.yml:7:24-28 data.values.prot: no data values document or input sets prot at the top (did you mean port?)",
            "data-value-unused app/values.yml:4:1-5 data value port is set in a data values document but nothing in the library reads it",
        ]
    );
}
