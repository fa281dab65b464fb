//! The YAML node tree shared by every stage: parsed templates, evaluated documents, fragments,
//! data values and overlay results. It mirrors ytt's `yamlmeta` (document set, document, map,
//! map item, array, array item); every node keeps its position, the comments the parser attached
//! to it and, after evaluation, its annotations.

use crate::pos::Pos;

/// A comment attached to a node, without its leading `#` (`@ foo` for `#@ foo`, `! x` for `#! x`).
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub data: String,
    pub pos: Pos,
}

/// Reference to a Starlark value held by the evaluator (an annotation argument such as a
/// matcher function). Resolved by the evaluator that created it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Handle {
    pub module: u32,
    pub slot: u32,
}

/// An evaluated annotation argument: plain scalars are kept as such, anything else (functions,
/// lists, tuples, structs) stays a Starlark value reached through a handle.
#[derive(Clone, Debug, PartialEq)]
pub enum AnnValue {
    Scalar(Value),
    Starlark(Handle),
}

/// An evaluated annotation, e.g. `@overlay/match by="name", missing_ok=True`.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub name: String,
    pub args: Vec<AnnValue>,
    pub kwargs: Vec<(String, AnnValue)>,
    pub pos: Pos,
}

/// Annotations on a node; names are unique (a later annotation with the same name replaces the
/// earlier one, as in ytt).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotations(pub Vec<Annotation>);

impl Annotations {
    pub fn get(&self, name: &str) -> Option<&Annotation> {
        self.0.iter().find(|a| a.name == name)
    }

    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn set(&mut self, ann: Annotation) {
        match self.0.iter_mut().find(|a| a.name == ann.name) {
            Some(slot) => *slot = ann,
            None => self.0.push(ann),
        }
    }

    pub fn remove(&mut self, name: &str) {
        self.0.retain(|a| a.name != name);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A YAML value: a scalar or a collection node.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer above `i64::MAX` that fits 64 unsigned bits (ytt keeps such Starlark
    /// integers as Go's uint64).
    Uint(u64),
    Float(f64),
    String(String),
    Map(Box<Map>),
    Array(Box<Array>),
}

impl Value {
    /// ytt's name for the value's type, as used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Uint(_) => "integer",
            Value::Float(_) => "float",
            Value::String(_) => "string",
            Value::Map(_) => "map",
            Value::Array(_) => "array",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value of the first item of a map whose key is the string `key` (`None` for a key
    /// the map lacks, or a value that is no map).
    pub fn field(&self, key: &str) -> Option<&Value> {
        let Value::Map(m) = self else {
            return None;
        };
        m.items
            .iter()
            .find(|i| i.key.as_str() == Some(key))
            .map(|i| &i.value)
    }
}

/// A stream of YAML documents (one file, or the output of a template).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocSet {
    pub items: Vec<Document>,
    pub pos: Pos,
    pub comments: Vec<Comment>,
    pub anns: Annotations,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub value: Value,
    pub pos: Pos,
    pub comments: Vec<Comment>,
    pub anns: Annotations,
    /// The document was not written in the source (a file whose first document has no `---`
    /// still yields a document; an empty file yields one injected empty document).
    pub injected: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    pub items: Vec<MapItem>,
    pub pos: Pos,
    pub comments: Vec<Comment>,
    pub anns: Annotations,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapItem {
    pub key: Value,
    pub value: Value,
    pub pos: Pos,
    pub comments: Vec<Comment>,
    pub anns: Annotations,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Array {
    pub items: Vec<ArrayItem>,
    pub pos: Pos,
    pub comments: Vec<Comment>,
    pub anns: Annotations,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayItem {
    pub value: Value,
    pub pos: Pos,
    pub comments: Vec<Comment>,
    pub anns: Annotations,
}

impl Document {
    pub fn new(value: Value, pos: Pos) -> Document {
        Document {
            value,
            pos,
            comments: Vec::new(),
            anns: Annotations::default(),
            injected: false,
        }
    }
}

impl MapItem {
    pub fn new(key: Value, value: Value, pos: Pos) -> MapItem {
        MapItem {
            key,
            value,
            pos,
            comments: Vec::new(),
            anns: Annotations::default(),
        }
    }
}

impl ArrayItem {
    pub fn new(value: Value, pos: Pos) -> ArrayItem {
        ArrayItem {
            value,
            pos,
            comments: Vec::new(),
            anns: Annotations::default(),
        }
    }
}

/// A scalar written as plain text (`true`, `1`, `1.5`, `null`); collections give their type.
pub fn scalar_key_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::String(s) => s.clone(),
        Value::Map(_) => "map".to_string(),
        Value::Array(_) => "array".to_string(),
    }
}
