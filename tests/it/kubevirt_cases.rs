//! Runs the linter on every KubeVirt case of fixtures/kubevirt/cases and checks it against the
//! validator's decisions recorded in each case's expected.txt: an error on every VirtualMachine
//! the validator rejects (naming each failing rule), none on a VM it allows, a warning for each
//! `justWarning` rule that warns, and an error at every malformed annotation.

use std::path::PathBuf;

use yttlint::kubevirt::{lint_files, Options, ANNOTATION_INVALID, RULE_VIOLATION};
use yttlint::report::{Diagnostic, Severity};

use crate::util::fixture;

fn cases_dir() -> PathBuf {
    fixture("kubevirt/cases")
}

fn lint_case(name: &str) -> Vec<Diagnostic> {
    let dir = cases_dir().join(name);
    lint_files(&dir, &[dir.join("case.yaml")], &Options::default())
}

/// One `EXPECT` line: the VM (or `template ns/name objects[0]`), the decision, rule results.
struct Expect {
    object: String,
    prefix: String,
    decision: String,
    rules: Vec<(String, String)>,
}

fn expectations(name: &str) -> Vec<Expect> {
    let text = std::fs::read_to_string(cases_dir().join(name).join("expected.txt")).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("EXPECT ") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (object, prefix, tail) = if words[0] == "template" {
            (
                format!("Template/{}", words[1]),
                format!("{}: ", words[2]),
                &words[3..],
            )
        } else {
            (format!("/{}", words[0]), String::new(), &words[1..])
        };
        let rules = tail[1..]
            .iter()
            .filter_map(|w| w.split_once('='))
            .map(|(n, r)| (n.trim_matches('"').to_string(), r.to_string()))
            .collect();
        out.push(Expect {
            object,
            prefix,
            decision: tail[0].to_string(),
            rules,
        });
    }
    out
}

fn about<'a>(diags: &'a [Diagnostic], e: &Expect) -> Vec<&'a Diagnostic> {
    diags
        .iter()
        .filter(|d| {
            let o = d.object.as_deref().unwrap_or("");
            if e.object.starts_with('/') {
                o.starts_with("VirtualMachine/") && o.ends_with(&e.object)
            } else {
                o == e.object && d.message.starts_with(&e.prefix)
            }
        })
        .collect()
}

fn show(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| {
            let at = d
                .span
                .as_ref()
                .map(|s| format!("{}:{}:{}", s.file, s.line, s.column))
                .unwrap_or_default();
            format!(
                "{at} {:?} {} [{}] {}",
                d.severity,
                d.rule,
                d.object.as_deref().unwrap_or(""),
                d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn names_rule(d: &Diagnostic, rule: &str) -> bool {
    d.message.contains(&format!("rule {rule:?} "))
}

/// Checks the VM decisions of a case.
fn check_vms(name: &str, diags: &[Diagnostic]) {
    let expects = expectations(name);
    assert!(!expects.is_empty(), "{name}: no expectations");
    for e in &expects {
        let mine = about(diags, e);
        let errors: Vec<&Diagnostic> = mine
            .iter()
            .copied()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        let ctx = || format!("{name} {}{}:\n{}", e.prefix, e.object, show(diags));
        if e.decision == "ALLOWED" {
            assert!(errors.is_empty(), "allowed VM has errors: {}", ctx());
        } else {
            assert!(
                !errors.is_empty(),
                "rejected VM ({}) has no error: {}",
                e.decision,
                ctx()
            );
        }
        if e.decision != "REJECTED-422" && e.decision != "ALLOWED" {
            continue;
        }
        for (rule, result) in &e.rules {
            if rule.is_empty() || e.rules.iter().filter(|(r, _)| r == rule).count() > 1 {
                continue;
            }
            let hits: Vec<&&Diagnostic> = mine.iter().filter(|d| names_rule(d, rule)).collect();
            match result.as_str() {
                "FAIL" | "ERROR" => assert!(
                    hits.iter()
                        .any(|d| d.severity == Severity::Error && d.rule == RULE_VIOLATION),
                    "no error for rule {rule}: {}",
                    ctx()
                ),
                "WARN" => assert!(
                    hits.iter().any(|d| d.severity == Severity::Warning),
                    "no warning for rule {rule}: {}",
                    ctx()
                ),
                _ => assert!(
                    hits.is_empty(),
                    "rule {rule} is {result} but reported: {}",
                    ctx()
                ),
            }
        }
    }
}

/// Checks which templates' annotations are malformed.
fn check_annotations(name: &str, diags: &[Diagnostic], templates: &[(&str, bool)]) {
    for (object, malformed) in templates {
        let errors = diags
            .iter()
            .filter(|d| {
                d.rule == ANNOTATION_INVALID
                    && d.severity == Severity::Error
                    && d.object.as_deref() == Some(object)
            })
            .count();
        assert_eq!(
            errors > 0,
            *malformed,
            "{name}: annotation of {object} malformed={malformed}:\n{}",
            show(diags)
        );
    }
}

fn case(name: &str, templates: &[(&str, bool)]) {
    let diags = lint_case(name);
    check_vms(name, &diags);
    check_annotations(name, &diags, templates);
}

#[test]
fn integer_min_max() {
    case("01-integer-min-max", &[("Template/default/t-int", false)]);
}

#[test]
fn integer_quantity() {
    case("02-integer-quantity", &[("Template/default/t-mem", false)]);
}

#[test]
fn string_length() {
    case("03-string-length", &[("Template/default/t-str", false)]);
}

#[test]
fn regex_go_re2() {
    case("04-regex-go-re2", &[("Template/default/t-regex", false)]);
}

#[test]
fn enum_star_with_valid() {
    case(
        "06-enum-star-with-valid",
        &[("Template/default/t-enum", false)],
    );
}

#[test]
fn enum_star_without_valid() {
    case(
        "07-enum-star-without-valid",
        &[("Template/default/t-enum-nv", false)],
    );
}

#[test]
fn valid_semantics() {
    case("08-valid-semantics", &[("Template/default/t-valid", false)]);
}

#[test]
fn arg_literal_string() {
    case(
        "10-arg-literal-string",
        &[
            ("Template/default/t-argstr", true),
            ("Template/default/t-argfloat", false),
            ("Template/default/t-argbool", true),
        ],
    );
}

#[test]
fn seed_examples_no_prefix() {
    case(
        "11-seed-examples-no-prefix",
        &[
            ("Template/default/linux-bus-types", true),
            ("Template/default/windows-10", true),
            ("Template/default/no-leading-dot", true),
        ],
    );
}

#[test]
fn malformed_json() {
    case(
        "12-malformed-json",
        &[
            ("Template/default/t-smartquotes", true),
            ("Template/default/t-missing-comma", true),
            ("Template/default/t-object-not-array", true),
            ("Template/default/t-empty-array", false),
            ("Template/default/t-empty-string", false),
        ],
    );
}

#[test]
fn missing_mandatory_keys() {
    case(
        "13-missing-mandatory-keys",
        &[
            ("Template/default/t-no-rule", true),
            ("Template/default/t-no-name-no-message", true),
            ("Template/default/t-no-path", true),
            ("Template/default/t-no-name-only", false),
        ],
    );
}

#[test]
fn duplicate_names() {
    case(
        "14-duplicate-names",
        &[
            ("Template/default/t-dup", true),
            ("Template/default/t-dup-nameless", true),
        ],
    );
}

#[test]
fn unknown_rule_and_keys() {
    case(
        "15-unknown-rule-and-keys",
        &[
            ("Template/default/t-unknown-rule", true),
            ("Template/default/t-unknown-keys", false),
            ("Template/default/t-rule-case", true),
        ],
    );
}

#[test]
fn just_warning() {
    case(
        "16-justwarning",
        &[
            ("Template/default/t-warn-error", false),
            ("Template/default/t-warn-string", true),
            ("Template/default/t-warn-only", false),
        ],
    );
}

#[test]
fn template_linkage() {
    case(
        "18-template-linkage",
        &[
            ("Template/templates-ns/t-link", false),
            ("Template/templates-ns/t-link-other", false),
        ],
    );
}

#[test]
fn vm_annotation_format() {
    case(
        "21-vm-annotation-format",
        &[("Template/default/t-vmann", false)],
    );
}

#[test]
fn real_common_template_seed_format() {
    case(
        "23-real-common-template-seed-format",
        &[("Template/openshift/windows10-desktop-medium-v0.11.3", false)],
    );
}

#[test]
fn every_case_directory_is_tested() {
    let tested = [
        "01", "02", "03", "04", "06", "07", "08", "10", "11", "12", "13", "14", "15", "16", "18",
        "21", "23",
    ];
    for entry in std::fs::read_dir(cases_dir()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if name.ends_with(".md") {
            continue;
        }
        assert!(tested.contains(&&name[..2]), "case {name} has no test");
    }
}
