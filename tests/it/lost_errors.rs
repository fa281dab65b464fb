//! Round nine's lost errors (docs/precision.md, "Round nine's left-over constructs"): ytt
//! fails on a command the repository certainly runs, and the linter must say so, as an error
//! where the command and its inputs are certain and as a warning naming the assumption
//! elsewhere. Each on a minimal repository written here.

use serde_json::Value;

use crate::util::json::{diagnostics, lint_json};
use crate::util::TempDir;

/// The findings of `rule` in the report.
fn of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["rule"] == rule)
        .collect()
}

/// The kinds of the assumptions a finding names.
fn kinds(d: &Value) -> Vec<&str> {
    d["certainty"]["assumptions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["kind"].as_str())
        .collect()
}

/// A package whose `config/` holds ytt overlays and a vendored Helm chart (Go templates).
fn chart_package(extra: &[(&str, &str)]) -> TempDir {
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
    TempDir::with_files(&files)
}

/// The `yaml-syntax` finding of the chart's template.
fn chart_syntax(report: &Value) -> Value {
    let found = of(report, "yaml-syntax");
    let d = found
        .iter()
        .find(|d| {
            d["file"]
                .as_str()
                .unwrap_or("")
                .ends_with("templates/service.yaml")
        })
        .unwrap_or_else(|| panic!("no yaml-syntax finding in the chart: {report:#}"));
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
        let (code, report) = lint_json(&dir, &[]);
        assert_eq!(code, 1, "{file}: {report:#}");
        let d = chart_syntax(&report);
        assert_eq!(d["severity"], "error", "{file}: {d:#}");
        assert!(kinds(&d).is_empty(), "{file}: {d:#}");
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
        let (_, report) = lint_json(&dir, &[]);
        let d = chart_syntax(&report);
        assert_eq!(d["severity"], "info", "{file}: {d:#}");
        assert!(kinds(&d).contains(&"other-template"), "{file}: {d:#}");
    }
}
