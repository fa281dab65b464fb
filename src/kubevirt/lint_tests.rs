//! Tests of the public entry point: which findings come out, where, about which object, and
//! the switches of [`Options`].

use std::sync::Arc;

use super::{lint, KvInput, Options, ANNOTATION_INVALID, RULE_VIOLATION};
use crate::pos::Pos;
use crate::report::{Diagnostic, Rule, Severity, Span};
use crate::yaml::parse::{parse, ParseOpts};

const TEMPLATE: &str = "\
apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: t
  namespace: ns
  annotations:
    validations: |
      [
        {\"name\": \"cores\", \"path\": \"jsonpath::.spec.domain.cpu.cores\",
         \"rule\": \"integer\", \"message\": \"too many cores\", \"max\": 2}
      ]
objects: []
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm
  namespace: apps
  labels: {vm.kubevirt.io/template: t, vm.kubevirt.io/template.namespace: ns}
spec:
  template:
    spec:
      domain:
        cpu:
          cores: 4
";

/// Lints one file's text with a closure as the locator (no source text: no JSON positions).
fn run(src: &str, opts: &Options) -> Vec<Diagnostic> {
    let f: Arc<str> = Arc::from("t.yaml");
    let ds = parse(src, &f, &ParseOpts::default()).unwrap();
    let locate = |p: &Pos| Some(Span::point("t.yaml", p.line, p.col));
    lint(
        &[KvInput {
            file: "t.yaml",
            docs: &ds,
        }],
        &locate,
        opts,
    )
}

#[test]
fn violation_at_the_field_with_object_and_rule() {
    let diags = run(TEMPLATE, &Options::default());
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d.rule, RULE_VIOLATION);
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.object.as_deref(), Some("VirtualMachine/apps/vm"));
    assert_eq!(
        d.message,
        "rule \"cores\" of Template ns/t rejects this VirtualMachine: too many cores: value 4 is \
         higher than maximum [2]"
    );
    let span = d.span.as_ref().unwrap();
    assert_eq!((span.line, span.column), (25, 11));
    // without the source text, the rule's position is the annotation's key
    assert_eq!(d.related[0].span.line, 7);
}

#[test]
fn options_switch_each_finding_off() {
    let broken = TEMPLATE.replace("\"max\": 2", "\"max\": \"2\"");
    let diags = run(&broken, &Options::default());
    let rules: Vec<Rule> = diags.iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        vec![ANNOTATION_INVALID, ANNOTATION_INVALID],
        "{diags:#?}"
    );
    assert_eq!(diags[1].object.as_deref(), Some("VirtualMachine/apps/vm"));
    let off = Options {
        check_annotations: false,
        ..Options::default()
    };
    assert!(run(&broken, &off).is_empty());
    let off = Options {
        evaluate: false,
        ..Options::default()
    };
    assert!(run(TEMPLATE, &off).is_empty());
}

#[test]
fn justwarning_is_a_warning() {
    let warn = TEMPLATE.replace("\"max\": 2}", "\"max\": 2, \"justWarning\": true}");
    let diags = run(&warn, &Options::default());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity, Severity::Warning);
    assert!(
        diags[0].message.contains("warns (justWarning)"),
        "{}",
        diags[0].message
    );
}

#[test]
fn annotation_that_is_not_a_string() {
    let src = "\
apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: t
  annotations:
    validations:
    - name: x
";
    let diags = run(src, &Options::default());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].rule, ANNOTATION_INVALID);
    assert!(
        diags[0].message.contains("must be a string"),
        "{}",
        diags[0].message
    );
    assert_eq!(diags[0].object.as_deref(), Some("Template//t"));
}

#[test]
fn null_rule_and_empty_path() {
    let src = TEMPLATE.replace(
        "\"max\": 2}\n",
        "\"max\": 2},\n        null,\n        {\"name\": \"p\", \"path\": null, \"rule\": \"integer\", \"message\": \"m\"}\n",
    );
    let diags = run(&src, &Options::default());
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.iter().any(|m| m.contains("rule 2 is null")),
        "{messages:#?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("\"path\" is empty")),
        "{messages:#?}"
    );
}

#[test]
fn skip_annotation_and_own_rules() {
    let skip = TEMPLATE.replace(
        "  labels:",
        "  annotations: {vm.kubevirt.io/skip-validations: \"\"}\n  labels:",
    );
    assert!(run(&skip, &Options::default()).is_empty());
    let own = TEMPLATE.replace(
        "  labels:",
        "  annotations:\n    vm.kubevirt.io/validations: '[{\"name\": \"own\", \"path\": \"jsonpath::.spec.domain.cpu.cores\", \"rule\": \"integer\", \"message\": \"m\", \"max\": 8}]'\n  labels:",
    );
    assert!(run(&own, &Options::default()).is_empty());
}

#[test]
fn template_rules_that_no_vm_gets() {
    let objects = "objects:\n- apiVersion: kubevirt.io/v1\n  kind: VirtualMachine\n  metadata: {name: x, labels: {vm.kubevirt.io/template: other}}\n";
    let src = TEMPLATE.replace("objects: []\n", objects);
    let diags = run(&src, &Options::default());
    let w: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert_eq!(w.len(), 1, "{diags:#?}");
    assert!(
        w[0].message.contains("as \"other\", not \"t\""),
        "{}",
        w[0].message
    );
}
