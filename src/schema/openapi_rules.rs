//! The validation keywords of the OpenAPI export (spec 000, increment 2; ytt exports none):
//! the named rules of a type's `@schema/validation` become `minimum`, `maximum`,
//! `minLength`/`maxLength` (strings), `minItems`/`maxItems` (arrays),
//! `minProperties`/`maxProperties` (maps), `enum`, `format` and `multipleOf`. Custom rules and
//! `when=` have no OpenAPI form and are left out.

use super::args::ArgTable;
use super::types::{Kind, Type};
use crate::yaml::{Annotation, Value};

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
        let key = match name.as_str() {
            "min" => Some("minimum"),
            "max" => Some("maximum"),
            "min_len" => length("minLength", "minItems", "minProperties"),
            "max_len" => length("maxLength", "maxItems", "maxProperties"),
            "one_of" => Some("enum"),
            "format" => Some("format"),
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

const KEYS: [&str; 12] = [
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
    "format",
    "pattern",
];
