//! Report rendering as a fuzz target: a run's report made of fuzz bytes
//! ([`super::report_input`]) goes through the run's last step (spans widened, findings merged,
//! statuses settled, sorted) and is rendered in every format: terminal, JSON, JUnit, SARIF,
//! GitHub, GitLab, the statistics, the GitHub step summary, the fix summary and diffs, and the
//! coverage formats.
//!
//! Besides not panicking, what a hostile message or path must not break is checked: JSON,
//! SARIF and GitLab parse back as JSON, with one result per finding; the GitHub format has one
//! workflow command per finding and no line a finding's text could start; the step summary has
//! one table row per finding; the uncoloured terminal text has no control character but line
//! breaks and tabs; fingerprints are unique. The XML formats (JUnit, Cobertura) are checked by
//! the callers, which have an XML parser (`fuzz/fuzz_targets/report_render.rs`,
//! `tests/it/fuzz_smoke.rs`).

use super::report_input::read;
use super::setup;
use crate::fix::apply::{apply, choose};
use crate::fix::diff::unified;
use crate::report::{render, Format, Report, Severity};

/// Every output of one report, by name (a format's, or `statistics`, `step-summary`,
/// `fixable`, `coverage-summary`, `lcov`, `cobertura`, `diff`).
pub struct Rendered {
    /// How many findings the report has (after the run's last step).
    pub findings: usize,
    /// The terminal format is coloured.
    pub color: bool,
    pub outputs: Vec<(&'static str, String)>,
}

impl Rendered {
    /// The outputs that are XML documents.
    pub const XML: [&'static str; 2] = ["junit", "cobertura"];

    pub fn get(&self, name: &str) -> Option<&str> {
        self.outputs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
    }
}

/// Renders the report of `data` every way and checks the outputs ([`check_reports`]).
pub fn report_render(data: &[u8]) {
    check_reports(&rendered_reports(data));
}

/// Panics when an output breaks what this module's comment says (but for XML).
pub fn check_reports(rendered: &Rendered) {
    for name in ["json", "sarif", "gitlab"] {
        let text = rendered.get(name).unwrap_or_default();
        let value: Result<serde_json::Value, _> = serde_json::from_str(text);
        let Ok(value) = value else {
            panic!("{name} is not JSON: {text}");
        };
        let results = match name {
            "json" => value.get("diagnostics"),
            "sarif" => value.pointer("/runs/0/results"),
            _ => Some(&value),
        };
        let count = results.and_then(|r| r.as_array()).map(Vec::len);
        assert_eq!(count, Some(rendered.findings), "{name}: {text}");
    }
    check_github(rendered);
    check_step_summary(rendered);
    if !rendered.color {
        let terminal = rendered.get("terminal").unwrap_or_default();
        let bad = terminal
            .chars()
            .find(|c| c.is_control() && *c != '\n' && *c != '\t');
        assert_eq!(bad, None, "terminal: {terminal:?}");
    }
}

/// One workflow command per finding, then the summary: a finding's text never ends its
/// command early, adds a property or starts another command.
fn check_github(rendered: &Rendered) {
    let text = rendered.get("github").unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let commands = lines.iter().filter(|l| l.starts_with("::")).count();
    assert_eq!(commands, rendered.findings, "github: {text}");
    assert!(lines.len() <= commands + 2, "github: {text}");
    for line in &lines[..commands] {
        let Some((command, rest)) = line[2..].split_once(' ') else {
            panic!("github: {line}");
        };
        assert!(["error", "warning", "notice"].contains(&command), "{line}");
        let properties = rest.split("::").next().unwrap_or_default();
        let known = properties.split(',').all(|p| {
            ["file=", "line=", "endLine=", "col=", "endColumn=", "title="]
                .iter()
                .any(|k| p.starts_with(k))
        });
        assert!(known, "github: {line}");
    }
}

/// One table row per finding in the step summary (when GitHub hides some).
fn check_step_summary(rendered: &Rendered) {
    let Some(text) = rendered.get("step-summary") else {
        return;
    };
    let rows = text
        .lines()
        .filter(|l| {
            [Severity::Error, Severity::Warning, Severity::Info]
                .iter()
                .any(|s| l.starts_with(&format!("| {} | ", s.as_str())))
        })
        .count();
    // The rows that fit, and how many more the last line counts.
    let more: usize = text
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("and "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert_eq!(rows + more, rendered.findings, "step summary: {text}");
}

/// The report of `data` after the run's last step, rendered every way.
pub fn rendered_reports(data: &[u8]) -> Rendered {
    setup();
    let mut run = read(data);
    crate::lint::post::finish(&mut run.report, &run.sources, None);
    let report = &run.report;
    let mut outputs: Vec<(&'static str, String)> = Vec::new();
    for format in Format::ALL {
        let mut options = run.options.clone();
        if format != Format::Terminal {
            options.color = false;
            options.path_base = String::new();
        }
        outputs.push((
            format.name(),
            render(format, report, &run.sources, &options),
        ));
    }
    outputs.push((
        "statistics",
        crate::report::statistics::render(report, &run.options),
    ));
    if let Some(summary) = crate::report::step_summary::render(report, &run.options) {
        outputs.push(("step-summary", summary));
    }
    outputs.push((
        "fixable",
        crate::report::terminal::fixable(report, run.options.unsafe_fixes),
    ));
    outputs.push((
        "coverage-summary",
        crate::report::coverage::summary(&run.coverage),
    ));
    let path = |file: &str| run.options.checkout_path(file);
    outputs.push(("lcov", crate::report::lcov::render(&run.coverage, &path)));
    outputs.push((
        "cobertura",
        crate::report::cobertura::render(&run.coverage, &path),
    ));
    outputs.push(("diff", diffs(report, &run.files, run.options.unsafe_fixes)));
    let fingerprints = crate::report::fingerprint::fingerprints(&report.diagnostics, &run.sources);
    let mut unique = fingerprints.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), fingerprints.len(), "fingerprints repeat");
    Rendered {
        findings: report.diagnostics.len(),
        color: run.options.color,
        outputs,
    }
}

/// What `--diff` shows: the fixes chosen and applied to the source files.
fn diffs(report: &Report, files: &[(String, String)], unsafe_fixes: bool) -> String {
    let fixes: Vec<&crate::fix::Fix> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| f.allowed(unsafe_fixes))
        .collect();
    let chosen = choose(&fixes);
    let mut out = String::new();
    for (file, edits) in &chosen.edits {
        let Some((_, old)) = files.iter().find(|(p, _)| p == file) else {
            continue;
        };
        match apply(old, edits) {
            Ok(new) => out.push_str(&unified(file, old, &new)),
            Err(e) => out.push_str(&e),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report over `a.yml` with one finding at line 2 whose message is `message`.
    fn seed(message: &str) -> Vec<u8> {
        let mut seed = vec![2, 0, 1];
        seed.extend(b"a.yml\0x: 1\ny: 2\n\0");
        seed.extend(b"\x01.\0\x00\x01\x00\x09");
        seed.push(1);
        seed.push(0);
        seed.extend(message.as_bytes());
        seed.extend([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        seed
    }

    #[test]
    fn a_seed_reads_as_its_report() {
        let rendered = rendered_reports(&seed("y is wrong"));
        assert_eq!(rendered.findings, 1);
        let github = rendered.get("github").unwrap();
        assert!(
            github.starts_with("::error file=a.yml,line=2,col=1,"),
            "{github}"
        );
        assert!(github.contains("::y is wrong\n"), "{github}");
        assert!(rendered.get("terminal").unwrap().contains("y: 2"));
        check_reports(&rendered);
    }

    #[test]
    fn hostile_messages_keep_every_format_whole() {
        let message = "bad\n::error file=x::forged%0A\r\u{1b}[31mred\u{7}</failure>\"}]";
        let rendered = rendered_reports(&seed(message));
        check_reports(&rendered);
        assert!(!rendered.get("terminal").unwrap().contains('\u{1b}'));
        let github = rendered.get("github").unwrap();
        assert_eq!(github.lines().filter(|l| l.starts_with("::")).count(), 1);
    }

    #[test]
    #[should_panic(expected = "github")]
    fn a_forged_command_fails_the_check() {
        let mut rendered = rendered_reports(&seed("fine"));
        for (name, text) in &mut rendered.outputs {
            if *name == "github" {
                text.insert_str(0, "::error::forged\n");
            }
        }
        check_reports(&rendered);
    }
}
