//! The validator's conversions of looked-up values: `AsInt64` (Go integers, rounded floats,
//! resource quantities) for integer rules and `AsString` (strings, else Go's `<T Value>`
//! rendering) for string, enum and regex rules.

use crate::yaml::Value;

use super::quantity;
use super::schema::{Basic, Ty};
use super::typecheck::int_convertible;
use super::value::{scalar_text, Data, Node, View};

/// A value read as an integer.
#[derive(Clone, Debug, PartialEq)]
pub enum IntValue {
    Int(i64),
    /// A quantity whose exact value the validator cannot convert (`1.5Gi`, `500m`).
    Fractional {
        text: String,
        exact: Option<i128>,
    },
    /// The validator's "mismatching type": the Go type it found.
    Mismatch(String),
    /// A nil `*resource.Quantity`: the validator dereferences it and crashes.
    NilQuantity,
    /// Not a quantity Kubernetes accepts.
    BadQuantity(String),
    /// A template parameter (`${X}`): unknown until the template is processed.
    Parameter,
}

/// A value read as a string.
#[derive(Clone, Debug, PartialEq)]
pub struct StrValue {
    pub text: String,
    /// `text` is Go's `<T Value>` rendering of a value that is not a string.
    pub rendered: bool,
    /// A template parameter (`${X}`).
    pub parameter: bool,
}

fn is_parameter(s: &str, params: bool) -> bool {
    params && s.contains("${")
}

fn quantity_text(text: &str, params: bool) -> IntValue {
    if is_parameter(text, params) {
        return IntValue::Parameter;
    }
    match quantity::parse(text.trim()) {
        Some(q) => match q.as_int64 {
            Some(i) => IntValue::Int(i),
            None => IntValue::Fractional {
                text: text.to_string(),
                exact: q.ceil(),
            },
        },
        None => IntValue::BadQuantity(text.to_string()),
    }
}

fn yaml_quantity(v: &Value, params: bool) -> IntValue {
    match v {
        Value::Null => IntValue::Int(0),
        Value::Int(i) => IntValue::Int(*i),
        other => quantity_text(&scalar_text(other), params),
    }
}

/// Go's `Results.AsInt64` for one value; `params` treats `${X}` texts as unknown.
pub fn as_int(view: &View, n: &Node, params: bool) -> IntValue {
    match &n.data {
        Data::Int(i) => return IntValue::Int(*i),
        Data::Float(f) => return IntValue::Int(f.round() as i64),
        Data::Bool(_) => return IntValue::Mismatch("bool".to_string()),
        Data::Text(_) => return IntValue::Mismatch("string".to_string()),
        _ => {}
    }
    let schema = view.schema;
    match schema.ty(n.ty) {
        Ty::Basic { kind, go }
            if matches!(kind, Basic::Int | Basic::Float) && int_convertible(go) =>
        {
            match &n.data {
                Data::Yaml(Value::Int(i)) => IntValue::Int(*i),
                Data::Yaml(Value::Float(f)) => IntValue::Int(f.round() as i64),
                Data::Yaml(Value::String(s)) if is_parameter(s, params) => IntValue::Parameter,
                Data::Yaml(Value::String(s)) => match s.trim().parse::<i64>() {
                    Ok(i) => IntValue::Int(i),
                    Err(_) => IntValue::Mismatch("string".to_string()),
                },
                Data::Yaml(Value::Null) | Data::Missing | Data::Ref(_) => IntValue::Int(0),
                _ => IntValue::Mismatch(go.clone()),
            }
        }
        Ty::Quantity => match &n.data {
            Data::Yaml(v) => yaml_quantity(v, params),
            _ => IntValue::Int(0),
        },
        Ty::Ptr(inner) if *schema.ty(*inner) == Ty::Quantity => {
            if view.is_nil(n) {
                return IntValue::NilQuantity;
            }
            match &n.data {
                Data::Yaml(v) => yaml_quantity(v, params),
                _ => IntValue::Int(0),
            }
        }
        Ty::Opaque => match &n.data {
            Data::Yaml(Value::Int(i)) => IntValue::Int(*i),
            Data::Yaml(Value::Float(f)) => IntValue::Int(f.round() as i64),
            Data::Yaml(Value::String(s)) if is_parameter(s, params) => IntValue::Parameter,
            Data::Yaml(v) => IntValue::Mismatch(v.type_name().to_string()),
            _ => IntValue::Mismatch("interface {}".to_string()),
        },
        _ => IntValue::Mismatch(schema.go_name(n.ty)),
    }
}

/// Go's `Results.AsString` for one value.
pub fn as_str(view: &View, n: &Node, params: bool) -> StrValue {
    match view.string_value(n) {
        Some(text) => StrValue {
            parameter: is_parameter(&text, params),
            text,
            rendered: false,
        },
        None => StrValue {
            text: view.go_rendering(n),
            rendered: true,
            parameter: false,
        },
    }
}

/// The value as the VM's author wrote it, for messages (`4` for a uint32 field).
pub fn written(n: &Node) -> Option<String> {
    match &n.data {
        Data::Yaml(v) if !matches!(v, Value::Map(_) | Value::Array(_)) => Some(scalar_text(v)),
        Data::Int(i) => Some(i.to_string()),
        _ => None,
    }
}
