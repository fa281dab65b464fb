//! Round thirteen's left-over command constructs (issue 39, the fourteenth session;
//! docs/precision.md "Round thirteen's left-over constructs: commands"), each as a general
//! rule on a minimal repository written for the test.

use crate::util::json::{assumption_kinds, str_of};
use crate::util::repo::Repo;

/// A template of a cluster's settings, and the plain values the script gives it.
const CLUSTER: &str =
    "#@ load(\"@ytt:data\", \"data\")\n---\ncluster:\n  name: #@ data.values.clusterName\n";
const VALUES: &str = "clusterName: demo\nregistry: registry.example.com\n";

/// A script that renders the cluster's settings from its own directory, then a database's
/// values from a file the directory does not hold, then values a here-document wrote.
const PREPARE: &str = "#!/usr/bin/env bash\nNAME=`yq e '.clusterName' values.yaml`\nmkdir -p out\nytt -f cluster-template.yaml --data-values-file values.yaml > out/cluster.yaml\n\nytt -f db-values.yaml --data-values-file values.yaml > out/db-values.yaml\n\ncat > extra-values.yaml <<EOF\n#@data/values\n---\nclusterName: $NAME-extra\nEOF\nytt -f cluster-template.yaml -f extra-values.yaml > out/extra.yaml\n";

#[test]
fn a_script_whose_other_commands_run_from_its_own_directory_has_a_missing_input() {
    // LR13A-3: the script's other command reads every input from the script's own
    // directory, and from nowhere else: the script runs from there, and its command whose
    // input is not there fails ("no such file or directory").
    let files = [
        ("deploy/cluster/prepare.sh", PREPARE),
        ("deploy/cluster/cluster-template.yaml", CLUSTER),
        ("deploy/cluster/values.yaml", VALUES),
    ];
    let lint = Repo::of(&files).lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    let m = missing[0];
    assert_eq!(str_of(m, "file"), "deploy/cluster/prepare.sh", "{m:#}");
    assert_eq!(m["line"], 6, "{m:#}");
    assert!(
        str_of(m, "message").contains("deploy/cluster/db-values.yaml"),
        "{m:#}"
    );
    // The input the script writes before its last command is made: not missing.
    assert!(!str_of(m, "message").contains("extra-values"), "{m:#}");
    // Its command is known, and its directory is what its other command shows: with the
    // rule set to `error`, an error, assuming nothing.
    assert!(assumption_kinds(m).is_empty(), "{m:#}");
    let mut strict = files.to_vec();
    strict.push((".yttlint.yaml", "rules:\n  input-missing: error\n"));
    let lint = Repo::of(&strict).lint();
    let missing = lint.in_file("input-missing", "deploy/cluster/prepare.sh");
    assert_eq!(missing.len(), 1, "{lint}");
    assert_eq!(missing[0]["severity"], "error", "{:#}", missing[0]);
    assert_eq!(lint.code, 1, "{lint}");

    // The same script at the top of the repository: it runs from the top.
    let top = [
        ("prepare.sh", PREPARE),
        ("cluster-template.yaml", CLUSTER),
        ("values.yaml", VALUES),
    ];
    let lint = Repo::of(&top).lint();
    let missing = lint.in_file("input-missing", "prepare.sh");
    assert_eq!(missing.len(), 1, "{lint}");
    assert_eq!(missing[0]["line"], 6, "{:#}", missing[0]);

    // A script whose only command is the one with the missing input: nothing shows where
    // it runs, and it is not reported.
    let alone =
        "#!/usr/bin/env bash\nytt -f db-values.yaml --data-values-file values.yaml > out/db.yaml\n";
    let lint = Repo::of(&[
        ("deploy/db/render.sh", alone),
        ("deploy/db/values.yaml", VALUES),
    ])
    .lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");

    // Its other command reads its inputs from the repository's top as well as from its own
    // directory: nothing shows which, and it is not reported.
    let both = "#!/usr/bin/env bash\nytt -f cluster-template.yaml --data-values-file values.yaml > out/cluster.yaml\nytt -f db-values.yaml --data-values-file values.yaml > out/db.yaml\n";
    let lint = Repo::of(&[
        ("deploy/db/render.sh", both),
        ("deploy/db/cluster-template.yaml", CLUSTER),
        ("deploy/db/values.yaml", VALUES),
        ("cluster-template.yaml", CLUSTER),
        ("values.yaml", VALUES),
    ])
    .lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");

    // The file is made by an earlier step of the script: not missing.
    let made = PREPARE.replace(
        "ytt -f db-values.yaml",
        "yq e '.db' values.yaml > db-values.yaml\nytt -f db-values.yaml",
    );
    let lint = Repo::of(&[
        ("deploy/cluster/prepare.sh", made.as_str()),
        ("deploy/cluster/cluster-template.yaml", CLUSTER),
        ("deploy/cluster/values.yaml", VALUES),
    ])
    .lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

/// A TLS Secret whose certificate is placeholder text an install script replaces, and whose
/// key is text no step touches (and no base64).
const SECRET: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: #@ data.values.name\ndata:\n  tls.crt: REPLACE-ME-CRT\n  tls.key: not-base64!\ntype: kubernetes.io/tls\n";
const SECRET_VALUES: &str = "#@data/values\n---\nname: demo\n";
/// The script copies the template, replaces the placeholder in the copy, and renders the copy.
const INSTALL: &str = "#!/usr/bin/env bash\nset -e\nmkdir -p generated\ncp config/secret.yaml generated/secret.yaml\nsed -i -e \"s~REPLACE-ME-CRT~$(base64 -w0 < tls.crt)~g\" generated/secret.yaml\nytt -f values.yaml -f generated/secret.yaml | kubectl apply -f-\n";

#[test]
fn placeholder_text_a_script_rewrites_in_a_copy_is_no_finding_of_the_committed_text() {
    // R13A-1: ytt renders the copy after `sed` replaced the placeholder: a value check of
    // the placeholder in the committed file is a note that names the rewrite.
    let lint = Repo::of(&[
        ("install.sh", INSTALL),
        ("config/secret.yaml", SECRET),
        ("values.yaml", SECRET_VALUES),
    ])
    .lint();
    let found = lint.in_file("k8s-schema", "config/secret.yaml");
    assert_eq!(found.len(), 2, "{lint}");
    let crt = found.iter().find(|d| d["line"] == 8).expect("tls.crt");
    assert_eq!(crt["severity"], "info", "{crt:#}");
    assert!(
        assumption_kinds(crt).contains(&"changed-at-run-time"),
        "{crt:#}"
    );
    let said = crate::util::json::assumption_text(crt);
    assert!(said.contains("install.sh:5"), "{said}");
    // The key's text is no placeholder, which the script leaves as it is: the field is
    // written literally, and ytt renders it so.
    let key = found.iter().find(|d| d["line"] == 9).expect("tls.key");
    assert_eq!(key["severity"], "error", "{key:#}");
    assert_eq!(lint.code, 1, "{lint}");

    // Without the `sed`, ytt renders the placeholder: the check is the script's certain error.
    let plain = INSTALL.replace(
        "sed -i -e \"s~REPLACE-ME-CRT~$(base64 -w0 < tls.crt)~g\" generated/secret.yaml\n",
        "",
    );
    let lint = Repo::of(&[
        ("install.sh", plain.as_str()),
        ("config/secret.yaml", SECRET),
        ("values.yaml", SECRET_VALUES),
    ])
    .lint();
    let found = lint.in_file("k8s-schema", "config/secret.yaml");
    assert_eq!(found.len(), 2, "{lint}");
    assert!(found.iter().all(|d| d["severity"] == "error"), "{lint}");
    assert_eq!(lint.code, 1, "{lint}");

    // The `sed` edits another file than the copy: the committed text is what ytt renders.
    let other = INSTALL.replace("~g\" generated/secret.yaml", "~g\" generated/other.yaml");
    let lint = Repo::of(&[
        ("install.sh", other.as_str()),
        ("config/secret.yaml", SECRET),
        ("values.yaml", SECRET_VALUES),
    ])
    .lint();
    let found = lint.in_file("k8s-schema", "config/secret.yaml");
    assert!(found.iter().all(|d| d["severity"] == "error"), "{lint}");
}

/// A Jenkins pipeline whose `sh` step clones this repository (named by its `go.mod`), enters
/// the clone and renders a template there.
const JENKINSFILE: &str = "pipeline {\n    agent any\n    stages {\n        stage('Build') {\n            steps {\n                deleteDir()\n                sh \"\"\"\n                git clone https://github.com/example/demo-lab.git\n                cd demo-lab/deploy/app\n                ytt -f templates/ -v tag='$env.BUILD_TAG' --output-files release/\n                \"\"\"\n            }\n        }\n    }\n}\n";

#[test]
fn a_jenkinsfile_step_inside_a_clone_of_this_repository_renders_its_files() {
    // R12A-4's left-over: the clone is this repository, so the step's `-f templates/` is the
    // repository's `deploy/app/templates`, rendered as the pipeline renders it.
    let lint = Repo::of(&[
        ("go.mod", "module github.com/example/demo-lab\n\ngo 1.22\n"),
        ("deploy/app/Jenkinsfile", JENKINSFILE),
        ("deploy/app/templates/config.yaml", BROKEN),
    ])
    .lint();
    let found = lint.in_file("template-error", "deploy/app/templates/config.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        found[0]["scenario"], "deploy/app/Jenkinsfile:10",
        "{:#}",
        found[0]
    );
    assert_eq!(found[0]["certainty"]["source"], "ci", "{:#}", found[0]);
    // A warning: `tag` is the build's, known only at run time.
    assert_eq!(
        assumption_kinds(found[0]),
        ["placeholder"],
        "{:#}",
        found[0]
    );
    assert_eq!(
        found[0]["certainty"]["origin"], "deploy/app/Jenkinsfile:10",
        "{:#}",
        found[0]
    );

    // A clone of another repository: its files are not this one's, and the step is skipped.
    let other = JENKINSFILE.replace("example/demo-lab.git", "example/other.git");
    let other = other.replace("cd demo-lab/", "cd other/");
    let lint = Repo::of(&[
        ("go.mod", "module github.com/example/demo-lab\n\ngo 1.22\n"),
        ("deploy/app/Jenkinsfile", other.as_str()),
        ("deploy/app/templates/config.yaml", BROKEN),
    ])
    .lint();
    let origins: Vec<String> = lint.report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["provenance"]["origin"].as_str().map(str::to_string))
        .collect();
    assert!(!origins.iter().any(|o| o.contains("Jenkinsfile")), "{lint}");
}

/// A template ytt rejects whatever the values: `1 + "a"`.
const BROKEN: &str = "#@ def count():\n#@   return 1 + \"a\"\n#@ end\n---\nkind: ConfigMap\ndata:\n  count: #@ str(count())\n";
