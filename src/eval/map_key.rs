//! A map item whose key is a collection, as ytt's evaluation meets it. ytt checks every map
//! item a template starts (and every item `template.replace` puts into a map) against the
//! keys before it in a Go map (`MapItemOverride.Apply`); Go cannot hash a slice, so a key that
//! is a YAML mapping (`yaml.MapSlice`: `{{ .x }}` left by another tool's template, `? {a: 1}`)
//! or a sequence (`[]interface {}`: `? [a, b]`, `{[a]: 1}`, a Starlark tuple) makes Go panic,
//! and ytt reports the recovered panic with Go's backtrace, exit 1. A plain YAML file (no
//! `#@`) is not evaluated and keeps such keys.

use crate::yaml::Value;

/// Go's name of the type a collection key has in ytt (`None`: a key Go can hash).
fn go_type(key: &Value) -> Option<&'static str> {
    match key {
        Value::Map(_) => Some("yaml.MapSlice"),
        Value::Array(_) => Some("[]interface {}"),
        _ => None,
    }
}

/// What stands for the Go backtrace ytt prints after the message.
const REASON: &str = "(ytt shows a Go backtrace here: a YAML map or sequence cannot be a map \
     key in a template; another tool's placeholder such as `{{ .x }}` is a YAML map whose key \
     is a map)";

/// ytt's error for starting a map item with `key` in a map that holds items already
/// (`earlier`) or none: Go words the panic of a lookup in an empty map and in a filled one
/// differently.
pub fn unhashable(key: &Value, earlier: bool) -> Option<String> {
    let ty = go_type(key)?;
    let first = if earlier {
        format!("runtime error: hash of unhashable type {ty}")
    } else {
        format!("hash of unhashable type: {ty}")
    };
    Some(format!(
        "{first} (backtrace: goroutine 1 [running]:\n{REASON}\n)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::Array;

    #[test]
    fn go_words_the_two_lookups_differently() {
        let map = Value::Map(Box::default());
        let first = unhashable(&map, false).unwrap_or_default();
        assert!(
            first.starts_with("hash of unhashable type: yaml.MapSlice (backtrace:"),
            "{first}"
        );
        let seq = Value::Array(Box::<Array>::default());
        let later = unhashable(&seq, true).unwrap_or_default();
        assert!(
            later.starts_with("runtime error: hash of unhashable type []interface {} ("),
            "{later}"
        );
        assert_eq!(unhashable(&Value::String("a".into()), true), None);
        assert_eq!(unhashable(&Value::Null, false), None);
    }
}
