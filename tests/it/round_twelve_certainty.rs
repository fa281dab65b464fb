//! Constructs of round twelve's first contact (issue 39, docs/precision.md "Round twelve's
//! constructs") that the linter misread, each as a general rule on a minimal repository
//! written for the test.

use serde_json::Value;

use crate::util::json::{diagnostics, lint_json};
use crate::util::TempDir;

/// The findings whose message holds `text`.
fn with<'a>(report: &'a Value, text: &str) -> Vec<&'a Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains(text))
        .collect()
}

/// The messages of the assumptions a finding names.
fn assumed(d: &Value) -> Vec<String> {
    d["certainty"]["assumptions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["message"].as_str().map(str::to_string))
        .collect()
}

/// A template that reads a value no committed file sets.
const APP: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\n\
data:\n  image: #@ \"{}/app:1\".format(data.values.common.registry)\n";

/// The one finding about `.common`, which the committed directory lacks.
fn common_finding(report: &Value) -> Value {
    let found = with(report, "no .common field");
    assert_eq!(found.len(), 1, "{report:#}");
    found[0].clone()
}

#[test]
fn a_script_that_writes_values_into_the_rendered_directory_makes_its_findings_warnings() {
    // F12A-1: the committed k8s/ lacks the values file the script writes before `ytt -f k8s`.
    let script = "#!/bin/bash\ncat > k8s/values.yml <<VALUES\n#@data/values\n---\n\
common:\n  registry: ${REGISTRY}\nVALUES\nytt -f k8s | kapp deploy -a app -f - -y\n";
    let dir = TempDir::with_files(&[("k8s/app.yml", APP), ("bin/deploy.sh", script)]);
    let (code, report) = lint_json(&dir, &[]);
    let d = common_finding(&report);
    assert_eq!(d["severity"], "warning", "{d:#}");
    let said = assumed(&d).join("\n");
    assert!(
        said.contains("k8s/values.yml is added to the input directory k8s at run time: `cat` writes it from a here-document at bin/deploy.sh:2"),
        "{said}"
    );
    assert_eq!(code, 0, "{report:#}");

    // Written after the command, or into another directory: the directory is as committed,
    // and the failure is the script's certain error.
    for script in [
        "#!/bin/bash\nytt -f k8s > out.yml\necho 'common: {registry: x}' > k8s/values.yml\n",
        "#!/bin/bash\necho 'common: {registry: x}' > other/values.yml\nytt -f k8s > out.yml\n",
    ] {
        let dir = TempDir::with_files(&[
            ("k8s/app.yml", APP),
            ("other/keep.txt", "x\n"),
            ("bin/deploy.sh", script),
        ]);
        let (code, report) = lint_json(&dir, &[]);
        let d = common_finding(&report);
        assert_eq!(d["severity"], "error", "{script}: {d:#}");
        assert_eq!(code, 1, "{script}");
    }
}

#[test]
fn a_concourse_task_that_writes_values_into_its_input_makes_its_findings_warnings() {
    // F12A-1 as seen: the task's script writes into the checkout input, then renders it.
    let pipeline = "resources:\n- name: infra\n  type: git\n  source:\n    uri: ((repo))\n\
jobs:\n- name: deploy\n  plan:\n  - get: infra\n  - task: deploy\n    config:\n      \
platform: linux\n      inputs:\n      - name: infra\n      run:\n        path: /bin/bash\n        \
args:\n        - -c\n        - |\n          cat > infra/k8s/values.yml <<VALUES\n          \
#@data/values\n          ---\n          common:\n            registry: ((registry))\n          \
VALUES\n          ytt -f infra/k8s | kapp deploy -a app -f - -y\n";
    let dir = TempDir::with_files(&[("k8s/app.yml", APP), ("ci/pipeline.yml", pipeline)]);
    let (_, report) = lint_json(&dir, &[]);
    let d = common_finding(&report);
    assert_eq!(d["severity"], "warning", "{d:#}");
    let said = assumed(&d).join("\n");
    assert!(
        said.contains("k8s/values.yml is added to the input directory k8s at run time")
            && said.contains("ci/pipeline.yml:20"),
        "{said}"
    );
}

#[test]
fn a_makefile_target_that_fills_the_values_directory_makes_its_findings_warnings() {
    // FE12-B1: `vals/` is committed empty; another target fills it with a script's output.
    let makefile = "gen:\n\t./gen.sh -d example.org > vals/values.yml\n\n\
render:\n\tytt -f config -f vals > out.yml\n";
    let config = "#@ load(\"@ytt:data\", \"data\")\n---\nhost: #@ \"api.\" + data.values.domain\n";
    let values = "#@data/values\n---\ndomain:\n";
    let files = [
        ("Makefile", makefile),
        (
            "gen.sh",
            "#!/bin/sh\nprintf '#@data/values\\n---\\ndomain: x\\n'\n",
        ),
        ("config/t.yml", config),
        ("config/values.yml", values),
        ("vals/.gitkeep", ""),
    ];
    let dir = TempDir::with_files(&files);
    let (code, report) = lint_json(&dir, &[]);
    let d = &with(&report, "unknown binary op")[0];
    assert_eq!(d["severity"], "warning", "{d:#}");
    let said = assumed(d).join("\n");
    assert!(
        said.contains("vals/values.yml is added to the input directory vals at run time: `gen.sh` writes it at Makefile:2"),
        "{said}"
    );
    assert_eq!(code, 0, "{report:#}");

    // A target that writes elsewhere leaves the command certain.
    let makefile = makefile.replace("> vals/values.yml", "> gen/values.yml");
    let mut files = files.to_vec();
    files[0] = ("Makefile", makefile.as_str());
    let dir = TempDir::with_files(&files);
    let (code, report) = lint_json(&dir, &[]);
    assert_eq!(with(&report, "unknown binary op")[0]["severity"], "error");
    assert_eq!(code, 1);
}
