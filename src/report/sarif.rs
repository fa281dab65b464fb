//! SARIF 2.1.0 for GitHub code scanning, following GitHub's "SARIF support for code scanning".
//!
//! One run, built with `serde_sarif`'s typed model of the SARIF schema. `tool.driver` names
//! yttlint with its version and home page (`informationUri`) and every rule of the catalogue
//! (id, short and full description, help, `helpUri` to the rule's page at this version's
//! release tag, default level), then
//! any rule id a finding uses that the catalogue lacks; a result's `ruleIndex` points into that
//! list. `automationDetails.id` is written only when a category is asked for
//! (`--sarif-category`): GitHub's upload-sarif uses its own `category` only when the file has
//! none. `results` is `[]` when nothing was found.
//!
//! Each result has its level (`error`, `warning`, `note`), the whole message (plus the finding's
//! own help and object, and the root and scenario when they tell results apart), one location
//! (a repository-relative, percent-encoded URI with `uriBaseId` `%SRCROOT%` and a region; columns
//! count Unicode code points, a span's end is exclusive and a point span gives only its start),
//! its related locations (each with its `id`, linked from the end of the message as
//! `where it is: [file:line:column](id)`, the message's other brackets escaped as SARIF wants
//! them then) and `partialFingerprints["yttlint/v1"]` (see
//! [`fingerprint`](super::fingerprint)), which survives lines inserted above the finding. A
//! finding about a whole root is anchored as [`location`](super::location) describes. A finding
//! with a fix has it in `fixes` (one fix: its title as `description`, one `artifactChanges`
//! entry per file, each edit a `replacements` entry whose `deletedRegion` gives the start and
//! the exclusive end, equal for an insertion, and whose `insertedContent` is the new text), with
//! the fix's applicability (`safe`, `unsafe`) in the fix's `properties`.
//!
//! Results come most severe first (errors, warnings, notes; the report's order within each).
//! GitHub rejects a run of more than [`MAX_RESULTS`] results, so a run keeps the first
//! [`MAX_RESULTS`] and says in `invocations[0].toolExecutionNotifications` how many it left out.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification,
    PhysicalLocation, PropertyBag, Region, ReportingConfiguration, ReportingDescriptor,
    Result as SarifResult, ResultLevel, Run, RunAutomationDetails, Sarif, Tool, ToolComponent,
};

use super::diagnostic::{Diagnostic, Report, Span};
use super::fingerprint::fingerprints;
use super::location::{anchor, assumed, origin, position};
use super::options::RenderOptions;
use super::rules::Rule;
use super::severity::Severity;
use super::sources::Sources;

/// The `$schema` GitHub and editors recognise.
const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base every artifact URI is relative to.
const SRCROOT: &str = "%SRCROOT%";

/// The key of yttlint's own fingerprint in `partialFingerprints`.
const FINGERPRINT_KEY: &str = "yttlint/v1";

/// The most results GitHub code scanning accepts in one run.
pub const MAX_RESULTS: usize = 25_000;

/// Renders the report as a SARIF 2.1.0 log (pretty-printed, newline-terminated).
pub fn render(report: &Report, sources: &Sources, options: &RenderOptions) -> String {
    // The table's rules, then the repository's policies that have findings.
    let mut policies: Vec<Rule> = report
        .diagnostics
        .iter()
        .map(|d| d.rule)
        .filter(|r| matches!(r, Rule::Policy(_)))
        .collect();
    policies.sort();
    policies.dedup();
    let rules: Vec<Rule> = Rule::ALL.iter().copied().chain(policies).collect();
    let rules = rules.as_slice();
    let prints = fingerprints(&report.diagnostics, sources);
    let findings: Vec<(&Diagnostic, &String)> = most_severe_first(&report.diagnostics, &prints);
    let left_out = findings.len().saturating_sub(MAX_RESULTS);
    let results: Vec<SarifResult> = findings
        .iter()
        .take(MAX_RESULTS)
        .map(|(d, print)| result(d, print, rules, sources, options))
        .collect();
    let descriptors: Vec<ReportingDescriptor> = rules
        .iter()
        .map(|r| rule_descriptor(*r, options.information_uri.as_deref()))
        .collect();
    let driver = ToolComponent::builder()
        .name("yttlint".to_string())
        .version(options.tool_version.clone())
        .semantic_version(options.tool_version.clone())
        .rules(descriptors);
    let driver = match &options.information_uri {
        Some(uri) => driver.information_uri(uri.clone()).build(),
        None => driver.build(),
    };
    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .column_kind(json!("unicodeCodePoints"))
        .results(results)
        .build();
    if left_out > 0 {
        run.invocations = Some(vec![cap_notice(left_out, findings.len())]);
    }
    if let Some(id) = &options.automation_id {
        run.automation_details = Some(RunAutomationDetails::builder().id(id.clone()).build());
    }
    if let Some(uri) = &options.source_root_uri {
        let base = ArtifactLocation::builder().uri(uri.clone()).build();
        run.original_uri_base_ids = Some(BTreeMap::from([(SRCROOT.to_string(), base)]));
    }
    let log = Sarif::builder()
        .schema(SCHEMA_URI.to_string())
        .version(json!("2.1.0"))
        .runs(vec![run])
        .build();
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

/// Each finding with its fingerprint, errors first, then warnings, then infos (a stable sort:
/// the report's order within each severity).
fn most_severe_first<'a>(
    diagnostics: &'a [Diagnostic],
    prints: &'a [String],
) -> Vec<(&'a Diagnostic, &'a String)> {
    let mut pairs: Vec<(&Diagnostic, &String)> = diagnostics.iter().zip(prints).collect();
    pairs.sort_by_key(|(d, _)| std::cmp::Reverse(d.severity));
    pairs
}

/// The invocation that says how many results the run left out to stay within
/// [`MAX_RESULTS`].
fn cap_notice(left_out: usize, total: usize) -> Invocation {
    let text = format!(
        "{left_out} of {total} results left out: GitHub code scanning accepts at most \
         {MAX_RESULTS} results per run; the {MAX_RESULTS} kept are the most severe (the other \
         report formats list every finding)"
    );
    let notice = Notification::builder()
        .message(Message::builder().text(text).build())
        .level(json!("warning"))
        .build();
    Invocation::builder()
        .execution_successful(true)
        .tool_execution_notifications(vec![notice])
        .build()
}

fn text(s: &str) -> MultiformatMessageString {
    MultiformatMessageString::builder()
        .text(s.to_string())
        .build()
}

/// The page that explains rule `id` (the same text as `yttlint rule ID`), at the release tag
/// of this build (`v0.1.0`): the page as this version has the rule, not as `main` has it now.
pub fn help_uri(home: &str, id: &str) -> String {
    format!(
        "{}/blob/v{}/docs/rules/{id}.md",
        home.trim_end_matches('/'),
        env!("CARGO_PKG_VERSION")
    )
}

/// `text` with SARIF's markers of embedded links (`[`, `]`) escaped, as a message with links
/// must have them (SARIF 2.1.0, 3.11.6).
fn escape_link_text(text: &str) -> String {
    text.replace('[', "\\[").replace(']', "\\]")
}

fn rule_descriptor(rule: Rule, home: Option<&str>) -> ReportingDescriptor {
    let mut descriptor = ReportingDescriptor::builder()
        .id(rule.id().to_string())
        .name(pascal_case(rule.id()))
        .short_description(text(rule.summary()))
        .full_description(text(rule.description()))
        .help(text(rule.fix()))
        .default_configuration(
            ReportingConfiguration::builder()
                .level(json!(level_name(rule.default_severity())))
                .build(),
        )
        .properties(PropertyBag::builder().tags(vec!["ytt".to_string()]).build())
        .build();
    if let Some(home) = home {
        // A repository's policy has the page of all policies.
        let page = match rule {
            Rule::Policy(_) => "policy",
            other => other.id(),
        };
        descriptor.help_uri = Some(help_uri(home, page));
    }
    descriptor
}

/// `data-value-violation` → `DataValueViolation` (SARIF's `name` is an identifier-like label).
fn pascal_case(id: &str) -> String {
    id.split(['-', '/', '_'])
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn level_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn level(severity: Severity) -> ResultLevel {
    match severity {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
        Severity::Info => ResultLevel::Note,
    }
}

fn result(
    d: &Diagnostic,
    print: &str,
    rules: &[Rule],
    sources: &Sources,
    options: &RenderOptions,
) -> SarifResult {
    let (span, anchored) = anchor(d, sources);
    let mut message = d.message.clone();
    if let Some(object) = &d.object {
        message.push_str(&format!("\nobject: {object}"));
    }
    if anchored || d.scenario.is_some() {
        if let Some(origin) = origin(d) {
            message.push_str(&format!("\nin {origin}"));
        }
    }
    if let Some(assumed) = assumed(d) {
        message.push_str(&format!("\n{assumed}"));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    if !d.related.is_empty() {
        // Each related location linked from the text (`[where](id)`), as viewers show them.
        message = escape_link_text(&message);
        for (i, r) in d.related.iter().enumerate() {
            let at = position(&Span {
                file: options.checkout_path(&r.span.file),
                ..r.span.clone()
            });
            message.push_str(&format!(
                "\n{}: [{}]({i})",
                escape_link_text(&r.message),
                escape_link_text(&at)
            ));
        }
    }
    let location = Location::builder()
        .physical_location(physical_location(&span, options))
        .build();
    let mut result = SarifResult::builder()
        .rule_id(d.rule.id().to_string())
        .level(level(d.severity))
        .message(Message::builder().text(message).build())
        .locations(vec![location])
        .partial_fingerprints(BTreeMap::from([(
            FINGERPRINT_KEY.to_string(),
            print.to_string(),
        )]))
        .build();
    result.rule_index = rules
        .iter()
        .position(|r| *r == d.rule)
        .and_then(|i| i64::try_from(i).ok());
    if !d.related.is_empty() {
        let related = d
            .related
            .iter()
            .zip(0i64..)
            .map(|(r, i)| {
                Location::builder()
                    .id(i)
                    .physical_location(physical_location(&r.span, options))
                    .message(Message::builder().text(r.message.clone()).build())
                    .build()
            })
            .collect();
        result.related_locations = Some(related);
    }
    result.fixes = d.fix.as_ref().map(|f| {
        vec![super::sarif_fix::fix(f, SRCROOT, &|p| {
            uri(&options.checkout_path(p))
        })]
    });
    let mut properties: BTreeMap<String, Value> = [
        ("root", &d.root),
        ("scenario", &d.scenario),
        ("object", &d.object),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), json!(v))))
    .collect();
    if let Some(c) = &d.certainty {
        properties.insert(
            "certainty".to_string(),
            json!({
                "source": c.source.id(),
                "origin": c.origin,
                "certain": c.certain(),
                "assumptions": c.assumed.iter().map(|a| json!({
                    "kind": a.kind.id(),
                    "message": a.message,
                })).collect::<Vec<_>>(),
            }),
        );
    }
    if !properties.is_empty() {
        result.properties = Some(
            PropertyBag::builder()
                .additional_properties(properties)
                .build(),
        );
    }
    result
}

/// Where `span` is, its path relative to the checkout (see [`RenderOptions::checkout_path`]).
fn physical_location(span: &Span, options: &RenderOptions) -> PhysicalLocation {
    let number = |n: u32| i64::from(n.max(1));
    let mut region = Region::builder()
        .start_line(number(span.line))
        .start_column(number(span.column))
        .build();
    if (span.end_line, span.end_column) > (span.line, span.column) {
        region.end_line = Some(number(span.end_line));
        region.end_column = Some(number(span.end_column));
    }
    PhysicalLocation::builder()
        .artifact_location(
            ArtifactLocation::builder()
                .uri(uri(&options.checkout_path(&span.file)))
                .uri_base_id(SRCROOT.to_string())
                .build(),
        )
        .region(region)
        .build()
}

/// A repository-relative path as a relative URI reference: bytes outside RFC 3986's unreserved
/// set, `/` and a few harmless sub-delimiters are percent-encoded (`:` too, so that a first
/// segment never reads as a scheme).
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.trim_start_matches("./").bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(byte))
            }
            b'!' | b'$' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' | b'@' => {
                out.push(char::from(byte))
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
#[path = "sarif_tests.rs"]
mod tests;
