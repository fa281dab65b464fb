//! The schema's type model (ytt's `schema.Type` family): a document declares one type; a map
//! declares its items (key, type, default), an array the type of its items; scalars are
//! strings, integers, floats or booleans; `any` accepts everything; a nullable type accepts
//! null besides its inner type. Each type keeps the position that declared it (for "(by
//! schema.yml:3)") and its documentation (`@schema/title`, `desc`, `examples`, `deprecated`).

use crate::pos::Pos;
use crate::stdlib::golike::equal;
use crate::validate::run::NodeType;
use crate::yaml::{Annotation, Document, Map, MapItem, Value};

/// The scalar types a schema can infer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    String,
    Int,
    Float,
    Bool,
}

impl ScalarKind {
    /// The scalar type of a value, if it is a non-null scalar.
    pub fn of(v: &Value) -> Option<ScalarKind> {
        match v {
            Value::String(_) => Some(ScalarKind::String),
            Value::Int(_) | Value::Uint(_) => Some(ScalarKind::Int),
            Value::Float(_) => Some(ScalarKind::Float),
            Value::Bool(_) => Some(ScalarKind::Bool),
            _ => None,
        }
    }

    /// ytt's name of the type.
    pub fn name(self) -> &'static str {
        match self {
            ScalarKind::String => "string",
            ScalarKind::Int => "integer",
            ScalarKind::Float => "float",
            ScalarKind::Bool => "boolean",
        }
    }

    /// Whether a value has this type (an integer is also a valid float).
    pub fn accepts(self, v: &Value) -> bool {
        matches!(
            (self, v),
            (ScalarKind::String, Value::String(_))
                | (ScalarKind::Int, Value::Int(_) | Value::Uint(_))
                | (
                    ScalarKind::Float,
                    Value::Float(_) | Value::Int(_) | Value::Uint(_)
                )
                | (ScalarKind::Bool, Value::Bool(_))
        )
    }
}

/// An example given with `@schema/examples`.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub description: String,
    pub value: Value,
}

/// What the documentation annotations said about a type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Docs {
    pub title: String,
    pub description: String,
    /// The deprecation notice, when `@schema/deprecated` was given.
    pub deprecated: Option<String>,
    /// The reason, when `@schema/removed` was given (read whether or not the `schema-removed`
    /// extension is on: without it, setting the value is only a linter warning).
    pub removed: Option<String>,
    pub examples: Vec<Example>,
}

/// A type with the position that declared it and its documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: Kind,
    pub pos: Pos,
    pub docs: Docs,
    /// The node's `@schema/validation` (or the `@schema/validation-defaults-for-strings` that
    /// applies to it), checked on the data value this type is assigned to.
    pub validation: Option<Annotation>,
    /// The validation's OpenAPI keywords (`minimum`, `enum`, ...), resolved from its named
    /// rules when the schema was read.
    pub constraints: Vec<(&'static str, Value)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A map with exactly these items; missing ones get their defaults.
    Map(Vec<MapItemType>),
    /// An array whose items all have the item type; the array's own default.
    Array(Box<ArrayItemType>, Value),
    /// A scalar with its default.
    Scalar(ScalarKind, Value),
    /// Anything (`@schema/type any=True`), with its default.
    Any(Value),
    /// Null or the inner type (`@schema/nullable`).
    Null(Box<Type>),
}

/// A map item declared in a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct MapItemType {
    pub key: Value,
    pub ty: Type,
    pub pos: Pos,
    /// The item's value when the data values do not give it.
    pub default: Value,
    /// `@schema/key-may-be-present` (the `schema-key-may-be-present` extension): declared,
    /// but absent until some input gives it.
    pub may_be_absent: bool,
    /// `@schema/any-key` on the `_` item (the `schema-any-key` extension): this item is the
    /// schema of every key of the map that no other item declares; it is no key of its own.
    pub any_key: bool,
}

/// The item of an array declared in a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayItemType {
    pub ty: Type,
    pub pos: Pos,
}

/// The type of a whole data values document.
#[derive(Clone, Debug, PartialEq)]
pub struct DocType {
    pub ty: Type,
    pub pos: Pos,
    pub default: Value,
}

impl Type {
    pub fn new(kind: Kind, pos: &Pos) -> Type {
        Type {
            kind,
            pos: pos.clone(),
            docs: Docs::default(),
            validation: None,
            constraints: Vec::new(),
        }
    }

    /// ytt's name of the type, as in "expected: integer".
    pub fn name(&self) -> &'static str {
        match &self.kind {
            Kind::Map(_) => "map",
            Kind::Array(..) => "array",
            Kind::Scalar(k, _) => k.name(),
            Kind::Any(_) => "any",
            Kind::Null(_) => "null",
        }
    }

    /// The value this type gives when nothing sets it: a map of its items' defaults, the
    /// default of an array, scalar or any type, null for a nullable type.
    pub fn default_value(&self) -> Value {
        match &self.kind {
            Kind::Map(items) => Value::Map(Box::new(Map {
                items: items
                    .iter()
                    .filter(|i| !i.may_be_absent && !i.any_key)
                    .map(MapItemType::default_item)
                    .collect(),
                pos: self.pos.clone(),
                ..Map::default()
            })),
            Kind::Array(_, d) | Kind::Scalar(_, d) | Kind::Any(d) => d.clone(),
            Kind::Null(_) => Value::Null,
        }
    }

    /// Sets the default (ignored by maps, whose default comes from their items; a nullable
    /// type passes it to its inner type).
    pub fn set_default(&mut self, v: Value) {
        match &mut self.kind {
            Kind::Map(_) => {}
            Kind::Array(_, d) | Kind::Scalar(_, d) | Kind::Any(d) => *d = v,
            Kind::Null(inner) => inner.set_default(v),
        }
    }

    /// The map item types, looking through nullability.
    pub fn map_items(&self) -> Option<&[MapItemType]> {
        match &self.kind {
            Kind::Map(items) => Some(items),
            Kind::Null(inner) => inner.map_items(),
            _ => None,
        }
    }

    /// The type without its nullability.
    pub fn non_null(&self) -> &Type {
        match &self.kind {
            Kind::Null(inner) => inner.non_null(),
            _ => self,
        }
    }

    pub fn is_any(&self) -> bool {
        matches!(self.kind, Kind::Any(_))
    }
}

impl NodeType for Type {
    fn validation(&self) -> Option<&Annotation> {
        self.validation.as_ref()
    }

    fn pos(&self) -> &Pos {
        &self.pos
    }

    fn child(&self, key: Option<&Value>) -> Option<&dyn NodeType> {
        let inner = self.non_null();
        match (&inner.kind, key) {
            (Kind::Map(items), Some(key)) => {
                let exact = items.iter().find(|t| equal(&t.key, key));
                declared_or_any(items, exact).map(|t| &t.ty as &dyn NodeType)
            }
            (Kind::Array(item, _), None) => Some(&item.ty),
            _ => None,
        }
    }
}

/// The declaration typing a map's item: `exact` (the item declared with its key, found by the
/// caller's comparison), else the map's `@schema/any-key` item.
pub fn declared_or_any<'a>(
    items: &'a [MapItemType],
    exact: Option<&'a MapItemType>,
) -> Option<&'a MapItemType> {
    exact.or_else(|| items.iter().find(|i| i.any_key))
}

impl MapItemType {
    /// The map item that stands for this declaration when the data values lack it.
    pub fn default_item(&self) -> MapItem {
        MapItem::new(self.key.clone(), self.default.clone(), self.pos.clone())
    }
}

impl DocType {
    /// The schema's default data values document.
    pub fn default_document(&self) -> Document {
        Document::new(self.default.clone(), self.pos.clone())
    }

    /// The type of the item with key `key` of a map at the document's root.
    pub fn item(&self, key: &str) -> Option<&MapItemType> {
        self.ty
            .map_items()?
            .iter()
            .find(|i| i.key.as_str() == Some(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_valid_floats_but_not_the_reverse() {
        assert!(ScalarKind::Float.accepts(&Value::Int(1)));
        assert!(!ScalarKind::Int.accepts(&Value::Float(1.0)));
        assert!(!ScalarKind::String.accepts(&Value::Null));
    }

    #[test]
    fn nullable_types_default_to_null_and_pass_defaults_inside() {
        let inner = Type::new(
            Kind::Scalar(ScalarKind::Int, Value::Int(1)),
            &Pos::unknown(),
        );
        let mut t = Type::new(Kind::Null(Box::new(inner)), &Pos::unknown());
        assert_eq!(t.default_value(), Value::Null);
        t.set_default(Value::Int(5));
        assert_eq!(t.non_null().default_value(), Value::Int(5));
        assert_eq!(t.name(), "null");
    }
}
