//! A data value's failed validation is worded as ytt 0.48 words it ("Validating final data
//! values: PATH (from: FILE:LINE): must be: DESCRIPTION (by: FILE:LINE); found: WHY"), for a
//! given value (`data-value-violation`) and a default no input sets (`required-value`) alike;
//! "must be" is said once where the rule's own description says it. Minimal repros written
//! for the tests; ytt built from source (`/work/tools/ytt`) prints, for each, the lines
//! `replicas` / `from: values.yaml:4` / `- must be: must be positive (by: values.yaml:3)`.

use crate::util::json::str_of;
use crate::util::repo::Repo;

const TEMPLATE: (&str, &str) = (
    "config/cm.yaml",
    "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ data.values.replicas\n",
);

/// A script that renders the folder as it is, so its failures are certain errors.
const SCRIPT: (&str, &str) = ("build.sh", "#!/bin/sh\nytt -f config\n");

#[test]
fn an_assert_validate_failure_on_a_data_value_reads_as_ytt_s() {
    let repo = Repo::of(&[
        TEMPLATE,
        SCRIPT,
        (
            "config/values.yaml",
            "#@data/values\n---\n#@assert/validate (\"must be positive\", lambda v: v > 0)\nreplicas: 0\n",
        ),
    ]);
    let lint = repo.lint();
    let found = lint.of("data-value-violation");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        str_of(found[0], "message"),
        "Validating final data values: replicas (from: values.yaml:4): must be: must be positive (by: values.yaml:3)",
        "{lint}"
    );
}

#[test]
fn a_required_value_says_must_be_once_and_what_was_found() {
    let repo = Repo::of(&[
        TEMPLATE,
        SCRIPT,
        (
            "config/schema.yaml",
            "#@data/values-schema\n---\n#@schema/validation (\"must be positive\", lambda v: v > 0)\nreplicas: 0\n#@schema/validation min_len=3\nname: ab\n",
        ),
    ]);
    let lint = repo.lint();
    let mut said: Vec<&str> = lint
        .of("required-value")
        .iter()
        .map(|d| str_of(d, "message"))
        .collect();
    said.sort();
    assert_eq!(
        said,
        [
            "Validating final data values: name (from: schema.yaml:6): must be: length >= 3 (by: schema.yaml:5); found: length = 2",
            "Validating final data values: replicas (from: schema.yaml:4): must be: must be positive (by: schema.yaml:3)",
        ],
        "{lint}"
    );
    assert!(
        said.iter().all(|m| !m.contains("must be must be")),
        "{lint}"
    );
}
