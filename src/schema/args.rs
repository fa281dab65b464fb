//! Arguments of `@schema/...` annotations, resolved once while an evaluator can reach them.
//!
//! Annotation arguments that are not plain scalars are handles to Starlark values. A schema
//! document given with `library.with_data_values_schema()` may hold handles into the module
//! still being evaluated, which no later evaluator can reach; so every schema document's
//! handles are resolved when the document is made (an [`ArgTable`] travels with it), and
//! reading the schema needs no evaluator.

use std::collections::HashMap;

use starlark::values::tuple::TupleRef;
use starlark::values::Value as SValue;

use crate::eval::convert::starlark_to_value;
use crate::eval::overlay_host::{go_type, StarlarkHost};
use crate::yaml::{AnnValue, Annotations, Document, Handle, Value};

/// What ytt needs to know of an annotation argument.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgValue {
    /// Starlark's name of its type (`string`, `int`, `tuple`, ...).
    pub type_name: String,
    /// Go's name of its type as ytt prints it (`starlark.Int`, ...).
    pub go_type: String,
    /// The value as YAML, when it converts (functions do not).
    pub yaml: Option<Value>,
    /// The elements, when it is a tuple.
    pub tuple: Option<Vec<ArgValue>>,
}

impl ArgValue {
    /// An argument the evaluator kept as a plain scalar.
    pub fn scalar(v: &Value) -> ArgValue {
        let (type_name, go_type) = match v {
            Value::Null => ("NoneType", "starlark.NoneType"),
            Value::Bool(_) => ("bool", "starlark.Bool"),
            Value::Int(_) | Value::Uint(_) => ("int", "starlark.Int"),
            Value::Float(_) => ("float", "starlark.Float"),
            Value::String(_) => ("string", "starlark.String"),
            Value::Map(_) => ("dict", "*starlark.Dict"),
            Value::Array(_) => ("list", "*starlark.List"),
        };
        ArgValue {
            type_name: type_name.to_string(),
            go_type: go_type.to_string(),
            yaml: Some(v.clone()),
            tuple: None,
        }
    }

    fn of_starlark(v: SValue<'_>, depth: usize) -> ArgValue {
        let tuple = match TupleRef::from_value(v) {
            Some(t) if depth < 4 => {
                Some(t.iter().map(|x| Self::of_starlark(x, depth + 1)).collect())
            }
            _ => None,
        };
        ArgValue {
            type_name: v.get_type().to_string(),
            go_type: go_type(v),
            yaml: starlark_to_value(v).ok(),
            tuple,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match (&self.yaml, self.type_name.as_str()) {
            (Some(Value::String(s)), "string") => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match (&self.yaml, self.type_name.as_str()) {
            (Some(Value::Bool(b)), "bool") => Some(*b),
            _ => None,
        }
    }
}

/// The resolved handles of schema annotations, by handle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArgTable(HashMap<Handle, ArgValue>);

impl ArgTable {
    /// The argument `v`: a scalar as it is, a handle as resolved (unknown handles resolve to
    /// an opaque value).
    pub fn get(&self, v: &AnnValue) -> ArgValue {
        match v {
            AnnValue::Scalar(s) => ArgValue::scalar(s),
            AnnValue::Starlark(h) => self.0.get(h).cloned().unwrap_or_else(|| ArgValue {
                type_name: "unknown".into(),
                go_type: "starlark.Value".into(),
                yaml: None,
                tuple: None,
            }),
        }
    }

    /// Adds the entries of `other`.
    pub fn extend(&mut self, other: &ArgTable) {
        for (h, v) in &other.0 {
            self.0.insert(*h, v.clone());
        }
    }

    /// Resolves the handles of every `@schema/...` annotation in `doc`.
    pub fn resolve(doc: &Document, host: &mut StarlarkHost<'_, '_, '_, '_>) -> ArgTable {
        let mut table = ArgTable::default();
        let mut handles = Vec::new();
        collect_anns(&doc.anns, &mut handles);
        collect_value(&doc.value, &mut handles, 0);
        for h in handles {
            if let Some(v) = host.resolve(h) {
                table.0.insert(h, ArgValue::of_starlark(v, 0));
            }
        }
        table
    }
}

fn collect_anns(anns: &Annotations, out: &mut Vec<Handle>) {
    for a in anns.0.iter().filter(|a| a.name.starts_with("schema/")) {
        let values = a.args.iter().chain(a.kwargs.iter().map(|(_, v)| v));
        for v in values {
            if let AnnValue::Starlark(h) = v {
                out.push(*h);
            }
        }
    }
}

fn collect_value(v: &Value, out: &mut Vec<Handle>, depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    match v {
        Value::Map(m) => {
            for i in &m.items {
                collect_anns(&i.anns, out);
                collect_value(&i.value, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for i in &a.items {
                collect_anns(&i.anns, out);
                collect_value(&i.value, out, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_resolve_without_a_table() {
        let t = ArgTable::default();
        let a = t.get(&AnnValue::Scalar(Value::String("x".into())));
        assert_eq!(a.as_str(), Some("x"));
        assert_eq!(a.go_type, "starlark.String");
        let b = t.get(&AnnValue::Scalar(Value::Int(1)));
        assert_eq!(b.as_bool(), None);
        assert_eq!(b.go_type, "starlark.Int");
    }

    #[test]
    fn unknown_handles_are_opaque() {
        let t = ArgTable::default();
        let a = t.get(&AnnValue::Starlark(Handle { module: 9, slot: 9 }));
        assert_eq!(a.yaml, None);
    }
}
