//! Tests of reading a KubeVirt validations annotation into rules: Go `encoding/json` folding,
//! fatal shape and type errors, number rounding and path prefixes.

use super::*;

fn messages(text: &str) -> Vec<String> {
    read(text).issues.into_iter().map(|i| i.message).collect()
}

#[test]
fn reads_a_common_template_rule() {
    let a = read(
        r#"[{"name": "windows-virtio-bus", "path": "jsonpath::.spec.domain.devices.disks[*].disk.bus",
             "valid": "jsonpath::.spec.domain.devices.disks[*].disk.bus", "rule": "enum",
             "message": "m", "values": ["virtio"], "justWarning": true}]"#,
    );
    assert!(a.issues.is_empty(), "{:?}", a.issues);
    let r = &a.rules[0];
    assert_eq!(r.kind, "enum");
    assert!(r.just_warning);
    assert_eq!(
        r.path.as_ref().unwrap().path.expr,
        ".spec.domain.devices.disks[*].disk.bus"
    );
    assert_eq!(r.values, Some(vec![StrArg::Str("virtio".into())]));
}

#[test]
fn empty_and_null_hold_no_rules() {
    assert_eq!(read(""), Annotation::default());
    assert_eq!(read("[]"), Annotation::default());
    assert_eq!(read("null"), Annotation::default());
    assert!(read("  ").unusable());
}

#[test]
fn shape_and_type_errors_are_fatal() {
    assert!(read(r#"{"name": "x"}"#).unusable());
    assert!(read(r#"["x"]"#).unusable());
    assert_eq!(
        messages(r#"[{"name": "c", "min": "1"}]"#),
        vec![r#"rule "c": "min" must be a number or a "jsonpath::" string, found string "1""#]
    );
    assert!(read(r#"[{"min": true}]"#).unusable());
    assert!(read(r#"[{"justWarning": "true"}]"#).unusable());
    assert!(read(r#"[{"values": ["a", 1]}]"#).unusable());
    assert!(read(r#"[{"name": 3}]"#).unusable());
    assert!(read(r#"[{"path": null}]"#).unusable());
    assert!(!read(r#"[{"valid": null, "min": null}]"#).unusable());
}

#[test]
fn numbers_round_like_go() {
    let a = read(r#"[{"min": 1.5, "max": "jsonpath::.spec.domain.cpu.sockets"}]"#);
    assert_eq!(a.rules[0].min, Some(IntArg::Int(2)));
    assert!(matches!(a.rules[0].max, Some(IntArg::Path(_))));
}

#[test]
fn paths_need_the_prefix() {
    let a = read(r#"[{"name": "b", "path": "spec.domain.cpu.cores"}]"#);
    assert!(a.unusable());
    let help = a.issues[0].help.clone().unwrap();
    assert!(help.contains("jsonpath::.spec.domain.cpu.cores"), "{help}");
    assert!(read(r#"[{"path": "jsonpath::.a[x"}]"#).unusable());
}

#[test]
fn keys_fold_and_duplicates_win_last() {
    let a = read(r#"[{"Name": "m", "PATH": "jsonpath::.a", "max": 1, "max": 64, "mesage": "x"}]"#);
    let r = &a.rules[0];
    assert_eq!(r.name, "m");
    assert!(r.path.is_some());
    assert_eq!(r.max, Some(IntArg::Int(64)));
    assert!(!a.unusable());
    let all = a
        .issues
        .iter()
        .map(|i| i.message.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains("\"Name\" is read as \"name\""), "{all}");
    assert!(all.contains("given twice"), "{all}");
    assert!(all.contains("unknown key \"mesage\""), "{all}");
    assert_eq!(
        a.issues.last().unwrap().help.as_deref(),
        Some("did you mean \"message\"?")
    );
}
