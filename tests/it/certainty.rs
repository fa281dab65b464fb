//! How sure a finding is (issue 39): where each scenario's command came from, what was
//! assumed to run it, and an error only where the command and its inputs are known. Each
//! repository here is a minimal repro of a construct seen in real repositories, written for
//! the test.

use serde_json::Value;

use crate::util::json::str_of;
use crate::util::repo::{Lint, Repo};
use crate::util::yttlint;

/// A template that fails with the committed values (a string added to an integer).
const FAILS_WITH_DEFAULTS: &[(&str, &str)] = &[
    ("config/values.yml", "#@data/values\n---\nport: 80\n"),
    (
        "config/app.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nurl: #@ \"http://app:\" + data.values.port\n",
    ),
];

/// The one finding of `rule` in the report.
fn only<'a>(lint: &'a Lint, rule: &str) -> &'a Value {
    let found: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["rule"] == rule)
        .collect();
    assert_eq!(found.len(), 1, "{rule} in {lint}");
    found[0]
}

fn assumption_kinds(d: &Value) -> Vec<&str> {
    d["certainty"]["assumptions"]
        .as_array()
        .unwrap_or_else(|| panic!("no assumptions in {d}"))
        .iter()
        .map(|a| str_of(a, "kind"))
        .collect()
}

#[test]
fn a_failure_of_a_command_inferred_from_the_layout_is_a_warning_that_says_so() {
    let dir = Repo::of(FAILS_WITH_DEFAULTS);
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    let d = only(&lint, "template-error");
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["certainty"]["source"], "layout");
    assert_eq!(d["certainty"]["certain"], false);
    assert_eq!(assumption_kinds(d), ["inferred-command"]);
    // The root's provenance is in the report too.
    assert_eq!(lint.report["roots"][0]["provenance"]["source"], "layout");
    // The terminal says what was assumed and how to make it certain.
    let run = yttlint(&dir, &[]);
    assert!(
        run.stdout
            .contains("= in root config, command inferred from the layout"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("= assumes: the command `ytt -f config`, inferred from the layout"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_same_failure_of_a_command_a_script_runs_is_an_error() {
    let mut files = FAILS_WITH_DEFAULTS.to_vec();
    files.push(("hack/build.sh", "#!/bin/sh\nytt -f config > out.yml\n"));
    let dir = Repo::of(&files);
    let lint = dir.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = only(&lint, "template-error");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["certainty"]["source"], "script");
    assert_eq!(d["certainty"]["origin"], "hack/build.sh:2");
    assert_eq!(d["certainty"]["certain"], true);
    // SARIF carries the same in the result's property bag.
    let run = yttlint(&dir, &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["properties"]["certainty"]["source"], "script");
    assert_eq!(result["properties"]["certainty"]["certain"], true);
}

#[test]
fn a_syntax_error_is_an_error_whatever_the_command() {
    let lint = Repo::of(&[(
        "config/app.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.x +\n",
    )])
    .lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = only(&lint, "template-error");
    assert_eq!(d["severity"], "error");
    // It rests on the text alone: no certainty to speak of.
    assert!(d["certainty"].is_null(), "{d}");
}

#[test]
fn placeholders_among_the_values_make_the_inputs_uncertain() {
    let lint = Repo::of(&[
        (
            "config/values.yml",
            "#@data/values\n---\nregistry: <your-registry>\nport: 0\n",
        ),
        (
            "config/app.yml",
            // The failure reads the placeholder (its message names the registry): one that
            // reads only `port` fails whatever the registry, and is certain
            // (`unknown_independent::a_check_beside_a_placeholder_the_reader_fills_is_certain`).
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n---\nport: #@ data.values.port or assert.fail(\"port is required for \" + data.values.registry)\n",
        ),
        ("deploy.sh", "ytt -f config | kapp deploy -a app -f- -y\n"),
    ]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let d = only(&lint, "template-error");
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["certainty"]["source"], "script");
    assert_eq!(assumption_kinds(d), ["placeholder"]);
    let message = str_of(&d["certainty"]["assumptions"][0], "message");
    assert!(
        message.contains("`registry` is `<your-registry>` (config/values.yml:3)"),
        "{message}"
    );
}

#[test]
fn files_a_wrapper_of_ytt_renders_lack_its_inputs_and_say_so() {
    // myks gives prototypes a schema of its own (`myks`, `environment`).
    let lint = Repo::of(&[
        (".myks.yaml", "async: 0\n"),
        (
            "prototypes/app/ytt/app.ytt.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.myks.context.app\n",
        ),
        (
            "prototypes/app/app-data.ytt.yaml",
            "#@data/values-schema\n---\nreplicas: 1\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let worst: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] == "error" || d["severity"] == "warning")
        .collect();
    assert!(worst.is_empty(), "{lint}");
    let notes: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["certainty"]["assumptions"].is_array())
        .collect();
    assert!(!notes.is_empty(), "{lint}");
    for d in notes {
        assert!(assumption_kinds(d).contains(&"wrapper-tool"), "{d}");
        assert_eq!(d["severity"], "info", "{d}");
    }
}

#[test]
fn a_script_runs_from_one_place_its_own_directory_for_dot() {
    // `diff <(ytt -f ../base/config.yml) <(ytt -f .)` only runs from `step1`, and so does
    // `ytt -f .` next to it: not the repository's top, which mixes both steps' schemas.
    let dir = Repo::of(&[
        ("base/config.yml", "a: 1\n"),
        ("step1/schema.yml", "#@data/values-schema\n---\nname: x\n"),
        (
            "step1/config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        (
            "step1/diff.sh",
            "diff <(ytt -f ../base/config.yml) <(ytt -f .)\n",
        ),
        (
            "step2/schema.yml",
            "#@data/values-schema\n---\nother: {x: 1}\n",
        ),
        (
            "step2/config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nx: #@ data.values.other.x\n",
        ),
        ("step2/run.sh", "ytt -f .\n"),
    ]);
    let list = yttlint(&dir, &["--list-roots"]);
    assert!(
        list.stdout.contains("step1\trun by step1/diff.sh:1"),
        "{}",
        list.stdout
    );
    assert!(
        list.stdout.contains("step2\trun by step2/run.sh:1"),
        "{}",
        list.stdout
    );
    let lint = dir.lint();
    assert_eq!((lint.code, lint.diagnostics().len()), (0, 0), "{lint}");
}

#[cfg(unix)]
#[test]
fn a_makefile_linked_from_a_vendored_directory_runs_at_its_link() {
    let dir = Repo::of(&[
        (
            "vendor/lib/snippets/Makefile",
            "render:\n\tytt -f ytt/common -f ytt/app\n",
        ),
        (
            "ytt/common/_ytt_lib/lib/x/cm.yaml",
            "kind: ConfigMap\nmetadata:\n  name: x\n",
        ),
        (
            "ytt/app/app.yaml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib/x\").eval())\n",
        ),
    ]);
    std::os::unix::fs::symlink("vendor/lib/snippets/Makefile", dir.join("Makefile")).unwrap();
    let list = yttlint(&dir, &["--list-roots"]);
    assert!(
        list.stdout
            .contains("ytt/common + ytt/app\trun by Makefile:2"),
        "{}",
        list.stdout
    );
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(
        lint.diagnostics()
            .iter()
            .all(|d| d["rule"] != "load-error" && d["rule"] != "template-error"),
        "{lint}"
    );
}

#[test]
fn a_missing_library_is_a_load_error_whatever_values_are_given_at_run_time() {
    // The values given at run time (`-v ns=$NS`) cannot make a missing library appear.
    let lint = Repo::of(&[
        (
            "config/app.yaml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ load(\"@ytt:data\", \"data\")\n--- #@ template.replace(library.get(\"nope\").eval())\n---\nns: #@ data.values.ns\n",
        ),
        ("config/values.yml", "#@data/values\n---\nns: \"\"\n"),
        ("run.sh", "ytt -f config -v ns=\"$NS\"\n"),
    ]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = only(&lint, "load-error");
    assert_eq!(d["severity"], "error");
    assert!(
        str_of(d, "message").starts_with("library.get: Could not find private library"),
        "{d}"
    );
}

#[test]
fn an_educates_workshop_step_is_a_documented_command() {
    // The terminal of an Educates workshop starts in its `exercises/` directory.
    let lint = Repo::of(&[
        ("exercises/schema.yaml", "#@data/values-schema\n---\n#@schema/validation max_len=3\nname: abc\n"),
        ("exercises/values-bad.yaml", "#@data/values\n---\nname: abcdef\n"),
        (
            "exercises/demo.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        (
            "workshop/content/exercises/01-demo.md",
            "Run it:\n\n```terminal:execute\ncommand: ytt -f schema.yaml -f values-bad.yaml -f demo.yaml\n```\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = only(&lint, "data-value-violation");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["certainty"]["source"], "document");
    assert_eq!(
        d["certainty"]["origin"],
        "workshop/content/exercises/01-demo.md:4"
    );
}

#[test]
fn a_script_input_that_was_deleted_is_an_error_at_the_command() {
    // `ci/docs` is gone and nothing makes it: ytt stops with "no such file or directory". A
    // warning by default (a step the linter does not see may make it); an error where the
    // repository asks for one and the command is certain.
    let lint = Repo::of(&[
        (".yttlint.yaml", "rules: {input-missing: error}\n"),
        ("ci/main/pipeline.yml", "jobs: []\n"),
        (
            "ci/scripts/set.sh",
            "#!/usr/bin/env bash\nD=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nfly sp -p main -c <(ytt -f \"$D/../main/\")\nfly sp -p docs -c <(ytt -f \"$D/../docs/\")\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = only(&lint, "input-missing");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("ci/scripts/set.sh"), Some(4))
    );
    assert_eq!(d["certainty"]["source"], "script");
    assert_eq!(d["certainty"]["certain"], true);
    assert!(str_of(d, "message").contains("input ci/docs"), "{d}");
}

#[test]
fn an_input_an_earlier_command_makes_is_not_missing() {
    let dir = Repo::of(&[
        ("config/app.yml", "kind: ConfigMap\n"),
        (
            "build.sh",
            "#!/bin/sh\nmkdir -p out\nhelm template x chart > out/chart.yml\nytt -f config -f out/chart.yml\n",
        ),
    ]);
    let lint = dir.lint();
    assert_eq!((lint.code, lint.diagnostics().len()), (0, 0), "{lint}");
    let list = yttlint(&dir, &["--list-roots"]);
    assert!(
        list.stdout
            .contains("build.sh:4: out/chart.yml is made at run time by `helm` (build.sh:3)"),
        "{}",
        list.stdout
    );
}

#[test]
fn the_user_s_copy_of_an_example_is_linted_with_the_example_as_an_assumption() {
    // The script renders `values.yaml`, which the user makes from `values.yaml.example`; the
    // example lacks a key the template needs: ytt fails with it, but the user's copy may have it.
    let lint = Repo::of(&[
        ("values.yaml.example", "#@data/values\n---\ndomain: example.com\n"),
        (
            "deps.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ if data.values.rbac.enabled:\n---\nkind: ClusterRoleBinding\n#@ end\n",
        ),
        ("install.sh", "#!/bin/sh\nytt -f deps.yaml -f values.yaml | kapp deploy -a x -f- -y\n"),
        ("README.md", "# Install\n\nEdit `values.yaml`, then run `./install.sh`.\n"),
    ]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let d = only(&lint, "template-error");
    assert_eq!(d["severity"], "warning");
    assert_eq!(assumption_kinds(d), ["example-values"]);
    assert!(
        str_of(&d["certainty"]["assumptions"][0], "message")
            .contains("values.yaml is the user's copy of values.yaml.example"),
        "{d}"
    );
}

#[test]
fn values_a_readme_gives_as_a_block_are_an_uncertain_input() {
    let lint = Repo::of(&[
        ("config/schema.yml", "#@data/values-schema\n---\nport: 8080\n"),
        (
            "config/svc.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nport: #@ data.values.port\n",
        ),
        (
            "README.md",
            "# Service\n\nCreate `values.yml` with:\n\n```yaml\n#@data/values\n---\nport: http\n```\n\nThen:\n\n```sh\nytt -f config -f values.yml\n```\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let d = only(&lint, "schema-type-mismatch");
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["certainty"]["source"], "document");
    assert_eq!(assumption_kinds(d), ["example-values"]);
}

#[test]
fn an_input_in_the_home_directory_is_left_out_as_an_assumption() {
    let lint = Repo::of(&[
        (
            "config/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nca: #@ data.read(\"registry.crt\")\n",
        ),
        (
            "README.md",
            "```\nytt -f config/ -f $HOME/registry.crt\n```\n",
        ),
    ])
    .lint();
    assert_eq!(lint.code, 0, "{lint}");
    let d = only(&lint, "template-error");
    assert_eq!(d["severity"], "warning");
    assert_eq!(assumption_kinds(d), ["outside-input"]);
}

#[test]
fn two_documented_commands_for_one_root_are_two_scenarios() {
    // One passes --ignore-unknown-comments, one does not: ytt rejects the plain comment then.
    let lint = Repo::of(&[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n# a plain comment\n---\nname: #@ data.values.name\n",
        ),
        ("config/values.yml", "#@data/values\n---\nname: x\n"),
        (
            "README.md",
            "```\nytt --ignore-unknown-comments -f config/\n```\n\nor\n\n```\nytt -f config/\n```\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = only(&lint, "unknown-comment");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["scenario"], "README.md:8");
    assert_eq!(d["certainty"]["origin"], "README.md:8");
}
