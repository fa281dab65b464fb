//! Where the file-based formats (SARIF, GitLab Code Quality, JUnit's `file` attribute) point a
//! finding, and how every format names the run it came from.
//!
//! Most findings carry a span. A finding about a root as a whole (an internal error, a limit hit,
//! a root that cannot be read) has none, yet GitHub code scanning shows only results with a file
//! and a line, and GitLab Code Quality requires both. Such a finding is anchored, in this order:
//! at its first related location; at line 1 of the root's first ytt file
//! ([`Sources::first_file`]); at line 1 of the root directory itself (or of `.` when the finding
//! names no root), which schema-checks but which GitHub may not display. The message of an
//! anchored finding names its root, so nothing is lost.

use super::diagnostic::{Diagnostic, Span};
use super::sources::Sources;

/// The span the file-based formats report `d` at, and whether it is an anchor chosen here
/// rather than the finding's own span.
pub fn anchor(d: &Diagnostic, sources: &Sources) -> (Span, bool) {
    if let Some(span) = &d.span {
        return (span.clone(), false);
    }
    if let Some(related) = d.related.first() {
        return (related.span.clone(), true);
    }
    let root = d.root.as_deref().unwrap_or(".");
    let file = sources
        .first_file(root)
        .unwrap_or_else(|| root.trim_end_matches('/').to_string());
    (Span::point(file, 1, 1), true)
}

/// `root R, scenario S` (each part only when known) and, for a finding that rests on a
/// command, where that command came from (`run by hack/build.sh:4`, `command inferred from
/// the layout`) unless the scenario's name says it; `None` when the finding names no root.
pub fn origin(d: &Diagnostic) -> Option<String> {
    let mut parts: Vec<String> = [("root", &d.root), ("scenario", &d.scenario)]
        .into_iter()
        .filter_map(|(what, value)| value.as_ref().map(|v| format!("{what} {v}")))
        .collect();
    if let Some(c) = &d.certainty {
        let named = c.origin.is_some() && c.origin == d.scenario;
        if !named && c.source != crate::report::Source::Config {
            parts.push(c.source.describe(c.origin.as_deref()));
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// What a finding assumes about its command and inputs, and how to make it certain; `None`
/// when it assumes nothing. An error that assumes something is reported as a warning, or as a
/// note (info) where another tool gives the files inputs the linter lacks: the words hold for
/// both, and for a warning its rule gives anyway (not "a warning until …").
pub fn assumed(d: &Diagnostic) -> Option<String> {
    let c = d.certainty.as_ref()?;
    let note = c.note()?;
    let how = match c.source {
        // A string inside another file: nothing to list, the linter only reads it as ytt.
        crate::report::Source::Embedded => "",
        _ => {
            ": list the root and its inputs in .yttlint.yaml, or delete the entry from its \
             `assumes:` there once checked"
        }
    };
    Some(format!(
        "{note} (never an error while this is assumed{how})"
    ))
}

/// `file:line:column`.
pub fn position(span: &Span) -> String {
    format!("{}:{}:{}", span.file, span.line, span.column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;

    fn rooted(rule: Rule) -> Diagnostic {
        let mut d = Diagnostic::new(rule, "boom");
        d.root = Some("packages/app".to_string());
        d
    }

    #[test]
    fn a_span_is_its_own_anchor() {
        let sources = Sources::new("/nonexistent");
        let d = rooted(Rule::YamlSyntax).at(Span::point("packages/app/a.yml", 3, 4));
        assert_eq!(
            anchor(&d, &sources),
            (Span::point("packages/app/a.yml", 3, 4), false)
        );
    }

    #[test]
    fn related_location_comes_next() {
        let sources = Sources::new("/nonexistent");
        let d = rooted(Rule::LimitExceeded)
            .with_related("called from here", Span::point("packages/app/f.star", 9, 2));
        assert_eq!(anchor(&d, &sources).0.file, "packages/app/f.star");
    }

    #[test]
    fn then_the_root_s_first_file_then_the_root() {
        let sources = Sources::new("/nonexistent");
        assert_eq!(
            anchor(&rooted(Rule::InternalError), &sources),
            (Span::point("packages/app", 1, 1), true)
        );
        sources.insert("packages/app/values.yml", "a: 1\n");
        assert_eq!(
            anchor(&rooted(Rule::InternalError), &sources),
            (Span::point("packages/app/values.yml", 1, 1), true)
        );
    }

    #[test]
    fn an_assumption_s_words_hold_for_a_note_and_a_warning() {
        use crate::report::{Assumption, AssumptionKind, Basis, Provenance, Severity, Source};
        let mut p = Provenance::of(Source::Layout, None);
        p.assume(Assumption::new(
            AssumptionKind::WrapperTool,
            "myks renders it",
        ));
        let mut d = rooted(Rule::TemplateError);
        d.certainty = Some(p.certainty(Basis::Inputs));
        d.severity = Severity::Info;
        let said = assumed(&d).unwrap_or_default();
        assert!(!said.contains("a warning"), "{said}");
        assert!(
            said.starts_with(
                "assumes: myks renders it (never an error while this is assumed: list the root"
            ),
            "{said}"
        );
        let mut e = Provenance::of(Source::Embedded, Some("a.yml:3".into()));
        e.assume(Assumption::new(
            AssumptionKind::InferredCommand,
            "the string",
        ));
        d.certainty = Some(e.certainty(Basis::Command));
        assert_eq!(
            assumed(&d).as_deref(),
            Some("assumes: the string (never an error while this is assumed)")
        );
    }

    #[test]
    fn origin_names_root_and_scenario() {
        let mut d = rooted(Rule::InternalError);
        assert_eq!(origin(&d).as_deref(), Some("root packages/app"));
        d.scenario = Some("prod".to_string());
        assert_eq!(
            origin(&d).as_deref(),
            Some("root packages/app, scenario prod")
        );
        assert_eq!(origin(&Diagnostic::new(Rule::InternalError, "x")), None);
    }
}
