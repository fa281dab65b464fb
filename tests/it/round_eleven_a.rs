//! Constructs of round eleven's first contact (researcher A, issue 39, docs/precision.md) that
//! the linter misread, each as a general rule on a minimal repository written for the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, root_paths, str_of};
use crate::util::repo::Repo;

/// An overlay fragment with no `load()` of its own, which a script appends to a provider's
/// overlay file that loads `overlay` at its top.
const APPENDED: &[(&str, &str)] = &[
    (
        "tkg/patches/extra-overlay.yaml",
        "#@overlay/match by=overlay.subset({\"kind\": \"Cluster\"})\n---\nspec:\n  #@overlay/match missing_ok=True\n  paused: true\n",
    ),
    (
        "tkg/patches/install.sh",
        "#!/bin/sh\nset -e\ncat extra-overlay.yaml >> \"$HOME/.config/tanzu/tkg/providers/infrastructure-vsphere/ytt/vsphere-overlay.yaml\"\ntanzu cluster create demo\n",
    ),
];

#[test]
fn an_undefined_name_in_a_fragment_a_script_appends_rests_on_the_file_before_it() {
    // FA11-1: ytt renders the provider's file with the fragment after its load: the fragment
    // alone says `undefined: overlay`, the render the script prepares does not.
    let lint = Repo::of(APPENDED).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = lint.of("template-error");
    assert!(!found.is_empty(), "{lint}");
    for d in &found {
        assert_eq!(d["severity"], "info", "{d:#}");
        assert!(assumption_kinds(d).contains(&"prepended-text"), "{d:#}");
        let said = d["certainty"]["assumptions"].to_string();
        assert!(
            said.contains("tkg/patches/install.sh:3 appends it"),
            "{said}"
        );
    }

    // Nothing appends it (the script writes it over another file): the error stays.
    let mut files = APPENDED.to_vec();
    files[1].1 = "#!/bin/sh\ncat extra-overlay.yaml > /tmp/extra.yaml\n";
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.of("template-error");
    assert!(found.iter().any(|d| d["severity"] == "error"), "{lint}");

    // A script of the repository renders the fragment as committed: the error stays too.
    let mut files = APPENDED.to_vec();
    files.push((
        "tkg/render.sh",
        "#!/bin/sh\nytt -f patches/extra-overlay.yaml -f cluster.yaml\n",
    ));
    files.push(("tkg/cluster.yaml", "kind: Cluster\nspec: {}\n"));
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
}

/// A README that gives a data value from the reader's key file, written as an angle-bracket
/// placeholder inside the flag's `KEY=` word.
const ANGLE: &[(&str, &str)] = &[
    (
        "README.md",
        "# Deploy key\n\nRender the secret with your own key:\n\n```sh\nytt -f deploy-key.yaml --data-value-file private_key=<path_to/your/key> > key.yaml\n```\n",
    ),
    (
        "deploy-key.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: deploy-key\nstringData:\n  key: #@ data.values.private_key\n",
    ),
];

#[test]
fn an_angle_bracket_placeholder_in_a_page_s_command_is_the_reader_s_value() {
    // FA11-6: not two redirections that leave the flag without a value (`Expected '.' to be a
    // file`): the value is given at run time.
    let lint = Repo::of(ANGLE).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert_eq!(root_paths(&lint.report), ["deploy-key.yaml"], "{lint}");

    // A bare placeholder as a `-f` path is the reader's file too; a real error of the
    // template is still found through the command.
    let mut files = ANGLE.to_vec();
    files[0].1 = "# Deploy key\n\n```sh\nytt -f deploy-key.yaml -f <PATH-TO-VALUES> --data-value-file private_key=<path_to/your/key>\n```\n";
    files[1].1 = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Secret\nstringData:\n  key: #@ data.values.private_key + 1\n";
    let lint = Repo::of(&files).lint();
    let roots = lint.report["roots"].to_string();
    assert!(roots.contains("README.md:4"), "{lint}");
    assert!(
        !lint
            .diagnostics()
            .iter()
            .any(|d| str_of(d, "message").contains("to be a file")),
        "{lint}"
    );
}

/// A README at the top whose section about one directory renders `.`: run from the top, it
/// would merge the schemas of every directory of the repository.
const DOT_SUBDIR: &[(&str, &str)] = &[
    (
        "README.md",
        "# Demo\n\n## Build images\n\nEdit `builds/registry.yaml` first; the builds folder holds the image builds.\n\n```\nytt -f . | kapp deploy -a demo-builds -f-\n```\n",
    ),
    (
        "builds/image.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Image\nmetadata:\n  name: app\nspec:\n  tag: #@ data.values.registry.host + \"/app\"\n",
    ),
    (
        "builds/registry.yaml",
        "#@data/values\n---\nregistry:\n  host: registry.example.org\n",
    ),
    (
        "envs/a/schema.yaml",
        "#@data/values-schema\n---\napp:\n  name: \"\"\n",
    ),
    (
        "envs/b/schema.yaml",
        "#@data/values-schema\n---\nservice:\n  name: \"\"\n",
    ),
];

#[test]
fn a_page_s_dot_command_runs_from_the_directory_its_section_names() {
    // FA11-5: the command renders `builds`, with the working directory assumed.
    let lint = Repo::of(DOT_SUBDIR).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("schema-invalid").is_empty(), "{lint}");
    let roots = lint.report["roots"].as_array().cloned().unwrap_or_default();
    let builds = roots
        .iter()
        .find(|r| r["path"] == "builds")
        .unwrap_or_else(|| panic!("no root builds: {lint}"));
    let kinds: Vec<&str> = builds["provenance"]["assumptions"]
        .as_array()
        .map(|a| a.iter().map(|a| str_of(a, "kind")).collect())
        .unwrap_or_default();
    assert!(kinds.contains(&"working-directory"), "{builds:#}");

    // The directory assumed, an error found there is a warning that names it.
    let mut files = DOT_SUBDIR.to_vec();
    files[1].1 = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Image\nspec:\n  tag: #@ data.values.registry.host + 1\n";
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = lint.of("template-error");
    assert!(!found.is_empty(), "{lint}");
    for d in found {
        assert_eq!(d["severity"], "warning", "{d:#}");
        assert!(assumption_kinds(d).contains(&"working-directory"), "{d:#}");
    }
}

/// A page in a sub-directory that says to run the top's script from the repository's root;
/// the script renders a directory vendir fills (ignored by git) with the top's overlays.
const FROM_ROOT: &[(&str, &str)] = &[
    (
        "operators/1-install.md",
        "# Install the operator\n\nRun the installer from the root directory of this repo:\n\n```\n./install-operator.sh\n```\n",
    ),
    (
        "install-operator.sh",
        "#!/bin/sh\nvendir sync --chdir deploy\nytt -f deploy/vendor/operator -f deploy/overlays\n",
    ),
    ("deploy/.gitignore", "vendor/\n"),
    (
        "deploy/overlays/labels.yaml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    team: ops\n",
    ),
];

#[test]
fn a_page_that_says_to_run_from_the_root_runs_the_top_s_paths() {
    // FA11-7: not `input-missing` for operators/deploy/..., which no one runs.
    let lint = Repo::of(FROM_ROOT).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("input-missing").is_empty(), "{lint}");

    // From the root, a path of the script that is not there is still missing.
    let mut files = FROM_ROOT.to_vec();
    files[1].1 =
        "#!/bin/sh\nvendir sync --chdir deploy\nytt -f deploy/vendor/operator -f deploy/overlay\n";
    let lint = Repo::of(&files).lint();
    assert!(!lint.of("input-missing").is_empty(), "{lint}");
}

/// A script that greps a key out of the values file it gives ytt with the schema.
const GREPPED: &[(&str, &str)] = &[
    (
        "pipeline/values-schema.yaml",
        "#@data/values-schema\n---\nnamespace: \"\"\nmirror_host: \"\"\nunused_flag: false\n",
    ),
    (
        "pipeline/values.yaml",
        "#@data/values\n---\nnamespace: ci\nmirror_host: mirror.example.org\n",
    ),
    (
        "pipeline/task.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Task\nmetadata:\n  namespace: #@ data.values.namespace\n",
    ),
    (
        "pipeline/prepare.sh",
        "#!/bin/sh\nMIRROR=$(cat values.yaml | grep mirror_host | awk '{print $2}')\necho \"using $MIRROR\"\nytt -f task.yaml -f values.yaml -f values-schema.yaml > out.yaml\n",
    ),
];

#[test]
fn a_schema_key_a_script_greps_from_its_values_file_is_read() {
    // FA11-3: `mirror_host` is read by the script; `unused_flag` by nothing.
    let lint = Repo::of(GREPPED).lint();
    let unused: Vec<&str> = lint
        .of("data-value-unused")
        .iter()
        .map(|d| str_of(d, "message"))
        .collect();
    assert!(
        !unused.iter().any(|m| m.contains("mirror_host")),
        "{unused:?}"
    );
    assert!(unused.iter().any(|m| m.contains("unused_flag")), "{lint}");
}

/// A page that says to create the install values from the repository's sample, then runs the
/// install script with the file it said to create; the sample sets a key the defaults do not
/// declare.
const SAMPLE: &[(&str, &str)] = &[
    (
        "docs/install.md",
        "# Install\n\n1. Create a file called `/tmp/install-values.yml`. You can use `sample-values.yml` as a starting point\n1. Run the installer:\n   ```console\n   $ ./bin/install.sh /tmp/install-values.yml\n   ```\n",
    ),
    (
        "bin/install.sh",
        "#!/usr/bin/env bash\nset -euo pipefail\nDIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nytt -f \"${DIR}/../config\" -f \"$1\" > /tmp/out.yml\n",
    ),
    ("config/values.yml", "#@data/values\n---\nname: \"\"\n"),
    (
        "config/cm.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\n",
    ),
    (
        "sample-values.yml",
        "#@data/values\n---\nname: demo\nmonitoring:\n  enabled: true\n",
    ),
];

#[test]
fn a_page_s_starting_point_stands_in_for_the_reader_s_values() {
    // LA11-1: ytt rejects the sample's `monitoring` (no default declares it); with the
    // sample assumed, a warning that names it.
    let lint = Repo::of(SAMPLE).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let failed: Vec<&Value> = lint
        .of("overlay-error")
        .into_iter()
        .filter(|d| str_of(d, "message").contains("monitoring"))
        .collect();
    assert!(!failed.is_empty(), "{lint}");
    for d in failed {
        assert_eq!(d["severity"], "warning", "{d:#}");
        assert!(assumption_kinds(d).contains(&"example-values"), "{d:#}");
    }

    // A sample the defaults accept: nothing to lint.report.
    let mut files = SAMPLE.to_vec();
    files[4].1 = "#@data/values\n---\nname: demo\n";
    let lint = Repo::of(&files).lint();
    assert!(
        !lint
            .diagnostics()
            .iter()
            .any(|d| d["severity"] == "error" || d["severity"] == "warning"),
        "{lint}"
    );
}

/// A Package template whose release date a Makefile gives at run time from `date`.
const RELEASE_DATE: &[(&str, &str)] = &[
    (
        "Makefile",
        "STAMP := $(shell date -u +\"%Y-%m-%dT%H:%M:%SZ\")\nrelease:\n\tytt -f pkg/package.yaml -v version=2.0.0 -v \"stamp=$(STAMP)\" > out/package.yaml\n",
    ),
    (
        "pkg/package.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ \"tool.example.org.\" + data.values.version\nspec:\n  refName: tool.example.org\n  version: #@ data.values.version\n  releasedAt: #@ data.values.stamp\n  template:\n    spec: {}\n",
    ),
];

#[test]
fn a_format_check_of_the_linter_s_placeholder_is_not_reported() {
    // FA11-4: the Makefile gives a date-time; the linter's stand-in is no date-time.
    let lint = Repo::of(RELEASE_DATE).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("k8s-schema").is_empty(), "{lint}");

    // The same field written with a value that is no date-time is still checked.
    let mut files = RELEASE_DATE.to_vec();
    files[1].1 = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ \"tool.example.org.\" + data.values.version\nspec:\n  refName: tool.example.org\n  version: #@ data.values.version\n  releasedAt: last tuesday\n  template:\n    spec: {}\n";
    let lint = Repo::of(&files).lint();
    let found = lint.of("k8s-schema");
    assert!(
        found
            .iter()
            .any(|d| str_of(d, "message").contains("date-time")),
        "{lint}"
    );
}
