//! Type checking data values against a schema (ytt's `AssignTypeTo` then `CheckNode`).
//!
//! Two passes, as ytt does: the first walks the value alongside its type, adds to every map
//! the items it lacks (with their defaults — this is how array items added by data values get
//! the defaults of their schema) and reports values whose shape is wrong (a map where an array
//! is declared). Only when that found nothing does the second pass report, in document order,
//! keys the schema does not declare and scalars of the wrong type. Every failure points at the
//! node that set the value.

use super::error::{go_syntax, Failure, FailureKind};
use super::spell::nearest;
use super::types::{declared_or_any, DocType, Kind, MapItemType, Type};
use crate::pos::Pos;
use crate::yaml::{scalar_key_string, Document, Map, MapItem, Value};

/// Types `doc` by `schema` (filling in defaults) and returns every violation.
pub fn check_document(schema: &DocType, doc: &mut Document) -> Vec<Failure> {
    let mut out = Vec::new();
    assign(&schema.ty, &mut doc.value, &mut out, 0);
    if !out.is_empty() {
        return out;
    }
    if !is_node(&doc.value) {
        out.extend(check_scalar(&schema.ty, &doc.value, &doc.pos, None));
    }
    check(&schema.ty, &doc.value, &mut out, 0);
    out
}

/// Types a map or array value by `ty` (filling in defaults) and returns every violation.
pub fn assign_and_check(ty: &Type, value: &mut Value) -> Vec<Failure> {
    let mut out = Vec::new();
    assign(ty, value, &mut out, 0);
    if out.is_empty() {
        check(ty, value, &mut out, 0);
    }
    out
}

fn is_node(v: &Value) -> bool {
    matches!(v, Value::Map(_) | Value::Array(_))
}

/// "integer (by schema.yml:3)": what a type expects (its name only when its position is known).
fn expected(ty: &Type) -> String {
    let name = if ty.pos.is_known() { ty.name() } else { "" };
    format!("{name} (by {})", ty.pos.as_compact())
}

fn mismatch(pos: &Pos, ty: &Type, found: &str) -> Failure {
    let mut f = Failure::new(FailureKind::TypeMismatch, pos)
        .found(found)
        .expected(expected(ty));
    f.schema_pos = Some(ty.pos.clone());
    f
}

/// First pass: shapes, and defaults for missing map items.
fn assign(ty: &Type, v: &mut Value, out: &mut Vec<Failure>, depth: usize) {
    if !is_node(v) || depth > super::MAX_DEPTH {
        return;
    }
    match (&ty.kind, v) {
        (Kind::Any(_), _) => {}
        (Kind::Null(inner), v) => assign(inner, v, out, depth),
        (Kind::Map(items), Value::Map(m)) => assign_map(items, m, out, depth),
        (Kind::Array(item, _), Value::Array(a)) => {
            for it in &mut a.items {
                assign(&item.ty, &mut it.value, out, depth + 1);
            }
        }
        (_, Value::Map(m)) => out.push(mismatch(&m.pos, ty, "map")),
        (_, Value::Array(a)) => out.push(mismatch(&a.pos, ty, "array")),
        _ => {}
    }
}

fn assign_map(items: &[MapItemType], m: &mut Map, out: &mut Vec<Failure>, depth: usize) {
    let mut found = vec![false; items.len()];
    for item in &mut m.items {
        if let Some(i) = items.iter().position(|t| t.key == item.key) {
            found[i] = true;
            assign(&items[i].ty, &mut item.value, out, depth + 1);
        } else if let Some(t) = declared_or_any(items, None) {
            assign(&t.ty, &mut item.value, out, depth + 1);
        }
    }
    for (t, _) in items
        .iter()
        .zip(found)
        .filter(|(t, f)| !f && !t.may_be_absent && !t.any_key)
    {
        let mut item = t.default_item();
        assign(&t.ty, &mut item.value, out, depth + 1);
        m.items.push(item);
    }
}

/// Second pass, in document order: undeclared keys of a map, then each item's scalar type and
/// what is inside it.
fn check(ty: &Type, v: &Value, out: &mut Vec<Failure>, depth: usize) {
    if depth > super::MAX_DEPTH {
        return;
    }
    match (&ty.non_null().kind, v) {
        (Kind::Map(items), Value::Map(m)) => {
            let declared =
                |item: &MapItem| declared_or_any(items, items.iter().find(|t| t.key == item.key));
            for item in &m.items {
                if declared(item).is_none() {
                    out.push(undeclared(item, &ty.non_null().pos, items));
                }
            }
            for item in &m.items {
                let Some(t) = declared(item) else {
                    continue;
                };
                if !is_node(&item.value) {
                    let memory = memory_line(&item.pos, || {
                        format!(
                            "{}: {}",
                            scalar_key_string(&item.key),
                            go_syntax(&item.value)
                        )
                    });
                    out.extend(check_scalar(&t.ty, &item.value, &item.pos, memory));
                }
                check(&t.ty, &item.value, out, depth + 1);
            }
        }
        (Kind::Array(item_ty, _), Value::Array(a)) => {
            for it in &a.items {
                if !is_node(&it.value) {
                    let memory = memory_line(&it.pos, || format!("- {}", go_syntax(&it.value)));
                    out.extend(check_scalar(&item_ty.ty, &it.value, &it.pos, memory));
                }
                check(&item_ty.ty, &it.value, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// ytt shows values built by Starlark code (no file, no line) as a line of their own.
fn memory_line(pos: &Pos, line: impl FnOnce() -> String) -> Option<String> {
    (pos.file.is_none() && !pos.is_known()).then(line)
}

/// Checks a scalar value (of a document, map item or array item at `pos`) against `ty`.
pub fn check_scalar(ty: &Type, v: &Value, pos: &Pos, memory: Option<String>) -> Option<Failure> {
    let ok = match &ty.kind {
        Kind::Any(_) => true,
        Kind::Null(inner) => {
            return match v {
                Value::Null => None,
                _ => check_scalar(inner, v, pos, memory),
            }
        }
        Kind::Scalar(k, _) => k.accepts(v),
        Kind::Map(_) | Kind::Array(..) => false,
    };
    if ok {
        return None;
    }
    let mut f = mismatch(pos, ty, v.type_name());
    f.memory_line = memory;
    Some(f)
}

/// "Given data value is not declared in schema", with the keys that are.
fn undeclared(item: &MapItem, map_pos: &Pos, items: &[MapItemType]) -> Failure {
    let key = scalar_key_string(&item.key);
    let mut keys: Vec<String> = items.iter().map(|t| scalar_key_string(&t.key)).collect();
    keys.sort();
    let from = map_pos.as_compact();
    let expected = match keys.len() {
        0 => String::new(),
        1 => format!(
            "a map item with the key named \"{}\" (from {from})",
            keys[0]
        ),
        2..=9 => format!("one of {{ {} }} (from {from})", keys.join(", ")),
        _ => format!("a key declared in map (from {from})"),
    };
    let mut f = Failure::new(FailureKind::Undeclared, &item.pos)
        .described("Given data value is not declared in schema")
        .found(key.clone())
        .expected(expected);
    f.schema_pos = Some(map_pos.clone());
    if let Some(best) = nearest(&key, &keys) {
        f = f.hint(format!("did you mean \"{best}\"?"));
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::args::ArgTable;
    use crate::schema::infer::Inferrer;
    use crate::yaml::emit::docset_to_yaml;
    use crate::yaml::parse::{parse, ParseOpts};
    use crate::yaml::DocSet;
    use std::sync::Arc;

    fn doc(name: &str, src: &str) -> Document {
        let ds = parse(src, &Arc::from(name), &ParseOpts::default()).unwrap();
        ds.items.into_iter().next().unwrap()
    }

    fn schema(src: &str) -> DocType {
        Inferrer::new(&ArgTable::default())
            .document(&doc("schema.yml", src))
            .unwrap()
    }

    fn text(d: Document) -> String {
        docset_to_yaml(&DocSet {
            items: vec![d],
            ..DocSet::default()
        })
    }

    const SCHEMA: &str = "a: 1\nb:\n  c: \"\"\nl:\n- x: 1\n  z: true\n";

    #[test]
    fn fills_missing_items_of_maps_and_array_items() {
        let s = schema(SCHEMA);
        let mut v = doc("v.yml", "l:\n- x: 2\n- {}\n");
        assert!(check_document(&s, &mut v).is_empty());
        assert_eq!(
            text(v),
            "l:\n- x: 2\n  z: true\n- x: 1\n  z: true\na: 1\nb:\n  c: \"\"\n"
        );
    }

    #[test]
    fn reports_shapes_before_scalars() {
        let s = schema(SCHEMA);
        let mut v = doc("v.yml", "a: s\nb: [1]\n");
        let f = check_document(&s, &mut v);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].found.as_str(), f[0].pos.line), ("array", 2));
        assert_eq!(f[0].expected, "map (by schema.yml:2)");
    }

    #[test]
    fn reports_undeclared_keys_then_scalars_in_document_order() {
        let s = schema(SCHEMA);
        let mut v = doc("v.yml", "a: s\nzz: 1\nb:\n  c: 3\n");
        let f = check_document(&s, &mut v);
        let got: Vec<(&str, u32)> = f.iter().map(|f| (f.found.as_str(), f.pos.line)).collect();
        assert_eq!(got, [("zz", 2), ("string", 1), ("integer", 4)]);
        assert_eq!(f[0].kind, FailureKind::Undeclared);
        assert_eq!(f[0].expected, "one of { a, b, l } (from schema.yml:1)");
        assert_eq!(f[1].kind, FailureKind::TypeMismatch);
        assert_eq!(f[1].schema_pos.as_ref().map(|p| p.line), Some(1));
    }

    #[test]
    fn values_built_in_memory_show_their_own_line() {
        let s = schema(SCHEMA);
        let mut v = doc("v.yml", "a: 1\n");
        if let Value::Map(m) = &mut v.value {
            m.items[0].value = Value::String("4".into());
            m.items[0].pos = Pos::unknown();
        }
        let f = check_document(&s, &mut v);
        assert_eq!(f[0].memory_line.as_deref(), Some("a: \"4\""));
    }
}
