//! Engine results as diagnostics: an evaluation error gets the rule of its kind (YAML syntax,
//! unknown comment, load, overlay, schema, limit, template), each failed validation
//! becomes one diagnostic per violated rule at the value that failed, with the rule as related
//! location. A data value that fails with its schema default is a `required-value`: nobody
//! gave an input the library needs.

use crate::eval::run::{ErrorKind, EvalError};
use crate::pos::Pos;
use crate::report::Rule;
use crate::report::{Diagnostic, Span};
use crate::validate::Invalidation;

/// Turns an engine position into a repository span (`None` when it points nowhere known).
pub type SpanOf<'a> = &'a dyn Fn(&Pos) -> Option<Span>;

/// The rule of an evaluation error of kind `kind`: the one place an engine error gets its
/// rule.
pub fn rule_of(kind: ErrorKind) -> Rule {
    match kind {
        ErrorKind::YamlSyntax => Rule::YamlSyntax,
        ErrorKind::UnknownComment => Rule::UnknownComment,
        ErrorKind::Load | ErrorKind::LoadEvaluation => Rule::LoadError,
        ErrorKind::Overlay => Rule::OverlayError,
        ErrorKind::SchemaInvalid | ErrorKind::SchemaDocInvalid => Rule::SchemaInvalid,
        ErrorKind::ValueType => Rule::SchemaTypeMismatch,
        ErrorKind::DataValuesInvalid => Rule::DataValueViolation,
        ErrorKind::OutputInvalid => Rule::OutputViolation,
        ErrorKind::DataValueRemoved => Rule::DataValueRemoved,
        ErrorKind::Limit => Rule::LimitExceeded,
        ErrorKind::Template | ErrorKind::Syntax => Rule::TemplateError,
    }
}

/// Whether an error of kind `kind` is one the findings of the evaluation spell out value by
/// value (each failed validation, each value of the wrong type or removed), so that those
/// findings take its place.
pub fn reported_by_value(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::DataValuesInvalid
            | ErrorKind::OutputInvalid
            | ErrorKind::ValueType
            | ErrorKind::DataValueRemoved
    )
}

/// An evaluation error as one diagnostic, at its position when it has one, with ytt's text
/// (see [`tidy`] for how it is shown).
pub fn error_diagnostic(e: &EvalError, span_of: SpanOf<'_>) -> Diagnostic {
    let message = e.message.trim().to_string();
    let mut d = Diagnostic::new(rule_of(e.kind), message);
    if matches!(e.kind, ErrorKind::Syntax | ErrorKind::SchemaDocInvalid) {
        // It holds whatever the command and its data values are.
        d.basis = Some(crate::report::Basis::Text);
    }
    if e.kind == ErrorKind::LoadEvaluation {
        // The module failed as it ran: the data values decide, as for the module's own
        // `template-error` when nothing loads it first.
        d.basis = Some(crate::report::Basis::Inputs);
    }
    if let Some(span) = e.pos.as_ref().and_then(span_of) {
        d = d.at(span);
    }
    d
}

/// A finding with ytt's error text (`- message` then its trace), as it is shown: the `- `
/// dropped, and the lines of the trace (`file.yml:4 | code`) that name a file of the
/// repository made related locations (the one at the finding's own line is left out, the
/// code frame shows it); other lines stay in the message. Run after what reads the trace
/// (`needs_input`). ytt's internal function names are said plainly (`plain_words`).
pub fn tidy(d: Diagnostic, span_of: SpanOf<'_>) -> Diagnostic {
    let mut d = traced(d, span_of);
    d.message = super::plain_words::plain(&d.message);
    d
}

/// `d` with the trace lines that name a file of the repository made related locations.
fn traced(mut d: Diagnostic, span_of: SpanOf<'_>) -> Diagnostic {
    let Some(first) = d.message.strip_prefix("- ") else {
        return d;
    };
    let mut lines = first.lines();
    let mut kept: Vec<String> = lines.next().map(str::to_string).into_iter().collect();
    let mut related = Vec::new();
    for line in lines {
        match trace_line(line).and_then(|(pos, code)| Some((span_of(&pos)?, code))) {
            Some((span, code)) => {
                let same = d
                    .span
                    .as_ref()
                    .is_some_and(|p| p.file == span.file && p.line == span.line);
                if !same {
                    related.push((format!("in the trace: {code}"), span));
                }
            }
            None => kept.push(line.to_string()),
        }
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    d.message = kept.join("\n");
    for (what, span) in related {
        d = d.with_related(what, span);
    }
    d
}

/// `    file.yml:4 | code` of a ytt trace: the position and the code.
fn trace_line(line: &str) -> Option<(Pos, String)> {
    let (place, code) = line.trim_start().split_once(" | ")?;
    let (file, number) = place.rsplit_once(':')?;
    let line_no: u32 = number.parse().ok()?;
    if file.is_empty() || file.contains(' ') {
        return None;
    }
    let pos = Pos {
        file: Some(std::sync::Arc::from(file)),
        line: line_no,
        col: 1,
        offset: 0,
    };
    Some((pos, code.trim().to_string()))
}

/// One diagnostic per violated rule of `inv`. `output` says the value is in an output
/// document (rule `output-violation`).
pub fn invalidation_diagnostics(
    inv: &Invalidation,
    output: bool,
    span_of: SpanOf<'_>,
) -> Vec<Diagnostic> {
    let rule = if output {
        Rule::OutputViolation
    } else if inv.from_default {
        Rule::RequiredValue
    } else {
        Rule::DataValueViolation
    };
    inv.violations
        .iter()
        .map(|v| {
            // A data value's in ytt's words; an output document's (which ytt does not
            // check) as spec 000 words it.
            let message = if output {
                v.message.clone()
            } else {
                super::validation_words::message(inv, v)
            };
            let mut d = Diagnostic::new(rule, message);
            if let Some(span) = span_of(&inv.value_pos) {
                d = d.at(span);
            }
            if let Some(span) = span_of(&v.rule_pos) {
                let what = match &v.rule {
                    Some(name) => format!("rule `{name}` declared here"),
                    None => "rule declared here".to_string(),
                };
                d = d.with_related(what, span);
            }
            if inv.from_default && !output {
                d = d.with_help(format!(
                    "give `{}` a value in a scenario of this root (values_files or data_values)",
                    inv.path
                ));
            }
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Violation;
    use std::sync::Arc;

    fn pos(file: &str, line: u32) -> Pos {
        Pos::new(&Arc::from(file), line, 1, 0)
    }

    fn span_of(p: &Pos) -> Option<Span> {
        Some(Span::point(
            format!("config/{}", p.file.as_deref()?),
            p.line,
            p.col,
        ))
    }

    /// Every kind of evaluation error; the match makes a new kind fail to compile here until
    /// it is added to the list.
    fn every_kind() -> Vec<ErrorKind> {
        let all = vec![
            ErrorKind::YamlSyntax,
            ErrorKind::UnknownComment,
            ErrorKind::Load,
            ErrorKind::LoadEvaluation,
            ErrorKind::Overlay,
            ErrorKind::SchemaInvalid,
            ErrorKind::SchemaDocInvalid,
            ErrorKind::ValueType,
            ErrorKind::DataValuesInvalid,
            ErrorKind::OutputInvalid,
            ErrorKind::DataValueRemoved,
            ErrorKind::Limit,
            ErrorKind::Syntax,
            ErrorKind::Template,
        ];
        for k in &all {
            match k {
                ErrorKind::YamlSyntax
                | ErrorKind::UnknownComment
                | ErrorKind::Load
                | ErrorKind::LoadEvaluation
                | ErrorKind::Overlay
                | ErrorKind::SchemaInvalid
                | ErrorKind::SchemaDocInvalid
                | ErrorKind::ValueType
                | ErrorKind::DataValuesInvalid
                | ErrorKind::OutputInvalid
                | ErrorKind::DataValueRemoved
                | ErrorKind::Limit
                | ErrorKind::Syntax
                | ErrorKind::Template => {}
            }
        }
        all
    }

    #[test]
    fn every_evaluation_error_but_a_file_s_own_syntax_rests_on_its_command() {
        // An evaluation error is made with the command's files and values: only a file that
        // does not parse (YAML, Starlark) fails whatever the command is.
        for kind in every_kind() {
            let d = error_diagnostic(&EvalError::new(kind, "boom", None), &span_of);
            let text = matches!(
                kind,
                ErrorKind::YamlSyntax | ErrorKind::Syntax | ErrorKind::SchemaDocInvalid
            );
            assert_eq!(
                d.basis() == crate::report::Basis::Text,
                text,
                "{kind:?} ({}) rests on {:?}",
                d.rule.id(),
                d.basis()
            );
        }
    }

    #[test]
    fn errors_get_the_rule_of_their_kind() {
        let e = |kind| EvalError::new(kind, "\n- overlay: nothing matched", None);
        let d = error_diagnostic(&e(ErrorKind::Template), &span_of);
        assert_eq!(d.rule, Rule::TemplateError, "the wording does not decide");
        assert_eq!(
            error_diagnostic(&e(ErrorKind::Overlay), &span_of).rule,
            Rule::OverlayError
        );
        assert_eq!(
            error_diagnostic(&e(ErrorKind::Limit), &span_of).rule,
            Rule::LimitExceeded
        );
        assert!(reported_by_value(ErrorKind::DataValuesInvalid));
        assert!(!reported_by_value(ErrorKind::Template));
    }

    #[test]
    fn the_dash_goes_and_the_trace_becomes_related_locations() {
        let text = "- fail: boom\n    in <toplevel>\n      helpers.star:3 | fail(\"boom\")\n      t.yml:5 | x: #@ helper()\n";
        let e = EvalError::new(ErrorKind::Template, text, Some(pos("t.yml", 5)));
        let d = tidy(error_diagnostic(&e, &span_of), &span_of);
        assert_eq!(d.message, "fail: boom\n    in <toplevel>");
        assert_eq!(d.related.len(), 1, "the finding's own line is not repeated");
        assert_eq!(d.related[0].span.file, "config/helpers.star");
        assert_eq!(d.related[0].span.line, 3);
        assert!(d.related[0].message.contains("fail(\"boom\")"));
    }

    #[test]
    fn defaults_that_fail_are_required_values() {
        let inv = Invalidation {
            path: "hostname".into(),
            value_pos: pos("schema.yml", 4),
            from_default: true,
            violations: vec![Violation {
                rule_pos: pos("schema.yml", 3),
                description: "length >= 1".into(),
                found: "length = 0".into(),
                rule: Some("min_len".into()),
                message: "\"hostname\" requires a valid value: length >= 1; length = 0.".into(),
            }],
        };
        let ds = invalidation_diagnostics(&inv, false, &span_of);
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].rule, Rule::RequiredValue);
        assert_eq!(ds[0].span.as_ref().map(|s| s.line), Some(4));
        assert_eq!(ds[0].related[0].span.file, "config/schema.yml");
        // ytt's words, whether the value is the default or given.
        let words = "Validating final data values: hostname (from: schema.yml:4): must be: length >= 1 (by: schema.yml:3); found: length = 0";
        assert_eq!(ds[0].message, words);
        let given = Invalidation {
            from_default: false,
            ..inv
        };
        let ds = invalidation_diagnostics(&given, false, &span_of);
        assert_eq!(ds[0].rule, Rule::DataValueViolation);
        assert_eq!(ds[0].message, words);
        // An output document's rule, which ytt does not check, keeps spec 000's words.
        let ds = invalidation_diagnostics(&given, true, &span_of);
        assert_eq!(ds[0].rule, Rule::OutputViolation);
        assert!(ds[0].message.contains("requires a valid value"));
    }
}
