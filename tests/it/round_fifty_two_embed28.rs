//! Session twenty-eight's fixes of round fifty-two's noticed constructs, each on a minimal
//! repository written for the test. N52-1: a template two roots render, one with a value that
//! turns a branch on and one with a value that turns it off, has no `branch-never-evaluated`
//! note (the other root takes the branch); the note stays when no root takes it. N52-3: a
//! Cartographer template's `ytt: |` string that calls a function it never defines (`parm(...)`
//! beside `def param`) is reported as ytt fails on it for every Workload, at the warning level
//! of the string's assumption; a read of the Workload's values, which only the controller
//! gives, is not. N50-2: a tree whose only ytt is such a string does not say "no ytt files
//! found" without saying the string was checked, and is no empty selection.

use crate::util::bin::yttlint;
use crate::util::json::str_of;
use crate::util::repo::Repo;

const PIPELINE: &str = "\
#@ load(\"@ytt:data\", \"data\")
---
jobs:
- name: build
#@ if/end data.values.extra:
- name: extra-check
";

fn pipeline_repo(readme_values: &str) -> Repo {
    Repo::of(&[
        ("pipeline.yml", PIPELINE),
        ("on.yaml", "#@data/values\n---\nextra: true\n"),
        ("off.yaml", "#@data/values\n---\nextra: false\n"),
        (
            "Makefile",
            "render:\n\tytt -f pipeline.yml -f on.yaml > rendered.yml\n",
        ),
        (
            "README.md",
            &format!(
                "For the release branch:\n\n```\nytt -f pipeline.yml -f {readme_values} > rendered.yml\n```\n"
            ),
        ),
    ])
}

#[test]
fn a_branch_another_root_takes_is_no_never_evaluated_branch() {
    // The Makefile's root renders the job, the README's leaves it out: the branch is taken.
    let repo = pipeline_repo("off.yaml");
    let lint = repo.lint();
    assert_eq!(lint.code, 0, "{lint}");
    let roots = lint.report["roots"].as_array().map(Vec::len);
    assert_eq!(roots, Some(2), "{lint}");
    assert!(lint.of("branch-never-evaluated").is_empty(), "{lint}");

    // One command alone, whose root also gets the sibling values file: still taken.
    std::fs::remove_file(repo.join("Makefile")).unwrap();
    let lint = repo.lint();
    assert!(lint.of("branch-never-evaluated").is_empty(), "{lint}");
}

#[test]
fn a_branch_no_root_takes_is_one_note_for_all_of_them() {
    // Both commands give `extra: false`: no scenario of either root takes the branch, and the
    // note is said once, its help counting the roots.
    let repo = Repo::of(&[
        ("pipeline.yml", PIPELINE),
        ("off.yaml", "#@data/values\n---\nextra: false\n"),
        ("release.yaml", "#@data/values\n---\nextra: false\n"),
        (
            "Makefile",
            "render:\n\tytt -f pipeline.yml -f release.yaml > rendered.yml\n",
        ),
        (
            "README.md",
            "For the release branch:\n\n```\nytt -f pipeline.yml -f off.yaml > rendered.yml\n```\n",
        ),
    ]);
    let lint = repo.lint();
    let roots = lint.report["roots"].as_array().map(Vec::len);
    assert_eq!(roots, Some(2), "{lint}");
    let notes = lint.of("branch-never-evaluated");
    assert_eq!(notes.len(), 1, "{lint}");
    assert_eq!(str_of(notes[0], "file"), "pipeline.yml");
    assert_eq!(notes[0]["line"], 6, "{lint}");
    let help = str_of(notes[0], "help");
    assert!(
        help.ends_with("none of the 2 roots that evaluate this file takes it"),
        "{help}"
    );
}

const TEMPLATE: &str = "\
apiVersion: carto.run/v1alpha1
kind: ClusterConfigTemplate
metadata:
  name: settings
spec:
  configPath: .data
  ytt: |
    #@ load(\"@ytt:data\", \"data\")

    #@ def setting(key):
    #@   for s in data.values.workload.spec.params:
    #@     if s.name == key:
    #@       return s.value
    #@     end
    #@   end
    #@   return \"\"
    #@ end
    ---
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: #@ data.values.workload.metadata.name + \"-settings\"
    data:
      region: CALL
";

fn cartographer_repo(call: &str) -> Repo {
    Repo::of(&[
        ("templates/settings.yaml", &TEMPLATE.replace("CALL", call)),
        (
            "README.md",
            "Apply with `kubectl apply -f templates/settings.yaml`.\n",
        ),
    ])
}

#[test]
fn an_undefined_name_in_a_cartographer_ytt_string_is_a_warning() {
    let repo = cartographer_repo("#@ settng(\"region\")");
    let lint = repo.lint();
    let found = lint.of("template-error");
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert!(
        str_of(d, "message").contains("undefined: settng (did you mean setting?)"),
        "{lint}"
    );
    // At the outer file's line of the call, under the string's own assumption.
    assert_eq!(str_of(d, "file"), "templates/settings.yaml");
    assert_eq!(d["line"], 24, "{lint}");
    lint.assert_verdicts("template-error", &[("warning", &["inferred-command"])]);
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_wrong_arity_in_a_cartographer_ytt_string_is_a_warning() {
    let repo = cartographer_repo("#@ setting(\"region\", \"eu\")");
    let lint = repo.lint();
    lint.assert_verdicts("wrong-arguments", &[("warning", &["inferred-command"])]);
    assert_eq!(
        str_of(lint.of("wrong-arguments")[0], "file"),
        "templates/settings.yaml"
    );
}

#[test]
fn a_sound_cartographer_ytt_string_reading_its_workload_is_quiet() {
    // The Workload's values are the controller's: reading them is no fault of the text.
    let repo = cartographer_repo("#@ setting(\"region\")");
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
    // N50-2: the string was linted, so the run says so and is no empty selection.
    let run = yttlint(&repo, &["--no-cache", "--error-on-empty"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "yttlint: no ytt files found under .; 1 ytt document written as a string in another file was checked\n"
    );
    // The same from the whole-run cache.
    let first = yttlint(&repo, &[]);
    let again = yttlint(&repo, &["--error-on-empty"]);
    assert_eq!((again.code, &again.stderr), (0, &first.stderr), "{again:?}");
    assert_eq!(first.stderr, run.stderr);
}
