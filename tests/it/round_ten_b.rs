//! Constructs of round ten's first contact (researcher B, issue 39, docs/precision.md) that the
//! linter misread, each as a general rule on a minimal repository written for the test.

use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// The names (`path`) of the report's roots.
fn root_names(lint: &Lint) -> Vec<String> {
    lint.report["roots"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|r| r["path"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// An example directory: `config/` declares the schema, `prod/` only extends it
/// (`missing_ok=True` on its one item) and reads a key `config/` declares.
const EXTENDED: &[(&str, &str)] = &[
    (
        "demo/config/schema.yml",
        "#@data/values-schema\n---\nname: web\n",
    ),
    (
        "demo/config/cm.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Thing\nid: #@ data.values.name\n",
    ),
    (
        "demo/prod/schema.yml",
        "#@data/values-schema\n---\n#@overlay/match missing_ok=True\n#@schema/nullable\nhost: \"\"\n",
    ),
    (
        "demo/prod/extra.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ if/end data.values.host:\n---\nkind: Route\nid: #@ data.values.name + \"-route\"\n",
    ),
];

#[test]
fn a_directory_whose_schema_only_extends_a_sibling_s_is_rendered_with_it() {
    // FE10-3: the two directories are one root, the base schema first (`ytt -f config -f
    // prod`): the key the sibling declares is known.
    let lint = Repo::of(EXTENDED).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("data-value-unknown-reference").is_empty(), "{lint}");
    let names = root_names(&lint);
    assert!(
        names.contains(&"demo/config + demo/prod".to_string()),
        "{names:?}"
    );

    // A key neither schema declares is still reported.
    let mut files = EXTENDED.to_vec();
    files[3].1 = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Route\nid: #@ data.values.nmae\n";
    let lint = Repo::of(&files).lint();
    let found: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains("nmae"))
        .collect();
    assert!(!found.is_empty(), "{lint}");

    // Two siblings with a base schema: nothing says which one is extended; each stays alone.
    let mut files = EXTENDED.to_vec();
    files.push((
        "demo/other/schema.yml",
        "#@data/values-schema\n---\nname: x\n",
    ));
    files.push(("demo/other/cm.yml", "#@ n = 1\n---\nkind: Other\n"));
    let lint = Repo::of(&files).lint();
    let names = root_names(&lint);
    assert!(names.contains(&"demo/prod".to_string()), "{names:?}");
}

/// Example objects abbreviated with an elision comment, under the overlay that is the point of
/// the example.
const ELIDED: &[(&str, &str)] = &[
    ("README.md", "Adds a label.\n\n```bash\nytt -f .\n```\n"),
    (
        "objects.yml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: one\n#! ...\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: two\nspec:\n  replicas: \"3\"\n",
    ),
    (
        "label.yml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    team: a\n",
    ),
];

#[test]
fn an_object_abbreviated_on_purpose_is_not_missing_its_fields() {
    // FE10-4: `#! ...` inside the first object: its missing `spec` is a note naming the
    // elision; the second object, written out, is checked in full.
    let lint = Repo::of(ELIDED).lint();
    let found = lint.of("k8s-schema");
    let one: Vec<&&Value> = found
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains("one"))
        .collect();
    assert_eq!(one.len(), 1, "{lint}");
    assert_eq!(one[0]["severity"], "info", "{lint}");
    assert!(
        one[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("abbreviated"),
        "{lint}"
    );
    let two: Vec<&&Value> = found
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains("two"))
        .collect();
    assert!(!two.is_empty(), "{lint}");
    assert!(two.iter().all(|d| d["severity"] == "error"), "{lint}");
    assert_eq!(lint.code, 1, "{lint}");
}

/// A test script that runs ytt from each scenario directory a two-level listing names.
const SCENARIOS: &[(&str, &str)] = &[
    (
        "config/schema.yaml",
        "#@data/values-schema\n---\napp:\n  name: demo\n  replicas: 1\n",
    ),
    (
        "config/app.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.app.name\nreplicas: #@ data.values.app.replicas\n",
    ),
    (
        "scenarios/run-all.sh",
        "#!/bin/bash\nHERE=\"$( cd -P \"$( dirname \"${BASH_SOURCE[0]}\" )\" && pwd )\"\npushd ${HERE} >/dev/null\nfor case_dir in $(ls -d {small,large}/case*/); do\n  pushd ${HERE}/${case_dir} >/dev/null\n  ytt --data-values-file values.yaml -f ${HERE}/../config >/dev/null || echo \"$case_dir failed\"\n  popd >/dev/null\ndone\n",
    ),
    ("scenarios/small/case-a/values.yaml", "app:\n  name: a\n"),
    ("scenarios/large/case-b/values.yaml", "app:\n  replicas: many\n"),
    ("scenarios/other/case-c/values.yaml", "app:\n  replicas: none\n"),
];

#[test]
fn a_loop_over_a_two_level_listing_runs_each_scenario_it_names() {
    // LR10-2: `ls -d {small,large}/case*/` lists two levels; each listed directory's values
    // are checked, the failing one reported; `other/` is not listed and not run.
    let lint = Repo::of(SCENARIOS).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        found[0]["file"], "scenarios/large/case-b/values.yaml",
        "{lint}"
    );
}

/// A pipeline whose task reads its template through the input the repository's git resource
/// fills; the template moved.
fn pipeline(uri: &str) -> String {
    format!(
        "resources:\n- name: repo\n  type: git\n  source:\n    uri: {uri}\n- name: tools\n  type: registry-image\n  source: {{repository: example/tools}}\njobs:\n- name: render\n  plan:\n  - get: repo\n  - task: render\n    config:\n      platform: linux\n      inputs:\n      - name: repo\n      run:\n        path: bash\n        args:\n        - -c\n        - |\n          ytt -f repo/deploy/templates/user-data.yml --data-value domain=example.org > out.yml\n"
    )
}

#[test]
fn a_concourse_task_s_checkout_of_this_repository_is_the_repository() {
    // LR10-1: `repo/` is the task's input a git resource of this repository fills: the
    // command's input is `deploy/templates/user-data.yml` here, which does not exist.
    for uri in [
        "https://example.org/me/render-kit.git".to_string(),
        "((repo.uri))".to_string(),
    ] {
        let text = pipeline(&uri);
        let files: &[(&str, &str)] = &[
            ("render-kit/ci/pipeline.yml", text.as_str()),
            (
                "render-kit/deploy/user-data.yaml",
                "#@ load(\"@ytt:data\", \"data\")\n---\nfqdn: #@ \"host.\" + data.values.domain\n",
            ),
        ];
        let lint = Repo::of(files).lint_in("render-kit");
        let found = lint.of("input-missing");
        assert_eq!(found.len(), 1, "{uri}: {lint}");
        assert_eq!(found[0]["file"], "ci/pipeline.yml", "{lint}");
        assert_eq!(found[0]["line"], 23, "{lint}");
    }
    // Another repository's checkout is not this one: the command stays skipped.
    let text = pipeline("https://example.org/me/other-repo.git");
    let files: &[(&str, &str)] = &[
        ("render-kit/ci/pipeline.yml", text.as_str()),
        ("render-kit/deploy/user-data.yaml", "fqdn: x\n"),
    ];
    let lint = Repo::of(files).lint_in("render-kit");
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

#[test]
fn a_script_s_paths_on_a_variable_direnv_exports_are_the_repository_s() {
    // FW10-6: `.envrc` exports `PROJECT_DIR=${PWD}`; `bin/render` pipes a chart into the
    // overlay directory. The command is the directory's: its overlay waits for standard
    // input, not a false `overlay-error` of the directory alone.
    let files: &[(&str, &str)] = &[
        (".envrc", "export PROJECT_DIR=${PWD}\nPATH=${PROJECT_DIR}/bin:${PATH}\n"),
        (
            "bin/render",
            "#!/bin/bash -e\nhelm template web example/web |\n  ytt -f - -f ${PROJECT_DIR}/overlay/trust\n",
        ),
        (
            "overlay/trust/overlay.yaml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"StatefulSet\"}), expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    trusted: \"yes\"\n",
        ),
        (
            "overlay/trust/cm.yaml",
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trust\n",
        ),
    ];
    let lint = Repo::of(files).lint();
    let loud: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] == "error" || d["severity"] == "warning")
        .collect();
    assert!(loud.is_empty(), "{lint}");
    let roots = lint.report["roots"].to_string();
    assert!(roots.contains("bin/render:3"), "{lint}");
}

#[test]
fn a_byte_order_mark_that_is_a_whole_quoted_string_is_meant() {
    // FW10-4: the mark is the operand of a statement that strips it; a mark at the start of
    // another value is still reported.
    let files: &[(&str, &str)] = &[(
        "config/otel.yaml",
        "#@ n = 1\n---\nprocessors:\n  transform:\n    statements:\n    - set(attributes[\"m\"], Trim(attributes[\"m\"], \"\u{feff}\"))\n    - \"\u{feff}name\"\n",
    )];
    let lint = Repo::of(files).lint();
    let found = lint.of("yaml-bom");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["line"], 7, "{lint}");
}

#[test]
fn a_workspace_path_naming_this_checkout_beside_a_sibling_is_this_repository() {
    // FW10-2: the README renders a sibling repository's `config` with this one's; the
    // absolute load of the sibling's file waits for that input, no `load-error` warning.
    let files: &[(&str, &str)] = &[
        (
            "addon/README.md",
            "# Add-on\n\n```sh\nytt -f ${WORKSPACE}/platform/config -f ${WORKSPACE}/addon/config -f ${TMP_DIR}/values.yml\n```\n",
        ),
        (
            "addon/config/extra.yml",
            "#@ load(\"/namespaces.star\", \"system_namespace\")\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ system_namespace()\n",
        ),
    ];
    let lint = Repo::of(files).lint_in("addon");
    assert!(lint.of("load-error").is_empty(), "{lint}");
    let roots = lint.report["roots"].to_string();
    assert!(roots.contains("README.md:4"), "{lint}");
}
