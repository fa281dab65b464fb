//! A Concourse task's git input taken to be this repository: certain when the pipeline checks
//! out nothing else, a guess (the `caller-checkout` assumption) when its `((uri))` is one of
//! several (round twelve's steeltoe-governance-lab: `config-repo` of the application's
//! repository beside `infrastructure-repo` of this one, both rendering `k8s/`).

use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// A template that reads `common.domain`.
const APP: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\n\
data:\n  host: #@ \"api.\" + data.values.common.domain\n";

/// A pipeline whose task writes values without `common` into its input's `k8s/` and renders
/// it; `extra` adds a resource, which another job gets as `other`.
fn pipeline(extra: &str) -> String {
    let other = extra
        .strip_prefix("- name: ")
        .and_then(|r| r.split('\n').next())
        .unwrap_or("config-repo");
    format!(
        "resources:\n- name: config-repo\n  type: git\n  source:\n    uri: ((app.codeRepo))\n\
{extra}jobs:\n- name: deploy\n  plan:\n  - get: config-repo\n  - task: deploy\n    config:\n      \
platform: linux\n      inputs:\n      - name: config-repo\n      run:\n        path: /bin/bash\n        \
args:\n        - -c\n        - |\n          cat > config-repo/k8s/values.yml <<VALUES\n          \
#@data/values\n          ---\n          app:\n            image: ${{IMAGE}}\n          \
VALUES\n          ytt -f config-repo/k8s | kapp deploy -a app -f - -y\n\
- name: other\n  plan:\n  - get: {other}\n"
    )
}

/// The one finding about `.common`.
fn common(lint: &Lint) -> Value {
    let found: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("no .common field")
        })
        .collect();
    assert_eq!(found.len(), 1, "{lint}");
    found[0].clone()
}

#[test]
fn the_one_repository_a_pipeline_checks_out_is_this_one() {
    let lint = Repo::of(&[("k8s/app.yml", APP), ("ci/pipeline.yml", &pipeline(""))]).lint();
    let d = common(&lint);
    assert_eq!(d["severity"], "error", "{d:#}");
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn a_task_s_input_among_several_repositories_is_a_guess() {
    let infra = "- name: infra-repo\n  type: git\n  source:\n    uri: ((app.infraRepo))\n";
    let lint = Repo::of(&[("k8s/app.yml", APP), ("ci/pipeline.yml", &pipeline(infra))]).lint();
    let d = common(&lint);
    assert_eq!(d["severity"], "warning", "{d:#}");
    let said = d["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("caller-checkout")
            && said.contains("the task's input config-repo is a checkout of `((app.codeRepo))`")
            && said.contains("`((app.infraRepo))`"),
        "{said}"
    );
    assert_eq!(lint.code, 0, "{lint}");

    // Another resource of the same uri (the same repository's other paths) is no other
    // repository.
    let same = "- name: source-code\n  type: git\n  source:\n    uri: ((app.codeRepo))\n";
    let lint = Repo::of(&[("k8s/app.yml", APP), ("ci/pipeline.yml", &pipeline(same))]).lint();
    assert_eq!(common(&lint)["severity"], "error", "{lint}");
}

#[test]
fn a_script_a_task_runs_through_its_input_reads_this_repository_through_pwd() {
    // N33-1 (cloudfoundry/bosh-bootloader): the task file runs `bbl-ci/ci/tasks/render/task`
    // from its build directory, so the input `bbl-ci` holds this repository, and the script's
    // `${ROOT}/bbl-ci/k8s` (ROOT="${PWD}") is its `k8s/`: the command renders it, and the
    // value nothing sets is its certain failure.
    let script = "#!/bin/bash -eu\nROOT=\"${PWD}\"\n\nfunction main() {\n  \
ytt -f \"${ROOT}/bbl-ci/k8s\" > \"${ROOT}/out/app.yml\"\n}\n\nmain\n";
    let task = "---\nplatform: linux\ninputs:\n- name: bbl-ci\noutputs:\n- name: out\n\
run:\n  path: bbl-ci/ci/tasks/render/task\n";
    let files = [
        ("k8s/app.yml", APP),
        ("ci/tasks/render/task", script),
        ("ci/tasks/render/task.yml", task),
    ];
    let lint = Repo::of(&files).lint();
    let d = common(&lint);
    assert_eq!(d["severity"], "error", "{d:#}");
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    assert_eq!(lint.code, 1, "{lint}");

    // Without the task file, where the script starts is not known: its input is not found
    // where the linter looks, and that is no error.
    let lint = Repo::of(&files[..2]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
}
