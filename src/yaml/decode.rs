//! Second stage of the YAML parser: turns a document's raw node graph into the node tree, as
//! go-yaml's decoder does for ytt: aliases are expanded into copies (keeping the positions of
//! the anchored nodes), merge keys `<<` splice in the items of the merged map, duplicate keys
//! are kept, and scalars are resolved (YAML 1.1, or ytt's strict mode).

use libyaml_safer::Mark;

use crate::pos::Pos;
use crate::yaml::compose::{RawDoc, RawKind, MAX_DEPTH};
use crate::yaml::node::{Array, ArrayItem, Map, MapItem, Value};
use crate::yaml::scalar::resolve_scalar;

/// Converts marks of the parsed text into positions in the original source.
pub(crate) trait PosOf {
    fn pos_of(&self, mark: Mark) -> Pos;
}

/// A decoding error: go-yaml's message and the mark of the node it concerns.
pub(crate) struct DecodeError {
    pub message: String,
    pub mark: Mark,
}

pub(crate) struct Decoder<'a> {
    doc: &'a RawDoc,
    strict: bool,
    positions: &'a dyn PosOf,
    expanding: Vec<usize>,
    budget: usize,
}

const WANT_MAP: &str = "yaml: map merge requires map or sequence of maps as the value";

/// Nodes a YAML stream may produce whatever its size: aliases may expand small documents
/// freely.
const BASE_NODES: usize = 200_000;

/// Nodes a YAML stream may produce per byte of its text, beyond [`BASE_NODES`]: plain YAML
/// produces about one node per ten bytes or fewer, so this leaves room for aliases used as
/// configurations use them, and stops a "billion laughs" document (aliases of aliases) after
/// an amount of work and memory in proportion to its size.
const NODES_PER_BYTE: usize = 1;

/// The nodes all the documents of a stream of `bytes` bytes may produce together.
pub(crate) fn node_budget(bytes: usize) -> usize {
    BASE_NODES.saturating_add(bytes.saturating_mul(NODES_PER_BYTE))
}

impl<'a> Decoder<'a> {
    /// A decoder of `doc` that may produce `budget` nodes (see [`node_budget`]).
    pub fn new(
        doc: &'a RawDoc,
        strict: bool,
        positions: &'a dyn PosOf,
        budget: usize,
    ) -> Decoder<'a> {
        Decoder {
            doc,
            strict,
            positions,
            expanding: Vec::new(),
            budget,
        }
    }

    /// What is left of the budget, for the stream's next document.
    pub fn remaining(&self) -> usize {
        self.budget
    }

    /// Decodes the document's root; collections get `parent` as their position.
    pub fn root(&mut self, parent: &Pos) -> Result<Value, DecodeError> {
        self.value(self.doc.root, parent, 0)
    }

    fn fail(&self, idx: usize, message: impl Into<String>) -> DecodeError {
        let mark = self.doc.nodes.get(idx).map(|n| n.mark).unwrap_or_default();
        DecodeError {
            message: message.into(),
            mark,
        }
    }

    fn spend(&mut self, idx: usize, depth: usize) -> Result<(), DecodeError> {
        if depth > MAX_DEPTH {
            return Err(self.fail(idx, format!("yaml: exceeded max depth of {MAX_DEPTH}")));
        }
        if self.budget == 0 {
            return Err(self.fail(idx, "yaml: document contains excessive aliasing"));
        }
        self.budget -= 1;
        Ok(())
    }

    fn value(&mut self, idx: usize, parent: &Pos, depth: usize) -> Result<Value, DecodeError> {
        self.spend(idx, depth)?;
        let doc = self.doc;
        let Some(node) = doc.nodes.get(idx) else {
            return Ok(Value::Null);
        };
        match &node.kind {
            RawKind::Scalar {
                value,
                tag,
                plain_implicit,
            } => resolve_scalar(tag.as_deref(), value, *plain_implicit, self.strict)
                .map_err(|m| self.fail(idx, m)),
            RawKind::Alias { name, target } => {
                let target = *target;
                self.enter_alias(idx, name)?;
                let v = self.value(target, parent, depth + 1);
                self.expanding.pop();
                v
            }
            RawKind::Seq(items) => {
                let mut out = Array {
                    pos: parent.clone(),
                    ..Array::default()
                };
                // Sized once: growing the vector item by item copied it (0.3 % of a run).
                out.items.reserve_exact(items.len());
                for (mark, child) in items {
                    let pos = self.positions.pos_of(*mark);
                    let value = self.value(*child, &pos, depth + 1)?;
                    out.items.push(ArrayItem::new(value, pos));
                }
                Ok(Value::Array(Box::new(out)))
            }
            RawKind::Map(_) => {
                let mut out = Map {
                    pos: parent.clone(),
                    ..Map::default()
                };
                self.map_items(idx, &mut out.items, depth)?;
                Ok(Value::Map(Box::new(out)))
            }
        }
    }

    fn enter_alias(&mut self, idx: usize, name: &str) -> Result<(), DecodeError> {
        if self.expanding.contains(&idx) {
            let msg = format!("yaml: anchor '{name}' value contains itself");
            return Err(self.fail(idx, msg));
        }
        self.expanding.push(idx);
        Ok(())
    }

    fn is_merge_key(&self, idx: usize) -> bool {
        match self.doc.nodes.get(idx).map(|n| &n.kind) {
            Some(RawKind::Scalar {
                value,
                tag,
                plain_implicit,
            }) => {
                value == "<<"
                    && (*plain_implicit || tag.as_deref() == Some("tag:yaml.org,2002:merge"))
            }
            _ => false,
        }
    }

    fn map_items(
        &mut self,
        idx: usize,
        out: &mut Vec<MapItem>,
        depth: usize,
    ) -> Result<(), DecodeError> {
        let doc = self.doc;
        let Some(RawKind::Map(pairs)) = doc.nodes.get(idx).map(|n| &n.kind) else {
            return Ok(());
        };
        // At least this many items (a merge key brings more).
        out.reserve(pairs.len());
        for &(k, v) in pairs {
            if self.is_merge_key(k) {
                self.merge(v, out, depth + 1)?;
                continue;
            }
            let pos = self.positions.pos_of(doc.nodes[k].mark);
            let mut key_pos = pos.clone();
            key_pos.line = 0;
            let key = self.value(k, &key_pos, depth + 1)?;
            let value = self.value(v, &pos, depth + 1)?;
            out.push(MapItem::new(key, value, pos));
        }
        Ok(())
    }

    fn anchored_kind_is_map(&self, name: &str) -> bool {
        match self.doc.anchors.get(name) {
            Some(&i) => matches!(
                self.doc.nodes.get(i).map(|n| &n.kind),
                Some(RawKind::Map(_))
            ),
            None => true,
        }
    }

    /// go-yaml's `merge` into an ordered map: a map (or alias of one) contributes its items. A
    /// non-empty sequence always fails in ytt's fork (its sequences carry position children),
    /// after decoding the last element.
    fn merge(
        &mut self,
        idx: usize,
        out: &mut Vec<MapItem>,
        depth: usize,
    ) -> Result<(), DecodeError> {
        self.spend(idx, depth)?;
        let doc = self.doc;
        let Some(node) = doc.nodes.get(idx) else {
            return Ok(());
        };
        match &node.kind {
            RawKind::Map(_) => self.map_items(idx, out, depth),
            RawKind::Alias { name, target } => {
                if !self.anchored_kind_is_map(name) {
                    return Err(self.fail(idx, WANT_MAP));
                }
                let target = *target;
                self.enter_alias(idx, name)?;
                let r = match doc.nodes.get(target).map(|n| &n.kind) {
                    Some(RawKind::Map(_)) => self.map_items(target, out, depth + 1),
                    _ => Err(self.fail(idx, WANT_MAP)),
                };
                self.expanding.pop();
                r
            }
            RawKind::Seq(items) => {
                let Some(&(_, last)) = items.last() else {
                    return Ok(());
                };
                match doc.nodes.get(last).map(|n| &n.kind) {
                    Some(RawKind::Alias { name, .. }) if !self.anchored_kind_is_map(name) => {
                        return Err(self.fail(last, WANT_MAP));
                    }
                    Some(RawKind::Alias { .. } | RawKind::Map(_)) => {
                        let mut scratch = Vec::new();
                        self.merge(last, &mut scratch, depth + 1)?;
                    }
                    _ => return Err(self.fail(last, WANT_MAP)),
                }
                Err(self.fail(idx, WANT_MAP))
            }
            RawKind::Scalar { .. } => Err(self.fail(idx, WANT_MAP)),
        }
    }
}
