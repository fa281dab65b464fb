//! Spec 004's declaration rule: a data value given from outside (a `--data-values-file`, a
//! `--data-value` flag, a linter scenario) may only set values that the library's schema or an
//! earlier data value declared, unless the file was given with `+:`. ytt accepts such values
//! when the library has no schema, so `yttlint template` does too; the linter reports them
//! (`data-value-undeclared`). With a schema ytt rejects them itself.

use crate::pos::Pos;
use crate::yaml::{scalar_key_string, Value};

/// A value set that nothing declared.
#[derive(Clone, Debug, PartialEq)]
pub struct Undeclared {
    /// Dotted path of the key (`app.replicas`).
    pub path: String,
    /// Where the input set it.
    pub pos: Pos,
}

/// The keys of `given` that `declared` (the data values so far; `None` when there are none)
/// lacks. A new map is reported at its key, not key by key; arrays replace what was there
/// and are not looked into.
pub fn find(declared: Option<&Value>, given: &Value) -> Vec<Undeclared> {
    let mut out = Vec::new();
    walk(declared, given, "", &mut out);
    out
}

fn walk(declared: Option<&Value>, given: &Value, prefix: &str, out: &mut Vec<Undeclared>) {
    let Value::Map(given) = given else {
        return;
    };
    let declared = match declared {
        Some(Value::Map(m)) => Some(m),
        // A scalar or an array replaced by a map: the value itself was declared.
        Some(_) => return,
        None => None,
    };
    for item in &given.items {
        let key = scalar_key_string(&item.key);
        let path = if prefix.is_empty() {
            key
        } else {
            format!("{prefix}.{key}")
        };
        let existing = declared.and_then(|m| m.items.iter().find(|i| i.key == item.key));
        match existing {
            Some(existing) => walk(Some(&existing.value), &item.value, &path, out),
            None => out.push(Undeclared {
                path,
                pos: item.pos.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn value(src: &str) -> Value {
        let ds = parse(src, &Arc::from("v.yml"), &ParseOpts::default()).unwrap();
        ds.items.into_iter().next().unwrap().value
    }

    #[test]
    fn new_keys_are_reported_once_at_their_key() {
        let declared = value("app:\n  name: a\n  ports: [1]\nlog: info\n");
        let given =
            value("app:\n  name: b\n  replicas: 2\n  ports: [2, 3]\nextra:\n  a: 1\n  b: 2\n");
        let found = find(Some(&declared), &given);
        let got: Vec<_> = found
            .iter()
            .map(|u| (u.path.as_str(), u.pos.line))
            .collect();
        assert_eq!(got, vec![("app.replicas", 3), ("extra", 5)]);
    }

    #[test]
    fn everything_is_undeclared_without_values() {
        let found = find(None, &value("a: 1\nb: {c: 2}\n"));
        let got: Vec<_> = found.iter().map(|u| u.path.as_str()).collect();
        assert_eq!(got, vec!["a", "b"]);
    }

    #[test]
    fn a_map_over_a_scalar_is_a_replacement() {
        assert!(find(Some(&value("a: null\n")), &value("a: {b: 1}\n")).is_empty());
    }
}
