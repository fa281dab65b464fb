//! Round eleven's left-over constructs about values, schemas and CRDs (issue 39, the twelfth
//! session; docs/precision.md "Round eleven's left-over constructs: values and schemas"), each
//! as a general rule on a minimal repository written for the test.

use crate::util::json::{assumption_kinds, str_of};
use crate::util::repo::{Lint, Repo};

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
fn tables(lint: &Lint) -> Vec<&serde_json::Value> {
    lint.of("k8s-schema")
        .into_iter()
        .filter(|d| str_of(d, "message").contains("\"tables\""))
        .collect()
}

#[test]
fn a_crd_another_definition_contradicts_is_an_assumption_the_finding_names() {
    // FE11-B1: the cluster gets the kind elsewhere; the copy kept for cdk8s may be old.
    let lint = Repo::of(CDK8S_COPY).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = tables(&lint);
    assert_eq!(found.len(), 1, "{lint}");
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
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = tables(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{:#}", found[0]);

    // A Crossplane XRD whose claim is the kind: Crossplane makes the cluster's CRD from it.
    files.push((
        "platform/definition.yaml",
        "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\nmetadata:\n  name: xdatabases.db.example.org\nspec:\n  group: db.example.org\n  names: {kind: XDatabase, plural: xdatabases}\n  claimNames: {kind: Database, plural: databases}\n  versions: []\n",
    ));
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = tables(&lint);
    assert_eq!(found.len(), 1, "{lint}");
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
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = tables(&lint);
    assert!(
        found.iter().all(|d| d["severity"] == "error") && !found.is_empty(),
        "{lint}"
    );
}

/// An install script whose values the docs say to start from a sample, which names what
/// belongs in each certificate field instead of holding one.
const SAMPLE_WORDS: &[(&str, &str)] = &[
    (
        "docs/install.md",
        "# Install\n\n```\ncp sample-values.yml /tmp/values.yml\n```\n\nReplace each certificate in /tmp/values.yml with your own, base64-encoded, then run:\n\n```\n./bin/install.sh /tmp/values.yml\n```\n",
    ),
    (
        "sample-values.yml",
        "#@data/values\n---\ngateway:\n  ca: internal_gateway_ca_certificate\n  replicas: 2\n",
    ),
    ("bin/install.sh", "#!/bin/sh\nytt -f config -f \"$1\" > /tmp/out.yml\n"),
    (
        "config/values.yml",
        "#@data/values\n---\ngateway:\n  ca: \"\"\n  replicas: 1\n",
    ),
    (
        "config/gateway.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:base64\", \"base64\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gateway\ndata:\n  ca.crt: #@ base64.decode(data.values.gateway.ca)\n  replicas: #@ str(data.values.gateway.replicas)\n",
    ),
];

#[test]
fn a_failure_on_a_word_the_sample_leaves_where_a_value_belongs_is_a_note() {
    // The cf-for-k8s forks of round eleven: `crt: ingress_gateway_certificate` in the sample
    // the docs say to start from, which a template decodes as base64.
    let lint = Repo::of(SAMPLE_WORDS).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let failed = lint.of("template-error");
    let d = failed
        .iter()
        .find(|d| str_of(d, "message").contains("base64.decode"))
        .unwrap_or_else(|| panic!("the failure is said: {lint}"));
    assert_eq!(d["severity"], "info", "{d:#}");
    let said = d["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("leaves `gateway.ca` (sample-values.yml:4) blank or as placeholder words for the user to fill in"),
        "{said}"
    );

    // A sample value that is no such word (text with spaces) fails for every user who keeps
    // it: the warning stays.
    let mut files = SAMPLE_WORDS.to_vec();
    files[1].1 = "#@data/values\n---\ngateway:\n  ca: not base64 at all\n  replicas: 2\n";
    let lint = Repo::of(&files).lint();
    let failed = lint.of("template-error");
    let d = failed
        .iter()
        .find(|d| str_of(d, "message").contains("base64.decode"))
        .unwrap_or_else(|| panic!("the failure is reported: {lint}"));
    assert_eq!(d["severity"], "warning", "{d:#}");
}

/// A Makefile target that writes the secrets' values file just before the command that
/// reads it; the committed defaults hold placeholders where the key's base64 goes.
const WRITTEN_SECRETS: &[(&str, &str)] = &[
    (
        "Makefile",
        "SECRETS=.secrets.yaml\n\ndeploy: secrets\n\tytt -f app --data-values-file $(SECRETS) | kapp deploy -a app -f- -y\n\t-rm $(SECRETS)\n\nsecrets:\n\tSECRETS=$(SECRETS) scripts/secrets.sh\n",
    ),
    (
        "scripts/secrets.sh",
        "#!/bin/sh\nkey=$(base64 < \"$HOME/.ssh/id_ed25519\")\nprintf \"git:\\n  key: %s\\n\" \"$key\" >> \"$SECRETS\"\n",
    ),
    ("app/values.yaml", "#@data/values\n---\ngit:\n  key: ZZZZZ\n"),
    (
        "app/secret.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: git\ndata:\n  key: #@ data.values.git.key\n",
    ),
];

#[test]
fn a_value_check_of_a_placeholder_the_run_time_values_replace_is_a_note() {
    // FA11-4's second half (round eleven's micropets): the command's own values give the key.
    let lint = Repo::of(WRITTEN_SECRETS).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = lint.of("k8s-schema");
    let d = found
        .iter()
        .find(|d| str_of(d, "message").contains("found string \"ZZZZZ\""))
        .unwrap_or_else(|| panic!("the check is said: {lint}"));
    assert_eq!(d["severity"], "info", "{d:#}");
    let said = d["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("`git.key` (app/values.yaml:4) holds the placeholder `ZZZZZ`, which the values the command gets at run time replace"),
        "{said}"
    );

    // Without values given at run time the placeholder reaches the cluster: still a warning.
    let mut files = WRITTEN_SECRETS.to_vec();
    files[0].1 = "deploy:\n\tytt -f app | kapp deploy -a app -f- -y\n";
    let lint = Repo::of(&files).lint();
    let found = lint.of("k8s-schema");
    let d = found
        .iter()
        .find(|d| str_of(d, "message").contains("found string \"ZZZZZ\""))
        .unwrap_or_else(|| panic!("the check is reported: {lint}"));
    assert_eq!(d["severity"], "warning", "{d:#}");
}

/// Two versions of a service's schemas; the Makefile gives the newer one's files one by one.
const VERSIONS: &[(&str, &str)] = &[
    (
        "Makefile",
        "VERSION=versions/v2\n\ncats:\n\tytt -f service -f $(VERSION)/default-schema.yaml -f $(VERSION)/cats-values.yaml > cats.yaml\n",
    ),
    (
        "service/deployment.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.service.name\ndata:\n  app: #@ data.values.application.name\n",
    ),
    (
        "versions/v1/default-schema.yaml",
        "#@data/values-schema\n---\napplication:\n  name: shop\nservice:\n  name: \"\"\n",
    ),
    (
        "versions/v1/cats-values.yaml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values-schema\n---\nservice:\n  name: cats\n",
    ),
    (
        "versions/v2/default-schema.yaml",
        "#@data/values-schema\n---\napplication:\n  name: shop\nservice:\n  name: \"\"\n",
    ),
    (
        "versions/v2/cats-values.yaml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\nservice:\n  name: cats\n",
    ),
];

#[test]
fn a_directory_of_inputs_checked_on_its_own_says_nothing_of_how_they_combine() {
    // micropets (round eleven, after the merge): an older version's schemas, overlaid in the
    // order of their names, which no command gives together.
    let lint = Repo::of(VERSIONS).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = lint.of("schema-invalid");
    assert!(!found.is_empty(), "{lint}");
    for d in &found {
        assert_eq!(d["severity"], "info", "{d:#}");
        assert!(assumption_kinds(d).contains(&"inferred-command"), "{d:#}");
    }
}
