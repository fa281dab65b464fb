//! Building a schema's types from a schema document (ytt's `NewDocumentType` and friends):
//! each node's type comes from `@schema/type any=True`, `@schema/nullable`, or else from its
//! value; its default from `@schema/default` (checked against the type) or else from the type;
//! its documentation from the documentation annotations. The first problem found, depth
//! first, is returned with ytt's message.

use super::annotations::{self as anns, Node, NodeKind};
use super::args::ArgTable;
use super::check::{assign_and_check, check_scalar};
use super::error::{Failure, FailureKind, Problem, SchemaError};
use super::extensions::Extensions;
use super::types::{ArrayItemType, DocType, Kind, MapItemType, ScalarKind, Type};
use crate::pos::Pos;
use crate::yaml::{Array, ArrayItem, Document, Map, MapItem, Value};

const INVALID: &str = "Invalid schema";

/// Reads schema documents, resolving annotation arguments through `args`.
pub struct Inferrer<'a> {
    pub args: &'a ArgTable,
    depth: usize,
    /// The extensions turned on (schema annotations ytt does not know).
    pub extensions: Extensions,
}

impl<'a> Inferrer<'a> {
    pub fn new(args: &'a ArgTable) -> Inferrer<'a> {
        Inferrer {
            args,
            depth: 0,
            extensions: Extensions::default(),
        }
    }

    /// The type of a whole schema document, with its defaults.
    pub fn document(&mut self, doc: &Document) -> Result<DocType, SchemaError> {
        let node = Node {
            kind: NodeKind::Document,
            value: &doc.value,
            pos: &doc.pos,
            anns: &doc.anns,
        };
        let (ty, default) = self.typed_node(&node)?;
        Ok(DocType {
            ty,
            pos: doc.pos.clone(),
            default,
        })
    }

    /// The type and default of a document, map item or array item.
    fn typed_node(&mut self, node: &Node) -> Result<(Type, Value), SchemaError> {
        if self.depth > super::MAX_DEPTH {
            let f = Failure::new(FailureKind::InvalidSchema, node.pos)
                .found("a schema nested too deeply")
                .expected(format!("at most {} levels", super::MAX_DEPTH));
            return Err(Problem::from(f).under(INVALID));
        }
        self.depth += 1;
        let result = self.type_of(node).and_then(|mut ty| {
            ty.validation = validation_of(node, &ty);
            if let Some(v) = &ty.validation {
                ty.constraints = super::openapi_rules::constraints(v, self.args, &ty);
            }
            let default = self.value_of(node, &ty)?;
            ty.set_default(default.clone());
            Ok((ty, default))
        });
        self.depth -= 1;
        result
    }

    /// ytt's `getType`: the type from the annotations or the value, then documentation.
    fn type_of(&mut self, node: &Node) -> Result<Type, SchemaError> {
        let invalid = |f: Box<Failure>| Problem::from(*f).under(INVALID);
        let any = anns::type_any(node, self.args).map_err(invalid)?;
        let nullable = anns::nullable(node).map_err(invalid)?;
        let ty = match any {
            Some(true) => {
                let mut t = Type::new(Kind::Any(node.value.clone()), node.pos);
                if nullable {
                    t.set_default(Value::Null);
                }
                Some(t)
            }
            // A key that may be present, declared without a value: any value once given.
            _ if matches!(node.value, Value::Null) && self.key_may_be_present(node) => {
                Some(Type::new(Kind::Any(Value::Null), node.pos))
            }
            _ => {
                let inner = self.infer(node.value, node.pos)?;
                match (inner, nullable) {
                    (Some(t), true) => Some(Type::new(Kind::Null(Box::new(t)), node.pos)),
                    (t, _) => t,
                }
            }
        };
        let mut ty = match ty {
            Some(t) if t.is_any() => {
                check_any_fragment(node.value)?;
                t
            }
            Some(t) if !matches!(node.value, Value::Null) => t,
            _ => return Err(null_not_allowed(node.pos)),
        };
        self.document_type(node, &mut ty)?;
        Ok(ty)
    }

    /// ytt's `InferTypeFromValue` for a node's value (`None` for null).
    fn infer(&mut self, v: &Value, pos: &Pos) -> Result<Option<Type>, SchemaError> {
        let scalar = |k: ScalarKind| Some(Type::new(Kind::Scalar(k, v.clone()), pos));
        Ok(match v {
            Value::Null => None,
            Value::Map(m) => Some(self.map(m)?),
            Value::Array(a) => Some(self.array(a)?),
            other => ScalarKind::of(other).and_then(scalar),
        })
    }

    fn map(&mut self, m: &Map) -> Result<Type, SchemaError> {
        let mut items = Vec::with_capacity(m.items.len());
        for item in &m.items {
            items.push(self.map_item(item)?);
        }
        Ok(Type::new(Kind::Map(items), &m.pos))
    }

    fn map_item(&mut self, item: &MapItem) -> Result<MapItemType, SchemaError> {
        let node = Node {
            kind: NodeKind::MapItem,
            value: &item.value,
            pos: &item.pos,
            anns: &item.anns,
        };
        let any_key = match item.anns.get(anns::ANY_KEY) {
            Some(ann) if self.extensions.any_key => {
                if item.key.as_str() != Some(anns::ANY_KEY_NAME) {
                    return Err(any_key_elsewhere(item, &ann.pos));
                }
                true
            }
            _ => false,
        };
        let (ty, default) = self.typed_node(&node)?;
        Ok(MapItemType {
            key: item.key.clone(),
            ty,
            pos: item.pos.clone(),
            default,
            may_be_absent: self.key_may_be_present(&node),
            any_key,
        })
    }

    /// Whether the node is `@schema/key-may-be-present` with the extension on.
    fn key_may_be_present(&self, node: &Node) -> bool {
        self.extensions.key_may_be_present
            && node.kind == NodeKind::MapItem
            && node.anns.get(anns::KEY_MAY_BE_PRESENT).is_some()
    }

    fn array(&mut self, a: &Array) -> Result<Type, SchemaError> {
        let [only] = a.items.as_slice() else {
            let f = Failure::new(FailureKind::InvalidSchema, &a.pos)
                .expected("exactly 1 array item, of the desired type")
                .found(format!("{} array items", a.items.len()))
                .hint("in schema, the one item of the array implies the type of its elements.")
                .hint("in schema, the default value for an array is always an empty list.")
                .hint("default values can be overridden via a data values overlay.");
            return Err(SchemaError::new(
                "Invalid schema - wrong number of items in array definition",
                vec![f],
            ));
        };
        let item = self.array_item(only)?;
        let empty = Value::Array(Box::new(Array {
            pos: a.pos.clone(),
            ..Array::default()
        }));
        Ok(Type::new(Kind::Array(Box::new(item), empty), &a.pos))
    }

    fn array_item(&mut self, item: &ArrayItem) -> Result<ArrayItemType, SchemaError> {
        let node = Node {
            kind: NodeKind::ArrayItem,
            value: &item.value,
            pos: &item.pos,
            anns: &item.anns,
        };
        let (ty, _) = self.typed_node(&node)?;
        Ok(ArrayItemType {
            ty,
            pos: item.pos.clone(),
        })
    }

    /// The documentation annotations, read in ytt's order, then applied to `ty`.
    fn document_type(&self, node: &Node, ty: &mut Type) -> Result<(), SchemaError> {
        let invalid = |f: Box<Failure>| Problem::from(*f).under(INVALID);
        let desc = anns::string_arg(node, anns::DESC, self.args).map_err(invalid)?;
        let title = anns::string_arg(node, anns::TITLE, self.args).map_err(invalid)?;
        let examples = anns::examples(node, self.args).map_err(invalid)?;
        if let (Some(ann), NodeKind::Document) = (node.anns.get(anns::DEPRECATED), node.kind) {
            let f = Failure::new(FailureKind::InvalidSchema, node.pos)
                .at_annotation(&ann.pos)
                .described("@schema/deprecated not supported on a document")
                .hint("do you mean to deprecate the entire schema document?")
                .hint("use schema/deprecated on individual keys.");
            return Err(invalid(Box::new(f)));
        }
        let deprecated = anns::string_arg(node, anns::DEPRECATED, self.args).map_err(invalid)?;
        if let Some(t) = title {
            ty.docs.title = t;
        }
        if let Some(d) = desc {
            ty.docs.description = d;
        }
        if deprecated.is_some() {
            ty.docs.deprecated = deprecated;
        }
        if node.anns.get(anns::REMOVED).is_some() && node.kind != NodeKind::Document {
            ty.docs.removed = Some(self.removed_reason(node)?);
        }
        if let Some((examples, at)) = examples {
            check_examples(ty, &examples, &at)?;
            ty.docs.examples = examples;
        }
        Ok(())
    }

    /// The reason of `@schema/removed`: one string. With the `schema-removed` extension on,
    /// anything else (a number, a keyword argument, several values) is an invalid schema;
    /// with it off the annotation is one ytt ignores, so rendering never fails on it and the
    /// reason is only what the linter's warning quotes (empty when it is not a string).
    fn removed_reason(&self, node: &Node) -> Result<String, SchemaError> {
        let Some(ann) = node.anns.get(anns::REMOVED) else {
            return Ok(String::new());
        };
        if ann.args.is_empty() && ann.kwargs.is_empty() {
            return Ok(String::new());
        }
        match anns::string_arg(node, anns::REMOVED, self.args) {
            Ok(reason) => Ok(reason.unwrap_or_default()),
            Err(f) if self.extensions.removed => Err(Problem::from(
                (*f).hint("@schema/removed takes the reason the value was removed, as a string."),
            )
            .under(INVALID)),
            Err(_) => Ok(String::new()),
        }
    }

    /// ytt's `getValue`: `@schema/default` checked against the type, or the type's default.
    fn value_of(&self, node: &Node, ty: &Type) -> Result<Value, SchemaError> {
        let Some(ann) = node.anns.get(anns::DEFAULT) else {
            return Ok(ty.default_value());
        };
        if node.kind == NodeKind::ArrayItem {
            let f = Failure::new(FailureKind::InvalidSchema, node.pos)
                .at_annotation(&ann.pos)
                .hint("do you mean to set a default value for the array?")
                .hint("set an array's default by annotating its parent.");
            let inner = SchemaError::new(
                "Invalid schema - @schema/default not supported on array item",
                vec![f],
            );
            return Err(Problem::from(inner).under(INVALID));
        }
        let value = anns::default_value(ann, node, ty, self.args)
            .map_err(|f| Problem::from(*f).under(INVALID))?;
        let (value, failures) = typed_copy(ty, value);
        if failures.is_empty() {
            return Ok(value);
        }
        let failures = failures
            .into_iter()
            .map(|f| {
                let found = format!("{} (at {})", f.found, ann.pos.as_compact());
                let mut f = f.found(found);
                f.kind = FailureKind::InvalidSchema;
                f.ann_positions = vec![ann.pos.clone()];
                f
            })
            .collect();
        Err(SchemaError::new(
            "Invalid schema - @schema/default is wrong type",
            failures,
        ))
    }
}

/// A value given in the schema (a default or an example) typed by `ty`: maps get their
/// missing items; the failures if it does not conform.
fn typed_copy(ty: &Type, mut value: Value) -> (Value, Vec<Failure>) {
    let failures = match value {
        Value::Map(_) | Value::Array(_) => assign_and_check(ty, &mut value),
        _ => check_scalar(ty, &value, &ty.pos, None)
            .into_iter()
            .collect(),
    };
    (value, failures)
}

fn check_examples(
    ty: &Type,
    examples: &[super::types::Example],
    at: &Pos,
) -> Result<(), SchemaError> {
    let mut failures = Vec::new();
    for ex in examples {
        failures.extend(typed_copy(ty, ex.value.clone()).1);
    }
    if failures.is_empty() {
        return Ok(());
    }
    let failures = failures
        .into_iter()
        .map(|f| {
            let found = format!("{} (by {})", f.found, at.as_compact());
            let mut f = f.found(found);
            f.kind = FailureKind::InvalidSchema;
            f.ann_positions = vec![at.clone()];
            f
        })
        .collect();
    Err(SchemaError::new(
        "Invalid schema - @schema/examples has wrong type",
        failures,
    ))
}

/// ytt refuses type-altering schema annotations inside an `any` fragment.
/// The node's validation: its own `@schema/validation`, else, for a string, the
/// `@schema/validation-defaults-for-strings` distributed onto it (spec 000).
fn validation_of(node: &Node, ty: &Type) -> Option<crate::yaml::Annotation> {
    if let Some(a) = node.anns.get(crate::validate::SCHEMA_VALIDATION) {
        return Some(a.clone());
    }
    let is_string = matches!(ty.non_null().kind, Kind::Scalar(ScalarKind::String, _));
    node.anns
        .get(crate::validate::STRING_DEFAULTS)
        .filter(|_| is_string)
        .cloned()
}

fn check_any_fragment(v: &Value) -> Result<(), SchemaError> {
    let Some((pos, found)) = anns::first_nested_schema_annotation(v, 0) else {
        return Ok(());
    };
    let names: Vec<String> = found.iter().map(|a| format!("@{}", a.name)).collect();
    let mut f = Failure::new(FailureKind::InvalidSchema, &pos)
        .described("Schema was specified within an \"any type\" fragment")
        .expected("no '@schema/...' on nodes within a node annotated '@schema/type any=True'")
        .found(format!("{} annotation(s)", names.join(", ")))
        .hint("an \"any type\" fragment has no constraints; nested schema annotations conflict and are disallowed");
    f.ann_positions = found.iter().map(|a| a.pos.clone()).collect();
    Err(SchemaError::new(INVALID, vec![f]))
}

/// `@schema/any-key` on an item whose key is not `_`.
fn any_key_elsewhere(item: &MapItem, at: &Pos) -> SchemaError {
    let f = Failure::new(FailureKind::InvalidSchema, &item.pos)
        .at_annotation(at)
        .described("@schema/any-key is only allowed on the map item with key \"_\"")
        .expected(format!("a map item with the key named \"{}\"", anns::ANY_KEY_NAME))
        .found(format!(
            "the key \"{}\"",
            crate::yaml::scalar_key_string(&item.key)
        ))
        .hint("the item with key \"_\" is the schema of every key of its map that no other item declares.");
    SchemaError::new(INVALID, vec![f])
}

fn null_not_allowed(pos: &Pos) -> SchemaError {
    let f = Failure::new(FailureKind::InvalidSchema, pos)
        .expected("non-null value")
        .found("null value")
        .hint("in YAML, omitting a value implies null.")
        .hint("to set the default value to null, annotate with @schema/nullable.")
        .hint("to allow any value, annotate with @schema/type any=True.");
    SchemaError::new("Invalid schema - null value not allowed here", vec![f])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use crate::yaml::{AnnValue, Annotation};
    use std::sync::Arc;

    fn doc(src: &str) -> Document {
        let ds = parse(src, &Arc::from("schema.yml"), &ParseOpts::default()).unwrap();
        ds.items.into_iter().next().unwrap()
    }

    fn annotate(d: &mut Document, index: usize, name: &str, kwargs: Vec<(&str, Value)>) {
        let Value::Map(m) = &mut d.value else {
            panic!("map expected")
        };
        let item = &mut m.items[index];
        let pos = Pos {
            line: item.pos.line - 1,
            ..item.pos.clone()
        };
        item.anns.set(Annotation {
            name: name.into(),
            args: Vec::new(),
            kwargs: kwargs
                .into_iter()
                .map(|(k, v)| (k.to_string(), AnnValue::Scalar(v)))
                .collect(),
            pos,
        });
    }

    fn infer(d: &Document) -> Result<DocType, SchemaError> {
        Inferrer::new(&ArgTable::default()).document(d)
    }

    #[test]
    fn nullable_wraps_the_inferred_type_and_defaults_to_null() {
        let mut d = doc("---\n\nport: 80\n");
        annotate(&mut d, 0, anns::NULLABLE, Vec::new());
        let t = infer(&d).unwrap();
        let item = t.item("port").unwrap();
        assert!(matches!(&item.ty.kind, Kind::Null(inner) if inner.name() == "integer"));
        assert_eq!(item.default, Value::Null);
    }

    #[test]
    fn any_type_keeps_the_value_as_default_without_inference() {
        let mut d = doc("---\n\nlist:\n- 1\n- a\n");
        annotate(&mut d, 0, anns::TYPE, vec![("any", Value::Bool(true))]);
        let t = infer(&d).unwrap();
        let item = t.item("list").unwrap();
        assert!(item.ty.is_any());
        assert!(matches!(&item.default, Value::Array(a) if a.items.len() == 2));
    }

    #[test]
    fn reports_bad_type_kwargs_with_the_go_type() {
        let mut d = doc("---\n\nfoo: 0\n");
        annotate(&mut d, 0, anns::TYPE, vec![("any", Value::Int(1))]);
        let e = infer(&d).unwrap_err();
        assert_eq!(e.summary, "Invalid schema");
        let f = e.failures()[0].clone();
        assert_eq!(f.found, "starlark.Int (by schema.yml:2)");
        assert_eq!(f.expected, "starlark.Bool");
    }

    #[test]
    fn empty_schema_documents_are_null_values() {
        let e = infer(&doc("---\n")).unwrap_err();
        assert_eq!(e.summary, "Invalid schema - null value not allowed here");
    }
}
