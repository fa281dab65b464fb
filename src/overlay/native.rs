//! Matchers that `overlay.index`, `overlay.map_key`, `overlay.subset` and the `and_op` /
//! `or_op` / `not_op` combinators build, evaluated directly on the nodes. Calling them through
//! Starlark would convert the document and the overlay node to fragments on every call (the
//! bulk of a large overlay step); the result is the same, so the host asks here first.

use super::compare::{map_key_matches, subset_matches};
use crate::yaml::Value;

/// A matcher the builders made, when every matcher it combines is one too.
#[derive(Debug, Clone)]
pub enum NativeMatcher {
    Index(i64),
    MapKey(String),
    Subset(Value),
    And(Vec<NativeMatcher>),
    Or(Vec<NativeMatcher>),
    Not(Box<NativeMatcher>),
}

impl NativeMatcher {
    /// Whether the matcher matches, or `None` when the call would fail: the caller then calls
    /// the matcher through Starlark, which gives ytt's message.
    pub fn matches(&self, key: &Value, left: &Value, right: &Value) -> Option<bool> {
        match self {
            NativeMatcher::Index(want) => match key {
                // The Starlark matcher reads the index as a 32-bit int.
                Value::Int(i) if i32::try_from(*i).is_ok() => Some(i == want),
                _ => None,
            },
            NativeMatcher::MapKey(name) => map_key_matches(name, left, right).ok(),
            NativeMatcher::Subset(expected) => Some(subset_matches(left, expected)),
            NativeMatcher::And(ops) => {
                for op in ops {
                    if !op.matches(key, left, right)? {
                        return Some(false);
                    }
                }
                Some(true)
            }
            NativeMatcher::Or(ops) => {
                for op in ops {
                    if op.matches(key, left, right)? {
                        return Some(true);
                    }
                }
                Some(false)
            }
            NativeMatcher::Not(op) => op.matches(key, left, right).map(|r| !r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::yaml::{Map, MapItem};

    fn map(pairs: &[(&str, &str)]) -> Value {
        let items = pairs
            .iter()
            .map(|(k, v)| {
                MapItem::new(
                    Value::String((*k).into()),
                    Value::String((*v).into()),
                    Pos::default(),
                )
            })
            .collect();
        Value::Map(Box::new(Map {
            items,
            ..Default::default()
        }))
    }

    #[test]
    fn combinators_follow_their_operands() {
        let doc = map(&[("kind", "Deployment"), ("name", "a")]);
        let kind = NativeMatcher::Subset(map(&[("kind", "Deployment")]));
        let other = NativeMatcher::Subset(map(&[("kind", "Service")]));
        let none = Value::Null;
        assert_eq!(kind.matches(&none, &doc, &none), Some(true));
        assert_eq!(other.matches(&none, &doc, &none), Some(false));
        let and = NativeMatcher::And(vec![kind.clone(), other.clone()]);
        assert_eq!(and.matches(&none, &doc, &none), Some(false));
        let or = NativeMatcher::Or(vec![other.clone(), kind.clone()]);
        assert_eq!(or.matches(&none, &doc, &none), Some(true));
        let not = NativeMatcher::Not(Box::new(other));
        assert_eq!(not.matches(&none, &doc, &none), Some(true));
    }

    #[test]
    fn failing_calls_are_left_to_starlark() {
        let by_name = NativeMatcher::MapKey("name".into());
        let a = map(&[("name", "a")]);
        let b = map(&[("name", "a")]);
        assert_eq!(by_name.matches(&Value::Null, &a, &b), Some(true));
        assert_eq!(by_name.matches(&Value::Null, &a, &Value::Null), None);
        let first = NativeMatcher::Index(0);
        assert_eq!(first.matches(&Value::Int(0), &a, &b), Some(true));
        assert_eq!(first.matches(&Value::String("x".into()), &a, &b), None);
    }
}
