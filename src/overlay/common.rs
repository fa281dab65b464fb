//! What the array item, map item and document operations share once their matches are known:
//! the nodes they work on ([`Node`], found in a left side by [`Nodes`]), and merging into,
//! replacing, asserting on, inserting next to and removing the matched nodes.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::engine::Engine;
use super::error::OverlayError;
use super::insert::InsertAnn;
use super::replace::ReplaceAnn;
use crate::yaml::node::{Array, ArrayItem, DocSet, Document, Map, MapItem, Value};

/// A node an overlay operation matches: an array item, a map item or a document.
pub(super) trait Node: Clone {
    fn value(&self) -> &Value;
    fn value_mut(&mut self) -> &mut Value;
    /// A copy of this overlay node holding `value` instead of its own.
    fn with_value(&self, value: Value) -> Self;
    /// Takes the overlay node's value when a merge replaces rather than recurses.
    fn take_merged(&mut self, overlay: &Self);
}

/// A left side whose nodes the matchers number.
pub(super) trait Nodes {
    /// Where a matched node is.
    type At: Copy;
    type Node: Node;
    fn node_mut(&mut self, at: Self::At) -> Option<&mut Self::Node>;
}

impl Node for ArrayItem {
    fn value(&self) -> &Value {
        &self.value
    }

    fn value_mut(&mut self) -> &mut Value {
        &mut self.value
    }

    fn with_value(&self, value: Value) -> Self {
        ArrayItem {
            value,
            pos: self.pos.clone(),
            comments: self.comments.clone(),
            anns: self.anns.clone(),
        }
    }

    fn take_merged(&mut self, overlay: &Self) {
        self.value = overlay.value.clone();
        self.pos = overlay.pos.clone();
    }
}

impl Node for MapItem {
    fn value(&self) -> &Value {
        &self.value
    }

    fn value_mut(&mut self) -> &mut Value {
        &mut self.value
    }

    /// The whole left item is replaced: key, position and annotations are the overlay's.
    fn with_value(&self, value: Value) -> Self {
        MapItem {
            key: self.key.clone(),
            value,
            pos: self.pos.clone(),
            comments: self.comments.clone(),
            anns: self.anns.clone(),
        }
    }

    /// The left item keeps its key, comments and annotations; value and position come from
    /// the overlay.
    fn take_merged(&mut self, overlay: &Self) {
        self.value = overlay.value.clone();
        self.pos = overlay.pos.clone();
    }
}

impl Node for Document {
    fn value(&self) -> &Value {
        &self.value
    }

    fn value_mut(&mut self) -> &mut Value {
        &mut self.value
    }

    fn with_value(&self, value: Value) -> Self {
        Document {
            value,
            pos: self.pos.clone(),
            comments: self.comments.clone(),
            anns: self.anns.clone(),
            injected: self.injected,
        }
    }

    /// Unlike items, a document keeps its own position.
    fn take_merged(&mut self, overlay: &Self) {
        self.value = overlay.value.clone();
    }
}

impl Nodes for Array {
    type At = usize;
    type Node = ArrayItem;
    fn node_mut(&mut self, at: usize) -> Option<&mut ArrayItem> {
        self.items.get_mut(at)
    }
}

impl Nodes for Map {
    type At = usize;
    type Node = MapItem;
    fn node_mut(&mut self, at: usize) -> Option<&mut MapItem> {
        self.items.get_mut(at)
    }
}

/// Document sets: a document is at (document set, document).
impl Nodes for [DocSet] {
    type At = (usize, usize);
    type Node = Document;
    fn node_mut(&mut self, (i, j): (usize, usize)) -> Option<&mut Document> {
        self.get_mut(i)?.items.get_mut(j)
    }
}

/// Drops the nodes that `hit` flags.
pub(super) fn remove_hits<N>(nodes: &mut Vec<N>, hit: Vec<bool>) {
    let mut hit = hit.into_iter();
    nodes.retain(|_| !hit.next().unwrap_or(false));
}

/// Puts each node of `inserted` before and/or after its target in `nodes`, as `insert` says.
pub(super) fn splice<N: Clone>(nodes: &mut Vec<N>, inserted: Vec<Option<N>>, insert: &InsertAnn) {
    let old = std::mem::take(nodes);
    for (target, new) in old.into_iter().zip(inserted) {
        match new {
            None => nodes.push(target),
            Some(new) => {
                if insert.before {
                    nodes.push(new.clone());
                }
                nodes.push(target);
                if insert.after {
                    nodes.push(new);
                }
            }
        }
    }
}

impl Engine<'_> {
    /// Merges `overlay` into each matched node; a null left value, or an overlay value that is
    /// not a collection, is taken instead.
    pub(super) fn merge_matched<S: Nodes + ?Sized>(
        &mut self,
        left: &mut S,
        idxs: &[S::At],
        overlay: &S::Node,
        defaults: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        for &at in idxs {
            let Some(target) = left.node_mut(at) else {
                continue;
            };
            let replace = match target.value() {
                Value::Null => true,
                _ => self.apply_value(target.value_mut(), overlay.value(), defaults)?,
            };
            if replace {
                target.take_merged(overlay);
            }
        }
        Ok(())
    }

    /// Replaces each matched node by `overlay` holding the value `replace` gives.
    pub(super) fn replace_matched<S: Nodes + ?Sized>(
        &mut self,
        left: &mut S,
        idxs: &[S::At],
        overlay: &S::Node,
        replace: &ReplaceAnn,
    ) -> Result<(), OverlayError> {
        for &at in idxs {
            let Some(target) = left.node_mut(at) else {
                continue;
            };
            let value = replace.value(Some(target.value()), overlay.value(), self.host)?;
            *target = overlay.with_value(value);
        }
        Ok(())
    }

    /// The node `@overlay/replace or_add=True` adds when nothing matched.
    pub(super) fn replace_added<N: Node>(
        &mut self,
        overlay: &N,
        replace: &ReplaceAnn,
    ) -> Result<N, OverlayError> {
        let value = replace.value(None, overlay.value(), self.host)?;
        Ok(overlay.with_value(value))
    }

    /// Checks each matched node against `overlay`, then merges `overlay` into it.
    pub(super) fn assert_matched<S: Nodes + ?Sized>(
        &mut self,
        left: &mut S,
        idxs: &[S::At],
        overlay: &S::Node,
        check: &AssertAnn,
        defaults: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        for &at in idxs {
            let Some(target) = left.node_mut(at) else {
                continue;
            };
            check.check(target.value(), overlay.value(), self.host)?;
            self.apply_value(target.value_mut(), overlay.value(), defaults)?;
        }
        Ok(())
    }

    /// For each of `nodes`, the copy of `overlay` to insert next to it where `hit` flags it.
    pub(super) fn insertions<N: Node>(
        &mut self,
        nodes: &[N],
        hit: Vec<bool>,
        overlay: &N,
        insert: &InsertAnn,
    ) -> Result<Vec<Option<N>>, OverlayError> {
        let mut inserted = Vec::with_capacity(hit.len());
        for (target, hit) in nodes.iter().zip(hit) {
            inserted.push(if hit {
                let value = insert.value(target.value(), overlay.value(), self.host)?;
                Some(overlay.with_value(value))
            } else {
                None
            });
        }
        Ok(inserted)
    }
}
