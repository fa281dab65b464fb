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

    /// The deepest tag that is both an ancestor-or-self of `current` and an ancestor of `new`:
    /// where the two paths from the root part, walked up from both ends (every template node
    /// starts with this, so it allocates nothing).
    pub fn common_parent(&self, current: Tag, new: Tag) -> Tag {
        if new == ROOT {
            return ROOT;
        }
        let (mut a, mut b) = (current, self.parent(new));
        let (Some(mut depth_a), Some(mut depth_b)) = (self.depth(a), self.depth(b)) else {
            return self.common_parent_of_paths(current, new);
        };
        while depth_a > depth_b {
            a = self.parent(a);
            depth_a -= 1;
        }
        while depth_b > depth_a {
            b = self.parent(b);
            depth_b -= 1;
        }
        while a != b {
            a = self.parent(a);
            b = self.parent(b);
        }
        a
    }

    /// How many steps up `tag` is from the root (`None` in a table with a cycle, which a
    /// compiled template never has).
    fn depth(&self, tag: Tag) -> Option<usize> {
        let mut cur = tag;
        for steps in 0..=self.nodes.len() {
            if cur == ROOT {
                return Some(steps);
            }
            cur = self.parent(cur);
        }
        None
    }

    /// [`NodeTable::common_parent`] from the two paths down from the root, compared.
    fn common_parent_of_paths(&self, current: Tag, new: Tag) -> Tag {
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

    #[test]
    fn the_walk_up_finds_what_the_paths_from_the_root_find() {
        let mut t = NodeTable::default();
        let ds = t.add(node(TplKind::DocSet, ROOT));
        let doc = t.add(node(TplKind::Doc { injected: false }, ds));
        let map = t.add(node(TplKind::Map, doc));
        let item = t.add(node(TplKind::MapItem { key: Value::Null }, map));
        let inner = t.add(node(TplKind::Map, item));
        let deep = t.add(node(TplKind::MapItem { key: Value::Null }, inner));
        let doc2 = t.add(node(TplKind::Doc { injected: false }, ds));
        let arr = t.add(node(TplKind::Array, doc2));
        t.add(node(TplKind::ArrayItem, arr));
        // Every pair, the root and a tag past the table's end (its parent is the root).
        let tags: Vec<Tag> = (0..=t.nodes.len() as Tag + 1).collect();
        for &a in &tags {
            for &b in &tags {
                assert_eq!(
                    t.common_parent(a, b),
                    t.common_parent_of_paths(a, b),
                    "{a} {b}"
                );
            }
        }
        assert_eq!(t.common_parent(deep, doc2), ds);
        assert_eq!(t.common_parent(deep, deep), inner);
        // A table with a cycle (no compiled template has one) is read as before.
        let mut broken = NodeTable::default();
        let x = broken.add(node(TplKind::Map, 2));
        let y = broken.add(node(TplKind::Map, x));
        assert_eq!(broken.depth(y), None);
        assert_eq!(
            broken.common_parent(x, y),
            broken.common_parent_of_paths(x, y)
        );
    }
}
