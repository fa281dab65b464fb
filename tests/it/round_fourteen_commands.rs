//! Round thirteen's left-over command constructs (issue 39, the fourteenth session;
//! docs/precision.md "Round thirteen's left-over constructs: commands"), each as a general
//! rule on a minimal repository written for the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, lint_json, of, str_of};
use crate::util::TempDir;

/// The findings of `rule` in `file`.
fn in_file<'a>(report: &'a Value, rule: &str, file: &str) -> Vec<&'a Value> {
    of(report, rule)
        .into_iter()
        .filter(|d| str_of(d, "file") == file)
        .collect()
}

/// A template of a cluster's settings, and the plain values the script gives it.
const CLUSTER: &str = "#@ load(\"@ytt:data\", \"data\")\n---\ncluster:\n  name: #@ data.values.clusterName\n";
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
    let dir = TempDir::with_files(&files);
    let (_, report) = lint_json(&dir, &[]);
    let missing = of(&report, "input-missing");
    assert_eq!(missing.len(), 1, "{report:#}");
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
    let dir = TempDir::with_files(&strict);
    let (code, report) = lint_json(&dir, &[]);
    let missing = in_file(&report, "input-missing", "deploy/cluster/prepare.sh");
    assert_eq!(missing.len(), 1, "{report:#}");
    assert_eq!(missing[0]["severity"], "error", "{:#}", missing[0]);
    assert_eq!(code, 1, "{report:#}");

    // The same script at the top of the repository: it runs from the top.
    let top = [
        ("prepare.sh", PREPARE),
        ("cluster-template.yaml", CLUSTER),
        ("values.yaml", VALUES),
    ];
    let dir = TempDir::with_files(&top);
    let (_, report) = lint_json(&dir, &[]);
    let missing = in_file(&report, "input-missing", "prepare.sh");
    assert_eq!(missing.len(), 1, "{report:#}");
    assert_eq!(missing[0]["line"], 6, "{:#}", missing[0]);

    // A script whose only command is the one with the missing input: nothing shows where
    // it runs, and it is not reported.
    let alone = "#!/usr/bin/env bash\nytt -f db-values.yaml --data-values-file values.yaml > out/db.yaml\n";
    let dir = TempDir::with_files(&[
        ("deploy/db/render.sh", alone),
        ("deploy/db/values.yaml", VALUES),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(of(&report, "input-missing").is_empty(), "{report:#}");

    // Its other command reads its inputs from the repository's top as well as from its own
    // directory: nothing shows which, and it is not reported.
    let both = "#!/usr/bin/env bash\nytt -f cluster-template.yaml --data-values-file values.yaml > out/cluster.yaml\nytt -f db-values.yaml --data-values-file values.yaml > out/db.yaml\n";
    let dir = TempDir::with_files(&[
        ("deploy/db/render.sh", both),
        ("deploy/db/cluster-template.yaml", CLUSTER),
        ("deploy/db/values.yaml", VALUES),
        ("cluster-template.yaml", CLUSTER),
        ("values.yaml", VALUES),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(of(&report, "input-missing").is_empty(), "{report:#}");

    // The file is made by an earlier step of the script: not missing.
    let made = PREPARE.replace(
        "ytt -f db-values.yaml",
        "yq e '.db' values.yaml > db-values.yaml\nytt -f db-values.yaml",
    );
    let dir = TempDir::with_files(&[
        ("deploy/cluster/prepare.sh", made.as_str()),
        ("deploy/cluster/cluster-template.yaml", CLUSTER),
        ("deploy/cluster/values.yaml", VALUES),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(of(&report, "input-missing").is_empty(), "{report:#}");
}
