//! ytt's structural comparison, used by `@overlay/assert` without `via=` and by the matchers
//! `overlay.subset(...)` and `overlay.map_key(...)` (which the Starlark module builds on these
//! functions): the expected (right) value must be contained in the actual (left) one: every
//! expected map key present with a matching value, every expected array item matching the
//! left item at the same index, scalars equal.

use crate::yaml::node::{Array, Map, MapItem, Value};

/// Right values nested deeper than this are reported as not matching.
const MAX_DEPTH: usize = 256;

/// A left value as the comparisons read it: a value, or the map or array a template fragment
/// holds, borrowed where it is (a document handed to a matcher is not copied to be compared).
#[derive(Clone, Copy, Debug)]
pub enum Left<'a> {
    Value(&'a Value),
    Map(&'a Map),
    Array(&'a Array),
}

impl<'a> Left<'a> {
    fn map(self) -> Option<&'a Map> {
        match self {
            Left::Value(Value::Map(m)) => Some(m),
            Left::Map(m) => Some(m),
            _ => None,
        }
    }

    fn array(self) -> Option<&'a Array> {
        match self {
            Left::Value(Value::Array(a)) => Some(a),
            Left::Array(a) => Some(a),
            _ => None,
        }
    }

    fn type_name(self) -> &'static str {
        match self {
            Left::Value(v) => v.type_name(),
            Left::Map(_) => "map",
            Left::Array(_) => "array",
        }
    }

    /// Equal to the leaf `b` (a map or an array never is).
    fn equals_leaf(self, b: &Value) -> bool {
        match self {
            Left::Value(v) => leaves_equal(v, b),
            Left::Map(_) | Left::Array(_) => false,
        }
    }
}

/// Compares `actual` (left) with `expected` (right); the error explains the first mismatch
/// as ytt words it (`Expected leaf values to match string string`).
pub fn compare(actual: &Value, expected: &Value) -> Result<(), String> {
    compare_at(Left::Value(actual), expected, 0)
}

/// `overlay.subset(expected)` applied to a left value.
pub fn subset_matches(actual: &Value, expected: &Value) -> bool {
    subset_matches_left(Left::Value(actual), expected)
}

/// [`subset_matches`] of a borrowed left value.
pub fn subset_matches_left(actual: Left<'_>, expected: &Value) -> bool {
    compare_at(actual, expected, 0).is_ok()
}

/// `overlay.map_key(name)`: both values must be maps holding `name`; the items' values must be
/// equal leaves. Errors are ytt's, without the `overlay.map_key_matcher: ` prefix.
pub fn map_key_matches(name: &str, left: &Value, right: &Value) -> Result<bool, String> {
    map_key_matches_left(name, Left::Value(left), Left::Value(right))
}

/// [`map_key_matches`] of borrowed values.
pub fn map_key_matches_left(name: &str, left: Left<'_>, right: Left<'_>) -> Result<bool, String> {
    let l = map_value(name, left)?;
    let r = map_value(name, right)?;
    Ok(leaves_equal(l, r))
}

fn map_value<'a>(name: &str, v: Left<'a>) -> Result<&'a Value, String> {
    let Some(m) = v.map() else {
        return Err(format!(
            "Expected value to be map, but was {}",
            v.type_name()
        ));
    };
    m.items
        .iter()
        .find(|i| matches!(&i.key, Value::String(k) if k == name))
        .map(|i| &i.value)
        .ok_or_else(|| format!("Expected to find map item with key '{name}', but did not"))
}

/// Equality of two leaves as ytt tests it (Go's deep equality on scalars, ints compared as
/// integers). Maps and arrays are never equal leaves: ytt compares them as distinct objects.
pub fn leaves_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Uint(x), Value::Uint(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        _ => false,
    }
}

/// Map keys match when they are the same scalar of the same type.
pub(crate) fn keys_equal(a: &Value, b: &Value) -> bool {
    leaves_equal(a, b)
}

fn compare_at(actual: Left<'_>, expected: &Value, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("Expected values nested at most {MAX_DEPTH} deep"));
    }
    match expected {
        Value::Map(e) => match actual.map() {
            Some(a) => compare_maps(a, e, depth),
            None => Err(format!("Expected map, but was {}", actual.type_name())),
        },
        Value::Array(e) => {
            let Some(a) = actual.array() else {
                return Err(format!("Expected array, but was {}", actual.type_name()));
            };
            for (i, item) in e.items.iter().enumerate() {
                let Some(left) = a.items.get(i) else {
                    return Err("Expected to have matching number of array items".to_string());
                };
                compare_at(Left::Value(&left.value), &item.value, depth + 1)?;
            }
            Ok(())
        }
        leaf => {
            if actual.equals_leaf(leaf) {
                Ok(())
            } else {
                Err(format!(
                    "Expected leaf values to match {} {}",
                    actual.type_name(),
                    leaf.type_name()
                ))
            }
        }
    }
}

fn compare_maps(actual: &Map, expected: &Map, depth: usize) -> Result<(), String> {
    for want in &expected.items {
        let mut found = false;
        for have in actual
            .items
            .iter()
            .filter(|i| keys_equal(&i.key, &want.key))
        {
            compare_items(have, want, depth)?;
            found = true;
        }
        if !found {
            return Err("Expected at least one map item to match by key".to_string());
        }
    }
    Ok(())
}

fn compare_items(have: &MapItem, want: &MapItem, depth: usize) -> Result<(), String> {
    compare_at(Left::Value(&have.value), &want.value, depth + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::emit_testutil::{arr, b, f, i, map, s};

    #[test]
    fn subset_of_maps_and_arrays() {
        let left = map(vec![
            ("name", s("a")),
            ("ports", arr(vec![i(80), i(443)])),
            ("x", b(true)),
        ]);
        assert!(subset_matches(&left, &map(vec![("name", s("a"))])));
        assert!(subset_matches(
            &left,
            &map(vec![("ports", arr(vec![i(80)]))])
        ));
        assert!(subset_matches(&left, &map(vec![])));
        assert_eq!(
            compare(&left, &map(vec![("name", s("b"))])),
            Err("Expected leaf values to match string string".to_string())
        );
        assert_eq!(
            compare(&left, &map(vec![("other", s("b"))])),
            Err("Expected at least one map item to match by key".to_string())
        );
        assert_eq!(
            compare(&left, &map(vec![("ports", arr(vec![i(80), i(443), i(1)]))])),
            Err("Expected to have matching number of array items".to_string())
        );
        assert_eq!(
            compare(&s("doc1"), &map(vec![])),
            Err("Expected map, but was string".to_string())
        );
        assert_eq!(
            compare(&left, &arr(vec![])),
            Err("Expected array, but was map".to_string())
        );
    }

    #[test]
    fn leaves_compare_by_type_and_value() {
        assert!(subset_matches(&s("doc1"), &s("doc1")));
        assert!(subset_matches(&Value::Null, &Value::Null));
        assert!(!subset_matches(&i(1), &f(1.0)));
        assert_eq!(
            compare(&map(vec![]), &s("x")),
            Err("Expected leaf values to match map string".to_string())
        );
        assert_eq!(
            compare(&Value::Null, &i(1)),
            Err("Expected leaf values to match null integer".to_string())
        );
    }

    #[test]
    fn a_borrowed_map_or_array_compares_as_the_value_holding_it() {
        let left = map(vec![("name", s("a")), ("ports", arr(vec![i(80)]))]);
        let list = arr(vec![i(80), i(443)]);
        let (Value::Map(m), Value::Array(a)) = (&left, &list) else {
            unreachable!()
        };
        let expected = [
            map(vec![("name", s("a"))]),
            map(vec![("name", s("b"))]),
            arr(vec![i(80)]),
            s("x"),
        ];
        for e in &expected {
            assert_eq!(
                subset_matches_left(Left::Map(m), e),
                subset_matches(&left, e)
            );
            assert_eq!(
                subset_matches_left(Left::Array(a), e),
                subset_matches(&list, e)
            );
        }
        assert!(subset_matches_left(Left::Map(m), &expected[0]));
        assert!(subset_matches_left(Left::Array(a), &expected[2]));
        let right = map(vec![("name", s("a"))]);
        assert_eq!(
            map_key_matches_left("name", Left::Map(m), Left::Value(&right)),
            Ok(true)
        );
        assert_eq!(
            map_key_matches_left("name", Left::Array(a), Left::Value(&right)),
            map_key_matches("name", &list, &right)
        );
        assert_eq!(
            map_key_matches_left("name", Left::Array(a), Left::Value(&right)),
            Err("Expected value to be map, but was array".to_string())
        );
    }

    #[test]
    fn map_key_needs_the_key_on_both_sides() {
        let l = map(vec![("name", s("a"))]);
        assert_eq!(map_key_matches("name", &l, &l), Ok(true));
        assert_eq!(
            map_key_matches("name", &l, &map(vec![("name", s("b"))])),
            Ok(false)
        );
        assert_eq!(
            map_key_matches("id", &l, &l),
            Err("Expected to find map item with key 'id', but did not".to_string())
        );
        assert_eq!(
            map_key_matches("name", &s("x"), &l),
            Err("Expected value to be map, but was string".to_string())
        );
        assert_eq!(
            map_key_matches("name", &l, &map(vec![])),
            Err("Expected to find map item with key 'name', but did not".to_string())
        );
    }
}
