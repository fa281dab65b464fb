//! Documented commands whose missing inputs are not the repository's fault (issue 39, §3):
//! a command in a directory `vendir sync` writes is another project's, a script a command of
//! the repository copies elsewhere runs in the copy, and a path found only somewhere else
//! does not show that a command runs from where it is. Each is skipped with its reason, not
//! reported as `input-missing`; the same command where none of this holds is reported. An
//! example file that stands in for the user's copy reports its unused values as info. Each
//! repository is a minimal repro written for the test.

use serde_json::Value;

use crate::util::repo::{Lint, Repo};
use crate::util::yttlint;

/// A root a script runs, so that every repository here has something to lint.
const ROOT: &[(&str, &str)] = &[
    (
        "config/app.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: #@ data.values.name\n",
    ),
    ("config/values.yml", "#@data/values\n---\nname: app\n"),
    ("render.sh", "#!/bin/sh\nytt -f config > out.yml\n"),
];

/// A tool's script that renders its `config` with `overlays`, which it does not ship.
const TOOL_SCRIPT: &str =
    "#!/bin/sh\nset -e\ncd \"$(dirname \"$0\")/..\"\nytt -f config -f overlays > release.yml\n";
const TOOL_CONFIG: &str = "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: tool\n";

fn with(extra: &[(&'static str, &'static str)]) -> Repo {
    let mut files = ROOT.to_vec();
    files.extend_from_slice(extra);
    Repo::of(&files)
}

fn input_missing(lint: &Lint) -> Vec<&Value> {
    lint.diagnostics()
        .iter()
        .filter(|d| d["rule"] == "input-missing")
        .collect()
}

/// The `--list-roots` line of what was skipped at `origin`.
fn skipped_at(dir: &Repo, origin: &str) -> String {
    let list = yttlint(dir, &["--list-roots"]);
    let prefix = format!("skipped: {origin}: ");
    list.stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("nothing skipped at {origin}:\n{}", list.stdout))
        .to_string()
}

#[test]
fn a_script_of_the_repository_with_a_missing_input_is_reported() {
    // The contrast to the cases below: the same script, the repository's own.
    let dir = with(&[
        ("tool/hack/build.sh", TOOL_SCRIPT),
        ("tool/config/tool.yml", TOOL_CONFIG),
    ]);
    let lint = dir.lint();
    // A warning: the exit status stays 0.
    assert_eq!(lint.code, 0, "{lint}");
    let found = input_missing(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["file"], "tool/hack/build.sh");
    assert_eq!(found[0]["severity"], "warning");
}

#[test]
fn a_script_in_a_directory_vendir_writes_is_another_project_s() {
    let dir = with(&[
        (
            "vendir.yml",
            "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n  - path: vendor\n    contents:\n      - path: tool\n        git:\n          url: https://example.com/org/tool\n          ref: v1.2.0\n",
        ),
        ("vendor/tool/hack/build.sh", TOOL_SCRIPT),
        ("vendor/tool/config/tool.yml", TOOL_CONFIG),
    ]);
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(input_missing(&lint).is_empty(), "{lint}");
    // Not a command of the repository at all: one note for the directory says so.
    let list = yttlint(&dir, &["--list-roots"]);
    assert!(
        !list.stdout.contains("skipped: vendor/tool"),
        "{}",
        list.stdout
    );
    assert!(
        list.stdout.contains("note: vendor/tool is another project's, synced by vendir (vendir.yml:6): linted only where the repository's own commands read it; left out: the ytt commands in vendor/tool/hack/build.sh"),
        "{}",
        list.stdout
    );
}

#[test]
fn a_script_the_repository_copies_elsewhere_runs_in_the_copy() {
    // `new-cluster.sh` copies the catalogue's scripts into a cluster's directory, where
    // `../config` is the cluster's.
    let dir = with(&[
        (
            ".catalog/tool/v1/scripts/render.sh",
            "#!/bin/bash\nDIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nytt -f \"$DIR/../config\" > \"$DIR/rendered.yml\"\n",
        ),
        (
            "scripts/new-cluster.sh",
            "#!/bin/bash\nset -euo pipefail\nV=v1\nmkdir -p \"clusters/$1\"\ncp -R .catalog/tool/$V/scripts/* \"clusters/$1/\"\n\"clusters/$1/render.sh\"\n",
        ),
    ]);
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(input_missing(&lint).is_empty(), "{lint}");
    assert_eq!(
        skipped_at(&dir, ".catalog/tool/v1/scripts/render.sh:3"),
        ".catalog/tool/v1/scripts/render.sh is copied elsewhere by `cp` (scripts/new-cluster.sh:5), where its paths are meant to exist"
    );
}

#[test]
fn a_script_whose_input_exists_only_elsewhere_is_not_judged_here() {
    // From `scripts/`, `config/app/extra.yml` does not exist; `deploy/config/app/extra.yml`
    // does, in another directory: nothing shows the script runs from `scripts/` (a typo of a
    // name next to it would).
    let dir = with(&[
        (
            "deploy/config/app/extra.yml",
            "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: extra\n",
        ),
        (
            "scripts/extra.sh",
            "#!/bin/sh\ncd \"$(dirname \"$0\")\"\nytt -f config/app/extra.yml > extra.out.yml\n",
        ),
    ]);
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(input_missing(&lint).is_empty(), "{lint}");
    assert_eq!(
        skipped_at(&dir, "scripts/extra.sh:3"),
        "scripts/config/app/extra.yml is not in the repository, and nothing shows the command runs from here"
    );
}

#[test]
fn a_script_input_with_a_typo_next_to_the_file_meant_is_reported() {
    let dir = with(&[
        (
            "scripts/config/app/extra-cm.yml",
            "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: extra\n",
        ),
        (
            "scripts/extra.sh",
            "#!/bin/sh\ncd \"$(dirname \"$0\")\"\nytt -f config/app/extra-cn.yml > extra.out.yml\n",
        ),
    ]);
    let lint = dir.lint();
    // A warning: the exit status stays 0.
    assert_eq!(lint.code, 0, "{lint}");
    let found = input_missing(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["file"], "scripts/extra.sh");
    assert!(
        found[0]["help"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean scripts/config/app/extra-cm.yml")),
        "{lint}"
    );
}

#[test]
fn unused_values_of_an_example_standing_in_for_the_user_s_copy_are_info() {
    // `install.sh` renders the user's `values.yaml`; the example stands in for it, and the
    // user's copy may be read by other tools too.
    let dir = with(&[
        (
            "values.yaml.example",
            "#@data/values\n---\nname: app\nlegacy_port: 8080\n",
        ),
        (
            "web/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: #@ data.values.name\n",
        ),
        ("install.sh", "#!/bin/sh\nytt -f web -f values.yaml > out.yml\n"),
    ]);
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    let unused: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["rule"] == "data-value-unused")
        .collect();
    assert_eq!(unused.len(), 1, "{lint}");
    assert_eq!(unused[0]["severity"], "info");
    assert_eq!(unused[0]["file"], "values.yaml.example");
    assert!(
        unused[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("the example stands in for the user's own copy")),
        "{lint}"
    );
}
