//! Lints the 20 real KubeVirt common templates of fixtures/kubevirt/corpus (verbatim from
//! kubevirt/ssp-operator's bundles): their annotations are well formed, each template's own VM
//! is evaluated against its rules, and what the linter finds is pinned here.

use std::path::PathBuf;

use yttlint::kubevirt::{lint_files, Options, ANNOTATION_INVALID, RULE_VIOLATION};
use yttlint::report::{Diagnostic, Severity};

use crate::util::fixture;

fn corpus() -> (PathBuf, Vec<PathBuf>) {
    let root = fixture("kubevirt/corpus");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    files.sort();
    (root, files)
}

fn lint_corpus() -> Vec<Diagnostic> {
    let (root, files) = corpus();
    assert_eq!(files.len(), 20);
    let mut diags = lint_files(&root, &files, &Options::default());
    diags.sort();
    diags
}

#[test]
fn annotations_are_well_formed() {
    let diags = lint_corpus();
    let bad: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.rule == ANNOTATION_INVALID)
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn tiny_templates_memory_is_flagged() {
    let diags = lint_corpus();
    let errors: Vec<(String, u32, &str)> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let s = d.span.as_ref().unwrap();
            (s.file.clone(), s.line, d.object.as_deref().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        errors,
        vec![
            (
                "v0.12.2-template-level-annotation/centos8-server-tiny-v0.11.3.yaml".to_string(),
                76,
                "Template//centos8-server-tiny-v0.11.3"
            ),
            (
                "v0.35.0-amd64/centos-stream9-desktop-tiny.yaml".to_string(),
                93,
                "Template//centos-stream9-desktop-tiny"
            ),
        ]
    );
    for d in diags.iter().filter(|d| d.severity == Severity::Error) {
        assert_eq!(d.rule, RULE_VIOLATION);
        assert!(
            d.message
                .starts_with("objects[0]: rule \"minimal-required-memory\""),
            "{}",
            d.message
        );
        assert!(d
            .message
            .contains("\"1.5Gi\" (1610612736 bytes) is a fractional quantity"));
        assert_eq!(d.help.as_deref(), Some("write it as \"1536Mi\""));
    }
}

#[test]
fn windows_templates_warn_about_their_sata_disk() {
    let diags = lint_corpus();
    let warnings: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert_eq!(warnings.len(), 6, "{warnings:#?}");
    for w in warnings {
        assert!(w.span.as_ref().unwrap().file.contains("win"), "{w:?}");
        assert!(
            w.message.contains("rule \"windows-virtio-bus\""),
            "{}",
            w.message
        );
        assert!(
            w.message.contains("Some of [sata] are not in [virtio]"),
            "{}",
            w.message
        );
    }
}
