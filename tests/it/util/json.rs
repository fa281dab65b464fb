//! yttlint's JSON report (`--format json`) read back: the run, its diagnostics and roots, and
//! the one part that differs between runs (durations) taken out.

use std::path::Path;

use serde_json::Value;

use super::bin::{command, Run};

/// `text` as JSON; the failure shows the text.
pub fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// `yttlint --format json ARGS` in `dir`: the exit status and the report, durations zeroed
/// (see [`without_durations`]).
pub fn lint_json(dir: &Path, args: &[&str]) -> (i32, Value) {
    let run = Run::of(command(dir).args(["--format", "json"]).args(args));
    let report = without_durations(run.json());
    (run.code, report)
}

/// The report with every root's `duration_ms` set to 0: the only part of a report that
/// differs between two runs on the same input.
pub fn without_durations(mut report: Value) -> Value {
    let roots = report["roots"]
        .as_array_mut()
        .unwrap_or_else(|| panic!("no roots array in the report"));
    for root in roots {
        root["duration_ms"] = 0.into();
    }
    report
}

/// The report's findings as `rule severity file:line` lines, for failure messages.
pub fn summary(report: &Value) -> String {
    diagnostics(report)
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{}",
                d["rule"], d["severity"], d["file"], d["line"]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The report's diagnostics.
pub fn diagnostics(report: &Value) -> &[Value] {
    report["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("no diagnostics array in {report}"))
}

/// The `path` of each root (job) of the report, in its order.
pub fn root_paths(report: &Value) -> Vec<String> {
    report["roots"]
        .as_array()
        .unwrap_or_else(|| panic!("no roots array in {report}"))
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect()
}

/// The string value of `key` of `value`; the failure names the key.
pub fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {value}"))
}

/// The findings of `report` of `rule`.
pub fn of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["rule"] == rule)
        .collect()
}

/// The findings of `report` that are errors.
pub fn errors(report: &Value) -> Vec<&Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect()
}

/// The kinds of what a finding assumes (its `certainty.assumptions`).
pub fn assumption_kinds(d: &Value) -> Vec<&str> {
    d["certainty"]["assumptions"]
        .as_array()
        .map(|a| a.iter().map(|a| str_of(a, "kind")).collect())
        .unwrap_or_default()
}

/// What a finding assumes, its assumptions' messages joined by `; `.
pub fn assumption_text(d: &Value) -> String {
    d["certainty"]["assumptions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|a| str_of(a, "message").to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default()
}
