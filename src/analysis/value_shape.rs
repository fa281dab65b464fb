//! The shape of a library's data values that references are checked against: the keys its
//! schema declares, or, without a schema, the keys its `@data/values` documents set, merged
//! with the values given from outside (scenarios, flags), as ytt infers them. A part whose keys
//! cannot be known without evaluating (a value an expression computes, `null`, an empty map, a
//! map filled by `template.replace`, a key code probes with `hasattr`) is open: nothing below
//! it is reported.

use super::value_refs::Seg;
use crate::pos::Pos;
use crate::schema::types::{Kind, Type};
use crate::yaml::{Comment, MapItem, Value};

/// Where the shape comes from (it decides the findings' wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Schema,
    Values,
}

/// Data values as far as their keys are known.
#[derive(Clone, Debug)]
pub enum Node {
    /// A map whose keys are known, declared at `pos`.
    Map { items: Vec<Item>, pos: Pos },
    /// A value without keys of its own to check (a scalar, an array, `any`).
    Leaf,
    /// Keys unknown.
    Open,
}

/// A key of a map.
#[derive(Clone, Debug)]
pub struct Item {
    pub key: String,
    pub node: Node,
    pub pos: Pos,
    /// A schema's `@schema/any-key` item: it types every key the map lacks.
    pub any_key: bool,
    /// Whether an unused value here is a finding: declared in the library (not given from
    /// outside, not removed from the schema, not only probed).
    pub reported: bool,
}

/// A key the shape does not have.
pub struct Miss {
    /// The keys read before it.
    pub path: Vec<String>,
    pub key: String,
    pub candidates: Vec<String>,
    pub declared_at: Pos,
}

/// The shape of a schema's document type.
pub fn of_schema(ty: &Type) -> Node {
    let mut ty = ty;
    while let Kind::Null(inner) = &ty.kind {
        ty = inner;
    }
    match &ty.kind {
        Kind::Map(items) => Node::Map {
            items: items
                .iter()
                .filter_map(|i| {
                    Some(Item {
                        key: key_name(&i.key)?,
                        node: of_schema(&i.ty),
                        pos: i.pos.clone(),
                        any_key: i.any_key,
                        reported: i.ty.docs.removed.is_none(),
                    })
                })
                .collect(),
            pos: ty.pos.clone(),
        },
        _ => Node::Leaf,
    }
}

/// One data values document: its value, comments and position.
pub struct Doc<'a> {
    pub value: &'a Value,
    pub comments: &'a [Comment],
    pub pos: &'a Pos,
}

/// The keys of one data values document merged into `into` (`None`: nothing yet; an empty
/// document sets nothing). `templated`: the document is a template not yet evaluated (values
/// its code computes are open); `own`: it is one of the library's documents (unused keys in it
/// are findings).
pub fn merge(into: Option<Node>, doc: Doc<'_>, templated: bool, own: bool) -> Option<Node> {
    let node = if templated && computed(doc.comments, doc.pos) {
        Node::Open
    } else if matches!(doc.value, Value::Null) {
        return into;
    } else {
        of_value(doc.value, templated, own, 0)
    };
    Some(match into {
        None => node,
        Some(mut left) => {
            union(&mut left, node);
            left
        }
    })
}

/// The shape of a value of a data values document.
fn of_value(v: &Value, templated: bool, own: bool, depth: usize) -> Node {
    let Value::Map(m) = v else {
        return match v {
            Value::Null => Node::Open,
            _ => Node::Leaf,
        };
    };
    if m.items.is_empty() || depth > 1_000 {
        return Node::Open;
    }
    let mut items: Vec<Item> = Vec::new();
    for i in &m.items {
        if templated && replaces(i) {
            return Node::Open;
        }
        // A key that is not a plain scalar, or that text templating computes (`(@= k @)`).
        let Some(key) = key_name(&i.key).filter(|k| !(templated && k.contains("(@"))) else {
            return Node::Open;
        };
        let node = if templated && computed(&i.comments, &i.pos) {
            Node::Open
        } else {
            of_value(&i.value, templated, own, depth + 1)
        };
        add(
            &mut items,
            Item {
                key,
                node,
                pos: i.pos.clone(),
                any_key: false,
                reported: own,
            },
        );
    }
    Node::Map {
        items,
        pos: m.pos.clone(),
    }
}

/// Adds `item` to `items`, merging it with an item of the same key.
fn add(items: &mut Vec<Item>, item: Item) {
    match items.iter_mut().find(|i| i.key == item.key) {
        Some(have) => union(&mut have.node, item.node),
        None => items.push(item),
    }
}

/// `left` with the keys of `right` added: open wins, a map wins over a leaf.
fn union(left: &mut Node, right: Node) {
    match (&mut *left, right) {
        (Node::Open, _) => {}
        (_, Node::Open) => *left = Node::Open,
        (Node::Map { items, .. }, Node::Map { items: more, .. }) => {
            for i in more {
                add(items, i);
            }
        }
        (Node::Map { .. }, Node::Leaf) => {}
        (Node::Leaf, right) => *left = right,
    }
}

/// Whether a node's value is an expression (`key: #@ expr`, `--- #@ expr`,
/// `@template/value`).
fn computed(comments: &[Comment], pos: &Pos) -> bool {
    comments.iter().any(|c| {
        let Some(rest) = c.data.strip_prefix('@') else {
            return false;
        };
        (rest.starts_with(' ') && c.pos.is_known() && c.pos.line == pos.line)
            || rest.starts_with("template/value")
            || (rest.starts_with("overlay/replace") && rest.contains("via"))
    })
}

/// Whether an item's expression puts other items into its map (`template.replace`).
fn replaces(i: &MapItem) -> bool {
    i.comments
        .iter()
        .any(|c| c.data.starts_with('@') && c.data.contains("replace("))
}

fn key_name(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

impl Node {
    /// The path a chain reads (as far as the shape has keys), or the key it misses. A key a
    /// map's any-key item types reads that item (`_` in the path).
    pub fn resolve(&self, segs: &[Seg]) -> Result<Vec<String>, Miss> {
        let mut node = self;
        let mut path = Vec::new();
        let mut read = Vec::new();
        for seg in segs {
            let (Node::Map { items, pos }, Seg::Key(key)) = (node, seg) else {
                break;
            };
            let found = items
                .iter()
                .find(|i| i.key == *key)
                .or_else(|| items.iter().find(|i| i.any_key));
            let Some(item) = found else {
                return Err(Miss {
                    path: read,
                    key: key.clone(),
                    candidates: items.iter().map(|i| i.key.clone()).collect(),
                    declared_at: pos.clone(),
                });
            };
            path.push(if item.any_key {
                item.key.clone()
            } else {
                key.clone()
            });
            read.push(key.clone());
            node = &item.node;
        }
        Ok(path)
    }

    /// Makes what a probe (`hasattr(v, "k")`, `"k" in v`) asks about possibly present: the
    /// key it names is added, open, where the map lacks it. A computed name opens nothing: the
    /// keys written out elsewhere are read as written, and fail when absent.
    pub fn open_at(&mut self, segs: &[Seg]) {
        let Some((last, before)) = segs.split_last() else {
            return;
        };
        let mut node = self;
        for seg in before {
            let (Node::Map { items, .. }, Seg::Key(key)) = (&mut *node, seg) else {
                return;
            };
            let at = items
                .iter()
                .position(|i| i.key == *key)
                .or_else(|| items.iter().position(|i| i.any_key));
            let Some(at) = at else { return };
            node = &mut items[at].node;
        }
        let Node::Map { items, .. } = node else {
            return;
        };
        match last {
            Seg::Key(key) => {
                if !items.iter().any(|i| i.key == *key || i.any_key) {
                    items.push(Item {
                        key: key.clone(),
                        node: Node::Open,
                        pos: Pos::default(),
                        any_key: false,
                        reported: false,
                    });
                }
            }
            // `getattr(v, name, d)` with a computed name: some key may be absent, but a key
            // written out is still read as it is, so nothing opens.
            Seg::Dynamic => {}
        }
    }

    /// The leaves reported when nothing reads them: keys whose value is not a map with keys of
    /// its own, with their paths.
    pub fn leaves(&self) -> Vec<(Vec<String>, Pos)> {
        let mut out = Vec::new();
        collect_leaves(self, &mut Vec::new(), &mut out);
        out
    }
}

fn collect_leaves(node: &Node, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Pos)>) {
    let Node::Map { items, .. } = node else {
        return;
    };
    for item in items.iter().filter(|i| i.reported) {
        path.push(item.key.clone());
        match &item.node {
            Node::Map { items, .. } if !items.is_empty() => collect_leaves(&item.node, path, out),
            _ => out.push((path.clone(), item.pos.clone())),
        }
        path.pop();
    }
}
