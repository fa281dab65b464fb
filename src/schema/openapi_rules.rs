//! The validation keywords of the OpenAPI export (spec 000, increment 2; ytt exports none):
//! the named rules of a type's `@schema/validation` become `minimum`, `maximum`,
//! `minLength`/`maxLength` (strings), `minItems`/`maxItems` (arrays),
//! `minProperties`/`maxProperties` (maps), `enum`, `format` and `multipleOf`; spec 001's
//! `unique=True` becomes `uniqueItems`. Formats JSON Schema names keep their name; the others
//! become what expresses them: `ip` an `anyOf` of `ipv4` and `ipv6`, `port` a range (integers)
//! or a pattern (strings), `percent` and `duration` a pattern. Custom rules and `when=` have no
//! OpenAPI form and are left out.

use super::args::ArgTable;
use super::types::{Kind, ScalarKind, Type};
use crate::pos::Pos;
use crate::stdlib::assert_format::{Format, MAX_PORT};
use crate::yaml::{Annotation, Array, ArrayItem, Map, MapItem, Value};

/// The OpenAPI keywords for `ty`'s validation, in a fixed order.
pub fn constraints(ann: &Annotation, args: &ArgTable, ty: &Type) -> Vec<(&'static str, Value)> {
    let kind = &ty.non_null().kind;
    let mut out = Vec::new();
    for (name, arg) in &ann.kwargs {
        let resolved = args.get(arg);
        // `name=("description", argument)` carries the argument second.
        let value = match &resolved.tuple {
            Some(items) if items.len() == 2 && items[0].as_str().is_some() => items[1].yaml.clone(),
            _ => resolved.yaml.clone(),
        };
        let Some(value) = value else {
            continue;
        };
        let length = |string: &'static str, array: &'static str, map: &'static str| match kind {
            Kind::Scalar(..) => Some(string),
            Kind::Array(..) => Some(array),
            Kind::Map(_) => Some(map),
            _ => None,
        };
        if name == "format" {
            if let Some(f) = value.as_str().and_then(Format::parse) {
                out.extend(format_keywords(f, kind));
            }
            continue;
        }
        if name == "unique" {
            if matches!(value, Value::Bool(true)) {
                out.push(("uniqueItems", Value::Bool(true)));
            }
            continue;
        }
        let key = match name.as_str() {
            "min" => Some("minimum"),
            "max" => Some("maximum"),
            "min_len" => length("minLength", "minItems", "minProperties"),
            "max_len" => length("maxLength", "maxItems", "maxProperties"),
            "one_of" => Some("enum"),
            "multiple_of" => Some("multipleOf"),
            _ => None,
        };
        if let Some(key) = key {
            let value = match (key, value) {
                // Lengths are integers (ytt truncates float bounds).
                ("minLength" | "maxLength" | "minItems" | "maxItems", Value::Float(f))
                | ("minProperties" | "maxProperties", Value::Float(f)) => {
                    Value::Int(f.trunc() as i64)
                }
                (_, v) => v,
            };
            out.push((key, value));
        }
    }
    out.sort_by_key(|(k, _)| KEYS.iter().position(|x| x == k));
    out
}

fn string(s: &str) -> Value {
    Value::String(s.to_string())
}

/// A port from 0 to 65535 written in decimal without leading zeros.
const PORT_PATTERN: &str =
    "^(0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$";
/// Go's duration syntax (the overflow check has no pattern).
const DURATION_PATTERN: &str =
    "^[-+]?(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|\u{b5}s|\u{3bc}s|ms|s|m|h))+)$";

/// The keywords that say `format=f`.
fn format_keywords(f: Format, kind: &Kind) -> Vec<(&'static str, Value)> {
    let format = |name: &str| {
        Value::Map(Box::new(Map {
            items: vec![MapItem::new(string("format"), string(name), Pos::unknown())],
            ..Map::default()
        }))
    };
    match f {
        Format::Ip => vec![(
            "anyOf",
            Value::Array(Box::new(Array {
                items: vec![
                    ArrayItem::new(format("ipv4"), Pos::unknown()),
                    ArrayItem::new(format("ipv6"), Pos::unknown()),
                ],
                ..Array::default()
            })),
        )],
        Format::Port => match kind {
            Kind::Scalar(ScalarKind::String, _) => vec![("pattern", string(PORT_PATTERN))],
            _ => vec![
                ("minimum", Value::Int(0)),
                ("maximum", Value::Int(MAX_PORT)),
            ],
        },
        Format::Percent => vec![("pattern", string("^[0-9]+%$"))],
        Format::Duration => vec![("pattern", string(DURATION_PATTERN))],
        Format::UriRef => vec![("format", string("uri-reference"))],
        other => vec![("format", string(other.name()))],
    }
}

const KEYS: [&str; 14] = [
    "minimum",
    "maximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "enum",
    "uniqueItems",
    "format",
    "pattern",
    "anyOf",
];
