//! The wording of violations, in the manner of actionlint: lower-case, the offending field's
//! path and value quoted, what was expected said, at most eight choices listed.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use serde_json::Value as Json;

use super::check::Context;
use super::instance::{display_path, null_at, Step};
use super::Violation;
use crate::schema::spell::nearest;

/// At most this many choices are listed in a message.
const MAX_CHOICES: usize = 8;

/// `name` is not a field of the object at `steps`.
pub fn unknown_field(ctx: &Context, steps: &[Step], name: &str, fields: &[String]) -> Violation {
    let mut at = steps.to_vec();
    at.push(Step::Key(name.to_string()));
    let place = match steps.is_empty() {
        true => "the top level".to_string(),
        false => format!("{:?}", display_path(steps)),
    };
    let mut message = format!("unknown field {name:?} in {place}");
    match fields.len() {
        0 => message.push_str(", which takes no fields"),
        n if n <= MAX_CHOICES => {
            message.push_str(&format!("; expected one of {}", quoted(fields)));
        }
        _ => {}
    }
    let help = super::indent::hint(ctx.doc, ctx.schema, steps, name)
        .or_else(|| nearest(name, fields).map(|f| format!("did you mean {f:?}?")));
    ctx.at(&at, true, message, help)
}

/// An `anyOf`/`oneOf` none of whose branches fits the value.
pub fn no_branch(
    ctx: &Context,
    steps: &[Step],
    e: &ValidationError,
    context: &[Vec<ValidationError>],
) -> Violation {
    let mut types: Vec<JsonType> = Vec::new();
    let at = e.instance_path().as_str();
    for branch in context {
        for b in branch {
            if let (ValidationErrorKind::Type { kind }, true) =
                (b.kind(), b.instance_path().as_str() == at)
            {
                types.extend(type_list(kind));
            }
        }
    }
    types.sort();
    types.dedup();
    let expected = if types.is_empty() || context.iter().any(Vec::is_empty) {
        "to match one of the schemas allowed there".to_string()
    } else {
        format!("to be {}", expected_types(&types))
    };
    let message = format!(
        "{} is expected {expected}, found {}",
        subject(steps),
        found(e.instance())
    );
    ctx.at(steps, true, message, None)
}

/// Every other kind of error: one node, one message.
pub fn simple(ctx: &Context, steps: &[Step], e: &ValidationError) -> Violation {
    let value = e.instance();
    let what = subject(steps);
    let (message, help) = match e.kind() {
        ValidationErrorKind::Type { kind } => (
            format!(
                "{what} must be {}, found {}",
                expected_types(&type_list(kind)),
                found(value)
            ),
            None,
        ),
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let mut at = steps.to_vec();
            at.push(Step::Key(name.to_string()));
            let place = match steps.is_empty() {
                true => String::new(),
                false => format!(" in {:?}", display_path(steps)),
            };
            if let Some(pos) = null_at(ctx.doc, &at) {
                // The API server drops a null before it validates.
                let message = format!("required field {name:?}{place} is null");
                let mut v = ctx.at(&at, true, message, None);
                v.pos = pos;
                return v;
            }
            let message = format!("missing required field {name:?}{place}");
            let mut v = ctx.at(steps, true, message, None);
            v.path = display_path(&at);
            return v;
        }
        ValidationErrorKind::Enum { options } => {
            let choices: Vec<String> = options
                .as_array()
                .map(|a| a.iter().map(plain).collect())
                .unwrap_or_default();
            let help = value
                .as_str()
                .and_then(|s| nearest(s, &choices))
                .map(|c| format!("did you mean {c:?}?"));
            let listed = match choices.len() <= MAX_CHOICES {
                true => quoted(&choices),
                false => format!(
                    "{} and {} more",
                    quoted(&choices[..MAX_CHOICES]),
                    choices.len() - MAX_CHOICES
                ),
            };
            (
                format!("{what} must be one of {listed}, found {}", found(value)),
                help,
            )
        }
        ValidationErrorKind::Format { format } if format == "byte" => (
            format!(
                "{what} must be base64-encoded (format \"byte\"), found {}",
                found(value)
            ),
            None,
        ),
        ValidationErrorKind::Format { format } => (
            format!("{what} must be a valid {format:?}, found {}", found(value)),
            None,
        ),
        ValidationErrorKind::Minimum { limit } => (bound(&what, "at least", limit, value), None),
        ValidationErrorKind::Maximum { limit } => (bound(&what, "at most", limit, value), None),
        ValidationErrorKind::Pattern { pattern } => (
            format!("{what} must match {pattern:?}, found {}", found(value)),
            None,
        ),
        ValidationErrorKind::FalseSchema => (format!("{what} is not allowed here"), None),
        _ => (format!("{what}: {}", lower_first(&e.to_string())), None),
    };
    ctx.at(steps, true, message, help)
}

fn bound(what: &str, relation: &str, limit: &Json, value: &Json) -> String {
    format!("{what} must be {relation} {limit}, found {}", found(value))
}

/// `"spec.replicas"`, or `the document` at the top.
fn subject(steps: &[Step]) -> String {
    match steps.is_empty() {
        true => "the document".to_string(),
        false => format!("{:?}", display_path(steps)),
    }
}

fn type_list(kind: &TypeKind) -> Vec<JsonType> {
    match kind {
        TypeKind::Single(t) => vec![*t],
        TypeKind::Multiple(set) => set.iter().collect(),
    }
}

/// `an integer`, `an integer or a string`.
fn expected_types(types: &[JsonType]) -> String {
    let names: Vec<&str> = types
        .iter()
        .map(|t| match t {
            JsonType::Array => "an array",
            JsonType::Boolean => "a boolean",
            JsonType::Integer => "an integer",
            JsonType::Null => "null",
            JsonType::Number => "a number",
            JsonType::Object => "a map",
            JsonType::String => "a string",
        })
        .collect();
    names.join(" or ")
}

/// The value as found: `string "8080"`, `integer 3`, `a map`.
fn found(v: &Json) -> String {
    match v {
        Json::Null => "null".to_string(),
        Json::Bool(b) => format!("boolean {b}"),
        Json::Number(n) if n.is_f64() => format!("number {n}"),
        Json::Number(n) => format!("integer {n}"),
        Json::String(s) => format!("string {:?}", short(s)),
        Json::Array(_) => "an array".to_string(),
        Json::Object(_) => "a map".to_string(),
    }
}

fn short(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

fn plain(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn quoted(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("{s:?}")).collect();
    q.join(", ")
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_found_values() {
        assert_eq!(found(&serde_json::json!("8080")), "string \"8080\"");
        assert_eq!(found(&serde_json::json!(3)), "integer 3");
        assert_eq!(found(&serde_json::json!(1.5)), "number 1.5");
        assert_eq!(found(&serde_json::json!({})), "a map");
        assert!(found(&serde_json::json!("x".repeat(100))).ends_with("...\""));
    }

    #[test]
    fn names_expected_types() {
        let t = [JsonType::Integer, JsonType::String];
        assert_eq!(expected_types(&t), "an integer or a string");
    }
}
