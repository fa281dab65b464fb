//! The baseline: findings accepted as they are, so that only new ones are reported.
//! `--write-baseline FILE` records the fingerprint of every finding (see
//! [`crate::report::fingerprint`]: rule, root, scenario, file, the flagged line's text and the
//! message, not line numbers, so shifted lines keep matching); `--baseline FILE` drops the
//! findings whose fingerprint it holds. The file is JSON, one entry per finding, sorted.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{json, Value};

use crate::report::fingerprint::fingerprints;
use crate::report::{Diagnostic, Sources};

/// Format version written and accepted.
const VERSION: u64 = 1;

/// Fingerprints of accepted findings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    prints: HashSet<String>,
}

/// The baseline file's text for `diagnostics` (in their report order).
pub fn render(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let prints = fingerprints(diagnostics, sources);
    let mut entries: Vec<Value> = diagnostics
        .iter()
        .zip(prints)
        .map(|(d, fp)| {
            json!({
                "fingerprint": fp,
                "rule": d.rule,
                "file": d.span.as_ref().map(|s| s.file.clone()),
                "root": d.root,
                "scenario": d.scenario,
                "message": d.summary(),
            })
        })
        .collect();
    entries.sort_by(|a, b| a["fingerprint"].as_str().cmp(&b["fingerprint"].as_str()));
    let doc = json!({"version": VERSION, "findings": entries});
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// The largest baseline read (a file the repository may have committed).
const MAX_BYTES: u64 = 16 << 20;

/// Writes the baseline of `diagnostics` to `path`, whole and never through a symlink.
pub fn write(path: &Path, diagnostics: &[Diagnostic], sources: &Sources) -> Result<(), String> {
    crate::files::write::write_file(path, render(diagnostics, sources).as_bytes(), "baseline")
}

impl Baseline {
    /// Reads a baseline file.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let shown = path.display();
        let bytes = crate::files::open::read_regular(path, MAX_BYTES)
            .map_err(|e| format!("cannot read the baseline {shown}: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("cannot read the baseline {shown}: not UTF-8"))?;
        Baseline::parse(&text).map_err(|e| format!("invalid baseline {shown}: {e}"))
    }

    fn parse(text: &str) -> Result<Baseline, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if doc["version"].as_u64() != Some(VERSION) {
            return Err(format!("expected \"version\": {VERSION}"));
        }
        let entries = doc["findings"]
            .as_array()
            .ok_or("expected a \"findings\" list")?;
        let mut prints = HashSet::new();
        for e in entries {
            let fp = e["fingerprint"]
                .as_str()
                .ok_or("expected a \"fingerprint\" string in every finding")?;
            prints.insert(fp.to_string());
        }
        Ok(Baseline { prints })
    }

    /// The diagnostics not in the baseline, and how many were.
    pub fn filter(
        &self,
        diagnostics: Vec<Diagnostic>,
        sources: &Sources,
    ) -> (Vec<Diagnostic>, usize) {
        let prints = fingerprints(&diagnostics, sources);
        let before = diagnostics.len();
        let kept: Vec<Diagnostic> = diagnostics
            .into_iter()
            .zip(prints)
            .filter(|(_, fp)| !self.prints.contains(fp))
            .map(|(d, _)| d)
            .collect();
        let matched = before - kept.len();
        (kept, matched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::Span;

    fn diag(line: u32, message: &str) -> Diagnostic {
        Diagnostic::new(Rule::TemplateError, message).at(Span::point("c/a.yml", line, 1))
    }

    #[test]
    fn recorded_findings_are_dropped_even_when_lines_shift() {
        let before = Sources::new("/nonexistent");
        before.insert("c/a.yml", "a: #@ x\nb: #@ y\n");
        let text = render(&[diag(1, "undefined: x")], &before);
        let baseline = Baseline::parse(&text).unwrap();
        let after = Sources::new("/nonexistent");
        after.insert("c/a.yml", "#! new line\na: #@ x\nb: #@ y\n");
        let (kept, matched) = baseline.filter(
            vec![diag(2, "undefined: x"), diag(3, "undefined: y")],
            &after,
        );
        assert_eq!(matched, 1);
        assert_eq!(kept, vec![diag(3, "undefined: y")]);
    }

    #[test]
    fn malformed_files_are_refused() {
        assert!(Baseline::parse("[]").is_err());
        assert!(Baseline::parse("{\"version\": 1, \"findings\": [{}]}").is_err());
        assert!(Baseline::parse("{\"version\": 1, \"findings\": []}").is_ok());
    }
}
