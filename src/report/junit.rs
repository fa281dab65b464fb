//! The JUnit XML format, for the test report views of CI systems (GitLab, Jenkins, Azure).
//!
//! ```xml
//! <testsuites name="yttlint" tests="3" failures="1" errors="0" time="0.042">
//!   <testsuite name="config" tests="3" failures="1" errors="0" skipped="0" time="0.042">
//!     <testcase name="scenario dev" classname="config" time="0.012"/>
//!     <testcase name="data-value-violation in config/values.yml: port: must be &gt; 0"
//!               classname="config.prod">
//!       <failure message="port: must be &gt; 0" type="data-value-violation">config/values.yml:2:7:
//! error[data-value-violation], the full message, related locations, help</failure>
//!     </testcase>
//!     <testcase name="unused-load in config/lib.star: x is loaded but never used"
//!               classname="config.prod">
//!       <system-out>config/lib.star:1:14: warning[unused-load] ...</system-out>
//!     </testcase>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! One suite per root (its path; `(no root)` for findings outside every root). The unit is the
//! finding: each finding is exactly one test case, in its root's suite, with `root.scenario` as
//! its class; a scenario that found nothing is one passing case of its own (`scenario NAME`),
//! and a scenario with findings has no other case, so nothing is counted twice. A finding at or
//! above the run's failing severity (`--fail-on`, `error` by default) fails its case: a
//! `<failure>`, or an `<error>` for the rules that say the linter could not check the root
//! (`internal-error`, `limit-exceeded`). A finding below it (a warning or an info by default)
//! passes, its text in `<system-out>`. Case names hold the rule, the file and the message's
//! first line, never a line or column, so they stay the same when lines move; two findings
//! with the same name in one class are told apart by ` (2)`, ` (3)`. A scenario whose
//! evaluation stopped at an error whose finding is suppressed passes, with a `<system-out>`
//! note. The document is valid against Jenkins' junit-10.xsd (no `file` or `line` attributes on
//! cases: the position starts the body). Text that XML 1.0 cannot carry (control characters)
//! becomes U+FFFD.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use super::diagnostic::{Diagnostic, Report, RootOutcome, RootStatus};
use super::location::{anchor, assumed, origin, position};
use super::options::RenderOptions;
use super::rules::Rule;
use super::sources::Sources;
use super::xml::escape;

/// The suite that holds findings that name no root.
const NO_ROOT: &str = "(no root)";

/// Rules that mean the linter could not check a root: JUnit `<error>`s, not `<failure>`s.
const NOT_CHECKED: [Rule; 2] = [Rule::InternalError, Rule::LimitExceeded];

/// One suite: a root's scenarios and findings.
#[derive(Default)]
struct Suite<'a> {
    scenarios: Vec<&'a RootStatus>,
    findings: Vec<&'a Diagnostic>,
}

/// How a case ends.
enum Outcome {
    Pass,
    /// `(element, message, type, body)`: a `<failure>` or an `<error>`.
    Fail(&'static str, String, String, String),
}

/// One `<testcase>` before it is written.
struct Case {
    name: String,
    classname: String,
    time_ms: Option<u64>,
    outcome: Outcome,
    /// Text for `<system-out>`.
    note: Option<String>,
}

/// Renders the report as a JUnit XML document.
pub fn render(report: &Report, sources: &Sources, options: &RenderOptions) -> String {
    let mut suites: BTreeMap<&str, Suite> = BTreeMap::new();
    for status in &report.roots {
        suites
            .entry(status.path.as_str())
            .or_default()
            .scenarios
            .push(status);
    }
    for d in &report.diagnostics {
        let root = d.root.as_deref().unwrap_or(NO_ROOT);
        suites.entry(root).or_default().findings.push(d);
    }
    let cases: Vec<(&str, Vec<Case>)> = suites
        .iter()
        .map(|(name, suite)| (*name, suite_cases(name, suite, sources, options)))
        .collect();
    let all: Vec<&Case> = cases.iter().flat_map(|(_, c)| c).collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"yttlint\"{}>",
        counts(&all, report.roots.iter().map(|r| r.duration_ms).sum())
    );
    for (name, suite_cases) in &cases {
        let refs: Vec<&Case> = suite_cases.iter().collect();
        let time = suites
            .get(name)
            .map_or(0, |s| s.scenarios.iter().map(|r| r.duration_ms).sum());
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\"{} skipped=\"0\">",
            escape(name),
            counts(&refs, time)
        );
        for case in suite_cases {
            write_case(&mut out, case);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// ` tests="…" failures="…" errors="…" time="…"`.
fn counts(cases: &[&Case], time_ms: u64) -> String {
    let with = |element: &str| {
        cases
            .iter()
            .filter(|c| matches!(&c.outcome, Outcome::Fail(e, ..) if *e == element))
            .count()
    };
    format!(
        " tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\"",
        cases.len(),
        with("failure"),
        with("error"),
        seconds(time_ms)
    )
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// A suite's cases: each scenario's own case when it found nothing, else its findings; then
/// the findings of no listed scenario. Names repeated within a class get ` (N)`.
fn suite_cases(root: &str, suite: &Suite, sources: &Sources, options: &RenderOptions) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut placed = vec![false; suite.findings.len()];
    for status in &suite.scenarios {
        let mine: Vec<usize> = (0..suite.findings.len())
            .filter(|&i| !placed[i] && suite.findings[i].scenario == status.scenario)
            .collect();
        if mine.is_empty() {
            cases.push(scenario_case(root, status));
        }
        for i in mine {
            placed[i] = true;
            cases.push(finding_case(root, suite.findings[i], sources, options));
        }
    }
    for (d, _) in suite.findings.iter().zip(&placed).filter(|(_, p)| !**p) {
        cases.push(finding_case(root, d, sources, options));
    }
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for case in &mut cases {
        let n = seen
            .entry((case.classname.clone(), case.name.clone()))
            .or_insert(0);
        *n += 1;
        if *n > 1 {
            case.name = format!("{} ({n})", case.name);
        }
    }
    cases
}

/// The case of a scenario that found nothing: it passes (with a note when its evaluation
/// stopped at an error whose finding is suppressed or turned off).
fn scenario_case(root: &str, status: &RootStatus) -> Case {
    Case {
        name: format!(
            "scenario {}",
            status.scenario.as_deref().unwrap_or("default")
        ),
        classname: root.to_string(),
        time_ms: Some(status.duration_ms),
        outcome: Outcome::Pass,
        note: (status.status == RootOutcome::Error).then(|| {
            "the evaluation stopped at an error whose finding is suppressed or turned off"
                .to_string()
        }),
    }
}

/// A finding's case; its places are relative to the checkout (see
/// [`RenderOptions::checkout_path`]).
fn finding_case(root: &str, d: &Diagnostic, sources: &Sources, options: &RenderOptions) -> Case {
    let (mut span, _) = anchor(d, sources);
    span.file = options.checkout_path(&span.file);
    let mut body = format!(
        "{}: {}[{}]\n{}\n",
        position(&span),
        d.severity.as_str(),
        d.rule,
        d.message
    );
    if let Some(object) = &d.object {
        let _ = writeln!(body, "object: {object}");
    }
    for related in &d.related {
        let mut at = related.span.clone();
        at.file = options.checkout_path(&at.file);
        let _ = writeln!(body, "{}: {}", position(&at), related.message);
    }
    if let Some(origin) = origin(d) {
        let _ = writeln!(body, "in {origin}");
    }
    if let Some(assumed) = assumed(d) {
        let _ = writeln!(body, "{assumed}");
    }
    if let Some(help) = &d.help {
        let _ = writeln!(body, "help: {help}");
    }
    let classname = match &d.scenario {
        Some(scenario) => format!("{root}.{scenario}"),
        None => root.to_string(),
    };
    let name = format!(
        "{} in {}: {}",
        d.rule,
        span.file,
        without_positions(d.summary().trim())
    );
    let (outcome, note) = if d.severity >= options.fail_on {
        let element = if NOT_CHECKED.contains(&d.rule) {
            "error"
        } else {
            "failure"
        };
        let summary = d.summary().to_string();
        (
            Outcome::Fail(element, summary, d.rule.to_string(), body),
            None,
        )
    } else {
        (Outcome::Pass, Some(body))
    };
    Case {
        name,
        classname,
        time_ms: None,
        outcome,
        note,
    }
}

/// `text` without the line numbers messages quote, so that a case's name stays when lines
/// move: `schema.yml:3` (and `:3:7`) becomes `schema.yml`, `line 12` becomes `line`.
fn without_positions(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let digits_from = |i: usize| {
        (i..chars.len())
            .find(|&j| !chars[j].is_ascii_digit())
            .unwrap_or(chars.len())
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let numbered = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if c == ':' && numbered && after_file_name(&out) {
            i = digits_from(i + 1);
            if chars.get(i) == Some(&':') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                i = digits_from(i + 1);
            }
            continue;
        }
        if c == ' ' && numbered && out.ends_with("line") {
            i = digits_from(i + 1);
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Whether `text` ends in a file name with an extension (`config/schema.yml`).
fn after_file_name(text: &str) -> bool {
    let word = text
        .rsplit(|c: char| c.is_whitespace() || "('\"`".contains(c))
        .next()
        .unwrap_or("");
    word.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && !ext.is_empty() && ext.chars().all(char::is_alphanumeric)
    })
}

fn write_case(out: &mut String, case: &Case) {
    let _ = write!(
        out,
        "    <testcase name=\"{}\" classname=\"{}\"",
        escape(&case.name),
        escape(&case.classname)
    );
    if let Some(ms) = case.time_ms {
        let _ = write!(out, " time=\"{}\"", seconds(ms));
    }
    if matches!(case.outcome, Outcome::Pass) && case.note.is_none() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    if let Outcome::Fail(element, message, kind, body) = &case.outcome {
        let _ = writeln!(
            out,
            "      <{element} message=\"{}\" type=\"{}\">{}</{element}>",
            escape(message),
            escape(kind),
            escape(body)
        );
    }
    if let Some(note) = &case.note {
        let _ = writeln!(out, "      <system-out>{}</system-out>", escape(note));
    }
    out.push_str("    </testcase>\n");
}

#[cfg(test)]
#[path = "junit_tests.rs"]
mod tests;
