//! A finding as the editor shows it: its range in UTF-16 columns, the severity, the rule id
//! with its page (the SARIF `helpUri`), the related locations, and the help line.

use std::path::{Path, PathBuf};

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Range, Uri,
};

use super::positions::{from_span, line_text, path_uri};
use crate::report::{Diagnostic, Severity, Sources, Span};

/// The `source` of every diagnostic the server publishes.
pub const SOURCE: &str = "yttlint";

/// The protocol's severity of ours.
pub fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// The page of rule `id`.
pub fn rule_page(id: &str) -> Option<Uri> {
    let home = crate::report::RenderOptions::default().information_uri?;
    crate::report::sarif::help_uri(&home, id).parse().ok()
}

/// The range of `span` in its file (a point is widened to the end of its line's word, or
/// to the line's end, so that the editor has something to underline).
pub fn range(span: &Span, text: Option<&str>) -> Range {
    let start = from_span(text, span.line, span.column);
    let mut end = from_span(text, span.end_line, span.end_column);
    if end <= start {
        let line = text.and_then(|t| line_text(t, start.line)).unwrap_or("");
        let rest_byte = super::positions::byte_col(line, start.character);
        let word = line[rest_byte..]
            .find(char::is_whitespace)
            .map_or(line.len(), |i| rest_byte + i);
        let end_byte = if word > rest_byte { word } else { line.len() };
        end = lsp_types::Position::new(
            start.line,
            super::positions::utf16_col(line, end_byte).max(start.character),
        );
    }
    Range::new(start, end)
}

/// The location of `span` of the repository at `repo`.
fn location(repo: &Path, span: &Span, sources: &Sources) -> Option<Location> {
    let uri = path_uri(&repo.join(&span.file))?;
    let text = sources.text(&span.file);
    Some(Location::new(uri, range(span, text.as_deref())))
}

/// The file of `d` (absolute) and the diagnostic the editor shows; `None` for a finding about
/// a root as a whole (no place in a file).
pub fn convert(
    d: &Diagnostic,
    repo: &Path,
    sources: &Sources,
) -> Option<(PathBuf, lsp_types::Diagnostic)> {
    let span = d.span.as_ref()?;
    let text = sources.text(&span.file);
    let mut message = d.message.clone();
    if let Some(scenario) = &d.scenario {
        message.push_str(&format!("\n(scenario {scenario})"));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(DiagnosticRelatedInformation {
                location: location(repo, &r.span, sources)?,
                message: r.message.clone(),
            })
        })
        .collect();
    let id = d.rule.id();
    let diagnostic = lsp_types::Diagnostic {
        range: range(span, text.as_deref()),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(id.to_string())),
        code_description: rule_page(id).map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        // The fix travels with the diagnostic, and comes back in a code action request.
        data: d.fix.as_ref().and_then(|f| serde_json::to_value(f).ok()),
    };
    Some((repo.join(&span.file), diagnostic))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;

    #[test]
    fn findings_become_editor_diagnostics() {
        let dir = std::env::temp_dir().join(format!("yttlint-lsp-diag-{}", std::process::id()));
        let sources = Sources::new(&dir);
        sources.insert("a.yml", "x: é😀 bad\nschema: 1\n");
        let d = Diagnostic::new(Rule::DataValueUnknownReference, "unknown x")
            .at(Span::point("a.yml", 1, 7))
            .with_related("declared here", Span::point("a.yml", 2, 1))
            .with_help("did you mean `y`?");
        let (file, out) = convert(&d, &dir, &sources).unwrap();
        assert_eq!(file, dir.join("a.yml"));
        // `bad` starts at character 7, UTF-16 column 7 (the emoji takes two units).
        assert_eq!(out.range.start, lsp_types::Position::new(0, 7));
        assert_eq!(out.range.end, lsp_types::Position::new(0, 10));
        assert_eq!(
            out.code,
            Some(NumberOrString::String(
                "data-value-unknown-reference".into()
            ))
        );
        let href = out.code_description.unwrap().href;
        assert!(href
            .as_str()
            .ends_with("/docs/rules/data-value-unknown-reference.md"));
        assert!(out.message.ends_with("help: did you mean `y`?"));
        let related = out.related_information.unwrap();
        assert_eq!(related[0].location.range.start.line, 1);
        assert_eq!(severity(Severity::Info), DiagnosticSeverity::INFORMATION);
    }
}
