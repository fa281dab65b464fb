//! Round nine's left-over constructs (docs/precision.md, tenth session): files another tool,
//! not ytt, runs or renders first. Each is a general rule on a minimal repository written for
//! the test.

use serde_json::Value;

use crate::util::json::{diagnostics, lint_json, str_of};
use crate::util::TempDir;

/// The findings of `rule` in the report.
fn of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["rule"] == rule)
        .collect()
}

fn assumption_kinds(d: &Value) -> Vec<&str> {
    d["certainty"]["assumptions"]
        .as_array()
        .map(|a| a.iter().map(|a| str_of(a, "kind")).collect())
        .unwrap_or_default()
}

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
    let dir = TempDir::with_files(CHART);
    let (code, report) = lint_json(&dir, &[]);
    let errors: Vec<&Value> = diagnostics(&report)
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    // A misspelt builtin fails whatever shalm gives: it stays an error.
    assert_eq!(errors.len(), 1, "{report:#}");
    assert_eq!(errors[0]["message"], "undefined: strr");
    assert_eq!(code, 1);
    let selfs: Vec<&Value> = of(&report, "template-error")
        .into_iter()
        .filter(|d| str_of(d, "message").starts_with("undefined: self"))
        .collect();
    // One note per file, naming shalm.
    let files: Vec<&str> = selfs.iter().map(|d| str_of(d, "file")).collect();
    assert_eq!(
        files,
        ["ytt-templates/route.yml", "ytt-templates/scale.yml"],
        "{report:#}"
    );
    for d in &selfs {
        assert_eq!(d["severity"], "info", "{report:#}");
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
    let roots = crate::util::yttlint(&dir, &["--list-roots"]).stdout;
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
    let dir = TempDir::with_files(&files);
    let (code, report) = lint_json(&dir, &[]);
    assert_eq!(code, 1);
    let selfs = of(&report, "template-error")
        .into_iter()
        .filter(|d| str_of(d, "message") == "undefined: self")
        .filter(|d| d["severity"] == "error")
        .count();
    assert!(selfs >= 2, "{report:#}");
}
