//! Round twelve's left-over command constructs (issue 39, the thirteenth session;
//! docs/precision.md "Round twelve's left-over constructs: commands"), each as a general rule
//! on a minimal repository written for the test.

use crate::util::json::{assumption_kinds, root_paths, str_of};
use crate::util::repo::Repo;

/// A reusable workflow that renders the caller's resources with the caller's environment.
const RELEASE: &str = "name: Release\non:\n  workflow_call:\n    inputs:\n      environment:\n        type: string\n        required: true\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Render\n        run: |\n          ytt -f .github/resources/service.yaml -f .github/resources/schema.yaml \\\n            --data-values-file .github/resources/env/${{ inputs.environment }}.values.yaml > /tmp/service.yaml\n";

/// A workflow of the same repository that calls it for production.
const CALLER: &str = "name: CI\non: push\njobs:\n  prod:\n    uses: ./.github/workflows/release.yml\n    with:\n      environment: prod\n";

const SERVICE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\ndata:\n  count: #@ str(data.values.replicas + 1)\n";
const SCHEMA: &str = "#@data/values-schema\n---\nreplicas: 1\n";
/// The production values, whose `replicas` is no integer: ytt rejects them.
const PROD: &str = "replicas: two\n";

#[test]
fn a_reusable_workflow_runs_in_its_caller_s_checkout_with_its_caller_s_inputs() {
    // FW12-B1: called from elsewhere only, its inputs are the caller's files: none of this
    // repository's is missing.
    let lint = Repo::of(&[(".github/workflows/release.yml", RELEASE)]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("input-missing").is_empty(), "{lint}");

    // Its files in this repository (the environment written out): what is found with them
    // assumes the caller's checkout holds them.
    let written = RELEASE.replace("${{ inputs.environment }}", "prod");
    let lint = Repo::of(&[
        (".github/workflows/release.yml", written.as_str()),
        (".github/resources/service.yaml", SERVICE),
        (".github/resources/schema.yaml", SCHEMA),
        (".github/resources/env/prod.values.yaml", PROD),
    ])
    .lint();
    let found = lint.in_file(
        "schema-type-mismatch",
        ".github/resources/env/prod.values.yaml",
    );
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    assert_eq!(
        assumption_kinds(found[0]),
        ["caller-checkout"],
        "{:#}",
        found[0]
    );
    assert_eq!(lint.code, 0, "{lint}");

    let files = [
        (".github/workflows/release.yml", RELEASE),
        (".github/resources/service.yaml", SERVICE),
        (".github/resources/schema.yaml", SCHEMA),
        (".github/resources/env/prod.values.yaml", PROD),
    ];
    // A workflow of this repository calls it with `environment: prod`: the checkout is this
    // one and the values are the caller's, so ytt's failure is certain.
    let mut called = files.to_vec();
    called.push((".github/workflows/ci.yml", CALLER));
    let lint = Repo::of(&called).lint();
    let found = lint.in_file(
        "schema-type-mismatch",
        ".github/resources/env/prod.values.yaml",
    );
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{:#}", found[0]);
    assert_eq!(found[0]["certainty"]["source"], "ci", "{:#}", found[0]);
    assert_eq!(
        found[0]["certainty"]["origin"], ".github/workflows/release.yml:15",
        "{:#}",
        found[0]
    );
    assert_eq!(lint.code, 1, "{lint}");

    // Called here, with the values file the caller names missing: this repository's input
    // is missing.
    let lint = Repo::of(&[
        (".github/workflows/release.yml", RELEASE),
        (".github/workflows/ci.yml", CALLER),
        (".github/resources/service.yaml", SERVICE),
        (".github/resources/schema.yaml", SCHEMA),
        (".github/resources/env/dev.values.yaml", PROD),
    ])
    .lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert!(
        str_of(missing[0], "message").contains(".github/resources/env/prod.values.yaml"),
        "{:#}",
        missing[0]
    );
}

/// A template ytt rejects whatever the values: `1 + "a"`.
const BROKEN: &str = "#@ def count():\n#@   return 1 + \"a\"\n#@ end\n---\nkind: ConfigMap\ndata:\n  count: #@ str(count())\n";

#[test]
fn paths_from_the_script_s_directory_do_not_need_the_working_directory() {
    // R12A-2: a `cd` in one branch of an `if` leaves the working directory unknown after
    // the `fi`; `"$SCRIPT_DIR/../app/config"` names the input all the same.
    let script = "#!/usr/bin/env bash\nset -euo pipefail\nSCRIPT_DIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nif kubectl get namespace demo; then\n  echo ready\nelse\n  cd \"$SCRIPT_DIR/../packages\"\n  echo building\nfi\nytt -f \"$SCRIPT_DIR/../app/config\" | kapp deploy -a app -f - --yes\n";
    let lint = Repo::of(&[
        ("cluster/setup.sh", script),
        ("app/config/app.yml", BROKEN),
        ("packages/README.md", "packages\n"),
    ])
    .lint();
    let found = lint.in_file("template-error", "app/config/app.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{:#}", found[0]);
    assert_eq!(
        found[0]["certainty"]["origin"], "cluster/setup.sh:10",
        "{:#}",
        found[0]
    );
    assert_eq!(lint.code, 1, "{lint}");

    // A path from the working directory there is still not known: the command is skipped,
    // and the directory is linted as the layout gives it (a warning).
    let relative = script.replace("\"$SCRIPT_DIR/../app/config\"", "../app/config");
    let lint = Repo::of(&[
        ("cluster/setup.sh", relative.as_str()),
        ("app/config/app.yml", BROKEN),
        ("packages/README.md", "packages\n"),
    ])
    .lint();
    let found = lint.in_file("template-error", "app/config/app.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    assert_eq!(lint.code, 0, "{lint}");
}

/// A Jenkins pipeline: a Groovy-filled `sh` step from the workspace and a `'''` step in a
/// `dir()` block.
const JENKINSFILE: &str = "pipeline {\n    agent any\n    environment {\n        CONFIG = 'deploy/config'\n    }\n    stages {\n        stage('Render') {\n            steps {\n                sh \"ytt -f ${CONFIG} > rendered-${env.BUILD_TAG}.yml\"\n                dir('deploy') {\n                    sh '''\n                        ytt -f config -f values/staging.yml > staging.yml\n                    '''\n                }\n            }\n        }\n    }\n}\n";

#[test]
fn a_jenkinsfile_s_sh_steps_are_ci_commands() {
    // R12A-4.
    let dir = Repo::of(&[
        ("Jenkinsfile", JENKINSFILE),
        ("deploy/config/app.yml", BROKEN),
    ]);
    let lint = dir.lint();
    let found = lint.in_file("template-error", "deploy/config/app.yml");
    assert!(!found.is_empty(), "{lint}");
    assert!(found.iter().all(|d| d["severity"] == "error"), "{lint}");
    let origins: Vec<&str> = found
        .iter()
        .map(|d| d["certainty"]["origin"].as_str().unwrap_or(""))
        .collect();
    assert!(origins.contains(&"Jenkinsfile:9"), "{lint}");
    assert!(found.iter().all(|d| d["certainty"]["source"] == "ci"));
    // The `dir('deploy')` step's values file does not exist: missing, at its own line.
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert_eq!(missing[0]["line"], 12, "{:#}", missing[0]);
    assert!(
        str_of(missing[0], "message").contains("deploy/values/staging.yml"),
        "{:#}",
        missing[0]
    );
    assert_eq!(lint.code, 1, "{lint}");
    assert!(root_paths(&lint.report).contains(&"deploy/config".to_string()));
}

const COMMON: &str = "#@ def job(name):\nruns-on: ubuntu-latest\nsteps:\n- run: #@ name\n#@ end\n";
const BUILD: &str =
    "#@ load(\"common.lib.yml\", \"job\")\n---\nname: build\njobs:\n  build: #@ job(\"build\")\n";
const TEST: &str =
    "#@ load(\"common.lib.yml\", \"job\")\n---\nname: test\njobs:\n  test: #@ job(\"test\")\n";
const PAGE: &str = "# Workflows\n\nRender every workflow:\n\n`ytt -f . --output-files ../workflows/`\n\nor one of them:\n\n`ytt -f YOUR_FILE --output-files ../workflows/`\n";

#[test]
fn a_placeholder_input_that_fails_for_every_file_the_reader_may_give_is_a_load_error() {
    // LR12-B2: each template of the page's directory loads common.lib.yml, which
    // `ytt -f YOUR_FILE` does not pass.
    let files = [
        ("templates/README.md", PAGE),
        ("templates/common.lib.yml", COMMON),
        ("templates/build.yml", BUILD),
        ("templates/test.yml", TEST),
    ];
    let lint = Repo::of(&files).lint();
    let found = lint.in_file("load-error", "templates/README.md");
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert_eq!(d["severity"], "warning", "{d:#}");
    assert_eq!(d["line"], 9, "{d:#}");
    assert_eq!(assumption_kinds(d), ["bound-argument"], "{d:#}");
    assert!(
        str_of(d, "message").contains("cannot load common.lib.yml"),
        "{d:#}"
    );
    assert_eq!(d["related"].as_array().map(Vec::len), Some(2), "{d:#}");
    assert_eq!(lint.code, 0, "{lint}");
    // The whole directory renders: nothing else is found.
    assert_eq!(lint.diagnostics().len(), 1, "{lint}");

    // A file of the directory that loads nothing: the reader may give it, and it renders.
    let mut more = files.to_vec();
    more.push((
        "templates/lint.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nname: lint\n",
    ));
    let lint = Repo::of(&more).lint();
    assert!(lint.of("load-error").is_empty(), "{lint}");
}
