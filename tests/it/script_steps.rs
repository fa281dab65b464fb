//! How a script's steps around its `ytt` command change what ytt reads (round eight of first
//! contact, docs/precision.md): an input the script rewrites before the command, a command it
//! prints for its user to run, a script another runs from its own working directory, a file
//! it renames or copies before ytt reads it. Each on a minimal repository written here.

use crate::util::json::assumption_kinds;
use crate::util::repo::{Lint, Repo};
use serde_json::Value;

const VALUES: &str = "#@data/values\n---\nname: shop\nport: 8080\n";
const APP: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\ndata:\n  port: #@ data.values.port\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: shop\nspec:\n  clusterIp: None\n";

/// A repository whose `run.sh` is `steps` (after its shebang).
fn repo(steps: &str) -> Repo {
    Repo::of(&[
        ("config/values.yml", VALUES),
        ("config/app.yml", APP),
        ("run.sh", &format!("#!/bin/bash\n{steps}")),
    ])
}

/// The `data.port` finding (it rests on the values) and the `clusterIp` one (the text).
fn port_and_field(lint: &Lint) -> (Value, Value) {
    let schema = lint.of("k8s-schema");
    let port = schema
        .iter()
        .find(|d| d["message"].as_str().unwrap_or("").contains("data.port"))
        .unwrap_or_else(|| panic!("no data.port finding: {lint}"));
    let field = schema
        .iter()
        .find(|d| d["message"].as_str().unwrap_or("").contains("clusterIp"))
        .unwrap_or_else(|| panic!("no clusterIp finding: {lint}"));
    ((*port).clone(), (*field).clone())
}

#[test]
fn an_input_rewritten_before_the_command_makes_its_input_findings_warnings() {
    for (steps, line, how) in [
        (
            "sed -i \"s/^port: .*/port: \\\"$PORT\\\"/\" config/values.yml\nytt -f config\n",
            2,
            "`sed -i` edits it in place at run.sh:2",
        ),
        (
            "yq eval -i '.port = \"'\"$PORT\"'\"' ./config/values.yml\nytt -f config\n",
            2,
            "`yq -i` edits it in place at run.sh:2",
        ),
        (
            "cd config\nyq -i \".port = \\\"$PORT\\\"\" values.yml\nytt -f .\n",
            3,
            "`yq -i` edits it in place at run.sh:3",
        ),
        (
            "cat > config/values.yml <<EOF\n#@data/values\n---\nname: shop\nport: \"$PORT\"\nEOF\nytt -f config\n",
            2,
            "`cat` writes it at run.sh:2",
        ),
        (
            "printf 'region: %s\\n' \"$REGION\" | tee -a config/values.yml\nytt -f config\n",
            2,
            "`tee` writes it at run.sh:2",
        ),
        (
            "echo \"region: $REGION\" >> config/values.yml\nytt -f config\n",
            2,
            "`echo` writes it at run.sh:2",
        ),
    ] {
        let dir = repo(steps);
        let lint = dir.lint();
        let (port, field) = port_and_field(&lint);
        assert_eq!(port["severity"], "warning", "{steps}: {port:#}");
        assert_eq!(assumption_kinds(&port), ["changed-at-run-time"], "{steps}: {port:#}");
        let said = port["certainty"]["assumptions"][0]["message"]
            .as_str()
            .unwrap_or("");
        assert!(
            said.starts_with("config/values.yml is changed at run time: ")
                && said.contains(how)
                && said.ends_with("the committed content was linted"),
            "{steps}: {said} (line {line})"
        );
        // A field the template writes literally does not depend on the values.
        assert_eq!(field["severity"], "error", "{steps}: {field:#}");
        assert!(assumption_kinds(&field).is_empty(), "{steps}: {field:#}");
    }
}

#[test]
fn an_edit_after_the_command_or_of_another_file_leaves_the_error() {
    for steps in [
        // Bumps the value for the next run, after this one rendered.
        "ytt -f config > out.yml\nyq -i '.port = \"1\"' config/values.yml\n",
        // Edits a file the command does not read.
        "sed -i 's/a/b/' README.md\nytt -f config\n",
        // Reads the values without writing them.
        "PORT=$(yq eval '.port' config/values.yml)\nytt -f config\n",
    ] {
        let dir = repo(steps);
        dir.write("README.md", "a\n");
        let lint = dir.lint();
        assert_eq!(lint.code, 1, "{steps}: {lint}");
        let (port, _) = port_and_field(&lint);
        assert_eq!(port["severity"], "error", "{steps}: {port:#}");
        assert!(assumption_kinds(&port).is_empty(), "{steps}: {port:#}");
    }
}

/// A repository whose `setup.sh` prints `printed` for its user.
fn printing(printed: &str) -> Repo {
    Repo::of(&[
        (
            "manifests/values.yml",
            "#@data/values\n---\napp: shop\nhostname: shop.example.com\n",
        ),
        (
            "manifests/ingress.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: #@ data.values.app\nspec:\n  rules:\n  - host: #@ data.values.ingress.host\n",
        ),
        (
            "setup.sh",
            &format!("#!/bin/bash\nkubectl create namespace shop\necho \"next, run:\"\n{printed}\n"),
        ),
    ])
}

#[test]
fn a_command_a_script_prints_for_its_user_is_judged_at_the_print() {
    for printed in [
        "echo \"ytt -f manifests/values.yml -f manifests/ingress.yml | kubectl apply -f -\"",
        "echo -e \"  \\$ ytt -f manifests/values.yml -f manifests/ingress.yml\\n\"",
        "printf 'ytt -f manifests/values.yml -f manifests/ingress.yml | kubectl apply -f -\\n'",
    ] {
        let dir = printing(printed);
        let lint = dir.lint();
        assert_eq!(lint.code, 1, "{printed}: {lint}");
        let failed = lint.of("template-error");
        assert_eq!(failed.len(), 1, "{printed}: {lint}");
        let d = failed[0];
        assert_eq!(d["severity"], "error", "{printed}: {d:#}");
        assert!(
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("struct has no .ingress field or method"),
            "{d:#}"
        );
        assert_eq!(d["scenario"], "setup.sh:4", "{printed}: {d:#}");
    }
}

#[test]
fn a_printed_sentence_that_names_ytt_is_no_command() {
    let dir = printing("echo \"rendered with ytt -f manifests later\"");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
}

#[test]
fn a_renamed_or_copied_input_keeps_the_name_its_file_mark_gives() {
    for step in ["mv", "cp"] {
        let lint = Repo::of(&[
            ("upstream/settings.yaml", "replicas: 1\nlogLevel: info\n"),
            (
                "overlays/org.yaml",
                "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nreplicas: 3\nloglevel: debug\n",
            ),
            (
                "render.sh",
                &format!("#!/bin/sh\nset -e\n{step} upstream/settings.yaml upstream/settings.yaml.orig\nytt -f upstream/settings.yaml.orig --file-mark \"settings.yaml.orig:type=yaml-plain\" -f overlays/org.yaml > upstream/settings.yaml\n"),
            ),
            // The page runs the script: its steps are the script's, not the reader's copy.
            ("README.md", "```sh\n./render.sh\n```\n"),
        ]).lint();
        assert_eq!(lint.code, 1, "{step}: {lint}");
        let all = lint.diagnostics();
        assert!(
            all.iter()
                .all(|d| !d["message"].as_str().unwrap_or("").contains("file mark")),
            "{step}: {lint}"
        );
        // The overlay meets the source's content (`logLevel`, not `loglevel`), as in ytt.
        let overlay = lint.of("overlay-error");
        assert_eq!(overlay.len(), 1, "{step}: {lint}");
        assert_eq!(overlay[0]["severity"], "error", "{step}: {:#}", overlay[0]);
        assert!(
            assumption_kinds(overlay[0]).is_empty(),
            "{step}: {:#}",
            overlay[0]
        );
    }
}

/// A repository whose `hack/gen/render.sh` reads `./config/cm.yaml` (written for `hack/gen`),
/// and whose top-level `ci.sh` runs it with `ci`.
fn nested(ci: &str) -> Repo {
    Repo::of(&[
        (
            "hack/gen/config/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ \"settings-\" + data.values.env\n",
        ),
        (
            "hack/gen/render.sh",
            "#!/bin/bash\nytt -f ./config/cm.yaml -v env=\"$1\"\n",
        ),
        ("ci.sh", &format!("#!/bin/bash\n{ci}\n")),
    ])
}

#[test]
fn a_script_run_from_the_top_reads_its_paths_from_there() {
    let dir = nested("./hack/gen/render.sh staging");
    let lint = dir.lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    let d = missing[0];
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("ci.sh"), Some(2)),
        "{d:#}"
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("input config/cm.yaml of the ytt command does not exist"),
        "{d:#}"
    );
    // Run from its own directory, the same script reads its files.
    for ci in [
        "cd hack/gen && ./render.sh staging",
        "(cd hack/gen; ./render.sh staging)",
    ] {
        let dir = nested(ci);
        let lint = dir.lint();
        assert!(lint.of("input-missing").is_empty(), "{ci}: {lint}");
    }
}

/// A repository with a Concourse task whose script is `script`: the task's working directory
/// is a build directory holding its input `source` (this repository).
fn concourse(script: &str) -> Repo {
    let steps: String = script.lines().map(|l| format!("          {l}\n")).collect();
    Repo::of(&[
        (
            "packaging/package.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ \"shop-\" + data.values.version\n",
        ),
        (
            "ci/release.yml",
            &format!("jobs:\n- name: package\n  plan:\n  - get: source\n  - task: render\n    config:\n      platform: linux\n      inputs: [{{name: source}}]\n      run:\n        path: bash\n        args:\n        - -ec\n        - |\n{steps}"),
        ),
    ])
}

#[test]
fn a_concourse_task_s_copy_into_its_build_directory_is_followed() {
    let dir = concourse(
        "cp source/packaging/package.yml package.yml\ncd source\nytt -v version=1.2.3 -f ../package.yml > ../out.yml",
    );
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    let roots: Vec<&str> = lint.report["roots"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["path"].as_str())
        .collect();
    assert_eq!(roots, ["packaging/package.yml"], "{lint}");
    // Without the copy, the file above the input is another of the job's: not missing.
    let dir = concourse("cd source\nytt -v version=1.2.3 -f ../package.yml > ../out.yml");
    let lint = dir.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

/// An installer a README runs with an argument the linter cannot know (`[OPTIONS]`), which
/// logs each command before it runs it and builds its input directories from a table
/// (round nine: failk8s/tkg-dev-install): the logged `echo` is no instruction, and a directory
/// the script builds from its arguments (`$path/upstream`, `$path` left unknown) is no
/// missing input.
#[test]
fn a_logged_command_and_paths_built_from_arguments_are_not_missing_inputs() {
    let lint = Repo::of(&[
        (
            "install.sh",
            "#!/usr/bin/env bash\n\
             WORK_DIR=\"$( cd -P \"$( dirname \"$0\" )\" && pwd )\"\n\
             declare -A steps\n\
             steps[cert-manager.path]=\"k8s/cert-manager\"\n\
             file_opt=\"\"\n\
             function install_command {\n\
             \x20 local path=$1\n\
             \x20 echo \"ytt -f ${WORK_DIR}/k8s/values.yaml ${file_opt} -f ${WORK_DIR}/$path/upstream --ignore-unknown-comments | kapp deploy -a app -y -f -\"\n\
             \x20 ytt -f ${WORK_DIR}/k8s/values.yaml ${file_opt} -f ${WORK_DIR}/$path/upstream --ignore-unknown-comments | kapp deploy -a app -y -f -\n\
             }\n\
             install_command \"${steps[$1.path]:-}\"\n",
        ),
        (
            "README.md",
            "# Install\n\n```\n./install.sh cert-manager [OPTIONS]\n```\n",
        ),
        ("k8s/values.yaml", "#@data/values\n---\nnamespace: cm\n"),
        (
            "k8s/cert-manager/upstream/ns.yaml",
            "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.namespace\n",
        ),
    ]).lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    assert!(
        !lint
            .diagnostics()
            .iter()
            .any(|d| d["severity"] == "error" || d["severity"] == "warning"),
        "{lint}"
    );
}

/// A script of 30 000 printed `ytt` commands (just under the 1 MiB a script may have) is
/// judged once per file for whether it logs its commands, not once per `echo`: the run ends
/// with the 1 000 commands the walk of a script keeps (the check per `echo` took minutes).
#[test]
fn a_script_of_many_printed_commands_is_read_once() {
    let mut script = String::from("#!/bin/bash\n");
    for i in 0..30_000 {
        script.push_str(&format!("echo \"ytt -f config/x{i}.yml\"\n"));
    }
    script.push_str("ytt -f config\n");
    let lint = Repo::of(&[
        ("config/values.yml", VALUES),
        ("config/app.yml", APP),
        ("run.sh", &script),
    ])
    .lint();
    assert!(lint.code == 0 || lint.code == 1, "{lint}");
    assert_eq!(lint.of("input-missing").len(), 1_000);
}
