//! Wrong findings of rounds twenty-nine and thirty, each on a minimal repository written for
//! the test: a committed file a `.gitignore` pattern also matches is linted in a tree without
//! `.git`, and a command skipped for an ignore pattern is said in the report (R30-1); a page's
//! command failing on a key none of its run-time values is (R29-1); a Package's finding names
//! only the defaults it rests on (R29-3); an overlay beside the one a script applies to a base
//! is checked with that base (R30-2).

use crate::util::json::str_of;
use crate::util::repo::Repo;

const WORKFLOW: &str = "name: render\non:\n  workflow_dispatch:\n    inputs:\n      tag:\n        required: true\njobs:\n  render:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ytt -v tag=\"${{ github.event.inputs.tag }}\" -f deploy/lib/schema.yaml -f deploy/manifest.yaml > manifest.yaml\n";

const DEPLOYMENT: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: #@ \"example.org/web:\" + data.values.tag\n        env:\n        - name: PORT\n          value: #@ data.values.port\n";

fn exported() -> Repo {
    Repo::of(&[
        (".gitignore", "# the rendered output\nmanifest.yaml\n"),
        (".github/workflows/render.yml", WORKFLOW),
        (
            "deploy/lib/schema.yaml",
            "#@data/values-schema\n---\ntag: \"\"\nport: 8080\n",
        ),
        ("deploy/manifest.yaml", DEPLOYMENT),
    ])
}

#[test]
fn a_committed_file_an_ignore_pattern_matches_is_linted_without_git() {
    // No `.git`: an export, whose every file is committed; git would ignore none of them.
    let lint = exported().lint();
    let found = lint.in_file("k8s-schema", "deploy/manifest.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
}

#[test]
fn a_command_skipped_for_an_ignore_pattern_is_in_the_report() {
    // In a git work tree whose index does not list the file, the pattern hides it: the
    // command is skipped, and the report says so at the command.
    let repo = exported();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let lint = repo.lint();
    assert!(lint.of("k8s-schema").is_empty(), "{lint}");
    let notes = lint.in_file("needs-input", ".github/workflows/render.yml");
    assert_eq!(notes.len(), 1, "{lint}");
    assert!(
        str_of(notes[0], "message").contains("deploy/manifest.yaml"),
        "{lint}"
    );
}

#[test]
fn a_key_no_run_time_value_of_a_page_s_command_gives_is_an_error() {
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: server\n  namespace: #@ data.values.team\ndata:\n  host: #@ data.values.address.replace(\"https://\", \"\")\n";
    let readme = "# Demo\n\nSet your team's namespace, then render the server:\n\n```\nytt -f server.yaml -v team=$TEAM | kubectl apply -f-\n```\n";
    let lint = Repo::of(&[("README.md", readme), ("server.yaml", template)]).lint();
    let found = lint.in_file("template-error", "server.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");

    // The read only under a condition on the run-time value: a warning that says so.
    let guarded = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: server\n  namespace: #@ data.values.team\ndata:\n  #@ if data.values.team == \"placeholder\":\n  host: #@ data.values.address\n  #@ end\n";
    let lint = Repo::of(&[("README.md", readme), ("server.yaml", guarded)]).lint();
    let found = lint.in_file("template-error", "server.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "warning", "{lint}");
}

#[test]
fn a_package_s_finding_names_only_the_defaults_it_rests_on() {
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: machinetemplates.example.dev\nspec:\n  group: example.dev\n  names:\n    kind: MachineTemplate\n    listKind: MachineTemplateList\n    plural: machinetemplates\n    singular: machinetemplate\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              template:\n                type: string\n                minLength: 1\n";
    let package = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: machines.example.dev.1.0.0\nspec:\n  refName: machines.example.dev\n  version: 1.0.0\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle:\n          image: registry.example.dev/machines:1.0.0\n      template:\n      - ytt:\n          paths:\n          - config/\n      deploy:\n      - kapp: {}\n";
    let machine = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: example.dev/v1\nkind: MachineTemplate\nmetadata:\n  name: default\n  namespace: machines\nspec:\n  template: #@ data.values.IMAGE_TEMPLATE\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: machine-controller\n  namespace: machines\n#@ if data.values.deployment.nodeSelector:\ndata: #@ data.values.deployment.nodeSelector\n#@ end\n";
    let values = "#@data/values\n---\nIMAGE_TEMPLATE: \"\"\ndeployment:\n  nodeSelector: null\n";
    let lint = Repo::of(&[
        ("crds/machinetemplates.yaml", crd),
        ("pkg/package.yaml", package),
        ("pkg/bundle/config/machine.yaml", machine),
        ("pkg/bundle/config/values.yaml", values),
    ])
    .lint();
    let found = lint.in_file("k8s-schema", "pkg/bundle/config/machine.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "warning", "{lint}");
    let text = found[0].to_string();
    assert!(text.contains("`IMAGE_TEMPLATE`"), "{lint}");
    assert!(!text.contains("nodeSelector"), "{lint}");
}

#[test]
fn an_overlay_beside_the_one_a_script_applies_is_checked_with_its_base() {
    // Two overlays of the folder given with the base; each has a staging twin, the
    // alternative the script's comment names.
    let script = "#!/usr/bin/env bash\nset -e\nkapp deploy -a app -f <(\n  ytt \\\n    -f ./cluster/config/app/ \\\n    -f ./cluster/config-optional/app/app-cert-prod.yml \\\n    -f ./cluster/config-optional/app/web-cert-prod.yml\n)\n# for a test domain, use instead:\n# -f ./cluster/config-optional/app/app-cert-staging.yml\n";
    let base = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-cert\n  namespace: app\ntype: kubernetes.io/tls\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: web-cert\n  namespace: app\ntype: kubernetes.io/tls\n";
    let overlay = |name: &str, issuer: &str| {
        format!("#@ load(\"@ytt:overlay\", \"overlay\")\n\n#@overlay/match by=overlay.subset({{\"kind\":\"Secret\",\"metadata\":{{\"name\":\"{name}\"}}}})\n#@overlay/remove\n---\n---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: {name}\n  namespace: app\nspec:\n  secretName: {name}\n  dnsNames:\n  - app.example.org\n  issuerRef:\n    name: {issuer}\n    kind: ClusterIssuer\n")
    };
    let dir = "cluster/config-optional/app";
    let files = [
        ("app-cert-prod.yml", overlay("app-cert", "letsencrypt-prod")),
        (
            "app-cert-staging.yml",
            overlay("app-cert", "letsencrypt-staging"),
        ),
        ("web-cert-prod.yml", overlay("web-cert", "letsencrypt-prod")),
        (
            "web-cert-staging.yml",
            overlay("web-cert", "letsencrypt-staging"),
        ),
    ];
    let mut repo = Repo::of(&[
        ("deploy-ctl.sh", script),
        ("cluster/config/app/app.yml", base),
    ]);
    for (name, text) in &files {
        repo = repo.file(&format!("{dir}/{name}"), text);
    }
    let lint = repo.lint();
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    assert!(lint.diagnostics().is_empty(), "{lint}");
}
