//! Two App resources whose first ytt path is the same are each linted (session thirty,
//! cmd30): a script's here-document App whose second path is `clusters/${app}`, read once per
//! cluster folder, and a script that deploys two Apps of one folder with other values files.
//! Only the first was linted before. Minimal repros written for the tests.

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A script that applies an App written in a here-document, its second ytt path the
/// cluster folder the script is given.
const SETUP: &str = "#!/usr/bin/env bash\nset -eo pipefail\napp=\"$1\"\ncat <<EOF | kubectl apply -f -\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: ${app}\n  namespace: tkg-system\nspec:\n  serviceAccountName: gitops\n  fetch:\n    - git:\n        url: https://example.com/fleet\n        ref: origin/main\n  template:\n    - ytt:\n        paths:\n          - common\n          - clusters/${app}\n  deploy:\n    - kapp: {}\nEOF\n";

/// A Deployment of the common folder, its replicas the cluster's.
const COMMON: (&str, &str) = (
    "common/agent.yaml",
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: agent\nspec:\n  replicas: #@ data.values.replicas\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: registry.example.com/agent:2.1\n",
);

#[test]
fn each_folder_a_here_document_app_is_bound_to_is_linted() {
    // `core` (first by name) renders; `edge` gives a string for the replicas.
    let repo = Repo::of(&[
        ("scripts/setup.sh", SETUP),
        COMMON,
        (
            "clusters/core/values.yaml",
            "#@data/values\n---\nreplicas: 2\n",
        ),
        (
            "clusters/edge/values.yaml",
            "#@data/values\n---\nreplicas: \"two\"\n",
        ),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("inputs: common, clusters/core"), "{roots}");
    assert!(roots.contains("inputs: common, clusters/edge"), "{roots}");
    let lint = repo.lint();
    let found = lint.in_file("k8s-schema", "common/agent.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert!(
        found[0]["certainty"].to_string().contains("clusters/edge")
            || str_of(found[0], "root").contains("clusters/edge"),
        "{lint}"
    );
}

/// Two Apps of one folder, each with a values file of its own folder.
const DEPLOY: &str = "#!/bin/sh\nkapp deploy -a apps -y -f - <<EOF\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: blue\nspec:\n  fetch:\n  - git:\n      url: https://example.com/fleet\n      ref: origin/main\n  template:\n  - ytt:\n      paths: [common, values/blue.yaml]\n  deploy:\n  - kapp: {}\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: green\nspec:\n  fetch:\n  - git:\n      url: https://example.com/fleet\n      ref: origin/main\n  template:\n  - ytt:\n      paths: [common, values/green.yaml]\n  deploy:\n  - kapp: {}\nEOF\n";

#[test]
fn two_apps_of_one_folder_with_other_values_are_both_linted() {
    let repo = Repo::of(&[
        ("deploy.sh", DEPLOY),
        COMMON,
        ("values/blue.yaml", "#@data/values\n---\nreplicas: 2\n"),
        (
            "values/green.yaml",
            "#@data/values\n---\nreplicas: \"two\"\n",
        ),
    ]);
    let roots = repo.roots();
    assert!(
        roots.contains("inputs: common, values/blue.yaml"),
        "{roots}"
    );
    assert!(
        roots.contains("inputs: common, values/green.yaml"),
        "{roots}"
    );
    let lint = repo.lint();
    assert_eq!(
        lint.in_file("k8s-schema", "common/agent.yaml").len(),
        1,
        "{lint}"
    );
}
