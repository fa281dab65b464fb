//! Round nine's lost errors (docs/precision.md, "Round nine's left-over constructs"): ytt
//! fails on a command the repository certainly runs, and the linter must say so, as an error
//! where the command and its inputs are certain and as a warning naming the assumption
//! elsewhere. Each on a minimal repository written here.

use crate::util::json::assumption_kinds;
use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// A package whose `config/` holds ytt overlays and a vendored Helm chart (Go templates).
fn chart_package(extra: &[(&str, &str)]) -> Repo {
    let mut files: Vec<(&str, &str)> = vec![
        (
            "pkg/config/overlays/labels.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    team: web\n",
        ),
        (
            "pkg/config/upstream/web/Chart.yaml",
            "apiVersion: v2\nname: web\nversion: 1.0.0\n",
        ),
        (
            "pkg/config/upstream/web/templates/service.yaml",
            "apiVersion: v1\n{{- if .Values.service.enabled }}\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n{{- end }}\n",
        ),
        (
            "pkg/config/upstream/web/values.yaml",
            "service:\n  enabled: true\n",
        ),
    ];
    files.extend_from_slice(extra);
    Repo::of(&files)
}

/// The `yaml-syntax` finding of the chart's template.
fn chart_syntax(lint: &Lint) -> Value {
    let found = lint.of("yaml-syntax");
    let d = found
        .iter()
        .find(|d| {
            d["file"]
                .as_str()
                .unwrap_or("")
                .ends_with("templates/service.yaml")
        })
        .unwrap_or_else(|| panic!("no yaml-syntax finding in the chart: {lint}"));
    (*d).clone()
}

#[test]
fn a_certain_command_on_a_vendored_chart_fails_as_ytt_does() {
    // LA-7: the recipe gives ytt the chart's templates as committed; no step renders them.
    for (file, text) in [
        (
            "Taskfile.yml",
            "version: '3'\nvars:\n  OUT: out.yml\ntasks:\n  kbld:\n    cmds:\n      - ytt --file pkg/config | kbld -f- > {{.OUT}}\n",
        ),
        ("Makefile", "ytt:\n\tytt -f pkg/config > out.yml\n"),
        (
            "hack/render.sh",
            "#!/bin/sh\nset -e\ncd \"$(dirname \"$0\")/..\"\nytt -f pkg/config | kapp deploy -a web -f- -y\n",
        ),
    ] {
        let dir = chart_package(&[(file, text)]);
        let lint = dir.lint();
        assert_eq!(lint.code, 1, "{file}: {lint}");
        let d = chart_syntax(&lint);
        assert_eq!(d["severity"], "error", "{file}: {d:#}");
        assert!(assumption_kinds(&d).is_empty(), "{file}: {d:#}");
        assert!(
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("Unmarshaling YAML template"),
            "{d:#}"
        );
    }
}

#[test]
fn a_renderer_that_feeds_the_command_keeps_the_other_tool_assumption() {
    for (file, text) in [
        // A page shows the command: its reader may render the chart first.
        (
            "README.md",
            "# web\n\n```shell\nytt -f pkg/config | kapp deploy -a web -f- -y\n```\n",
        ),
        // A pipe renders the chart in front of ytt.
        (
            "Makefile",
            "test:\n\thelm template web pkg/config/upstream/web \\\n\t  | ytt -f - -f pkg/config > out.yml\n",
        ),
        // The script sources another tool's template: that tool renders the tree it is in.
        (
            "pkg/deploy.sh",
            "#!/bin/bash\nsource ./env.sh\nytt -f config | kapp deploy -a web -f- -y\n",
        ),
        // An earlier step renders the template in place.
        (
            "render.sh",
            "#!/bin/sh\ngomplate -f pkg/config/upstream/web/templates/service.yaml -o pkg/config/upstream/web/templates/service.yaml\nytt -f pkg/config\n",
        ),
    ] {
        let env = ("pkg/env.sh", "export DOMAIN=\"{{{ .environment.domain }}}\"\n");
        let dir = chart_package(&[(file, text), env]);
        let lint = dir.lint();
        let d = chart_syntax(&lint);
        assert_eq!(d["severity"], "info", "{file}: {d:#}");
        assert!(assumption_kinds(&d).contains(&"other-template"), "{file}: {d:#}");
    }
}

/// A page's command that gives its data values on its line, and a template that reads a key
/// no file or flag declares.
fn documented_command(command: &str) -> Repo {
    Repo::of(&[
        (
            "README.md",
            &format!("# Portal\n\nDeploy it:\n\n```shell\n{command}\n```\n"),
        ),
        (
            "overlays/portal.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"ConfigMap\"})\n---\ndata:\n  #@overlay/match missing_ok=True\n  password: #@ data.values.password\n",
        ),
        (
            "resources/portal.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: portal\ndata:\n  registry: #@ data.values.registry.password\n",
        ),
    ])
}

#[test]
fn a_page_s_command_given_its_values_in_full_fails_as_a_script_s_does() {
    // LA-4: every reader who follows the page runs ytt with `password` alone: `registry` is
    // declared nowhere, and ytt stops.
    for value in ["portal-demo-pass", "REPLACEME"] {
        let dir = documented_command(&format!(
            "ytt -f overlays/portal.yaml -f resources --data-value password={value} | kubectl apply -f -"
        ));
        let lint = dir.lint();
        let found = lint.of("template-error");
        let d = found
            .iter()
            .find(|d| d["message"].as_str().unwrap_or("").contains("registry"))
            .unwrap_or_else(|| panic!("{value}: no template-error: {lint}"));
        assert_eq!(d["severity"], "warning", "{value}: {d:#}");
        assert!(
            assumption_kinds(d).contains(&"example-values"),
            "{value}: {d:#}"
        );
        assert!(lint.of("needs-input").is_empty(), "{value}: {lint}");
    }
    // A page's command that leaves the values to its reader still needs them: values the page's
    // own renderer fills in first (a workshop's `{{< param x >}}`) are not written out.
    for command in [
        "ytt -f overlays/portal.yaml -f resources | kubectl apply -f -",
        "ytt -f overlays/portal.yaml -f resources -v password={{< param password >}} | kubectl apply -f -",
    ] {
        let dir = documented_command(command);
        let lint = dir.lint();
        assert_eq!(lint.code, 0, "{command}: {lint}");
        assert!(lint.of("template-error").is_empty(), "{command}: {lint}");
        assert_eq!(lint.of("needs-input").len(), 1, "{command}: {lint}");
    }
}

/// A Package whose ytt step adds an overlay written inline.
fn inline_overlay_package(overlay: &str) -> Repo {
    let indented: String = overlay
        .lines()
        .map(|l| format!("                {l}\n"))
        .collect();
    Repo::of(&[(
        "packages/web/1.0.0.yaml",
        &format!(
            "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: web.example.org.1.0.0\nspec:\n  refName: web.example.org\n  version: 1.0.0\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle:\n          image: registry.example.org/web:1.0.0\n      template:\n      - ytt:\n          paths:\n          - config/\n          inline:\n            paths:\n              overlay.yaml: |\n{indented}      deploy:\n      - kapp: {{}}\n"
        ),
    )])
}

#[test]
fn an_inline_file_of_a_ytt_step_is_a_ytt_input_whatever_its_first_line() {
    // LA-1: no `load` of `@ytt:overlay` or `@ytt:data`: ytt stops at `overlay`.
    let dir = inline_overlay_package(
        "#@overlay/match by=overlay.all, expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  namespace: #@ data.values.namespace\n",
    );
    let lint = dir.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["file"] == "packages/web/1.0.0.yaml" && d["severity"] == "error")
        .collect();
    assert!(
        found
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("overlay")),
        "{lint}"
    );
    assert_eq!(found[0]["line"], 20, "{:#}", found[0]);
    assert_eq!(
        found[0]["certainty"]["source"], "embedded",
        "{:#}",
        found[0]
    );
    assert_eq!(found[0]["certainty"]["certain"], true, "{:#}", found[0]);
    // With its loads, the same overlay is fine.
    let dir = inline_overlay_package(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  namespace: #@ data.values.namespace\n",
    );
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_root_that_reads_data_it_never_loads_has_no_unused_values() {
    // The page's command is known, so its root's values are checked for use; the template
    // reads them through a `data` it never loads: the error is the finding, not the values.
    let lint = Repo::of(&[
        (
            "README.md",
            "```\nytt -f config -v env=prod | kubectl apply -f-\n```\n",
        ),
        ("config/values.yml", "#@data/values\n---\nenv: dev\n"),
        (
            "config/cm.yml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  env: #@ data.values.env\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    assert!(
        lint.of("template-error")
            .iter()
            .any(|d| d["message"] == "undefined: data" && d["severity"] == "error"),
        "{lint}"
    );
    assert!(lint.of("data-value-unused").is_empty(), "{lint}");
}
