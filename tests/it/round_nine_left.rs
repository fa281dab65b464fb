//! Round nine's left-over constructs (docs/precision.md, tenth session): files another tool,
//! not ytt, runs or renders first. Each is a general rule on a minimal repository written for
//! the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, str_of};
use crate::util::repo::{Lint, Repo};

/// A shalm chart: its entry point fills the chart object, a helper in shalm's dialect, and
/// templates that read `self` (one with a misspelt builtin besides).
const CHART: &[(&str, &str)] = &[
    (
        "Chart.star",
        "def init(self, host=\"demo.local\", replicas=1):\n  self.host = host\n  self.replicas = replicas\n\ndef apply(self, k8s):\n  self.__apply(k8s)\n",
    ),
    (
        "tools/env.star",
        "load(\"@ytt:yaml\", \"yaml\")\n\ndef settings():\n    text = env(\"SETTINGS\")\n    if len(text) == 0:\n        return None\n    return yaml.decode(text)\n",
    ),
    (
        "ytt-templates/route.yml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: route\ndata:\n  host: #@ self.host\n  alias: #@ \"www.\" + self.host\n",
    ),
    (
        "ytt-templates/scale.yml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scale\ndata:\n  replicas: #@ strr(self.replicas)\n",
    ),
];

#[test]
fn a_shalm_chart_s_self_and_starlark_are_shalm_s() {
    // FA-3: shalm binds `self` for the templates it renders, and its .star files are in its
    // Python-indented dialect.
    let dir = Repo::of(CHART);
    let lint = dir.lint();
    let errors: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    // A misspelt builtin fails whatever shalm gives: it stays an error.
    assert_eq!(errors.len(), 1, "{lint}");
    assert_eq!(errors[0]["message"], "undefined: strr");
    assert_eq!(lint.code, 1);
    let selfs: Vec<&Value> = lint
        .of("template-error")
        .into_iter()
        .filter(|d| str_of(d, "message").starts_with("undefined: self"))
        .collect();
    // One note per file, naming shalm.
    let files: Vec<&str> = selfs.iter().map(|d| str_of(d, "file")).collect();
    assert_eq!(
        files,
        ["ytt-templates/route.yml", "ytt-templates/scale.yml"],
        "{lint}"
    );
    for d in &selfs {
        assert_eq!(d["severity"], "info", "{lint}");
        assert!(assumption_kinds(d).contains(&"wrapper-tool"), "{d:#}");
        let said = d["certainty"]["assumptions"].to_string();
        assert!(
            said.contains("shalm renders these files (Chart.star) and binds `self`"),
            "{said}"
        );
    }
    assert_eq!(
        str_of(selfs[0], "message"),
        "undefined: self (and 1 more lines of this file use it)"
    );
    // shalm's Starlark is not linted as ytt's, and says why.
    let roots = dir.roots();
    assert!(
        roots.contains("tools/env.star: not a ytt file: shalm's Starlark (the chart of Chart.star"),
        "{roots}"
    );
    assert!(
        roots.contains("Chart.star: not a ytt file: shalm's Starlark"),
        "{roots}"
    );

    // Without the chart, the same templates fail under ytt: `self` is an error again.
    let files: Vec<(&str, &str)> = CHART[2..].to_vec();
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1);
    let selfs = lint
        .of("template-error")
        .into_iter()
        .filter(|d| str_of(d, "message") == "undefined: self")
        .filter(|d| d["severity"] == "error")
        .count();
    assert!(selfs >= 2, "{lint}");
}

/// A Helm chart's template that writes a TKG addon Secret whose `values.yaml` string holds ytt
/// data values with Helm actions in them.
fn addon_chart(replicas: &str) -> Repo {
    let secret = format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{{{ .Values.cluster }}}}-csi\nstringData:\n  values.yaml: |\n    #@data/values\n    ---\n    csi:\n      replicas: {replicas}\ntype: tkg.tanzu.vmware.com/addon\n"
    );
    Repo::of(&[
        (
            "deploy/chart/Chart.yaml",
            "apiVersion: v2\nname: addons\nversion: 0.1.0\n",
        ),
        ("deploy/chart/templates/csi.yaml", secret.as_str()),
    ])
}

#[test]
fn a_ytt_string_in_a_helm_template_is_rendered_by_helm_first() {
    // FA-5: Helm fills in the `{{ }}` before ytt ever reads the string.
    let dir = addon_chart("{{ if eq .Values.plan \"prod\" }}3{{ else }}1{{ end }}");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    let syntax = lint.of("yaml-syntax");
    assert!(!syntax.is_empty(), "{lint}");
    assert!(syntax.iter().all(|d| d["severity"] == "info"), "{lint}");
    let inner = syntax
        .iter()
        .find(|d| str_of(d, "message").contains("'values.yaml'"))
        .unwrap_or_else(|| panic!("no finding of the string: {lint}"));
    assert!(
        assumption_kinds(inner).contains(&"other-template"),
        "{inner:#}"
    );
    let said = inner["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("Helm (deploy/chart/Chart.yaml) renders deploy/chart/templates/csi.yaml"),
        "{said}"
    );

    // A string that is broken whatever Helm does stays a warning.
    let dir = addon_chart("[1");
    let lint = dir.lint();
    let inner: Vec<&Value> = lint
        .of("yaml-syntax")
        .into_iter()
        .filter(|d| str_of(d, "message").contains("'values.yaml'"))
        .collect();
    assert_eq!(inner.len(), 1, "{lint}");
    assert_eq!(inner[0]["severity"], "warning", "{lint}");
    assert!(!assumption_kinds(inner[0]).contains(&"other-template"));
}

#[test]
fn a_comment_that_starts_with_at_makes_no_ytt_file() {
    // FA-8: a cron schedule with a `#@daily` comment, applied with kubectl.
    let cron = "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: backup\nspec:\n  schedule: \"0 0 * * *\" #@daily\n";
    let files: &[(&str, &str)] = &[
        ("ops/backup.yaml", cron),
        ("README.md", "```\nkubectl apply -f ops/backup.yaml\n```\n"),
    ];
    let lint = Repo::of(files).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.diagnostics().is_empty(), "{lint}");

    // Given to ytt by a command of the repository, ytt reads the comment as an annotation it
    // ignores: the warning stays.
    let mut files = files.to_vec();
    files.push((
        "ops/app.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: #@ data.values.name\n",
    ));
    files.push(("ops/values.yaml", "#@data/values\n---\nname: app\n"));
    files.push(("render.sh", "#!/bin/sh\nytt -f ops > out.yaml\n"));
    let lint = Repo::of(&files).lint();
    let found = lint.of("unknown-annotation");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning");

    // A namespaced annotation after a value is ytt's: the file stays a template.
    let typo = cron.replace("#@daily", "#@overlay/matc");
    let lint = Repo::of(&[("ops/backup.yaml", typo.as_str())]).lint();
    assert!(!lint.diagnostics().is_empty(), "{lint}");
}

/// An App whose ytt path is a kustomize overlay: two strategic-merge patches of one
/// Deployment and, when `kustomization` is set, the kustomization that names them.
fn app_on_overlay(kustomization: bool) -> Repo {
    let mut files: Vec<(&str, &str)> = vec![
        (
            "apps/web.yaml",
            "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: web\nspec:\n  fetch:\n  - git:\n      url: https://example.org/team/web\n      subPath: deploy/overlays/prod\n  template:\n  - ytt:\n      paths: [\".\"]\n  deploy:\n  - kapp: {}\n",
        ),
        (
            "deploy/overlays/prod/replicas.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n",
        ),
        (
            "deploy/overlays/prod/resources.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {limits: {memory: 1Gi}}\n",
        ),
    ];
    if kustomization {
        files.push((
            "deploy/overlays/prod/kustomization.yaml",
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../base]\npatches:\n- path: replicas.yaml\n- path: resources.yaml\n",
        ));
    }
    Repo::of(&files)
}

#[test]
fn an_app_that_gives_ytt_a_kustomize_tree_rests_on_it() {
    // SA-1: kapp-controller runs no kustomize; ytt renders each patch as an object.
    let lint = Lint::run(&app_on_overlay(true), &[]);
    assert_eq!(lint.code, 0, "{lint}");
    let found: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["rule"] == "k8s-schema" || d["rule"] == "duplicate-object")
        .collect();
    assert!(found.len() >= 2, "{lint}");
    for d in &found {
        assert_eq!(d["severity"], "warning", "{d:#}");
        assert!(assumption_kinds(d).contains(&"kustomize-tree"), "{d:#}");
    }
    let said = found[0]["certainty"]["assumptions"].to_string();
    assert!(
        said.contains("is a kustomize tree (deploy/overlays/prod/kustomization.yaml): the ytt step of App web"),
        "{said}"
    );

    // The same files without a kustomization are the App's objects: the errors are certain.
    let lint = Lint::run(&app_on_overlay(false), &[]);
    assert_eq!(lint.code, 1, "{lint}");
    let errors = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] == "error" && d["rule"] == "duplicate-object")
        .count();
    assert_eq!(errors, 1, "{lint}");
}
