//! The recursive walk of an overlay: for each node of the right-hand tree, pick its operation
//! and apply it to the left-hand tree, wrapping errors with the node's context as ytt does
//! (`Document on line ...`, `Map item (key 'k') on line ...`, `Array item on line ...`).

use super::child_defaults::ChildDefaults;
use super::error::{go_key, OverlayError};
use super::host::OverlayHost;
use super::kwargs::{which_op, Op};
use crate::yaml::node::{Array, DocSet, Document, Map, Value};

/// Right-hand trees nested deeper than this are rejected rather than recursed into.
pub(crate) const MAX_DEPTH: usize = 256;

/// One overlay application.
pub(crate) struct Engine<'h> {
    pub host: &'h mut dyn OverlayHost,
    /// ytt's `ExactMatch`: the single left document is the match of every overlay document,
    /// whatever its `@overlay/match` says (data values and schema overlays).
    pub exact: bool,
    /// Each overlay document applied, with how many documents it matched.
    pub matched: Vec<super::doc_ops::Matched>,
    depth: usize,
}

impl<'h> Engine<'h> {
    pub(crate) fn new(host: &'h mut dyn OverlayHost, exact: bool) -> Engine<'h> {
        Engine {
            host,
            exact,
            matched: Vec::new(),
            depth: 0,
        }
    }

    /// Overlays `right` onto `left`. Returns true when `right` is not a collection, in which
    /// case the caller replaces the left value by it (that is how a scalar "merges").
    pub(crate) fn apply_value(
        &mut self,
        left: &mut Value,
        right: &Value,
        defaults: &ChildDefaults,
    ) -> Result<bool, OverlayError> {
        match right {
            Value::Map(r) => {
                let Value::Map(l) = left else {
                    return Err(OverlayError::new(format!(
                        "Expected map, but was {}",
                        left.type_name()
                    )));
                };
                self.nested(|e| e.apply_map(l, r, defaults))?;
                Ok(false)
            }
            Value::Array(r) => {
                let Value::Array(l) = left else {
                    return Err(OverlayError::new(format!(
                        "Expected array, but was {}",
                        left.type_name()
                    )));
                };
                self.nested(|e| e.apply_array(l, r, defaults))?;
                Ok(false)
            }
            _ => Ok(true),
        }
    }

    fn nested(
        &mut self,
        f: impl FnOnce(&mut Engine<'h>) -> Result<(), OverlayError>,
    ) -> Result<(), OverlayError> {
        if self.depth >= MAX_DEPTH {
            return Err(OverlayError::new(format!(
                "Expected overlay to be nested at most {MAX_DEPTH} levels deep"
            )));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn apply_map(
        &mut self,
        left: &mut Map,
        right: &Map,
        defaults: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        for item in &right.items {
            let result = match which_op(&item.anns) {
                Err(e) => Err(OverlayError::new(e)),
                Ok(Op::Merge) => self.merge_map_item(left, item, defaults),
                Ok(Op::Remove) => self.remove_map_item(left, item, defaults),
                Ok(Op::Replace) => self.replace_map_item(left, item, defaults),
                Ok(Op::Assert) => self.assert_map_item(left, item, defaults),
                Ok(op @ (Op::Insert | Op::Append)) => Err(OverlayError::new(format!(
                    "Found @{} on map item ({}); only array items can be annotated with @{}",
                    op.name(),
                    item.pos.as_compact(),
                    op.name()
                ))),
            };
            result.map_err(|e| {
                let context = format!(
                    "Map item (key '{}') on {}",
                    go_key(&item.key),
                    item.pos.as_line_string()
                );
                e.within(&context, &item.pos)
            })?;
        }
        Ok(())
    }

    fn apply_array(
        &mut self,
        left: &mut Array,
        right: &Array,
        defaults: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        for item in &right.items {
            let result = match which_op(&item.anns) {
                Err(e) => Err(OverlayError::new(e)),
                Ok(Op::Merge) => self.merge_array_item(left, item, defaults),
                Ok(Op::Remove) => self.remove_array_item(left, item, defaults),
                Ok(Op::Replace) => self.replace_array_item(left, item, defaults),
                Ok(Op::Insert) => self.insert_array_item(left, item, defaults),
                Ok(Op::Append) => {
                    left.items.push(item.clone());
                    Ok(())
                }
                Ok(Op::Assert) => self.assert_array_item(left, item, defaults),
            };
            result.map_err(|e| {
                let context = format!("Array item on {}", item.pos.as_line_string());
                e.within(&context, &item.pos)
            })?;
        }
        Ok(())
    }

    /// Applies every document of `right`, in order, to the documents of `left` (several
    /// document sets when overlaying a library's output: one per template file).
    pub(crate) fn apply_docs(
        &mut self,
        left: &mut [DocSet],
        right: &DocSet,
        defaults: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        for doc in &right.items {
            self.apply_doc(left, doc, defaults)?;
        }
        Ok(())
    }

    /// Applies one overlay document to the documents of `left`.
    pub(crate) fn apply_doc(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        defaults: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let result = match which_op(&doc.anns) {
            Err(e) => Err(OverlayError::new(e)),
            Ok(Op::Merge) => self.merge_document(left, doc, defaults),
            Ok(Op::Remove) => self.remove_document(left, doc, defaults),
            Ok(Op::Replace) => self.replace_document(left, doc, defaults),
            Ok(Op::Insert) => self.insert_document(left, doc, defaults),
            Ok(Op::Append) => self.append_document(left, doc),
            Ok(Op::Assert) => self.assert_document(left, doc, defaults),
        };
        result.map_err(|e| {
            let context = format!("Document on {}", doc.pos.as_line_string());
            e.within(&context, &doc.pos)
        })
    }
}
