//! Fingerprints that identify a finding across commits: they hash the rule, the file, the
//! message and the text of the flagged line (not its number), plus an occurrence counter for
//! identical findings, so that inserting lines above a finding does not change it. GitLab Code
//! Quality and the baseline both use them.

use sha2::{Digest, Sha256};
use std::collections::HashMap;

use super::diagnostic::Diagnostic;
use super::sources::Sources;

/// One fingerprint per diagnostic, in the same order, as lowercase hex.
pub fn fingerprints(diagnostics: &[Diagnostic], sources: &Sources) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    diagnostics
        .iter()
        .map(|d| {
            let base = base_key(d, sources);
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            hex(&Sha256::digest(format!("{base}\u{0}{n}").as_bytes()))
        })
        .collect()
}

/// What identifies a finding apart from repetition: rule, root, scenario, file, flagged line
/// text (whitespace-trimmed) and message.
fn base_key(d: &Diagnostic, sources: &Sources) -> String {
    let (file, line_text) = match &d.span {
        Some(span) => (
            span.file.as_str(),
            sources
                .line(&span.file, span.line)
                .map(|l| l.trim().to_string())
                .unwrap_or_default(),
        ),
        None => ("", String::new()),
    };
    format!(
        "{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
        d.rule,
        d.root.as_deref().unwrap_or(""),
        d.scenario.as_deref().unwrap_or(""),
        file,
        line_text,
        without_line_numbers(&d.message)
    )
}

/// The message with `file:123` line references blanked, so a shift elsewhere in the file that
/// changes a quoted position does not change the fingerprint.
fn without_line_numbers(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut after_colon = false;
    for c in message.chars() {
        if after_colon && c.is_ascii_digit() {
            continue;
        }
        after_colon = c == ':';
        out.push(c);
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::diagnostic::Span;
    use crate::report::Rule;

    fn diag(line: u32) -> Diagnostic {
        Diagnostic::new(
            Rule::DataValueViolation,
            "port: must be: > 0 (by: values.yml:3)",
        )
        .at(Span::point("config/values.yml", line, 7))
    }

    #[test]
    fn survives_line_shifts() {
        let before = Sources::new("/nonexistent");
        before.insert("config/values.yml", "a: 1\nport: 0\n");
        let after = Sources::new("/nonexistent");
        after.insert("config/values.yml", "#! new\n#! lines\na: 1\nport: 0\n");
        assert_eq!(
            fingerprints(&[diag(2)], &before),
            fingerprints(&[diag(4)], &after)
        );
    }

    #[test]
    fn repeated_findings_differ() {
        let sources = Sources::new("/nonexistent");
        sources.insert("config/values.yml", "port: 0\nport: 0\n");
        let prints = fingerprints(&[diag(1), diag(2)], &sources);
        assert_ne!(prints[0], prints[1]);
    }

    #[test]
    fn changed_line_text_changes_it() {
        let a = Sources::new("/nonexistent");
        a.insert("config/values.yml", "port: 0\n");
        let b = Sources::new("/nonexistent");
        b.insert("config/values.yml", "port: -1\n");
        assert_ne!(fingerprints(&[diag(1)], &a), fingerprints(&[diag(1)], &b));
    }
}
