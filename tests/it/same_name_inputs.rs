//! One command may name two files with one relative path: `-f ci/templates/build.yml -f
//! ci/inputs/build.yml` gives both the name `build.yml`, and ytt keeps both (round twelve's
//! F12A-2: a pipeline template and its data values file, one per pipeline, in a family of
//! Concourse repositories). The data values file is not output; the template is, and an
//! overlay applies to it. The expected output is what ytt (built from carvel-dev/ytt's source,
//! 2026-11-29) printed for the same files.

use crate::util::repo::Repo;
use crate::util::template;

const TEMPLATE: &str = "---\njobs:\n- name: build\n  plan:\n  - get: source\n";
const VALUES: &str = "#@data/values\n---\nrevision: abc\n";
const OVERLAY: &str = r#"#@ load("@ytt:overlay", "overlay")
#@ load("@ytt:data", "data")
#@overlay/match by=overlay.all, expects="1+"
---
jobs:
#@overlay/match by=overlay.all, expects="1+"
- plan:
  #@overlay/match by=overlay.index(0)
  #@overlay/insert before=True
  - task: #@ "show-" + data.values.revision
"#;

fn repository() -> Repo {
    Repo::of(&[
        ("ci/templates/build.yml", TEMPLATE),
        ("ci/inputs/build.yml", VALUES),
        ("ci/overlays/revision.yml", OVERLAY),
        (
            "ci/configure",
            "#!/bin/bash -eu\nPIPELINE=${1}\nytt -f \"ci/templates/${PIPELINE}.yml\" -f \"ci/inputs/${PIPELINE}.yml\" -f ci/overlays/ > \"ci/${PIPELINE}.out.yml\"\n",
        ),
    ])
}

#[test]
fn two_files_with_one_name_are_both_kept() {
    let dir = repository();
    let out = template(
        &dir,
        &[
            "-f",
            "ci/templates/build.yml",
            "-f",
            "ci/inputs/build.yml",
            "-f",
            "ci/overlays/",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "jobs:\n- name: build\n  plan:\n  - task: show-abc\n  - get: source\n"
    );
}

#[test]
fn the_lint_of_such_a_command_has_no_overlay_error() {
    let dir = repository();
    let lint = dir.lint_with(&["--no-cache", "."]);
    assert!(lint.errors().is_empty(), "{lint}");
}
