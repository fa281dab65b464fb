//! Round eleven's left-over constructs about values, schemas and CRDs (issue 39, the twelfth
//! session; docs/precision.md "Round eleven's left-over constructs: values and schemas"), each
//! as a general rule on a minimal repository written for the test.

use crate::util::json::{assumption_kinds, lint_json, of, str_of};
use crate::util::TempDir;

/// A claim a README renders, whose `tables` field the only CRD of its kind in the repository
/// lacks: a CRD kept in a cdk8s project for its code generation.
const CDK8S_COPY: &[(&str, &str)] = &[
    ("README.md", "# Claims\n\n```sh\nytt -f claims | kubectl apply -f-\n```\n"),
    (
        "claims/claim.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: db.example.org/v1alpha1\nkind: Database\nmetadata:\n  name: orders\nspec:\n  size: small\n  tables:\n  - #@ data.values.table\n",
    ),
    ("claims/values.yaml", "#@data/values\n---\ntable: orders\n"),
    ("gen/cdk8s.yaml", "language: typescript\napp: node main.js\nimports:\n  - k8s\n"),
    (
        "gen/crds/databases.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: databases.db.example.org\nspec:\n  group: db.example.org\n  names: {kind: Database, plural: databases, singular: database, listKind: DatabaseList}\n  scope: Namespaced\n  versions:\n  - name: v1alpha1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size: {type: string}\n",
    ),
];

/// The `k8s-schema` findings about `tables`.
fn tables(report: &serde_json::Value) -> Vec<&serde_json::Value> {
    of(report, "k8s-schema")
        .into_iter()
        .filter(|d| str_of(d, "message").contains("\"tables\""))
        .collect()
}

#[test]
fn a_crd_another_definition_contradicts_is_an_assumption_the_finding_names() {
    // FE11-B1: the cluster gets the kind elsewhere; the copy kept for cdk8s may be old.
    let dir = TempDir::with_files(CDK8S_COPY);
    let (code, report) = lint_json(&dir, &[]);
    assert_eq!(code, 0, "{report:#}");
    let found = tables(&report);
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    assert_eq!(
        assumption_kinds(found[0]),
        ["repository-crd"],
        "{:#}",
        found[0]
    );
    let said = found[0]["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("checked against the CRD in gen/crds/databases.yaml, which this root does not render; the cluster's may differ (kept for cdk8s (gen/cdk8s.yaml))"),
        "{said}"
    );

    // The same CRD, where no tool owns it and nothing else defines the kind: certain.
    let mut files: Vec<(&str, &str)> = CDK8S_COPY
        .iter()
        .filter(|(f, _)| *f != "gen/cdk8s.yaml")
        .copied()
        .collect();
    let dir = TempDir::with_files(&files);
    let (code, report) = lint_json(&dir, &[]);
    assert_eq!(code, 1, "{report:#}");
    let found = tables(&report);
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["severity"], "error", "{:#}", found[0]);

    // A Crossplane XRD whose claim is the kind: Crossplane makes the cluster's CRD from it.
    files.push((
        "platform/definition.yaml",
        "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\nmetadata:\n  name: xdatabases.db.example.org\nspec:\n  group: db.example.org\n  names: {kind: XDatabase, plural: xdatabases}\n  claimNames: {kind: Database, plural: databases}\n  versions: []\n",
    ));
    let dir = TempDir::with_files(&files);
    let (code, report) = lint_json(&dir, &[]);
    assert_eq!(code, 0, "{report:#}");
    let found = tables(&report);
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    let said = found[0]["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("the Crossplane XRD in platform/definition.yaml gives the kind"),
        "{said}"
    );

    // The root renders the CRD itself: it is applied with the claim, and certain.
    let mut files: Vec<(&str, &str)> = CDK8S_COPY.to_vec();
    let crd = CDK8S_COPY[4].1;
    files.push(("claims/crd.yaml", crd));
    let dir = TempDir::with_files(&files);
    let (code, report) = lint_json(&dir, &[]);
    assert_eq!(code, 1, "{report:#}");
    let found = tables(&report);
    assert!(
        found.iter().all(|d| d["severity"] == "error") && !found.is_empty(),
        "{report:#}"
    );
}
