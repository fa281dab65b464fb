//! Round eighteen's false warnings (issue 39, the eighteenth session; docs/precision.md
//! "Round eighteen's left-overs"), each as a general rule on a minimal repository written for
//! the test: a Package's null default that its user fills, read by a text template's
//! `(@= … @)`, is input the linter lacks, as the same null read by a plain expression is
//! (R18-2).

use serde_json::Value;

use crate::util::json::{lint_json, of, str_of, summary};
use crate::util::TempDir;

/// A Package whose fetched bundle's `config/` the repository holds under `bundle/`.
const PACKAGE: &str = "apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  name: logs.example.com.1.0.0
spec:
  refName: logs.example.com
  version: 1.0.0
  template:
    spec:
      fetch:
      - imgpkgBundle:
          image: registry.example.com/logs-bundle:1.0.0
      template:
      - ytt:
          paths:
          - config/
      deploy:
      - kapp: {}
";

/// The package's defaults: the collector is the installer's to give.
const NULL_DEFAULT: &str =
    "#@data/values\n---\n#! the installer's values file sets this\ncollector_host:\n";

/// A ConfigMap whose text-templated string reads `expr`.
fn forwarder(expr: &str) -> String {
    format!(
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: log-forwarder\ndata:\n  #@yaml/text-templated-strings\n  outputs.conf: |\n    [OUTPUT]\n      Host (@= {expr} @)\n      Port 514\n"
    )
}

/// The findings other than `needs-input` notes.
fn not_notes(report: &Value) -> Vec<&Value> {
    crate::util::json::diagnostics(report)
        .iter()
        .filter(|d| d["rule"] != "needs-input")
        .collect()
}

#[test]
fn a_packages_null_default_in_a_text_template_needs_input() {
    // R18-2: ytt fails with the package's defaults (`__ytt_tpl3_set_node: cannot set
    // non-string value (<nil>)`) and renders once the installer gives the value: what the
    // linter lacks is the input, as for the same null in a plain expression.
    let text = forwarder("data.values.collector_host");
    let dir = TempDir::with_files(&[
        ("package.yaml", PACKAGE),
        ("bundle/config/values.yaml", NULL_DEFAULT),
        ("bundle/config/forwarder.yaml", text.as_str()),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    assert!(not_notes(&report).is_empty(), "{}", summary(&report));
    let notes = of(&report, "needs-input");
    assert_eq!(notes.len(), 1, "{report:#}");
    let message = str_of(notes[0], "message");
    assert!(
        message.contains("(`collector_host`)") && message.contains("gives None, not a string"),
        "{message}"
    );
    assert!(!message.contains("__ytt_tpl"), "{message}");
    assert_eq!(str_of(notes[0], "file"), "bundle/config/forwarder.yaml");
    assert_eq!(code, 0, "{report:#}");

    // The plain expression (R18-2b) was already a note: the two read the same.
    let plain = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: log-forwarder\ndata:\n  host: #@ data.values.collector_host + \":514\"\n";
    let dir = TempDir::with_files(&[
        ("package.yaml", PACKAGE),
        ("bundle/config/values.yaml", NULL_DEFAULT),
        ("bundle/config/forwarder.yaml", plain),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(not_notes(&report).is_empty(), "{}", summary(&report));
    assert!(
        str_of(of(&report, "needs-input")[0], "message").contains("(`collector_host`)"),
        "{report:#}"
    );
}

#[test]
fn a_text_templates_non_string_value_is_still_an_error() {
    // Not a null: an int where a string goes fails whatever the installer gives. The message
    // says it with the template's words, not ytt's internal function.
    let text = forwarder("data.values.port");
    let dir = TempDir::with_files(&[
        ("render.sh", "#!/bin/sh\nytt -f config/\n"),
        ("config/values.yaml", "#@data/values\n---\nport: 514\n"),
        ("config/forwarder.yaml", text.as_str()),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    let found = of(&report, "template-error");
    assert_eq!(found.len(), 1, "{}", summary(&report));
    assert_eq!(str_of(found[0], "severity"), "error");
    let message = str_of(found[0], "message");
    assert!(
        message.starts_with("a `(@= … @)` of a text template gives an int, not a string"),
        "{message}"
    );
    assert_eq!(code, 1);

    // A null that a command the repository runs leaves null is the repository's: ytt fails
    // there every time.
    let text = forwarder("data.values.collector_host");
    let dir = TempDir::with_files(&[
        ("render.sh", "#!/bin/sh\nytt -f config/\n"),
        ("config/values.yaml", NULL_DEFAULT),
        ("config/forwarder.yaml", text.as_str()),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    let found = of(&report, "template-error");
    assert_eq!(found.len(), 1, "{}", summary(&report));
    assert_eq!(str_of(found[0], "severity"), "error", "{report:#}");
    assert!(
        str_of(found[0], "message").contains("gives None, not a string"),
        "{report:#}"
    );
    assert_eq!(code, 1);
}
