//! Reading the `@schema/...` annotations of one schema node, with ytt's syntax errors:
//! `@schema/type any=<bool>`, `@schema/nullable`, `@schema/default <value>`, and the
//! documentation annotations `@schema/title`, `@schema/desc`, `@schema/deprecated` (one
//! string each) and `@schema/examples (description, value), ...`.

use super::args::{ArgTable, ArgValue};
use super::error::{Failure, FailureKind};
use super::types::{Example, Type};
use crate::pos::Pos;
use crate::yaml::{Annotation, Annotations, Value};

pub const TYPE: &str = "schema/type";
pub const NULLABLE: &str = "schema/nullable";
pub const DEFAULT: &str = "schema/default";
pub const DESC: &str = "schema/desc";
pub const TITLE: &str = "schema/title";
pub const EXAMPLES: &str = "schema/examples";
pub const DEPRECATED: &str = "schema/deprecated";
/// yttlint's `schema-removed` extension.
pub const REMOVED: &str = "schema/removed";
/// yttlint's `schema-key-may-be-present` extension.
pub const KEY_MAY_BE_PRESENT: &str = "schema/key-may-be-present";
/// yttlint's `schema-any-key` extension.
pub const ANY_KEY: &str = "schema/any-key";
/// The key of the map item `@schema/any-key` marks.
pub const ANY_KEY_NAME: &str = "_";

/// A result whose failure is boxed (failures are large and rare).
pub type Res<T> = Result<T, Box<Failure>>;

/// The kind of node an annotation sits on (ytt allows some annotations only on some).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Document,
    MapItem,
    ArrayItem,
}

/// A schema node: a document, map item or array item, with its value and annotations.
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    pub kind: NodeKind,
    pub value: &'a Value,
    pub pos: &'a Pos,
    pub anns: &'a Annotations,
}

/// A failure about the annotation `ann` on the node at `pos`.
fn syntax(ann: &Annotation, pos: &Pos) -> Failure {
    Failure::new(FailureKind::InvalidSchema, pos)
        .at_annotation(&ann.pos)
        .described(format!("syntax error in @{} annotation", ann.name))
}

fn by(ann: &Annotation) -> String {
    ann.pos.as_compact()
}

/// `@schema/type any=<bool>`: `Some(any)` when present.
pub fn type_any(node: &Node, args: &ArgTable) -> Res<Option<bool>> {
    let Some(ann) = node.anns.get(TYPE) else {
        return Ok(None);
    };
    let base = || Failure::new(FailureKind::InvalidSchema, node.pos).at_annotation(&ann.pos);
    if ann.kwargs.is_empty() {
        return Err(base()
            .described("expected @schema/type annotation to have keyword argument and value")
            .expected("valid keyword argument and value")
            .found(format!(
                "missing keyword argument and value (by {})",
                by(ann)
            ))
            .hint("Supported key-value pairs are 'any=True', 'any=False'")
            .into());
    }
    let mut any = false;
    for (name, v) in &ann.kwargs {
        let unknown = base()
            .described("unknown @schema/type annotation keyword argument")
            .hint("Supported kwargs are 'any'");
        if name != "any" {
            return Err(unknown
                .expected("A valid kwarg")
                .found(format!("{name} (by {})", by(ann)))
                .into());
        }
        let arg = args.get(v);
        any = arg.as_bool().ok_or_else(|| {
            unknown
                .expected("starlark.Bool")
                .found(format!("{} (by {})", arg.go_type, by(ann)))
        })?;
    }
    Ok(Some(any))
}

/// `@schema/nullable`: whether present (it takes no keyword arguments).
pub fn nullable(node: &Node) -> Res<bool> {
    let Some(ann) = node.anns.get(NULLABLE) else {
        return Ok(false);
    };
    if !ann.kwargs.is_empty() {
        return Err(Failure::new(FailureKind::InvalidSchema, node.pos)
            .at_annotation(&ann.pos)
            .described("expected @schema/nullable annotation to not contain any keyword arguments")
            .expected("starlark.Bool")
            .found(format!(
                "keyword argument in @schema/nullable (by {})",
                by(ann)
            ))
            .hint("Supported kwargs are 'any'")
            .into());
    }
    Ok(true)
}

/// The value of `@schema/default` on a node of type `ty`, as YAML positioned at the node.
pub fn default_value(ann: &Annotation, node: &Node, ty: &Type, args: &ArgTable) -> Res<Value> {
    let expected = format!("{} (by {})", ty.name(), ty.pos.as_compact());
    let fail = |found: String| {
        syntax(ann, node.pos)
            .expected(expected.clone())
            .found(found)
    };
    if !ann.kwargs.is_empty() {
        return Err(
            fail(format!("keyword argument in @{DEFAULT} (by {})", by(ann)))
                .hint("this annotation only accepts one argument: the default value.")
                .hint("value must be in Starlark format, e.g.: {'key': 'value'}, True.")
                .into(),
        );
    }
    let arg = match ann.args.as_slice() {
        [one] => args.get(one),
        [] => return Err(fail(format!("missing value in @{DEFAULT} (by {})", by(ann))).into()),
        many => {
            return Err(fail(format!(
                "{} values in @{DEFAULT} (by {})",
                many.len(),
                by(ann)
            ))
            .into())
        }
    };
    let mut value = arg.yaml.ok_or_else(|| {
        fail(format!(
            "{} value in @{DEFAULT} (by {})",
            arg.type_name,
            by(ann)
        ))
    })?;
    place_at(&mut value, node.pos, 0);
    Ok(value)
}

/// One string argument (`@schema/desc`, `@schema/title`, `@schema/deprecated`).
pub fn string_arg(node: &Node, name: &str, args: &ArgTable) -> Res<Option<String>> {
    let Some(ann) = node.anns.get(name) else {
        return Ok(None);
    };
    let fail = |found: String| syntax(ann, node.pos).expected("string").found(found);
    if !ann.kwargs.is_empty() {
        return Err(
            fail(format!("keyword argument in @{name} (by {})", by(ann)))
                .hint("this annotation only accepts one argument: a string.")
                .into(),
        );
    }
    let arg = match ann.args.as_slice() {
        [one] => args.get(one),
        [] => return Err(fail(format!("missing value in @{name} (by {})", by(ann))).into()),
        many => {
            return Err(fail(format!("{} values in @{name} (by {})", many.len(), by(ann))).into())
        }
    };
    match arg.as_str() {
        Some(s) => Ok(Some(s.to_string())),
        None => Err(fail(format!("Non-string value in @{name} (by {})", by(ann))).into()),
    }
}

/// `@schema/examples`: the examples and the annotation's position.
pub fn examples(node: &Node, args: &ArgTable) -> Res<Option<(Vec<Example>, Pos)>> {
    let Some(ann) = node.anns.get(EXAMPLES) else {
        return Ok(None);
    };
    let fail = |found: String| {
        syntax(ann, node.pos)
            .expected(
                "2-tuple containing description (string) and example value (of expected type)",
            )
            .found(found)
    };
    if !ann.kwargs.is_empty() {
        return Err(fail(format!("keyword argument in @{EXAMPLES} (by {})", by(ann))).into());
    }
    if ann.args.is_empty() {
        return Err(fail(format!("missing value in @{EXAMPLES} (by {})", by(ann))).into());
    }
    let mut out = Vec::new();
    for a in &ann.args {
        let arg = args.get(a);
        let Some(items) = &arg.tuple else {
            return Err(fail(format!(
                "{} for @{EXAMPLES} (at {})",
                arg.type_name,
                by(ann)
            ))
            .into());
        };
        out.push(example(items, ann, node, &fail)?);
    }
    Ok(Some((out, ann.pos.clone())))
}

fn example(
    items: &[ArgValue],
    ann: &Annotation,
    node: &Node,
    fail: &dyn Fn(String) -> Failure,
) -> Res<Example> {
    let (desc, value) = match items {
        [d, v] => (d, v),
        [] | [_] => return Err(fail(format!("empty tuple in @{EXAMPLES} (by {})", by(ann))).into()),
        many => {
            return Err(fail(format!(
                "{}-tuple argument in @{EXAMPLES} (by {})",
                many.len(),
                by(ann)
            ))
            .into())
        }
    };
    let Some(description) = desc.as_str() else {
        return Err(fail(format!(
            "{} value for @{EXAMPLES} (at {})",
            desc.type_name,
            by(ann)
        ))
        .into());
    };
    let mut v = value.yaml.clone().ok_or_else(|| {
        fail(format!(
            "{} value for @{EXAMPLES} (at {})",
            value.type_name,
            by(ann)
        ))
    })?;
    place_at(&mut v, node.pos, 0);
    Ok(Example {
        description: description.to_string(),
        value: v,
    })
}

/// Gives every node of a value computed by Starlark the position of the schema node it
/// belongs to (ytt's `NewASTFromInterfaceWithPosition`).
pub fn place_at(v: &mut Value, pos: &Pos, depth: usize) {
    if depth > super::MAX_DEPTH {
        return;
    }
    match v {
        Value::Map(m) => {
            m.pos = pos.clone();
            for i in &mut m.items {
                i.pos = pos.clone();
                place_at(&mut i.value, pos, depth + 1);
            }
        }
        Value::Array(a) => {
            a.pos = pos.clone();
            for i in &mut a.items {
                i.pos = pos.clone();
                place_at(&mut i.value, pos, depth + 1);
            }
        }
        _ => {}
    }
}

/// The first node inside `v` (which an `any` type covers) that carries a type-altering
/// `@schema/...` annotation: its position and the annotations found.
pub fn first_nested_schema_annotation(v: &Value, depth: usize) -> Option<(Pos, Vec<&Annotation>)> {
    if depth > super::MAX_DEPTH {
        return None;
    }
    let children: Vec<(&Pos, &Annotations, &Value)> = match v {
        Value::Map(m) => m
            .items
            .iter()
            .map(|i| (&i.pos, &i.anns, &i.value))
            .collect(),
        Value::Array(a) => a
            .items
            .iter()
            .map(|i| (&i.pos, &i.anns, &i.value))
            .collect(),
        _ => return None,
    };
    for (pos, anns, value) in children {
        let found = type_altering(anns);
        if !found.is_empty() {
            return Some((pos.clone(), found));
        }
        if let Some(hit) = first_nested_schema_annotation(value, depth + 1) {
            return Some(hit);
        }
    }
    None
}

fn type_altering(anns: &Annotations) -> Vec<&Annotation> {
    [NULLABLE, TYPE, DEFAULT]
        .iter()
        .filter_map(|n| anns.get(n))
        .collect()
}
