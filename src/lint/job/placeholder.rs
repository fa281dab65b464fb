//! Placeholders for data values a repository gives at run time (`-v version=$(git describe)`):
//! each such key gets a value that fits the type the schema declares for it (its default when
//! the default is a real value), so the templates evaluate, and no finding is reported about
//! it.

use crate::library::Workspace;
use crate::schema::types::{Kind, ScalarKind, Type};
use crate::schema::Schema;
use crate::yaml::json::value_to_json;
use crate::yaml::Value;

/// The text of a placeholder string.
pub const TEXT: &str = "placeholder";

/// `--data-value-yaml key=value` flags with a placeholder for each of `provided` (keys of the
/// root library; `*` and keys of private libraries get none).
pub fn flags(ws: &Workspace, provided: &[String]) -> Vec<String> {
    let keys: Vec<&String> = provided
        .iter()
        .filter(|k| *k != "*" && !k.starts_with('@'))
        .collect();
    if keys.is_empty() {
        return Vec::new();
    }
    let schema = ws.data_values_schema().unwrap_or(Schema { doc: None });
    keys.into_iter()
        .map(|key| {
            let ty = schema.doc.as_ref().and_then(|d| lookup(&d.ty, key));
            let value = ty.map_or(Value::String(TEXT.into()), placeholder);
            let yaml = value_to_json(&value, 0, false).unwrap_or_else(|_| format!("\"{TEXT}\""));
            format!("{key}={yaml}")
        })
        .collect()
}

/// The type declared at a dotted key.
fn lookup<'t>(ty: &'t Type, key: &str) -> Option<&'t Type> {
    let mut t = ty;
    for part in key.split('.') {
        let items = t.map_items()?;
        let exact = items.iter().find(|i| i.key.as_str() == Some(part));
        t = &crate::schema::types::declared_or_any(items, exact)?.ty;
    }
    Some(t)
}

/// A value of the type: its default when that is a real value, else a typical one.
fn placeholder(ty: &Type) -> Value {
    let inner = ty.non_null();
    let default = inner.default_value();
    let real = match &default {
        Value::String(s) => !s.is_empty(),
        Value::Int(i) => *i != 0,
        Value::Null => false,
        _ => true,
    };
    if real {
        return default;
    }
    match &inner.kind {
        Kind::Scalar(ScalarKind::String, _) | Kind::Any(_) => Value::String(TEXT.into()),
        Kind::Scalar(ScalarKind::Int, _) => Value::Int(1),
        Kind::Scalar(ScalarKind::Float, _) => Value::Float(1.0),
        Kind::Scalar(ScalarKind::Bool, _) => Value::Bool(true),
        _ => default,
    }
}

/// Whether a data value path (`a.b`, `a.b[0]`) is one of the `provided` keys or lies below
/// one.
pub fn covers(provided: &[String], path: &str) -> bool {
    provided.iter().any(|p| {
        p == "*"
            || path == p
            || path
                .strip_prefix(p.as_str())
                .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_provided_keys() {
        let p = vec!["dev.version".to_string()];
        assert!(covers(&p, "dev.version"));
        assert!(covers(&p, "dev.version.x"));
        assert!(!covers(&p, "dev.versions"));
        assert!(!covers(&p, "dev"));
        assert!(covers(&["*".to_string()], "anything"));
    }
}
