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
