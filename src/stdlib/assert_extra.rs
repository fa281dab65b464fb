//! The rules spec 000 adds to ytt's seven: `starts_with`, `ends_with`, `contains`, `matches`,
//! `format`, `even`, `odd`, `multiple_of` and `len`, and spec 001's `unique`, each both a named rule of
//! `@assert/validate` / `@schema/validation` and an `@ytt:assert` builder. Failures read like
//! ytt's own (`fail: value does not start with "x"`).

use super::assert_format::{port_number, Format};
use super::assert_rules::Subject;
use super::golike::{equal, repr, type_name};
use crate::yaml::Value;

/// A rule of spec 000 that ytt lacks.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtraRule {
    StartsWith(String),
    EndsWith(String),
    /// A substring of a string, an element of a list, a key of a map.
    Contains(Value),
    /// A regular expression (RE2 syntax, checked when the rule is made).
    Matches(String),
    Format(Format),
    Even,
    Odd,
    /// A positive integer or float divisor.
    MultipleOf(Value),
    Len(i64),
    /// No two elements of an array are equal (spec 001).
    Unique,
}

fn fail(msg: impl std::fmt::Display) -> String {
    format!("fail: {msg}")
}

fn want_string(v: &Value) -> Result<&str, String> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(fail(format!(
            "value must be a string, but was {}",
            type_name(other)
        ))),
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Uint(u) => Some(*u as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

impl ExtraRule {
    pub fn builder(&self) -> &'static str {
        match self {
            ExtraRule::StartsWith(_) => "assert.starts_with",
            ExtraRule::EndsWith(_) => "assert.ends_with",
            ExtraRule::Contains(_) => "assert.contains",
            ExtraRule::Matches(_) => "assert.matches",
            ExtraRule::Format(_) => "assert.format",
            ExtraRule::Even => "assert.even",
            ExtraRule::Odd => "assert.odd",
            ExtraRule::MultipleOf(_) => "assert.multiple_of",
            ExtraRule::Len(_) => "assert.len",
            ExtraRule::Unique => "assert.unique",
        }
    }

    /// What a valid value is, as "must be: ..." shows it.
    pub fn description(&self) -> String {
        match self {
            ExtraRule::StartsWith(p) => format!("a string starting with {}", quote(p)),
            ExtraRule::EndsWith(s) => format!("a string ending with {}", quote(s)),
            ExtraRule::Contains(x) => format!("a value containing {}", repr(x)),
            ExtraRule::Matches(re) => format!("a string matching {}", quote(re)),
            ExtraRule::Format(f) => f.description().to_string(),
            ExtraRule::Even => "an even number".to_string(),
            ExtraRule::Odd => "an odd number".to_string(),
            ExtraRule::MultipleOf(n) => format!("a multiple of {}", repr(n)),
            ExtraRule::Len(n) => format!("length = {n}"),
            ExtraRule::Unique => "an array of unique elements".to_string(),
        }
    }

    pub fn check(&self, v: &dyn Subject) -> Result<(), String> {
        match self {
            ExtraRule::Len(n) => {
                let len = v.length()?;
                if i64::try_from(len).is_ok_and(|l| l == *n) {
                    Ok(())
                } else {
                    Err(fail(format!("length = {len}")))
                }
            }
            _ => self.check_plain(&v.plain()?),
        }
    }

    fn check_plain(&self, val: &Value) -> Result<(), String> {
        let ok = match self {
            ExtraRule::StartsWith(p) => want_string(val)?.starts_with(p.as_str()),
            ExtraRule::EndsWith(s) => want_string(val)?.ends_with(s.as_str()),
            ExtraRule::Contains(x) => contains(val, x)?,
            ExtraRule::Matches(re) => {
                let s = want_string(val)?;
                regex::Regex::new(re)
                    .map_err(|e| fail(format!("invalid regular expression: {e}")))?
                    .is_match(s)
            }
            ExtraRule::Format(Format::Port) if matches!(val, Value::Int(_)) => {
                matches!(val, Value::Int(n) if port_number(*n))
            }
            ExtraRule::Format(f) => f.accepts(want_string(val)?),
            ExtraRule::Unique => {
                if let Some(dup) = duplicate(val)? {
                    return Err(fail(format!("value has duplicate element {}", repr(dup))));
                }
                true
            }
            ExtraRule::Even | ExtraRule::Odd => {
                let Value::Int(i) = val else {
                    return Err(fail(format!(
                        "value must be an integer, but was {}",
                        type_name(val)
                    )));
                };
                (i % 2 == 0) == matches!(self, ExtraRule::Even)
            }
            ExtraRule::MultipleOf(n) => {
                let (Some(x), Some(d)) = (number(val), number(n)) else {
                    return Err(fail(format!(
                        "value must be a number, but was {}",
                        type_name(val)
                    )));
                };
                match (val, n) {
                    (Value::Int(x), Value::Int(d)) => x % d == 0,
                    _ => (x / d - (x / d).round()).abs() < 1e-9,
                }
            }
            ExtraRule::Len(_) => true,
        };
        if ok {
            return Ok(());
        }
        Err(fail(match self {
            ExtraRule::StartsWith(p) => format!("value does not start with {}", quote(p)),
            ExtraRule::EndsWith(s) => format!("value does not end with {}", quote(s)),
            ExtraRule::Contains(x) => format!("value does not contain {}", repr(x)),
            ExtraRule::Matches(re) => format!("value does not match {}", quote(re)),
            ExtraRule::Format(f) => format!("value is not a valid {}", f.name()),
            ExtraRule::Even => "value is odd".to_string(),
            ExtraRule::Odd => "value is even".to_string(),
            ExtraRule::MultipleOf(n) => format!("value is not a multiple of {}", repr(n)),
            ExtraRule::Len(_) | ExtraRule::Unique => String::new(),
        }))
    }
}

fn quote(s: &str) -> String {
    super::golike::quote(s)
}

/// The first element of an array that equals an earlier one.
fn duplicate(val: &Value) -> Result<Option<&Value>, String> {
    // An empty array reaches a rule as null (ytt's encode/decode round trip of the node).
    if matches!(val, Value::Null) {
        return Ok(None);
    }
    let Value::Array(a) = val else {
        return Err(fail(format!(
            "value must be an array, but was {}",
            type_name(val)
        )));
    };
    Ok(a.items.iter().enumerate().find_map(|(i, x)| {
        a.items[..i]
            .iter()
            .any(|y| equal(&y.value, &x.value))
            .then_some(&x.value)
    }))
}

fn contains(val: &Value, x: &Value) -> Result<bool, String> {
    match (val, x) {
        (Value::String(s), Value::String(sub)) => Ok(s.contains(sub.as_str())),
        (Value::String(_), other) => Err(fail(format!(
            "a string can only contain a string, not {}",
            type_name(other)
        ))),
        (Value::Array(a), _) => Ok(a.items.iter().any(|i| equal(&i.value, x))),
        (Value::Map(m), _) => Ok(m.items.iter().any(|i| equal(&i.key, x))),
        (other, _) => Err(fail(format!(
            "value must be a string, list or map, but was {}",
            type_name(other)
        ))),
    }
}

/// Checks the argument of a builder or named rule and makes the rule; the error is the
/// message for a bad argument.
pub fn build(name: &str, arg: &Value) -> Result<ExtraRule, String> {
    let string = |what: &str| match arg {
        Value::String(s) => Ok(s.clone()),
        other => Err(format!(
            "expected {what} to be a string, but was {}",
            type_name(other)
        )),
    };
    let truth = || match arg {
        Value::Bool(true) => Ok(()),
        Value::Bool(false) => Err(format!("{name}= cannot be False")),
        other => Err(format!(
            "expected {name} to be True, but was {}",
            type_name(other)
        )),
    };
    Ok(match name {
        "starts_with" => ExtraRule::StartsWith(string("starts_with")?),
        "ends_with" => ExtraRule::EndsWith(string("ends_with")?),
        "contains" => ExtraRule::Contains(arg.clone()),
        "matches" => {
            let re = string("matches")?;
            regex::Regex::new(&re).map_err(|e| format!("invalid regular expression: {e}"))?;
            ExtraRule::Matches(re)
        }
        "format" => {
            let f = string("format")?;
            ExtraRule::Format(Format::parse(&f).ok_or_else(|| {
                format!(
                    "unknown format {}; known formats: {}",
                    quote(&f),
                    super::assert_format::NAMES.join(", ")
                )
            })?)
        }
        "even" => {
            truth()?;
            ExtraRule::Even
        }
        "odd" => {
            truth()?;
            ExtraRule::Odd
        }
        "unique" => {
            truth()?;
            ExtraRule::Unique
        }
        "multiple_of" => match number(arg) {
            Some(d) if d > 0.0 => ExtraRule::MultipleOf(arg.clone()),
            _ => {
                return Err(format!(
                    "expected multiple_of to be a positive number, but was {}",
                    repr(arg)
                ))
            }
        },
        "len" => match arg {
            Value::Int(n) if *n >= 0 => ExtraRule::Len(*n),
            other => {
                return Err(format!(
                    "expected len to be a non-negative integer, but was {}",
                    repr(other)
                ))
            }
        },
        other => return Err(format!("unknown rule {other:?}")),
    })
}

/// Named rules this module provides, in the order their rules run.
pub const NAMES: &[&str] = &[
    "starts_with",
    "ends_with",
    "contains",
    "matches",
    "format",
    "even",
    "odd",
    "multiple_of",
    "len",
    "unique",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stdlib::assert_rules::Node;

    fn s(x: &str) -> Value {
        Value::String(x.to_string())
    }

    fn check(name: &str, arg: Value, v: Value) -> Result<(), String> {
        build(name, &arg)?.check(&Node(&v))
    }

    #[test]
    fn string_rules() {
        assert_eq!(check("starts_with", s("ab"), s("abc")), Ok(()));
        assert_eq!(
            check("starts_with", s("x"), s("abc")),
            Err("fail: value does not start with \"x\"".into())
        );
        assert_eq!(check("ends_with", s(".git"), s("repo.git")), Ok(()));
        assert!(check("ends_with", s(".git"), s("repo")).is_err());
        assert_eq!(check("contains", s("@sha"), s("img@sha256:1")), Ok(()));
        assert!(check("contains", s("@sha"), s("img:latest")).is_err());
        assert_eq!(check("matches", s("^[a-z]+$"), s("abc")), Ok(()));
        assert!(check("matches", s("^[a-z]+$"), s("ABC")).is_err());
        assert_eq!(
            check("starts_with", s("a"), Value::Int(1)),
            Err("fail: value must be a string, but was int".into())
        );
    }

    #[test]
    fn number_rules() {
        assert_eq!(check("even", Value::Bool(true), Value::Int(4)), Ok(()));
        assert_eq!(
            check("even", Value::Bool(true), Value::Int(3)),
            Err("fail: value is odd".into())
        );
        assert_eq!(check("odd", Value::Bool(true), Value::Int(3)), Ok(()));
        assert_eq!(
            check("multiple_of", Value::Int(1024), Value::Int(2048)),
            Ok(())
        );
        assert!(check("multiple_of", Value::Int(1024), Value::Int(1000)).is_err());
        assert_eq!(
            check("multiple_of", Value::Float(0.5), Value::Float(1.5)),
            Ok(())
        );
        assert_eq!(check("len", Value::Int(2), s("ab")), Ok(()));
        assert_eq!(
            check("len", Value::Int(2), s("abc")),
            Err("fail: length = 3".into())
        );
    }

    #[test]
    fn bad_arguments_are_refused() {
        assert!(build("matches", &s("(")).is_err());
        assert!(build("format", &s("colour")).is_err());
        assert!(build("even", &Value::Bool(false)).is_err());
        assert!(build("multiple_of", &Value::Int(0)).is_err());
        assert!(build("len", &Value::Int(-1)).is_err());
        assert!(build("starts_with", &Value::Int(1)).is_err());
    }

    fn list(xs: &[Value]) -> Value {
        crate::yaml::Value::Array(Box::new(crate::yaml::Array {
            items: xs
                .iter()
                .map(|x| crate::yaml::ArrayItem::new(x.clone(), Default::default()))
                .collect(),
            ..Default::default()
        }))
    }

    #[test]
    fn unique_finds_the_first_repeated_element() {
        let t = Value::Bool(true);
        assert_eq!(check("unique", t.clone(), list(&[s("a"), s("b")])), Ok(()));
        assert_eq!(check("unique", t.clone(), list(&[])), Ok(()));
        assert_eq!(
            check("unique", t.clone(), list(&[s("a"), s("b"), s("b"), s("a")])),
            Err("fail: value has duplicate element \"b\"".into())
        );
        // Equal as values: an int and the same float are the same element.
        assert!(check(
            "unique",
            t.clone(),
            list(&[Value::Int(1), Value::Float(1.0)])
        )
        .is_err());
        assert!(check(
            "unique",
            t.clone(),
            list(&[list(&[s("x")]), list(&[s("x")])])
        )
        .is_err());
        assert_eq!(
            check("unique", t, s("aa")),
            Err("fail: value must be an array, but was string".into())
        );
        assert!(build("unique", &Value::Bool(false)).is_err());
    }

    #[test]
    fn port_format_takes_integers_and_strings() {
        let port = s("port");
        assert_eq!(check("format", port.clone(), Value::Int(443)), Ok(()));
        assert_eq!(check("format", port.clone(), s("443")), Ok(()));
        assert_eq!(
            check("format", port.clone(), Value::Int(70000)),
            Err("fail: value is not a valid port".into())
        );
        assert!(check("format", port, Value::Bool(true)).is_err());
    }

    #[test]
    fn contains_looks_in_lists_and_map_keys() {
        let list = crate::yaml::Value::Array(Box::new(crate::yaml::Array {
            items: vec![crate::yaml::ArrayItem::new(s("a"), Default::default())],
            ..Default::default()
        }));
        assert_eq!(check("contains", s("a"), list.clone()), Ok(()));
        assert!(check("contains", s("b"), list).is_err());
    }
}
