//! Commands whose inputs are other commands' output (session twenty-eight, cmd28), each on a
//! minimal repository written for the test: an overlay applied to what `kubectl get KIND
//! NAME -o yaml` prints, one object of that kind, whose matcher cannot match it (R50-1); a
//! schema inspection in a process substitution as the value it prints (N48-4); one ytt
//! command piped into another whose files are overlays alone; an App a script applies from
//! a here-document (N48-3); the R50-1 shape of the repository it came from, a namespace
//! flag held in a variable (session twenty-nine, cmd29).

use crate::util::json::{assumption_kinds, assumption_text, str_of};
use crate::util::repo::Repo;

/// A script that saves a PackageInstall and applies an overlay for Deployments to it.
const SCRIPT: &str = "#!/usr/bin/env bash\nset -euo pipefail\nname=\"$1\"\nkubectl get packageinstall \"$name\" -n tanzu-system -o yaml > current-spec.yaml\nytt -f current-spec.yaml -f drop-requests.yaml | kubectl apply -f-\n";

/// An overlay whose documents match Deployments and StatefulSets, `expects` left at 1.
const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\":\"Deployment\"})\n---\nspec:\n  template:\n    spec:\n      containers:\n      #@overlay/match by=overlay.all, expects=\"1+\"\n      - resources:\n          #@overlay/remove\n          requests: {}\n#@overlay/match by=overlay.subset({\"kind\":\"StatefulSet\"})\n---\nspec:\n  replicas: 1\n";

#[test]
fn an_overlay_that_cannot_match_what_kubectl_get_prints_fails() {
    let repo = Repo::of(&[("fix-requests.sh", SCRIPT), ("drop-requests.yaml", OVERLAY)]);
    let lint = repo.lint();
    let found = lint.in_file("overlay-error", "drop-requests.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert_eq!(str_of(d, "severity"), "warning", "{lint}");
    assert_eq!(d["line"], 3, "{lint}");
    let message = str_of(d, "message");
    assert!(
        message.contains("Expected number of matched nodes to be 1, but was 0"),
        "{message}"
    );
    assert!(message.contains("one PackageInstall"), "{message}");
    assert_eq!(assumption_kinds(d), ["command-output"], "{lint}");
    let assumed = assumption_text(d);
    assert!(
        assumed.contains(
            "`current-spec.yaml` is what `kubectl get packageinstall NAME -o yaml` prints"
        ),
        "{assumed}"
    );
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn an_overlay_that_may_match_it_or_a_list_stays_quiet() {
    // The overlay matches PackageInstalls: whether its fields are there is the cluster's.
    let matching = OVERLAY.replace("\"Deployment\"", "\"PackageInstall\"");
    let repo = Repo::of(&[
        ("fix-requests.sh", SCRIPT),
        ("drop-requests.yaml", &matching),
    ]);
    let lint = repo.lint();
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    // A matcher on fields the linter does not know (`spec`): it cannot tell.
    let unknown = OVERLAY.replace("{\"kind\":\"Deployment\"}", "{\"spec\":{\"paused\":True}}");
    let repo = Repo::of(&[
        ("fix-requests.sh", SCRIPT),
        ("drop-requests.yaml", &unknown),
    ]);
    let lint = repo.lint();
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    // Allowed to match nothing.
    let optional = OVERLAY.replace(
        "{\"kind\":\"Deployment\"})\n",
        "{\"kind\":\"Deployment\"}), missing_ok=True\n",
    );
    let optional = optional.replace(
        "{\"kind\":\"StatefulSet\"})\n",
        "{\"kind\":\"StatefulSet\"}), expects=\"0+\"\n",
    );
    let repo = Repo::of(&[
        ("fix-requests.sh", SCRIPT),
        ("drop-requests.yaml", &optional),
    ]);
    let lint = repo.lint();
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
}

#[test]
fn a_list_without_a_name_is_no_deployment_either() {
    let script = SCRIPT.replace("packageinstall \"$name\"", "deployments -l app=web");
    let repo = Repo::of(&[
        ("fix-requests.sh", &script),
        ("drop-requests.yaml", OVERLAY),
    ]);
    let lint = repo.lint();
    let found = lint.in_file("overlay-error", "drop-requests.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert!(str_of(found[0], "message").contains("a List"), "{lint}");
}

/// A script in the shape of Tanzu-Hub-Ops' remover (R50-1 in the repository): its paths are
/// a function's local variables, and `$namespace_flag` is `-n NS` or nothing.
const FLAG_SCRIPT: &str = "#!/bin/bash\nset -e\nmain() {\n    local name=\"$1\"\n    local namespace=\"${2:-}\"\n    local namespace_flag=\"\"\n    if [ -n \"$namespace\" ]; then\n        namespace_flag=\"-n $namespace\"\n    fi\n    local here=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n    local overlay_file=\"$here/drop.yaml\"\n    local spec_file=\"$here/current.yaml\"\n    kubectl get packageinstall \"$name\" $namespace_flag -o yaml > \"$spec_file\"\n    ytt -f \"$spec_file\" -f \"$overlay_file\" > \"$here/updated.yaml\"\n    kubectl apply -f \"$here/updated.yaml\" $namespace_flag\n}\nmain \"$@\"\n";

/// Its overlay: the second document's annotation indented under the first's last line.
const INDENTED_OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n\n#@overlay/match by=overlay.subset({\"kind\":\"Deployment\"})\n---\nspec:\n  template:\n    spec:\n      containers?:\n        #@overlay/match by=overlay.all\n        #@overlay/remove\n        resources?:\n\n            #@overlay/match by=overlay.subset({\"kind\":\"StatefulSet\"})\n---\nspec:\n  replicas: 1\n";

#[test]
fn a_namespace_flag_variable_is_no_second_name_and_the_finding_adds_no_root() {
    let repo = Repo::of(&[("fix.sh", FLAG_SCRIPT), ("drop.yaml", INDENTED_OVERLAY)]);
    let lint = repo.lint();
    let found = lint.in_file("overlay-error", "drop.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert_eq!(str_of(d, "severity"), "warning", "{lint}");
    // ytt (4b40e30) on a stand-in PackageInstall: "Document on line drop.yaml:4".
    assert_eq!(d["line"], 4, "{lint}");
    let message = str_of(d, "message");
    assert!(message.contains("one PackageInstall"), "{message}");
    assert_eq!(assumption_kinds(d), ["command-output"], "{lint}");
    // Under the directory that checks the overlay file, not a root of its own.
    let roots: Vec<&str> = lint.report["roots"]
        .as_array()
        .map(|r| r.iter().filter_map(|r| r["path"].as_str()).collect())
        .unwrap_or_default();
    assert!(!roots.contains(&"drop.yaml"), "{roots:?}");
    assert!(lint.errors().is_empty(), "{lint}");
}

/// A package template as Carvel's docs write it: the Package's value schema is the OpenAPI
/// document given as `openapi`.
const PACKAGE_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ \"web.example.com.\" + data.values.version\nspec:\n  refName: web.example.com\n  version: #@ data.values.version\n  valuesSchema:\n    openAPIv3: #@ yaml.decode(data.values.openapi)[\"components\"][\"schemas\"][\"dataValues\"]\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle:\n          image: registry.example.com/web-bundle:1.0.0\n      template:\n      - ytt:\n          paths:\n          - config/\n      deploy:\n      - kapp: {}\n";

/// The template's own data values.
const PACKAGE_VALUES: &str = "#@data/values\n---\nopenapi: \"\"\nversion: \"\"\n";

/// The bundle's schema.
const BUNDLE_SCHEMA: &str =
    "#@data/values-schema\n---\nreplicas: 1\nimage: registry.example.com/web:1.0.0\n";

/// A script that renders the Package with the schema inspected on the same line.
const BUILD: &str = "#!/usr/bin/env bash\nset -euo pipefail\nytt -f package/template.yml -f package/values.yml --data-value-file openapi=<(ytt -f bundle/config/schema.yaml --data-values-schema-inspect -o openapi-v3) -v version=1.0.0 > package.yml\n";

#[test]
fn a_schema_inspected_in_a_process_substitution_is_the_value() {
    let repo = Repo::of(&[
        ("build.sh", BUILD),
        ("package/template.yml", PACKAGE_TEMPLATE),
        ("package/values.yml", PACKAGE_VALUES),
        ("bundle/config/schema.yaml", BUNDLE_SCHEMA),
    ]);
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    // The document is the inspection's: a key it does not have fails, for certain.
    let wrong = PACKAGE_TEMPLATE.replace("[\"dataValues\"]", "[\"values\"]");
    let repo = Repo::of(&[
        ("build.sh", BUILD),
        ("package/template.yml", wrong.as_str()),
        ("package/values.yml", PACKAGE_VALUES),
        ("bundle/config/schema.yaml", BUNDLE_SCHEMA),
    ]);
    let lint = repo.lint();
    let errors = lint.errors();
    assert_eq!(errors.len(), 1, "{lint}");
    assert!(str_of(errors[0], "message").contains("values"), "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
}

/// A Deployment whose replicas the data values set.
const DEPLOYMENT: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: #@ data.values.replicas\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n";

/// An overlay of production's replicas, for a kind the base does not render.
const PROD: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\":\"StatefulSet\"})\n---\nspec:\n  replicas: 5\n";

#[test]
fn a_ytt_command_piped_into_another_gives_it_its_output() {
    let script =
        "#!/bin/sh\nset -e\nytt -f base | ytt -f - -f env/prod.yaml | kubectl apply -f -\n";
    let files = [
        ("deploy.sh", script),
        ("base/deploy.yaml", DEPLOYMENT),
        ("base/values.yaml", "#@data/values\n---\nreplicas: 2\n"),
        ("env/prod.yaml", PROD),
    ];
    let repo = Repo::of(&files);
    let lint = repo.lint();
    // ytt: the second command's overlay matches nothing in what the first printed.
    let found = lint.in_file("overlay-error", "env/prod.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
    assert!(
        str_of(found[0], "message").contains("Expected number of matched nodes to be 1, but was 0"),
        "{lint}"
    );
    // Matching what the first prints, it renders.
    let fixed = PROD.replace("StatefulSet", "Deployment");
    let repo = Repo::of(&[
        ("deploy.sh", script),
        ("base/deploy.yaml", DEPLOYMENT),
        ("base/values.yaml", "#@data/values\n---\nreplicas: 2\n"),
        ("env/prod.yaml", fixed.as_str()),
    ]);
    let lint = repo.lint();
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    // A second command that reads data values of its own is not the first's: linted without
    // the pipe, as before (a note).
    let own_values = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\":\"StatefulSet\"})\n---\nspec:\n  replicas: #@ data.values.replicas\n";
    let repo = Repo::of(&[
        ("deploy.sh", script),
        ("base/deploy.yaml", DEPLOYMENT),
        ("base/values.yaml", "#@data/values\n---\nreplicas: 2\n"),
        ("env/prod.yaml", own_values),
    ]);
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
}

/// A script that applies an App written in a here-document, its second ytt path the cluster
/// folder the script is given.
const SETUP: &str = "#!/usr/bin/env bash\nset -eo pipefail\napp=\"$1\"\nrepo=\"$2\"\ncat <<EOF | kubectl apply -f -\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: ${app}\n  namespace: tkg-system\nspec:\n  serviceAccountName: gitops\n  fetch:\n    - git:\n        url: ${repo}\n        ref: origin/main\n  template:\n    - ytt:\n        paths:\n          - common\n          - clusters/${app}\n  deploy:\n    - kapp: {}\nEOF\n";

/// A Deployment of the common folder, its replicas the cluster's.
const COMMON: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: agent\nspec:\n  replicas: #@ data.values.replicas\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: registry.example.com/agent:2.1\n";

#[test]
fn an_app_a_script_applies_from_a_here_document_decides_the_roots() {
    let repo = Repo::of(&[
        ("scripts/setup.sh", SETUP),
        ("common/agent.yaml", COMMON),
        (
            "clusters/edge/values.yaml",
            "#@data/values\n---\nreplicas: \"two\"\n",
        ),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("inputs: common, clusters/edge"), "{roots}");
    let lint = repo.lint();
    let found = lint.in_file("k8s-schema", "common/agent.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "warning", "{lint}");
    assert_eq!(assumption_kinds(found[0]), ["bound-argument"], "{lint}");
    assert!(
        assumption_text(found[0]).contains("`${app}` of the App the script writes"),
        "{lint}"
    );
    // The values of the cluster folder render: nothing more.
    let repo = Repo::of(&[
        ("scripts/setup.sh", SETUP),
        ("common/agent.yaml", COMMON),
        (
            "clusters/edge/values.yaml",
            "#@data/values\n---\nreplicas: 2\n",
        ),
    ]);
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
}
