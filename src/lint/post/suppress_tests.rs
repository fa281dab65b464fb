//! Tests of suppression comments: reading, scopes, dropping findings and unused reports.

use super::*;
use crate::report::Rule;

fn diag(rule: Rule, line: u32) -> Diagnostic {
    Diagnostic::new(rule, "m").at(Span::point("a.yml", line, 1))
}

const TEXT: &str = "\
#! yttlint: disable=template-error -- known, fixed in v2
#@ if True:
port: #@ 1
#@ end
name: x #! yttlint: disable=output-violation,data-value-violation
#! yttlint: disable-file=unknown-annotation
#! yttlint: disabel=x
other: 1
";

#[test]
fn comments_are_read_with_their_scope() {
    let s = scan("a.yml", TEXT);
    assert_eq!(s.len(), 4);
    assert_eq!(s[0].rules, vec![Rule::TemplateError.id()]);
    assert_eq!(s[0].scope, Scope::Lines { first: 2, last: 3 });
    assert_eq!(
        s[1].rules,
        vec![Rule::OutputViolation.id(), Rule::DataValueViolation.id()]
    );
    assert_eq!(s[1].scope, Scope::Lines { first: 5, last: 5 });
    assert_eq!(s[1].column, 9);
    assert_eq!(s[2].scope, Scope::File);
    assert!(s[3]
        .problem
        .as_deref()
        .unwrap()
        .starts_with("cannot read yttlint comment \"disabel=x\""));
}

#[test]
fn covered_findings_are_dropped_and_the_rest_reported_unused() {
    let s = scan("a.yml", TEXT);
    let diags = vec![
        diag(Rule::TemplateError, 3),
        diag(Rule::TemplateError, 5),
        diag(Rule::OutputViolation, 5),
        diag(Rule::UnknownAnnotation, 8),
    ];
    let (kept, used) = apply(diags, &s);
    assert_eq!(kept, vec![diag(Rule::TemplateError, 5)]);
    let unused = unused(&s, &used, |_, _| true);
    let messages: Vec<(u32, &str)> = unused
        .iter()
        .map(|d| (d.span.as_ref().unwrap().line, d.message.as_str()))
        .collect();
    assert_eq!(messages.len(), 2);
    assert_eq!(
        messages[0],
        (
            5,
            "suppression of \"data-value-violation\" matched no finding"
        )
    );
    assert_eq!(messages[1].0, 7);
}

#[test]
fn the_check_can_hold_back_unused_reports() {
    let s = scan("a.yml", "#! yttlint: disable=template-error\na: 1\n");
    assert!(unused(&s, &Used::new(), |_, _| false).is_empty());
    assert_eq!(unused(&s, &Used::new(), |_, _| true).len(), 1);
}

#[test]
fn starlark_comments_and_plain_hashes() {
    let s = scan(
        "h.star",
        "x = 1  # yttlint: disable=template-error\ns = \"#yttlint:\"\n",
    );
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].scope, Scope::Lines { first: 1, last: 1 });
}

#[test]
fn a_comment_above_a_block_scalar_covers_its_lines() {
    let text = "#! yttlint: disable=r\nconf: |\n  one\n\n  two\nnext: 1\n  #! yttlint: disable=r\n  - >-\n    a\n  - b\nplain: |x\n";
    let sups = scan("a.yml", text);
    assert_eq!(sups[0].scope, Scope::Lines { first: 2, last: 5 });
    assert_eq!(sups[1].scope, Scope::Lines { first: 8, last: 9 });
    let plain = scan("b.yml", "#! yttlint: disable=r\nk: a|\n  b\n");
    assert_eq!(plain[0].scope, Scope::Lines { first: 2, last: 2 });
}
