//! Round twenty-five's lost errors, each on a minimal repository written for the test: a page's
//! placeholder for a value the templates check against a list (`sink in ("stdout", "kafka")
//! or assert.fail(…)`) stops the evaluation at a `needs-input` note, while the value the
//! page's section names, or every listed value, fails later on a key the data values lack
//! (R25-2).

use crate::util::json::{assumption_text, str_of};
use crate::util::repo::Repo;

/// The check of the sink against its list, loaded by the template before anything renders.
const CHECK: &str = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\n\ndata.values.exporter.sink in [\"stdout\", \"kafka\"] or assert.fail(\"the sink is stdout or kafka\")\n\nvalues = data.values\n";

/// A ConfigMap whose kafka branch reads `exporter.kafka.sasl` (line 12).
const CONFIG: &str = "#@ load(\"check.star\", \"values\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: exporter\n  namespace: #@ values.namespace\ndata:\n  #@ if values.exporter.sink == \"stdout\":\n  sink: stdout\n  #@ elif values.exporter.sink == \"kafka\":\n  sink: #@ \"kafka://\" + values.exporter.kafka.broker + \"?sasl=\" + values.exporter.kafka.sasl\n  #@ end\n";

/// The defaults: no `exporter.kafka.sasl` unless `sasl` is given.
fn defaults(sasl: bool) -> String {
    let extra = if sasl { "    sasl: plain\n" } else { "" };
    format!(
        "#@data/values\n---\nnamespace: obs\nexporter:\n  sink: \"\"\n  kafka:\n    broker: null\n{extra}"
    )
}

/// A page with one section per sink, each command with the placeholder `<sink>`.
const PAGE: &str = "# Exporter\n\nWrite a `my-values.yaml` (`#@data/values`) with your settings.\n\n## Standard output\n\n```sh\nytt -f exporter/ -f <my-values.yaml> -v exporter.sink='<sink>' | kubectl apply -f-\n```\n\n## Kafka\n\n```sh\nytt -f exporter/ -f <my-values.yaml> -v exporter.kafka.broker='<broker>' -v exporter.sink='<sink>' | kubectl apply -f-\n```\n";

fn repo(sasl: bool, page: &str) -> Repo {
    let values = defaults(sasl);
    Repo::of(&[
        ("exporter/check.star", CHECK),
        ("exporter/config.yaml", CONFIG),
        ("exporter/values.yaml", values.as_str()),
        ("README.md", page),
    ])
}

#[test]
fn the_value_a_page_s_section_names_is_tried_where_its_placeholder_fails_a_listed_check() {
    let lint = repo(false, PAGE).lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    let d = failed[0];
    assert_eq!(str_of(d, "severity"), "warning", "{lint}");
    assert_eq!(str_of(d, "file"), "exporter/config.yaml", "{lint}");
    assert_eq!(d["line"], 12, "{lint}");
    assert_eq!(str_of(d, "scenario"), "README.md:14", "{lint}");
    assert!(str_of(d, "message").contains("no .sasl"), "{lint}");
    let why = assumption_text(d);
    assert!(
        why.contains("`exporter.sink` is `kafka` in place of the placeholder `<sink>`"),
        "{why}"
    );
    assert!(why.contains("section \"Kafka\" (README.md:11)"), "{why}");
    assert!(why.contains("exporter/check.star:4"), "{why}");
    // The standard output section renders with its value: its note stays (one note for both
    // scenarios, the other named among its places).
    let of_stdout = |n: &&serde_json::Value| {
        str_of(n, "scenario") == "README.md:8"
            || n["related"].as_array().is_some_and(|r| {
                r.iter()
                    .any(|r| str_of(r, "message").ends_with("scenario README.md:8"))
            })
    };
    assert!(lint.of("needs-input").iter().any(of_stdout), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn every_listed_value_is_tried_where_no_section_names_one() {
    // One command, no heading that names a sink: both values fail at the same line.
    let config = CONFIG.replace(
        "  #@ if values.exporter.sink == \"stdout\":",
        "  tls: #@ values.exporter.tls\n  #@ if values.exporter.sink == \"stdout\":",
    );
    let page = "# Exporter\n\n```sh\nytt -f exporter/ -f <my-values.yaml> -v exporter.sink='<sink>'\n```\n";
    let values = defaults(true);
    let lint = Repo::of(&[
        ("exporter/check.star", CHECK),
        ("exporter/config.yaml", config.as_str()),
        ("exporter/values.yaml", values.as_str()),
        ("README.md", page),
    ])
    .lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
    assert_eq!(failed[0]["line"], 9, "{lint}");
    let why = assumption_text(failed[0]);
    assert!(why.contains("(`stdout`, `kafka`)"), "{why}");
    assert!(why.contains("each fails here"), "{why}");
}

#[test]
fn where_the_listed_values_render_the_note_stays_alone() {
    let lint = repo(true, PAGE).lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert!(!lint.of("needs-input").is_empty(), "{lint}");

    // No section names a value, and `stdout` renders: not every value fails.
    let page = "# Exporter\n\n```sh\nytt -f exporter/ -f <my-values.yaml> -v exporter.sink='<sink>'\n```\n";
    let lint = repo(false, page).lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert!(!lint.of("needs-input").is_empty(), "{lint}");
}
