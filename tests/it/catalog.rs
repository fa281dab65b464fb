//! The built-in catalog of CRDs, the Kubernetes versions and the removed APIs, end to end: a
//! repository with no CRD of its own gets its custom resources checked against the catalog,
//! its old apiVersions reported at the version configured, its unknown kinds named in the
//! report; a CRD cannot shadow a built-in kind; a CRD whose schema does not compile says so.

use crate::util::bin::yttlint;
use crate::util::json::{diagnostics, str_of};
use crate::util::temp::TempDir;

const VALUES: &str = "#@data/values\n---\nname: web\n";

/// `file:line rule message` of each finding of `rules`, sorted.
fn found(repo: &TempDir, args: &[&str], rules: &[&str]) -> (Vec<String>, serde_json::Value) {
    let args = [&["--format", "json", "--no-cache"][..], args].concat();
    let run = yttlint(repo, &args);
    let report = run.json();
    let mut out: Vec<String> = diagnostics(&report)
        .iter()
        .filter(|d| rules.contains(&str_of(d, "rule")))
        .map(|d| {
            format!(
                "{}:{} {} {}",
                str_of(d, "file"),
                d["line"],
                str_of(d, "rule"),
                str_of(d, "message")
            )
        })
        .collect();
    out.sort();
    (out, report)
}

/// A template of one object whose name comes from a data value; `body` follows `metadata`.
fn object(api_version: &str, kind: &str, body: &str) -> String {
    format!(
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: {api_version}\nkind: {kind}\n\
         metadata:\n  name: #@ data.values.name\n  namespace: apps\n{body}"
    )
}

#[test]
fn custom_resources_without_a_crd_in_the_repository_are_checked_against_the_catalog() {
    let cases = [
        (
            "cert-manager.io/v1",
            "Certificate",
            "spec:\n  secretName: #@ data.values.name\n  issuerRef: {name: ca}\n  dnsNmes: [a.example.com]\n",
            "dnsNmes",
            "dnsNames",
        ),
        (
            "projectcontour.io/v1",
            "HTTPProxy",
            "spec:\n  virtualhost: {fqdn: a.example.com}\n  routes:\n  - services: [{name: web, port: 80}]\n    condtions: [{prefix: /}]\n",
            "condtions",
            "conditions",
        ),
        (
            "cluster.x-k8s.io/v1beta1",
            "MachineDeployment",
            "spec:\n  clusterName: c1\n  replicsa: 3\n  selector: {matchLabels: {}}\n  template:\n    spec:\n      clusterName: c1\n      bootstrap: {dataSecretName: s}\n      infrastructureRef: {kind: DockerMachineTemplate, name: m}\n",
            "replicsa",
            "replicas",
        ),
        (
            "tekton.dev/v1",
            "Pipeline",
            "spec:\n  tasks:\n  - name: build\n    taskRef: {name: kaniko}\n    paramz: []\n",
            "paramz",
            "params",
        ),
        (
            "packaging.carvel.dev/v1alpha1",
            "PackageInstall",
            "spec:\n  serviceAccountName: installer\n  packageRef:\n    refName: web.example.com\n    versionSelection: {constraint: \">0\"}\n",
            "constraint",
            "constraints",
        ),
        (
            "serving.knative.dev/v1",
            "Service",
            "spec:\n  template:\n    spec:\n      containers:\n      - imag: #@ data.values.name\n",
            "imag",
            "image",
        ),
    ];
    for (api_version, kind, body, typo, right) in cases {
        let text = object(api_version, kind, body);
        let line = text
            .lines()
            .position(|l| l.contains(&format!("{typo}:")))
            .map(|i| i + 1)
            .unwrap();
        let repo =
            TempDir::with_files(&[("config/object.yml", &text), ("config/values.yml", VALUES)]);
        let (got, report) = found(&repo, &[], &["k8s-schema"]);
        assert_eq!(got.len(), 1, "{kind}: {got:?}");
        let expected = format!(
            "config/object.yml:{line} k8s-schema {kind} apps/web: unknown field \"{typo}\""
        );
        assert!(got[0].starts_with(&expected), "{kind}: {got:?}");
        let help = diagnostics(&report)
            .iter()
            .find(|d| d["rule"] == "k8s-schema")
            .map(|d| str_of(d, "help").to_string());
        assert_eq!(help, Some(format!("did you mean \"{right}\"?")), "{kind}");
    }
}

#[test]
fn removed_apis_are_errors_at_the_apiversion_line_of_the_version_configured() {
    let repo = TempDir::with_files(&[
        (
            "config/ingress.yml",
            &object("extensions/v1beta1", "Ingress", "spec: {}\n"),
        ),
        (
            "config/psp.yml",
            &object("policy/v1beta1", "PodSecurityPolicy", "spec: {}\n"),
        ),
        (
            "config/cron.yml",
            &object("batch/v1beta1", "CronJob", "spec: {}\n"),
        ),
        (
            "config/hpa.yml",
            &object(
                "autoscaling/v2beta2",
                "HorizontalPodAutoscaler",
                "spec: {}\n",
            ),
        ),
        (
            "config/flow.yml",
            &object(
                "flowcontrol.apiserver.k8s.io/v1beta3",
                "FlowSchema",
                "spec: {priorityLevelConfiguration: {name: low}}\n",
            ),
        ),
        ("config/values.yml", VALUES),
        (".yttlint.yaml", "kubernetes: {version: \"1.30\"}\n"),
    ]);
    let rules = ["k8s-api-removed", "k8s-api-deprecated", "k8s-schema"];
    let (got, _) = found(&repo, &[], &rules);
    assert_eq!(
        got,
        [
            "config/cron.yml:3 k8s-api-removed CronJob apps/web: batch/v1beta1 CronJob was removed in Kubernetes 1.25 and is not served by 1.30; use batch/v1",
            "config/flow.yml:3 k8s-api-deprecated FlowSchema apps/web: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated since Kubernetes 1.29, removed in 1.32; use flowcontrol.apiserver.k8s.io/v1",
            "config/hpa.yml:3 k8s-api-removed HorizontalPodAutoscaler apps/web: autoscaling/v2beta2 HorizontalPodAutoscaler was removed in Kubernetes 1.26 and is not served by 1.30; use autoscaling/v2",
            "config/ingress.yml:3 k8s-api-removed Ingress apps/web: extensions/v1beta1 Ingress was removed in Kubernetes 1.22 and is not served by 1.30; use networking.k8s.io/v1",
            "config/psp.yml:3 k8s-api-removed PodSecurityPolicy apps/web: policy/v1beta1 PodSecurityPolicy was removed in Kubernetes 1.25 and is not served by 1.30",
        ]
    );
    // --kubernetes-version picks another version: at 1.32 flowcontrol v1beta3 is gone too.
    let (got, _) = found(
        &repo,
        &["--kubernetes-version", "1.32"],
        &["k8s-api-removed"],
    );
    assert!(
        got.iter()
            .any(|f| f.starts_with("config/flow.yml:3 k8s-api-removed")),
        "{got:?}"
    );
    let run = yttlint(&repo, &["--kubernetes-version", "1.19"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("compiled in: 1.37, 1.36"),
        "{}",
        run.stderr
    );
}

#[test]
fn kinds_without_a_schema_are_named_per_root_and_counted_in_the_summary() {
    let widget = object("example.com/v1", "Widget", "spec: {size: 1}\n");
    let gadget = "---\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n";
    let repo = TempDir::with_files(&[
        ("config/widget.yml", &format!("{widget}{gadget}{gadget}")),
        ("config/values.yml", VALUES),
    ]);
    let (_, report) = found(&repo, &[], &[]);
    assert_eq!(
        report["roots"][0]["unchecked"],
        serde_json::json!([
            {"kind": "example.com/v1 Gadget", "objects": 2},
            {"kind": "example.com/v1 Widget", "objects": 1}
        ])
    );
    let run = yttlint(&repo, &["--no-cache", "--color", "never"]);
    assert!(
        run.stdout
            .contains("3 objects of 2 kinds had no schema, not checked (--verbose lists them"),
        "{}",
        run.stdout
    );
    let run = yttlint(&repo, &["--no-cache", "--color", "never", "--verbose"]);
    assert!(
        run.stdout
            .contains("  example.com/v1 Gadget: 2 objects in config\n"),
        "{}",
        run.stdout
    );
}

const APPS_CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: deployments.apps}
spec:
  group: apps
  names: {kind: Deployment, plural: deployments}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

#[test]
fn a_crd_cannot_shadow_a_builtin_kind() {
    let deployment = object(
        "apps/v1",
        "Deployment",
        "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        imag: nginx\n",
    );
    // The CRD in the rendered output, and in the repository beside it.
    for (crd_path, rendered) in [("config/crd.yml", true), ("vendor/crd.yml", false)] {
        let repo = TempDir::with_files(&[
            ("config/deployment.yml", &deployment),
            ("config/values.yml", VALUES),
            (crd_path, APPS_CRD),
        ]);
        let (got, report) = found(&repo, &[], &["k8s-schema", "k8s-crd-ignored"]);
        assert!(
            got.iter().any(|f| f.starts_with(
                "config/deployment.yml:15 k8s-schema Deployment apps/web: unknown field \"imag\""
            )),
            "{got:?}"
        );
        let note = diagnostics(&report)
            .iter()
            .find(|d| d["rule"] == "k8s-crd-ignored")
            .cloned();
        assert_eq!(note.is_some(), rendered, "{got:?}");
        if let Some(note) = note {
            assert_eq!(note["severity"], "info");
            assert_eq!(
                (str_of(&note, "file"), &note["line"]),
                ("config/crd.yml", &serde_json::json!(5))
            );
        }
    }
}

#[test]
fn a_crd_whose_schema_does_not_compile_is_a_warning_and_its_kind_unchecked() {
    let crd = APPS_CRD
        .replace("deployments.apps", "widgets.example.com")
        .replace("group: apps", "group: example.com")
        .replace("kind: Deployment, plural: deployments", "kind: Widget, plural: widgets")
        .replace(
            "openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}",
            "openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string, pattern: \"([a-z]\"}}}}}",
        );
    let widget = object("example.com/v1", "Widget", "spec: {size: large}\n");
    for crd_path in ["config/crd.yml", "crds/widget.yml"] {
        let repo = TempDir::with_files(&[
            ("config/widget.yml", &widget),
            ("config/values.yml", VALUES),
            (crd_path, &crd),
        ]);
        let (got, report) = found(&repo, &[], &["k8s-crd-ignored"]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].starts_with(&format!("{crd_path}:5 k8s-crd-ignored the CustomResourceDefinition of Widget (example.com/v1) cannot be used")), "{got:?}");
        assert_eq!(
            report["roots"][0]["unchecked"],
            serde_json::json!([{"kind": "example.com/v1 Widget", "objects": 1}])
        );
    }
}

/// A CRD whose schema is not a map (`schema: "x"`, `validation: 3`, `openAPIV3Schema: [..]`)
/// made the root that renders one of its objects an internal error (a panic indexing into a
/// string; found by fuzzing `crd_compile`): it is a warning at the CRD like any schema that does
/// not compile, its kind unchecked, and the root's own findings kept.
#[test]
fn a_crd_whose_schema_is_not_a_map_is_a_warning_not_a_crash() {
    let widget = object("example.com/v1", "Widget", "spec: {size: large}\n");
    let deployment = object(
        "apps/v1",
        "Deployment",
        "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        imag: nginx\n",
    );
    let crd = |schema: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: widgets.example.com}}\nspec:\n  group: example.com\n  names: {{kind: Widget, plural: widgets}}\n  scope: Namespaced\n  {schema}\n"
        )
    };
    for (schema, what) in [
        (
            "versions: [{name: v1, served: true, storage: true, schema: \"not a map\"}]",
            "a string",
        ),
        (
            "versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: [1]}}]",
            "a list",
        ),
        (
            "validation: 3\n  versions: [{name: v1, served: true, storage: true}]",
            "a number",
        ),
    ] {
        let repo = TempDir::with_files(&[
            ("config/widget.yml", &widget),
            ("config/deployment.yml", &deployment),
            ("config/values.yml", VALUES),
            ("crds/widget.yml", &crd(schema)),
        ]);
        let rules = ["k8s-crd-ignored", "internal-error", "k8s-schema"];
        let (got, report) = found(&repo, &[], &rules);
        assert_eq!(got.len(), 2, "{schema}: {got:?}");
        assert!(
            got[0].contains("k8s-schema Deployment apps/web: unknown field \"imag\""),
            "{got:?}"
        );
        assert!(
            got[1].starts_with(&format!("crds/widget.yml:5 k8s-crd-ignored the CustomResourceDefinition of Widget (example.com/v1) cannot be used: the schema does not compile: its openAPIV3Schema is {what}, not a map")),
            "{schema}: {got:?}"
        );
        assert_eq!(
            report["roots"][0]["unchecked"],
            serde_json::json!([{"kind": "example.com/v1 Widget", "objects": 1}])
        );
    }
}

#[test]
fn a_repository_crd_comes_before_the_catalog() {
    // The repository's own (older) Certificate CRD has only `secretName`: a field the catalog
    // knows is then unknown.
    let crd = APPS_CRD
        .replace("deployments.apps", "certificates.cert-manager.io")
        .replace("group: apps", "group: cert-manager.io")
        .replace("kind: Deployment, plural: deployments", "kind: Certificate, plural: certificates")
        .replace(
            "openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}",
            "openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {secretName: {type: string}}}}}",
        );
    let cert = object(
        "cert-manager.io/v1",
        "Certificate",
        "spec:\n  secretName: s\n  dnsNames: [a]\n",
    );
    let repo = TempDir::with_files(&[
        ("config/cert.yml", &cert),
        ("config/values.yml", VALUES),
        ("crds/cert.yml", &crd),
    ]);
    let (got, _) = found(&repo, &[], &["k8s-schema"]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with(
            "config/cert.yml:10 k8s-schema Certificate apps/web: unknown field \"dnsNames\""
        ),
        "{got:?}"
    );
}

#[test]
fn kind_cluster_configuration_is_checked_without_metadata() {
    let config = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n  extraPortMapings:\n  - containerPort: 80\n";
    let repo = TempDir::with_files(&[("config/kind.yml", config), ("config/values.yml", VALUES)]);
    let (got, _) = found(&repo, &[], &["k8s-schema"]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with(
            "config/kind.yml:7 k8s-schema Cluster: unknown field \"extraPortMapings\""
        ),
        "{got:?}"
    );
}
