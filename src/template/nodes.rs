//! The node table of a compiled template: every YAML node (or text-template piece) the generated
//! code refers to by tag, with its parent tag, so that evaluation can rebuild the tree from flat
//! `start_node(tag)` calls exactly as ytt's evaluation context does.

use crate::pos::Pos;
use crate::yaml::{Comment, Value};

/// A node's number in its template; `ROOT` is the parent of the top node.
pub type Tag = u32;

pub const ROOT: Tag = 0;

/// What kind of node a tag stands for, with the data that does not come from evaluation.
#[derive(Clone, Debug)]
pub enum TplKind {
    DocSet,
    Doc {
        injected: bool,
    },
    Map,
    MapItem {
        key: Value,
    },
    Array,
    ArrayItem,
    /// The root of a text template.
    TextRoot,
    /// A literal piece of text (or the slot an `(@= @)` value fills).
    Text {
        content: String,
    },
}

/// One node of the template.
#[derive(Clone, Debug)]
pub struct TplNode {
    pub kind: TplKind,
    pub parent: Tag,
    pub pos: Pos,
    /// The scalar child to use when the code sets no value (`set_node(tag)`).
    pub default_value: Option<Value>,
    /// Comments kept on the node after code and values were extracted (annotations).
    pub comments: Vec<Comment>,
}

/// All nodes of one template, indexed by tag (tag `n` is at index `n - 1`).
#[derive(Debug, Default)]
pub struct NodeTable {
    nodes: Vec<TplNode>,
}

impl NodeTable {
    pub fn add(&mut self, node: TplNode) -> Tag {
        self.nodes.push(node);
        self.nodes.len() as Tag
    }

    pub fn get(&self, tag: Tag) -> Option<&TplNode> {
        if tag == ROOT {
            return None;
        }
        self.nodes.get(tag as usize - 1)
    }

    pub fn parent(&self, tag: Tag) -> Tag {
        self.get(tag).map(|n| n.parent).unwrap_or(ROOT)
    }

    /// The tags from the root down to `tag`'s parent (`include_self` adds `tag` itself).
    fn ancestors(&self, tag: Tag, include_self: bool) -> Vec<Tag> {
        let mut chain = Vec::new();
        if include_self {
            chain.push(tag);
        }
        let mut cur = tag;
        // A well-formed table has no cycles; the bound guards against a broken one.
        for _ in 0..=self.nodes.len() {
            if cur == ROOT {
                break;
            }
            cur = self.parent(cur);
            chain.push(cur);
        }
        chain.reverse();
        chain
    }

    /// The deepest tag that is both an ancestor-or-self of `current` and an ancestor of `new`.
    pub fn common_parent(&self, current: Tag, new: Tag) -> Tag {
        let a = self.ancestors(current, true);
        let b = self.ancestors(new, false);
        let mut common = ROOT;
        for (x, y) in a.iter().zip(b.iter()) {
            if x == y {
                common = *x;
            } else {
                break;
            }
        }
        common
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(kind: TplKind, parent: Tag) -> TplNode {
        TplNode {
            kind,
            parent,
            pos: Pos::unknown(),
            default_value: None,
            comments: Vec::new(),
        }
    }

    #[test]
    fn common_parent_of_siblings_and_cousins() {
        let mut t = NodeTable::default();
        let ds = t.add(node(TplKind::DocSet, ROOT));
        let doc = t.add(node(TplKind::Doc { injected: false }, ds));
        let map = t.add(node(TplKind::Map, doc));
        let a = t.add(node(TplKind::MapItem { key: Value::Null }, map));
        let b = t.add(node(TplKind::MapItem { key: Value::Null }, map));
        assert_eq!(t.common_parent(a, b), map);
        assert_eq!(t.common_parent(map, a), map);
        assert_eq!(t.common_parent(doc, doc), ds);
        let doc2 = t.add(node(TplKind::Doc { injected: false }, ds));
        assert_eq!(t.common_parent(b, doc2), ds);
    }
}
