//! Tests of rule evaluation: each rule kind, arguments given as paths, `valid`, the reference
//! VM, the webhook's CPU defaults, Go renderings, quantities and the policies.

use std::sync::Arc;

use super::annotation::read;
use super::evaluate::{evaluate, Outcome, Policy, Verdict, Vm};
use super::schema::Schema;
use crate::yaml::parse::{parse, ParseOpts};

const DOMAIN: &str = "spec:\n  template:\n    spec:\n      domain:\n";

/// Evaluates `rules` on a VM whose `domain` holds `domain` (indented YAML lines).
fn run_with(
    rules: &str,
    domain: &str,
    policy: &Policy,
    params: bool,
) -> Vec<(Verdict, String, Vec<String>)> {
    let f: Arc<str> = Arc::from("vm.yaml");
    let src = format!("{DOMAIN}{domain}");
    let ds = parse(&src, &f, &ParseOpts::default()).unwrap();
    let schema = Schema::load().unwrap();
    let ann = read(rules);
    assert!(!ann.unusable(), "{:?}", ann.issues);
    let vm = Vm {
        value: &ds.items[0].value,
        pos: &ds.items[0].pos,
        params,
    };
    evaluate(&ann.rules, &vm, &schema, policy)
        .into_iter()
        .map(|o: Outcome| (o.verdict, o.detail, o.notes))
        .collect()
}

fn run(rules: &str, domain: &str) -> Vec<(Verdict, String, Vec<String>)> {
    run_with(rules, domain, &Policy::default(), false)
}

fn rule(kind: &str, path: &str, args: &str) -> String {
    format!(
        r#"[{{"name": "r", "rule": "{kind}", "message": "m", "path": "jsonpath::{path}"{args}}}]"#
    )
}

#[test]
fn integer_bounds_are_inclusive() {
    let r = rule(
        "integer",
        ".spec.domain.cpu.cores",
        r#", "min": 1, "max": 8"#,
    );
    assert_eq!(
        run(&r, "        cpu: {cores: 8}\n")[0].0,
        Verdict::Satisfied
    );
    let out = run(&r, "        cpu: {cores: 16}\n");
    assert_eq!(
        (out[0].0, out[0].1.as_str()),
        (Verdict::Failed, "value 16 is higher than maximum [8]")
    );
}

#[test]
fn integer_arguments_from_paths() {
    let r = rule(
        "integer",
        ".spec.domain.cpu.cores",
        r#", "max": "jsonpath::.spec.domain.cpu.sockets""#,
    );
    assert_eq!(
        run(&r, "        cpu: {cores: 2, sockets: 4}\n")[0].0,
        Verdict::Satisfied
    );
    assert_eq!(
        run(&r, "        cpu: {cores: 8, sockets: 4}\n")[0].0,
        Verdict::Failed
    );
    let r = rule(
        "integer",
        ".spec.domain.cpu.cores",
        r#", "max": "jsonpath::.spec.domain.devices.disks[*].bootOrder""#,
    );
    let out = run(
        &r,
        "        cpu: {cores: 8}\n        devices: {disks: [{name: a}, {name: b}]}\n",
    );
    assert_eq!(out[0].0, Verdict::Error);
    assert!(
        out[0].1.starts_with("mismatching type: *uint"),
        "{}",
        out[0].1
    );
}

#[test]
fn quantities() {
    let r = rule(
        "integer",
        ".spec.domain.memory.guest",
        r#", "min": 1073741824"#,
    );
    assert_eq!(
        run(&r, "        memory: {guest: 2Gi}\n")[0].0,
        Verdict::Satisfied
    );
    assert_eq!(
        run(&r, "        memory: {guest: 1G}\n")[0].0,
        Verdict::Failed
    );
    let out = run(&r, "        memory: {guest: 1.5Gi}\n");
    assert_eq!(out[0].0, Verdict::Error);
    assert_eq!(
        out[0].1,
        "mismatching type: *resource.Quantity, not int or resource.Quantity"
    );
    let exact = Policy {
        reject_fractional_quantities: false,
        ..Policy::default()
    };
    assert_eq!(
        run_with(&r, "        memory: {guest: 1.5Gi}\n", &exact, false)[0].0,
        Verdict::Satisfied
    );
    // memory given, guest not: a nil *Quantity, on which the validator crashes
    let out = run(&r, "        memory: {hugepages: {pageSize: 2Mi}}\n");
    assert_eq!(out[0].0, Verdict::Error);
    assert!(out[0].1.contains("nil *resource.Quantity"), "{}", out[0].1);
    let r = rule(
        "integer",
        ".spec.domain.resources.requests.memory",
        r#", "max": 4294967296"#,
    );
    assert_eq!(
        run(&r, "        resources: {requests: {memory: 8Gi}}\n")[0].0,
        Verdict::Failed
    );
}

#[test]
fn integer_on_a_pointer_or_a_string_errors() {
    let r = rule(
        "integer",
        ".spec.terminationGracePeriodSeconds",
        r#", "max": 10"#,
    );
    let out = run_with(
        &r,
        "        devices: {}\n      terminationGracePeriodSeconds: 5\n",
        &Policy::default(),
        false,
    );
    assert_eq!(out[0].0, Verdict::Error);
    assert_eq!(
        out[0].1,
        "mismatching type: *int64, not int or resource.Quantity"
    );
    let r = rule("integer", ".spec.domain.machine.type", r#", "max": 10"#);
    assert_eq!(
        run(&r, "        machine: {type: q35}\n")[0].0,
        Verdict::Error
    );
}

#[test]
fn string_lengths_count_bytes() {
    let r = rule(
        "string",
        ".spec.domain.devices.disks[*].name",
        r#", "minLength": 1, "maxLength": 4"#,
    );
    assert_eq!(
        run(&r, "        devices: {disks: [{name: abcd}]}\n")[0].0,
        Verdict::Satisfied
    );
    let out = run(
        &r,
        "        devices: {disks: [{name: abcd}, {name: abcé}]}\n",
    );
    assert_eq!(out[0].0, Verdict::Failed);
    assert_eq!(
        out[0].1,
        "Lengths of some strings are not in interval [1, 4]"
    );
    assert_eq!(out[0].2, vec!["\"abcé\" is 5 bytes long".to_string()]);
}

#[test]
fn enum_values_from_paths() {
    let r = rule(
        "enum",
        ".spec.domain.devices.disks[*].disk.bus",
        r#", "values": ["virtio", "jsonpath::.spec.domain.machine.type"]"#,
    );
    let d = "        machine: {type: sata}\n        devices: {disks: [{name: a, disk: {bus: sata}}, {name: b, disk: {bus: virtio}}]}\n";
    assert_eq!(run(&r, d)[0].0, Verdict::Satisfied);
    let out = run(
        &r,
        "        machine: {type: scsi}\n        devices: {disks: [{name: a, disk: {bus: sata}}]}\n",
    );
    assert_eq!(out[0].1, "Some of [sata] are not in [virtio, scsi]");
}

#[test]
fn enum_on_a_number_compares_the_go_rendering() {
    let r = rule("enum", ".spec.domain.cpu.cores", r#", "values": ["4"]"#);
    let out = run(&r, "        cpu: {cores: 4}\n");
    assert_eq!(out[0].0, Verdict::Failed);
    assert_eq!(out[0].1, "Some of [<uint32 Value>] are not in [4]");
    assert!(
        out[0].2[0].contains("of 4, not the value itself"),
        "{:?}",
        out[0].2
    );
}

#[test]
fn regex_is_unanchored_re2() {
    let r = rule("regex", ".spec.domain.machine.type", r#", "regex": "q35""#);
    assert_eq!(
        run(&r, "        machine: {type: pc-q35-rhel9}\n")[0].0,
        Verdict::Satisfied
    );
    let out = run(&r, "        machine: {type: pc-i440fx}\n");
    assert_eq!(out[0].1, "Some of [pc-i440fx] do not match q35");
    let bad = rule("regex", ".spec.domain.machine.type", r##", "regex": "(a""##);
    assert_eq!(
        run(&bad, "        machine: {type: q35}\n")[0].0,
        Verdict::Error
    );
}

#[test]
fn valid_skips_only_when_absent() {
    let r = r#"[{"name": "r", "rule": "enum", "message": "m", "values": ["nvidia.com/A100"],
                 "valid": "jsonpath::.spec.domain.devices.gpus[*].name",
                 "path": "jsonpath::.spec.domain.devices.gpus[*].deviceName"}]"#;
    assert_eq!(run(r, "        devices: {}\n")[0].0, Verdict::Skipped);
    assert_eq!(
        run(r, "        devices: {gpus: [{name: g, deviceName: x}]}\n")[0].0,
        Verdict::Failed
    );
}

#[test]
fn reference_vm_and_cpu_defaults() {
    let r = rule("integer", ".spec.domain.cpu.cores", r#", "min": 1"#);
    let out = run(&r, "        devices: {}\n");
    assert_eq!(
        (out[0].0, out[0].1.as_str()),
        (Verdict::Failed, "value 0 is lower than minimum [1]")
    );
    assert!(out[0].2[0].contains("reference VM"), "{:?}", out[0].2);
    let strict = Policy {
        reference_vm: false,
        ..Policy::default()
    };
    assert_eq!(
        run_with(&r, "        devices: {}\n", &strict, false)[0].1,
        "invalid JSONPath"
    );
    // `cpu` without cores: the webhook sets cores to 1
    assert_eq!(
        run(&r, "        cpu: {sockets: 2}\n")[0].0,
        Verdict::Satisfied
    );
    let no_defaults = Policy {
        cpu_defaults: false,
        ..Policy::default()
    };
    assert_eq!(
        run_with(&r, "        cpu: {sockets: 2}\n", &no_defaults, false)[0].0,
        Verdict::Failed
    );
}

#[test]
fn rule_errors_come_first() {
    let r = r#"[{"name": "a", "rule": "integer", "message": "m", "path": "jsonpath::.spec.domain.cpu.cores", "min": 1},
                {"name": "a", "rule": "integer", "message": "m", "path": "jsonpath::.spec.domain.cpu.cores", "min": 1},
                {"name": "b", "rule": "boolean", "message": "m", "path": "jsonpath::.spec.domain.cpu.cores"},
                {"name": "c", "rule": "integer", "path": "jsonpath::.spec.domain.cpu.cores"},
                {"name": "d", "rule": "integer", "message": "m"}]"#;
    let out = run(r, "        cpu: {cores: 2}\n");
    let details: Vec<&str> = out.iter().map(|o| o.1.as_str()).collect();
    assert_eq!(out[0].0, Verdict::Satisfied);
    assert_eq!(details[1], "duplicate Rule Name");
    assert_eq!(details[2], "unrecognized Rule type");
    assert_eq!(details[3], "missing required key");
    assert!(details[4].contains("no path"), "{}", details[4]);
    let lenient = Policy {
        reject_unknown_kinds: false,
        ..Policy::default()
    };
    assert_eq!(
        run_with(r, "        cpu: {cores: 2}\n", &lenient, false)[2].0,
        Verdict::Skipped
    );
}

#[test]
fn template_parameters_are_unknown() {
    let r = rule("integer", ".spec.domain.memory.guest", r#", "min": 1"#);
    let out = run_with(
        &r,
        "        memory: {guest: \"${MEMORY}\"}\n",
        &Policy::default(),
        true,
    );
    assert_eq!(out[0].0, Verdict::Unknown);
}
