//! Constructs of round nine's first contact (issue 39, docs/precision.md) that the linter
//! misread, each as a general rule on a minimal repository written for the test.

use serde_json::Value;

use crate::util::json::{diagnostics, lint_json};
use crate::util::TempDir;

/// The findings of `rule` in the report.
fn of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["rule"] == rule)
        .collect()
}

/// A package whose Taskfile inspects a values schema it does not hold (LA-6), with `extra`
/// files beside it.
fn package_without_schema(taskfile: &str) -> TempDir {
    TempDir::with_files(&[
        ("Taskfile.yml", taskfile),
        (
            "package/config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: app\n",
        ),
    ])
}

#[test]
fn a_command_none_of_whose_inputs_exists_is_input_missing() {
    let dir = package_without_schema(
        "version: '3'\ntasks:\n  schema:\n    cmds:\n      - ytt -f package/config/values-schema.yml --data-values-schema-inspect -o openapi-v3 > schema.yml\n",
    );
    let (_, report) = lint_json(&dir, &["--no-cache", "."]);
    let missing = of(&report, "input-missing");
    assert_eq!(missing.len(), 1, "{report:#}");
    assert_eq!(missing[0]["file"], "Taskfile.yml", "{report:#}");
    assert_eq!(missing[0]["line"], 5, "{report:#}");
    let message = missing[0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with(
            "input package/config/values-schema.yml of the ytt command does not exist"
        ),
        "{message}"
    );
}

#[test]
fn a_values_file_an_earlier_step_makes_or_one_beside_templates_is_not_missing() {
    // An earlier step of the same script writes it.
    let dir = package_without_schema("version: '3'\n");
    dir.write(
        "schema.sh",
        "#!/bin/sh\nset -e\n./hack/generate-schema > package/config/values-schema.yml\nytt -f package/config/values-schema.yml --data-values-schema-inspect -o openapi-v3\n",
    );
    let (_, report) = lint_json(&dir, &["--no-cache", "."]);
    assert!(of(&report, "input-missing").is_empty(), "{report:#}");
    // Another script, one that runs no ytt, writes it from a here-document first.
    let dir = package_without_schema("version: '3'\n");
    dir.write(
        "hack/gen-schema.sh",
        "cat > package/config/values-schema.yml <<EOF\n#@data/values-schema\n---\nname: app\nEOF\n",
    );
    dir.write(
        "hack/publish.sh",
        "#!/bin/sh\nhack/gen-schema.sh\nytt -f package/config/values-schema.yml --data-values-schema-inspect -o openapi-v3\n",
    );
    let (_, report) = lint_json(&dir, &["--no-cache", "."]);
    assert!(of(&report, "input-missing").is_empty(), "{report:#}");
    // Beside templates that exist, a values file the repository lacks is the user's own.
    let dir = package_without_schema(
        "version: '3'\ntasks:\n  render:\n    cmds:\n      - ytt -f package/config -f package/config/my-values.yml\n",
    );
    let (_, report) = lint_json(&dir, &["--no-cache", "."]);
    assert!(of(&report, "input-missing").is_empty(), "{report:#}");
}
