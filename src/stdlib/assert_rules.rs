//! The rules behind ytt's assertion builders (`assert.min(3)`, `assert.one_of([...])`, ...):
//! what each checks and the exact message of a failed check (`fail: value < 3`,
//! `check: all values are null`), which `@schema/validation` shows after dropping the
//! `fail: ` / `check: ` prefix.
//!
//! As in ytt, values are compared after a YAML round trip (`yaml.decode(yaml.encode(v))`), so a
//! YAML fragment and the equal dict or list compare equal; lengths are taken of the value as
//! given. A rule can be checked on a Starlark value or directly on a node value from Rust.
//!
//! Building rules from the arguments of `@schema/validation` (as ytt does):
//! `Rule::Min(round_trip(v))`, `Rule::Max(round_trip(v))`, `Rule::MinLen(length_bound(v)?)`,
//! `Rule::MaxLen(length_bound(v)?)`, `Rule::NotNull`, `Rule::OneNotNull(None)` for `True` or
//! `Rule::OneNotNull(Some(plain_items(keys, heap)))`, `Rule::OneOf(round_trip(seq))`.

use starlark::values::float::StarlarkFloat;
use starlark::values::{Heap, UnpackValue, Value as SValue, ValueLike};

use super::assert_extra::ExtraRule;
use super::golike::{compare, equal, repr, str_of, type_name, Op};
use super::yaml::{round_trip, round_trip_node};
use crate::yaml::Value;

/// What a value must satisfy. Bounds hold their round-tripped value, or the error that
/// producing it gave (ytt raises that error when the check runs).
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    MinLen(i64),
    MaxLen(i64),
    Min(Result<Value, String>),
    Max(Result<Value, String>),
    NotNull,
    /// Exactly one of these keys (all keys when `None`) has a non-null value.
    OneNotNull(Option<Result<Vec<Value>, String>>),
    /// The value is in this sequence (a list, or a dict's keys).
    OneOf(Result<Value, String>),
    /// One of the rules spec 000 adds.
    Extra(ExtraRule),
}

/// The value a rule looks at, taken lazily (a round trip costs an emit and a parse).
pub trait Subject {
    /// `len(value)`, or starlark-go's error.
    fn length(&self) -> Result<usize, String>;
    /// `yaml.decode(yaml.encode(value))`.
    fn plain(&self) -> Result<Value, String>;
    fn is_none(&self) -> bool;
}

/// A node value from a YAML tree (maps and arrays are fragments).
pub struct Node<'a>(pub &'a Value);

impl Subject for Node<'_> {
    fn length(&self) -> Result<usize, String> {
        match self.0 {
            Value::String(s) => Ok(s.len()),
            Value::Map(m) => Ok(m.items.len()),
            Value::Array(a) => Ok(a.items.len()),
            other => Err(no_len(type_name(other))),
        }
    }

    fn plain(&self) -> Result<Value, String> {
        round_trip_node(self.0)
    }

    fn is_none(&self) -> bool {
        matches!(self.0, Value::Null)
    }
}

/// A Starlark value.
pub struct Starlark<'v>(pub SValue<'v>);

impl Subject for Starlark<'_> {
    fn length(&self) -> Result<usize, String> {
        // starlark-go measures strings in bytes.
        if let Some(s) = self.0.unpack_str() {
            return Ok(s.len());
        }
        self.0
            .length()
            .ok()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| no_len(self.0.get_type()))
    }

    fn plain(&self) -> Result<Value, String> {
        round_trip(self.0)
    }

    fn is_none(&self) -> bool {
        self.0.is_none()
    }
}

fn no_len(type_name: &str) -> String {
    format!("len: value of type {type_name} has no len")
}

fn fail(msg: impl std::fmt::Display) -> String {
    format!("fail: {msg}")
}

impl Rule {
    /// The builder that made the rule (`assert.min`), as ytt names the check's origin.
    pub fn builder(&self) -> &'static str {
        match self {
            Rule::MinLen(_) => "assert.min_len",
            Rule::MaxLen(_) => "assert.max_len",
            Rule::Min(_) => "assert.min",
            Rule::Max(_) => "assert.max",
            Rule::NotNull => "assert.not_null",
            Rule::OneNotNull(_) => "assert.one_not_null",
            Rule::OneOf(_) => "assert.one_of",
            Rule::Extra(x) => x.builder(),
        }
    }

    /// The parameter of ytt's check lambda (`None` for the builtin check of `one_not_null`).
    pub fn param(&self) -> Option<&'static str> {
        match self {
            Rule::MinLen(_) | Rule::MaxLen(_) => Some("sequence"),
            Rule::Min(_) | Rule::Max(_) | Rule::OneOf(_) | Rule::Extra(_) => Some("val"),
            Rule::NotNull => Some("value"),
            Rule::OneNotNull(_) => None,
        }
    }

    /// Checks a value; the error is the whole message ytt gives (`fail: length = 3`).
    pub fn check(&self, v: &dyn Subject) -> Result<(), String> {
        match self {
            Rule::MinLen(min) => {
                let n = v.length()?;
                if i64::try_from(n).is_ok_and(|n| n >= *min) {
                    Ok(())
                } else {
                    Err(fail(format!("length = {n}")))
                }
            }
            Rule::MaxLen(max) => {
                let n = v.length()?;
                if i64::try_from(n).is_ok_and(|n| n <= *max) {
                    Ok(())
                } else {
                    Err(fail(format!("length = {n}")))
                }
            }
            Rule::Min(bound) => bounded(v, Op::Ge, bound, '<'),
            Rule::Max(bound) => bounded(v, Op::Le, bound, '>'),
            Rule::NotNull if v.is_none() => Err(fail("value is null")),
            Rule::NotNull => Ok(()),
            Rule::OneNotNull(keys) => one_not_null(v, keys.as_ref()),
            Rule::OneOf(set) => {
                let val = v.plain()?;
                let set = set.clone()?;
                if contains(&set, &val)? {
                    Ok(())
                } else {
                    Err(fail("not one of allowed values"))
                }
            }
            Rule::Extra(x) => x.check(v),
        }
    }

    /// Checks a Starlark value.
    pub fn check_starlark(&self, v: SValue<'_>) -> Result<(), String> {
        self.check(&Starlark(v))
    }

    /// Checks a node value of a YAML tree.
    pub fn check_node(&self, v: &Value) -> Result<(), String> {
        self.check(&Node(v))
    }
}

fn bounded(
    v: &dyn Subject,
    op: Op,
    bound: &Result<Value, String>,
    shown: char,
) -> Result<(), String> {
    let val = v.plain()?;
    let bound = bound.clone()?;
    if compare(op, &val, &bound)? {
        Ok(())
    } else {
        Err(fail(format!("value {shown} {}", str_of(&bound))))
    }
}

/// `val in set` with starlark-go's rules.
fn contains(set: &Value, val: &Value) -> Result<bool, String> {
    match set {
        Value::Array(a) => Ok(a.items.iter().any(|i| equal(&i.value, val))),
        Value::Map(m) => {
            if matches!(val, Value::Map(_) | Value::Array(_)) {
                return Err(format!("unhashable type: {}", type_name(val)));
            }
            Ok(m.items.iter().any(|i| equal(&i.key, val)))
        }
        other => Err(format!(
            "unknown binary op: {} in {}",
            type_name(val),
            type_name(other)
        )),
    }
}

fn one_not_null(v: &dyn Subject, keys: Option<&Result<Vec<Value>, String>>) -> Result<(), String> {
    let val = v.plain()?;
    let Value::Map(map) = &val else {
        return Err(format!(
            "check: value must be a map or dict, but was '{}'",
            type_name(&val)
        ));
    };
    let all: Vec<Value>;
    let keys: &[Value] = match keys {
        Some(k) => k.as_ref().map_err(Clone::clone)?,
        None => {
            all = map.items.iter().map(|i| i.key.clone()).collect();
            &all
        }
    };
    let mut not_null = Vec::new();
    for key in keys {
        // A missing key counts as null (the schema reports it).
        let found = map.items.iter().find(|i| equal(&i.key, key));
        if found.is_some_and(|i| !matches!(i.value, Value::Null)) {
            not_null.push(repr(key));
        }
    }
    match not_null.len() {
        1 => Ok(()),
        0 if map.items.is_empty() => Err("check: value is empty".to_string()),
        0 => Err("check: all values are null".to_string()),
        _ => Err(format!("check: [{}] are not null", not_null.join(", "))),
    }
}

/// A length bound as ytt reads one (starlark-go's `NumberToInt`: ints, and floats truncated),
/// saturated to i64; the error is ytt's message.
pub fn length_bound(v: SValue<'_>) -> Result<i64, String> {
    let bad = || format!("expected value to be an number, but was {}", v.get_type());
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        if !f.0.is_finite() {
            return Err(bad());
        }
        // `as` saturates: a bound beyond i64 behaves the same.
        return Ok(f.0.trunc() as i64);
    }
    if v.get_type() != "int" {
        return Err(bad());
    }
    Ok(match i64::unpack_value(v) {
        Ok(Some(i)) => i,
        _ if v.to_str().starts_with('-') => i64::MIN,
        _ => i64::MAX,
    })
}

/// Round-trips each element of a sequence (the keys of `one_not_null`).
pub fn plain_items<'v>(seq: SValue<'v>, heap: Heap<'v>) -> Result<Vec<Value>, String> {
    let items = seq
        .iterate(heap)
        .map_err(|e| crate::eval::errors::plain_message(&e))?;
    items.map(round_trip).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(items: &[(&str, Value)]) -> Value {
        Value::Map(Box::new(crate::yaml::Map {
            items: items
                .iter()
                .map(|(k, v)| {
                    crate::yaml::MapItem::new(
                        Value::String(k.to_string()),
                        v.clone(),
                        Default::default(),
                    )
                })
                .collect(),
            ..Default::default()
        }))
    }

    #[test]
    fn bounds_report_ytt_messages() {
        let min = Rule::Min(Ok(Value::Int(3)));
        assert_eq!(
            min.check_node(&Value::Int(2)),
            Err("fail: value < 3".into())
        );
        assert_eq!(min.check_node(&Value::Float(3.5)), Ok(()));
        let max = Rule::Max(Ok(Value::String("c".into())));
        assert_eq!(
            max.check_node(&Value::String("d".into())),
            Err("fail: value > c".into())
        );
        assert_eq!(
            min.check_node(&Value::String("x".into())),
            Err("string >= int not implemented".into())
        );
    }

    #[test]
    fn lengths_count_bytes_and_items() {
        assert_eq!(
            Rule::MaxLen(2).check_node(&Value::String("é".into())),
            Ok(())
        );
        assert_eq!(
            Rule::MaxLen(1).check_node(&Value::String("é".into())),
            Err("fail: length = 2".into())
        );
        assert_eq!(
            Rule::MinLen(1).check_node(&Value::Int(3)),
            Err("len: value of type int has no len".into())
        );
    }

    #[test]
    fn one_not_null_names_the_offenders() {
        let v = map(&[
            ("foo", Value::String("x".into())),
            ("bar", Value::Null),
            ("qux", Value::Int(1)),
        ]);
        assert_eq!(
            Rule::OneNotNull(None).check_node(&v),
            Err("check: [\"foo\", \"qux\"] are not null".into())
        );
        let keys = vec![Value::String("foo".into()), Value::String("missing".into())];
        assert_eq!(Rule::OneNotNull(Some(Ok(keys))).check_node(&v), Ok(()));
        // An empty map node is an empty fragment: it round-trips to None.
        assert_eq!(
            Rule::OneNotNull(None).check_node(&map(&[])),
            Err("check: value must be a map or dict, but was 'NoneType'".into())
        );
        assert_eq!(
            Rule::NotNull.check_node(&Value::Null),
            Err("fail: value is null".into())
        );
    }
}
