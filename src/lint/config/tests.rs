//! Tests of reading `.yttlint.yaml`: the full example, defaults, and the message and position
//! of every kind of mistake.

use crate::report::Rule;
use std::path::PathBuf;

use super::*;

/// A throwaway repository with `packages/harbor/config/` and `ci/prod.yml`.
fn repo(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yttlint-cfgparse-{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir.join("packages/harbor/config")).unwrap();
    std::fs::create_dir_all(dir.join("ci")).unwrap();
    std::fs::write(dir.join("ci/prod.yml"), "a: 1\n").unwrap();
    dir
}

fn err(text: &str) -> String {
    let dir = repo("err");
    parse(text, ".yttlint.yaml", &dir).unwrap_err().to_string()
}

#[test]
fn the_design_example_parses() {
    let dir = repo("ok");
    let text = "\
roots:
  - path: packages/harbor/config/
    scenarios:
      - name: defaults
      - name: prod
        values_files: [ci/prod.yml, '@lib:+:ci/prod.yml']
        data_values: {hostname: harbor.example.com, replicas: 3}
    args: [--ignore-unknown-comments]
exclude: [\"vendor/**\"]
rules: {unknown-annotation: warning, required-value: off}
kubevirt: false
";
    let c = parse(text, ".yttlint.yaml", &dir).unwrap();
    assert_eq!(c.roots.len(), 1);
    let root = &c.roots[0];
    assert_eq!(root.path, "packages/harbor/config");
    assert_eq!(root.loc.line, 2);
    assert_eq!(root.args, vec!["--ignore-unknown-comments"]);
    assert_eq!(
        root.scenarios[1].values_files,
        vec!["ci/prod.yml", "@lib:+:ci/prod.yml"]
    );
    assert_eq!(
        root.scenarios[1].data_values[1],
        (
            "replicas".to_string(),
            Value::Int(3),
            Loc {
                line: 7,
                column: 53
            }
        )
    );
    assert_eq!(c.exclude, vec!["vendor/**"]);
    assert_eq!(c.rules[&Rule::RequiredValue], RuleLevel::Off);
    assert_eq!(
        c.rules[&Rule::UnknownAnnotation],
        RuleLevel::Severity(Severity::Warning)
    );
    assert!(!c.kubevirt);
}

#[test]
fn an_empty_file_is_the_default() {
    let dir = repo("empty");
    let c = parse("#! nothing yet\n", ".yttlint.yaml", &dir).unwrap();
    assert_eq!(c, Config::default_for(&dir));
}

#[test]
fn unknown_keys_are_named_with_their_position_and_a_suggestion() {
    assert_eq!(
        err("exclude: []\nroot: []\n"),
        ".yttlint.yaml:2:1: unknown key \"root\" in the configuration; expected one of: roots, exclude, rules, kubevirt, kubernetes, invocations, max_learned_scenarios, extensions, policies (did you mean \"roots\"?)"
    );
    assert!(err("roots:\n- path: ci\n  scenario: []\n")
        .starts_with(".yttlint.yaml:3:3: unknown key \"scenario\" in a root"));
}

#[test]
fn bad_values_say_what_was_expected() {
    assert_eq!(
        err("kubevirt: maybe\n"),
        ".yttlint.yaml:1:1: expected true or false for kubevirt, found string \"maybe\""
    );
    assert!(err("rules: {template-eror: off}\n")
        .contains("unknown rule \"template-eror\" (did you mean \"template-error\"?)"));
    assert!(err("rules: {template-error: fatal}\n").contains("unknown severity \"fatal\""));
    assert!(err("exclude: [\"a/[b\"]\n").contains("invalid glob \"a/[b\""));
    assert!(err("roots: {path: ci}\n").contains("expected a list for roots, found map"));
}

#[test]
fn paths_must_exist_inside_the_repository() {
    assert!(err("roots:\n- path: nowhere\n").contains(":2:3: path \"nowhere\" does not exist"));
    assert!(err("roots:\n- path: ../..\n").contains("is outside the repository"));
    assert!(err(
        "roots:\n- path: ci\n  scenarios:\n  - name: x\n    values_files: [ci/none.yml]\n"
    )
    .contains("path \"ci/none.yml\" does not exist"));
}

#[test]
fn roots_and_scenarios_are_complete_and_unique() {
    assert!(err("roots:\n- args: []\n").contains("a root needs a \"path\""));
    assert!(err("roots:\n- path: ci\n- path: ci/\n").contains("root \"ci\" is listed twice"));
    assert!(
        err("roots:\n- path: ci\n  scenarios: [{values_files: []}]\n")
            .contains("a scenario needs a \"name\"")
    );
    assert!(
        err("roots:\n- path: ci\n  scenarios: [{name: a}, {name: a}]\n")
            .contains("scenario \"a\" is defined twice")
    );
}

#[test]
fn args_are_checked_as_ytt_flags() {
    assert!(err("roots:\n- path: ci\n  args: [--no-such-flag]\n")
        .contains(":3:3: invalid ytt flags: unexpected argument '--no-such-flag'"));
    assert!(err("roots:\n- path: ci\n  args: [-f, '-']\n").contains("standard input"));
}

#[test]
fn lib_refs_are_split_off() {
    assert_eq!(split_lib_ref("@lib:+:a.yml"), ("@lib:", "+:a.yml"));
    assert_eq!(split_lib_ref("a.yml"), ("", "a.yml"));
}

#[test]
fn policies_take_a_list_of_directories_or_a_map() {
    let dir = repo("policies");
    std::fs::create_dir_all(dir.join("ci/policies/lib")).unwrap();
    std::fs::write(
        dir.join("ci/policies/team.star"),
        "def check(obj):\n  return []\nend\n",
    )
    .unwrap();
    std::fs::write(dir.join("ci/policies/lib/h.star"), "x = 1\n").unwrap();
    let list = parse("policies: [ci/policies/]\n", ".yttlint.yaml", &dir).unwrap();
    assert_eq!(list.policies.dirs, vec!["ci/policies".to_string()]);
    assert!(list.policies.checks.is_empty());
    let names: Vec<&str> = list
        .policies
        .listed
        .iter()
        .map(|l| l.name.as_str())
        .collect();
    assert_eq!(names, vec!["team"]);
    assert!(list.exclude.contains(&"ci/policies/**".to_string()));
    let map = parse(
        "policies: {checks: [kube-linter], dirs: [ci/policies]}\nrules: {policy/team: warning}\n",
        ".yttlint.yaml",
        &dir,
    )
    .unwrap();
    assert_eq!(map.policies.checks, vec!["kube-linter".to_string()]);
    assert!(map.check_on(Rule::LatestTag) && map.check_on(Rule::DuplicateObject));
    assert_eq!(map.policy_rules().len(), 1);
    let only_checks = parse("policies: {checks: [kube-linter]}\n", ".yttlint.yaml", &dir).unwrap();
    assert!(only_checks.policies.dirs.is_empty() && only_checks.check_on(Rule::RunAsNonRoot));
    assert!(!Config::default_for(&dir).check_on(Rule::RunAsNonRoot));
    let e = parse("policies: {checks: [kubelinter]}\n", ".yttlint.yaml", &dir).unwrap_err();
    // A flow sequence's item is placed at the separator before it, as ytt places it.
    assert_eq!(
        e.loc,
        Some(Loc {
            line: 1,
            column: 20
        })
    );
    let e = parse("policies: 3\n", ".yttlint.yaml", &dir).unwrap_err();
    assert!(e.message.contains("a list of directories, or a map"), "{e}");
    let e = parse("policies: [ci/prod.yml]\n", ".yttlint.yaml", &dir).unwrap_err();
    assert!(e.message.contains("must be a directory"), "{e}");
}

#[test]
fn the_cap_on_learned_scenarios() {
    let dir = std::path::Path::new("/repo");
    let c = parse("", ".yttlint.yaml", dir).unwrap();
    assert_eq!(c.max_learned_scenarios, 64);
    let c = parse("max_learned_scenarios: 5\n", ".yttlint.yaml", dir).unwrap();
    assert_eq!(c.max_learned_scenarios, 5);
    let e = parse("max_learned_scenarios: 0\n", ".yttlint.yaml", dir).unwrap_err();
    assert_eq!(
        e.to_string(),
        ".yttlint.yaml:1:1: expected a whole number of at least 1 for max_learned_scenarios, found integer 0"
    );
}
