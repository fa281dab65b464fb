//! Constructs of round twelve's first contact (issue 39, docs/precision.md "Round twelve's
//! constructs") that the linter misread, each as a general rule on a minimal repository
//! written for the test.

use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// The findings whose message holds `text`.
fn with<'a>(lint: &'a Lint, text: &str) -> Vec<&'a Value> {
    lint.diagnostics()
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
fn common_finding(lint: &Lint) -> Value {
    let found = with(lint, "no .common field");
    assert_eq!(found.len(), 1, "{lint}");
    found[0].clone()
}

#[test]
fn a_script_that_writes_values_into_the_rendered_directory_is_linted_with_them() {
    // F12A-1: the committed k8s/ lacks the values file the script writes before `ytt -f k8s`.
    // The here-document's text is known, so the command is linted with it: `common.registry`
    // is set (its value given at run time), and nothing fails.
    let script = "#!/bin/bash\ncat > k8s/values.yml <<VALUES\n#@data/values\n---\n\
common:\n  registry: ${REGISTRY}\nVALUES\nytt -f k8s | kapp deploy -a app -f - -y\n";
    let lint = Repo::of(&[("k8s/app.yml", APP), ("bin/deploy.sh", script)]).lint();
    assert!(with(&lint, "no .common field").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");

    // Text that does not set what the template reads fails in ytt whatever `$REGISTRY` is:
    // the script's certain error.
    let script = script.replace("common:\n  registry", "other:\n  registry");
    let lint = Repo::of(&[("k8s/app.yml", APP), ("bin/deploy.sh", &script)]).lint();
    let d = common_finding(&lint);
    assert_eq!(d["severity"], "error", "{d:#}");
    assert_eq!(lint.code, 1, "{lint}");

    // Written after the command, into another directory, or no data values (another tool's
    // output beside the templates): the values are as committed, and the failure is the
    // script's certain error.
    for script in [
        "#!/bin/bash\nytt -f k8s > out.yml\necho 'common: {registry: x}' > k8s/values.yml\n",
        "#!/bin/bash\necho 'common: {registry: x}' > other/values.yml\nytt -f k8s > out.yml\n",
        "#!/bin/bash\nhelm template c ./chart > k8s/chart-output/c.yaml\nytt -f k8s > out.yml\n",
    ] {
        let lint = Repo::of(&[
            ("k8s/app.yml", APP),
            ("other/keep.txt", "x\n"),
            ("bin/deploy.sh", script),
        ])
        .lint();
        let d = common_finding(&lint);
        assert_eq!(d["severity"], "error", "{script}: {d:#}");
        assert_eq!(lint.code, 1, "{script}");
    }
}

#[test]
fn a_concourse_task_that_writes_values_into_its_input_is_linted_with_them() {
    // F12A-1 as seen: the task's script writes into the checkout input, then renders it.
    let pipeline = "resources:\n- name: infra\n  type: git\n  source:\n    uri: ((repo))\n\
jobs:\n- name: deploy\n  plan:\n  - get: infra\n  - task: deploy\n    config:\n      \
platform: linux\n      inputs:\n      - name: infra\n      run:\n        path: /bin/bash\n        \
args:\n        - -c\n        - |\n          cat > infra/k8s/values.yml <<VALUES\n          \
#@data/values\n          ---\n          KEY:\n            registry: ((registry))\n          \
VALUES\n          ytt -f infra/k8s | kapp deploy -a app -f - -y\n";
    let sets = pipeline.replace("KEY", "common");
    let lint = Repo::of(&[("k8s/app.yml", APP), ("ci/pipeline.yml", &sets)]).lint();
    assert!(with(&lint, "no .common field").is_empty(), "{lint}");

    // A key the task's text lacks fails in ytt too.
    let misses = pipeline.replace("KEY", "other");
    let lint = Repo::of(&[("k8s/app.yml", APP), ("ci/pipeline.yml", &misses)]).lint();
    let d = common_finding(&lint);
    assert_eq!(d["severity"], "error", "{d:#}");
}

#[test]
fn a_makefile_target_that_fills_the_values_directory_leaves_its_values_to_run_time() {
    // FE12-B1: `vals/` is committed empty; another target fills it with a script's output.
    // What the script prints is not the linter's to know (N31-2: the generated values set
    // `domain`), so the failure that a data value drives waits for that input, as for
    // `--data-values-file <(./gen.sh)`: a `needs-input` note naming the writer, not a warning.
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
    let lint = Repo::of(&files).lint();
    let found = with(&lint, "unknown binary op");
    assert!(found.iter().all(|d| d["severity"] == "info"), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
    let said = lint.report["roots"][0]["provenance"]["assumptions"].to_string();
    assert!(
        said.contains("vals/values.yml is added to the input directory vals at run time: `gen.sh` writes it at Makefile:2")
            && said.contains("known only at run time"),
        "{said}"
    );
    assert_eq!(lint.code, 0, "{lint}");

    // What no data value could change is still said: a template ytt cannot parse stays
    // the command's error.
    let broken = "---\nsize: [1, 2\n";
    let mut with_broken = files.to_vec();
    with_broken.push(("config/a.yml", broken));
    let lint = Repo::of(&with_broken).lint();
    let found: Vec<_> = lint
        .errors()
        .into_iter()
        .filter(|d| d["file"] == "config/a.yml")
        .collect();
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(lint.code, 1, "{lint}");

    // A target that writes elsewhere leaves the command certain.
    let makefile = makefile.replace("> vals/values.yml", "> gen/values.yml");
    let mut files = files.to_vec();
    files[0] = ("Makefile", makefile.as_str());
    let lint = Repo::of(&files).lint();
    assert_eq!(with(&lint, "unknown binary op")[0]["severity"], "error");
    assert_eq!(lint.code, 1);
}

#[test]
fn a_page_s_copy_of_a_sample_in_a_run_time_directory_is_linted_with_the_sample() {
    // LR12-B1: the page copies the sample to `${TMP_DIR}/values.yml` and renders that copy;
    // the sample still carries a key the templates renamed, which ytt rejects whatever the
    // reader fills in: a warning that names the sample, no longer lost.
    let readme = "# Install\n\n1. Copy the sample values:\n\n   ```console\n   \
cp sample-values.yml ${TMP_DIR}/values.yml\n   ```\n\n1. Render:\n\n   ```console\n   \
ytt -f config -f ${TMP_DIR}/values.yml > ${TMP_DIR}/out.yml\n   ```\n";
    let config = "#@ load(\"@ytt:data\", \"data\")\n---\nkey: #@ data.values.store.key\n";
    let files = [
        ("README.md", readme),
        ("config/t.yml", config),
        (
            "config/values.yml",
            "#@data/values\n---\nstore:\n  key: \"\"\n",
        ),
        (
            "sample-values.yml",
            "#@data/values\n---\nold_store:\n  key: secret\n",
        ),
    ];
    let lint = Repo::of(&files).lint();
    let found = with(&lint, "key 'old_store'");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    let said = assumed(found[0]).join("\n");
    assert!(
        said.contains("is the user's copy of sample-values.yml (README.md:6"),
        "{said}"
    );

    // A sample with the templates' keys renders: nothing to say about it.
    let mut files = files.to_vec();
    files[3].1 = "#@data/values\n---\nstore:\n  key: secret\n";
    let lint = Repo::of(&files).lint();
    assert!(with(&lint, "Expected number").is_empty(), "{lint}");
    assert_eq!(lint.code, 0);
}

#[test]
fn an_angle_bracket_value_of_a_data_value_flag_does_not_swallow_the_next_flag() {
    // FW12-B3: read as shell, `<INSERT_CLIENT_ID>` would redirect, and the `\` continuation
    // would make the next flag the redirection's target; the page means "your id here".
    let readme =
        "# Render\n\n```sh\nytt -f config/ \\\n     -v client_id=<INSERT_CLIENT_ID> \\\n     \
--data-value-yaml 'ips=[10.0.0.1]' | kubectl apply -f -\n```\n";
    let template = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n\
#@ data.values.ips or assert.fail(\"ips should be provided\")\n---\nkind: ConfigMap\n\
data:\n  ip: #@ data.values.ips[0]\n  id: #@ data.values.client_id\n";
    let values = "#@data/values\n---\nips: []\nclient_id: \"\"\n";
    let lint = Repo::of(&[
        ("README.md", readme),
        ("config/cm.yml", template),
        ("config/values.yml", values),
    ])
    .lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
    assert_eq!(lint.code, 0);

    // The key the page gives is still given: one the schema does not declare is the
    // command's certain error, whatever the reader types (round nine's true error).
    let readme = readme.replace("client_id=", "clientid=");
    let schema = "#@data/values-schema\n---\nips: [\"\"]\nclient_id: \"\"\n";
    let lint = Repo::of(&[
        ("README.md", readme.as_str()),
        ("config/cm.yml", template),
        ("config/schema.yml", schema),
    ])
    .lint();
    let found = with(&lint, "clientid");
    assert!(!found.is_empty(), "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(lint.code, 1);
}

#[test]
fn a_vendir_configuration_under_another_name_vendors_its_directories() {
    // S12A-1: `vendir sync -f vendir-manifests.yml` fills upstream/ with another project's
    // tree, which nothing renders: left out, as under `vendir.yml`.
    let config = "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n\
- path: upstream\n  contents:\n  - path: .\n    git: {url: https://example.com/up, ref: v1}\n";
    let images = "#@ load(\"@ytt:data\", \"data\")\n---\nimages: []\n";
    let files = [
        ("vendor/vendir-manifests.yml", config),
        (
            "vendor/sync.sh",
            "#!/bin/bash\nvendir sync -f vendir-manifests.yml\n",
        ),
        ("vendor/upstream/config/images.yml", images),
    ];
    let lint = Repo::of(&files).lint();
    assert!(with(&lint, "loaded but never used").is_empty(), "{lint}");
    assert_eq!(lint.code, 0);

    // The same file with another kind of content is no vendir configuration.
    let mut files = files.to_vec();
    files[0].1 = "kind: ConfigMap\n";
    let lint = Repo::of(&files).lint();
    assert_eq!(with(&lint, "loaded but never used").len(), 1, "{lint}");
}
