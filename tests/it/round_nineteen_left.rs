//! Round nineteen's left-over script constructs, each on a minimal repository written for the
//! test: a `cd` inside a multi-line subshell (N19-2), ytt's old output flags and flags no ytt
//! version knows (R19-1), files a command reads only as data keeping the layout root that
//! renders them, and a here-document given as `-f <(…)` (N19-1).

use crate::util::json::{assumption_kinds, assumption_text, str_of};
use crate::util::repo::Repo;

/// A template that reads `values.yml` as data.
const MAIN: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  text: #@ data.read(\"values.yml\")\n";

/// Not Starlark: ytt fails on it unless a file mark makes it data.
const NOT_CODE: &str = "#@ this is not starlark at all (\na: 1\n";

#[test]
fn a_subshell_s_cd_holds_for_the_command_after_it() {
    // N19-2: `cd ../config` inside a multi-line `( … )` of a script in `scripts/`: the
    // command's `-f .` and its file mark resolve from `config/`. Before: a certain false
    // `template-error` (the mark matched nothing from `scripts/`) and `values.yml` evaluated
    // as a template by a layout root.
    for script in [
        "#!/bin/bash\nset -e\n(\n  cd ../config\n  ytt -f . --file-mark 'values.yml:type=data'\n)\n",
        "#!/bin/bash\n( cd ../config; ytt -f . --file-mark 'values.yml:type=data' )\n",
    ] {
        let files = [
            ("scripts/render.sh", script),
            ("config/main.yml", MAIN),
            ("config/values.yml", NOT_CODE),
        ];
        let lint = Repo::of(&files).lint();
        assert!(lint.diagnostics().is_empty(), "{script}\n{lint}");
        assert_eq!(lint.code, 0, "{lint}");
    }
}

#[test]
fn a_cd_that_runs_only_after_a_failure_or_a_test_is_assumed() {
    // The command's missing input is reported, but the directory rests on the `cd`: a
    // warning naming `working-directory`, never a certain error.
    for (script, said) in [
        (
            "#!/bin/bash\n[ -d ../config ] && cd ../config\nytt -f . -f extra.yml\n",
            "if `[ -d ../config ]` holds",
        ),
        (
            "#!/bin/bash\nmake -C ../x || cd ../config\nytt -f . -f extra.yml\n",
            "if `make -C ../x` fails",
        ),
    ] {
        let files = [
            ("scripts/render.sh", script),
            ("config/main.yml", MAIN),
            ("config/values.yml", "a: 1\n"),
        ];
        let lint = Repo::of(&files)
            .file(".yttlint.yaml", "rules:\n  input-missing: error\n")
            .lint();
        let missing = lint.of("input-missing");
        assert_eq!(missing.len(), 1, "{lint}");
        assert_eq!(str_of(missing[0], "severity"), "warning", "{lint}");
        assert!(
            assumption_kinds(missing[0]).contains(&"working-directory"),
            "{lint}"
        );
        assert!(assumption_text(missing[0]).contains(said), "{lint}");
    }
}

/// A Deployment of an API version Kubernetes no longer serves: a true `k8s-api-removed`.
const OLD_DEPLOYMENT: &str = "#@ name = \"web\"\n---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: #@ name\nspec:\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n";

#[test]
fn files_a_command_reads_only_as_data_keep_the_root_that_renders_them() {
    // A site build embeds the examples as text (`type=data`): it does not render them, so
    // the example keeps its layout root and its finding.
    let site = "#@ load(\"@ytt:data\", \"data\")\n---\npage: #@ str(len(data.list()))\n";
    for flag in [
        "--dangerous-emptied-output-directory ../../tmp/",
        "--output-directory ../../tmp/",
    ] {
        let build = format!(
            "#!/bin/bash\nset -e\n(\n  cd pkg/site\n  ytt -f . -f ../../examples --file-mark 'example**/*:type=data' {flag}\n)\n"
        );
        let files = [
            ("hack/build.sh", build.as_str()),
            ("pkg/site/index.yml", site),
            ("examples/example-old/deployment.yml", OLD_DEPLOYMENT),
        ];
        let repo = Repo::of(&files);
        let lint = repo.lint();
        let removed = lint.in_file("k8s-api-removed", "examples/example-old/deployment.yml");
        assert_eq!(removed.len(), 1, "{flag}\n{lint}");
        // The build itself is read (its old flag too): a root of its own.
        repo.assert_lists("hack/build.sh:5");
    }
}

#[test]
fn a_flag_no_ytt_version_knows_is_an_assumption() {
    // R19-1's second half: before, the command was dropped and `config/` linted by layout;
    // now it is read, its findings naming the flag.
    let files = [
        ("build.sh", "#!/bin/bash\nytt -f config --colour never -v env=prod\n"),
        (
            "config/cm.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: #@ data.values.env + data.values.nothing\n",
        ),
        ("config/values.yml", "#@data/values\n---\nenv: dev\n"),
    ];
    let repo = Repo::of(&files);
    repo.assert_lists("build.sh:2");
    let lint = repo.lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert!(str_of(failed[0], "message").contains("nothing"), "{lint}");
    for d in failed {
        assert!(assumption_kinds(d).contains(&"unknown-flag"), "{lint}");
        assert!(assumption_text(d).contains("`--colour never`"), "{lint}");
        assert_ne!(str_of(d, "severity"), "error", "{lint}");
    }
}

#[test]
fn a_here_document_given_as_a_process_substitution_is_read_as_data() {
    // N19-1: ytt names it /dev/fd/63 and reads it as data; the overlay never applies.
    let script = "#!/bin/bash\nytt -f config/ -f <(cat <<EOF\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels: {a: b}\nEOF\n)\nytt -f config/ -f labels.yml=<(cat <<EOF\n---\na: 1\nEOF\n)\n";
    let files = [
        ("render.sh", script),
        (
            "config/cm.yml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  a: b\n",
        ),
    ];
    let lint = Repo::of(&files).lint();
    let read = lint.of("input-read-as-data");
    assert_eq!(read.len(), 1, "{lint}");
    assert_eq!(str_of(read[0], "file"), "render.sh");
    assert_eq!(read[0]["line"], 2, "{lint}");
    assert_eq!(str_of(read[0], "severity"), "warning");
    assert!(
        str_of(read[0], "message").contains("the here-document"),
        "{lint}"
    );
}
