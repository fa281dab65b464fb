//! Issue 39's first item: a failure no value given at run time can avoid is ytt's certain
//! error, while one that reads such a value stays a `needs-input` note. Each repository is
//! written for the test; ytt built from source (4b40e30) fails each "certain" shape for
//! `name` empty, `x`, `ok` and `5`, and renders each "reads" shape with `name=ok`.

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A page that gives one data value at run time.
const PAGE: &str = "# Demo\n\n```sh\nytt --data-value name=${NAME} -f config/\n```\n";

/// Values with a key the page gives and one it does not.
const VALUES: &str = "#@data/values\n---\nname: \"\"\nreplicas: 0\n";

/// A template that emits the run-time value and checks another key.
const CHECKS_REPLICAS: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n#@ if data.values.replicas < 1:\n#@   assert.fail(\"replicas must be at least 1\")\n#@ end\n---\nname: #@ data.values.name\nreplicas: #@ data.values.replicas\n";

/// The only finding of `lint`, with its rule and severity.
fn only(lint: &crate::util::repo::Lint) -> (String, String) {
    let ds: Vec<_> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["rule"] != "unused-data-value" && d["severity"] != "hint")
        .collect();
    assert_eq!(ds.len(), 1, "{lint}");
    (
        str_of(ds[0], "rule").to_string(),
        str_of(ds[0], "severity").to_string(),
    )
}

#[test]
fn an_assert_fail_on_a_known_key_is_certain_beside_a_run_time_value() {
    let repo = Repo::of(&[
        ("README.md", PAGE),
        ("config/values.yaml", VALUES),
        ("config/t.yaml", CHECKS_REPLICAS),
    ]);
    let lint = repo.lint();
    assert_eq!(only(&lint), ("template-error".into(), "error".into()));
    // The same check in a function the document calls.
    let in_function = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n#@ def check():\n#@   if data.values.replicas < 1:\n#@     assert.fail(\"replicas must be at least 1\")\n#@   end\n#@   return data.values.replicas\n#@ end\n---\nname: #@ data.values.name\nreplicas: #@ check()\n";
    repo.write("config/t.yaml", in_function);
    let lint = repo.lint();
    assert_eq!(only(&lint), ("template-error".into(), "error".into()));
}

#[test]
fn an_assert_fail_that_reads_the_run_time_value_stays_a_note() {
    let reads = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n#@ if data.values.name != \"ok\" and data.values.replicas < 1:\n#@   assert.fail(\"replicas must be at least 1\")\n#@ end\n---\nname: #@ data.values.name\n";
    let repo = Repo::of(&[
        ("README.md", PAGE),
        ("config/values.yaml", VALUES),
        ("config/t.yaml", reads),
    ]);
    assert_eq!(only(&repo.lint()), ("needs-input".into(), "info".into()));
    // Through a variable and a function's argument.
    let carried = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n#@ def check(n):\n#@   if n != \"ok\":\n#@     assert.fail(\"bad\")\n#@   end\n#@   return n\n#@ end\n#@ n = data.values.name\n---\nname: #@ check(n)\n";
    repo.write("config/t.yaml", carried);
    assert_eq!(only(&repo.lint()), ("needs-input".into(), "info".into()));
}

#[test]
fn a_data_values_validation_of_another_key_is_certain() {
    let validated = "#@data/values\n---\nname: \"\"\n#@assert/validate (\"must be positive\", lambda v: v > 0)\nreplicas: 0\n";
    let emits = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n";
    let repo = Repo::of(&[
        ("README.md", PAGE),
        ("config/values.yaml", validated),
        ("config/t.yaml", emits),
    ]);
    assert_eq!(
        only(&repo.lint()),
        ("data-value-violation".into(), "error".into())
    );
}

#[test]
fn a_schema_rule_whose_when_reads_the_run_time_value_is_a_note() {
    // ytt renders with `name=ok` and fails otherwise: the failure rests on the run's value.
    let schema = "#@data/values-schema\n---\nname: \"\"\n#@schema/validation (\"must be positive\", lambda v: v > 0), when=lambda v, ctx: ctx.root[\"name\"] != \"ok\"\nreplicas: 0\n";
    let emits = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nreplicas: #@ data.values.replicas\n";
    let repo = Repo::of(&[
        ("README.md", PAGE),
        ("config/schema.yaml", schema),
        ("config/t.yaml", emits),
    ]);
    assert_eq!(only(&repo.lint()), ("needs-input".into(), "info".into()));
    // Without the `when=`, the required value is certain (the lead's shape).
    repo.write(
        "config/schema.yaml",
        "#@data/values-schema\n---\nname: \"\"\n#@schema/validation (\"must be positive\", lambda v: v > 0)\nreplicas: 0\n",
    );
    assert_eq!(
        only(&repo.lint()),
        ("required-value".into(), "error".into())
    );
}

#[test]
fn a_check_beside_a_placeholder_the_reader_fills_is_certain() {
    let page = "# Demo\n\n```sh\nytt -f config/\n```\n";
    let values = "#@data/values\n---\nname: <YOUR-NAME>\nreplicas: 0\n";
    let repo = Repo::of(&[
        ("README.md", page),
        ("config/values.yaml", values),
        ("config/t.yaml", CHECKS_REPLICAS),
    ]);
    let lint = repo.lint();
    assert_eq!(only(&lint), ("template-error".into(), "error".into()));
    let d = lint.of("template-error")[0];
    assert!(crate::util::json::assumption_kinds(d).is_empty(), "{lint}");
}
