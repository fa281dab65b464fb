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
        ErrorKind::Load => Rule::LoadError,
        ErrorKind::Overlay => Rule::OverlayError,
        ErrorKind::SchemaInvalid => Rule::SchemaInvalid,
        ErrorKind::ValueType => Rule::SchemaTypeMismatch,
        ErrorKind::DataValuesInvalid => Rule::DataValueViolation,
        ErrorKind::OutputInvalid => Rule::OutputViolation,
        ErrorKind::DataValueRemoved => Rule::DataValueRemoved,
        ErrorKind::Limit => Rule::LimitExceeded,
        ErrorKind::Template => Rule::TemplateError,
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

/// An evaluation error as one diagnostic, at its position when it has one.
pub fn error_diagnostic(e: &EvalError, span_of: SpanOf<'_>) -> Diagnostic {
    let message = e.message.trim().to_string();
    let mut d = Diagnostic::new(rule_of(e.kind), message);
    if let Some(span) = e.pos.as_ref().and_then(span_of) {
        d = d.at(span);
    }
    d
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
            let mut message = if inv.from_default && !output {
                format!("{} requires a value: must be {}", inv.path, v.description)
            } else {
                v.message.clone()
            };
            if !v.found.is_empty() && !message.contains(&v.found) {
                message.push_str(&format!(" (found: {})", v.found));
            }
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
        let given = Invalidation {
            from_default: false,
            ..inv
        };
        let ds = invalidation_diagnostics(&given, false, &span_of);
        assert_eq!(ds[0].rule, Rule::DataValueViolation);
        assert!(ds[0].message.contains("requires a valid value"));
    }
}
