//! Test-only helpers that build `Value`s and document sets tersely for the emitter tests.

use super::node::{Array, ArrayItem, DocSet, Document, Map, MapItem, Value};
use crate::pos::Pos;

pub(crate) fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

pub(crate) fn i(n: i64) -> Value {
    Value::Int(n)
}

pub(crate) fn f(x: f64) -> Value {
    Value::Float(x)
}

pub(crate) fn b(x: bool) -> Value {
    Value::Bool(x)
}

/// A map with string keys.
pub(crate) fn map(items: Vec<(&str, Value)>) -> Value {
    kmap(items.into_iter().map(|(k, v)| (s(k), v)).collect())
}

/// A map with arbitrary keys.
pub(crate) fn kmap(items: Vec<(Value, Value)>) -> Value {
    let items = items
        .into_iter()
        .map(|(k, v)| MapItem::new(k, v, Pos::unknown()))
        .collect();
    Value::Map(Box::new(Map {
        items,
        ..Map::default()
    }))
}

pub(crate) fn arr(items: Vec<Value>) -> Value {
    let items = items
        .into_iter()
        .map(|v| ArrayItem::new(v, Pos::unknown()))
        .collect();
    Value::Array(Box::new(Array {
        items,
        ..Array::default()
    }))
}

pub(crate) fn docset(values: Vec<Value>) -> DocSet {
    DocSet {
        items: values
            .into_iter()
            .map(|v| Document::new(v, Pos::unknown()))
            .collect(),
        ..DocSet::default()
    }
}
