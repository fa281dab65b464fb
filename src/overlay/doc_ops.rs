//! Overlay operations on documents. The left side is a list of document sets (one per template
//! file when overlaying a library's output) so that documents stay with their file; matchers
//! see the documents numbered across all sets. Merge, remove, replace (`or_add` adds to the
//! first set), insert before/after, append (to the last set) and assert.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::common::{remove_hits, splice};
use super::engine::Engine;
use super::error::OverlayError;
use super::insert::InsertAnn;
use super::matching::{mask, MatchAnn};
use super::replace::ReplaceAnn;
use crate::yaml::node::{DocSet, Document};

/// An overlay document applied by the engine: where it is, how many documents it matched
/// and, when it matched none, the documents it was applied to (`Kind/name`).
#[derive(Clone, Debug, PartialEq)]
pub struct Matched {
    pub pos: crate::pos::Pos,
    pub count: usize,
    pub candidates: Vec<String>,
}

/// `Kind/name` of a Kubernetes-like document (`Kind` or `name` alone when only one is there).
fn described(v: &crate::yaml::node::Value) -> Option<String> {
    let kind = v.field("kind").and_then(|k| k.as_str());
    let name = v
        .field("metadata")
        .and_then(|m| m.field("name"))
        .and_then(|n| n.as_str());
    match (kind, name) {
        (Some(k), Some(n)) => Some(format!("{k}/{n}")),
        (Some(k), None) => Some(k.to_string()),
        (None, Some(n)) => Some(n.to_string()),
        (None, None) => None,
    }
}

fn no_document_set() -> OverlayError {
    OverlayError::new("Internal inconsistency: Expected at least one document set")
}

/// Per document set, which of its documents are at `idxs`.
fn masks(left: &[DocSet], idxs: &[(usize, usize)]) -> Vec<Vec<bool>> {
    left.iter()
        .enumerate()
        .map(|(i, set)| {
            let mine: Vec<usize> = idxs
                .iter()
                .filter(|(s, _)| *s == i)
                .map(|(_, d)| *d)
                .collect();
            mask(set.items.len(), &mine)
        })
        .collect()
}

impl Engine<'_> {
    /// The documents `doc` matches, recorded with their count (see [`Engine::matched`]).
    fn documents(
        &mut self,
        ann: &MatchAnn,
        left: &[DocSet],
        doc: &Document,
    ) -> Result<Option<Vec<(usize, usize)>>, OverlayError> {
        let found = ann.documents(left, &doc.value, self.exact, self.host)?;
        if let Some(idxs) = &found {
            let candidates = if idxs.is_empty() {
                left.iter()
                    .flat_map(|set| &set.items)
                    .filter_map(|d| described(&d.value))
                    .collect()
            } else {
                Vec::new()
            };
            self.matched.push(Matched {
                pos: doc.pos.clone(),
                count: idxs.len(),
                candidates,
            });
        }
        Ok(found)
    }

    pub(crate) fn merge_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&doc.anns, parent)?;
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let Some(idxs) = self.documents(&ann, left, doc)? else {
            return Ok(());
        };
        self.merge_matched(left, &idxs, doc, &defaults)
    }

    pub(crate) fn remove_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let Some(idxs) = self.documents(&ann, left, doc)? else {
            return Ok(());
        };
        let hits = masks(left, &idxs);
        for (set, hit) in left.iter_mut().zip(hits) {
            remove_hits(&mut set.items, hit);
        }
        Ok(())
    }

    pub(crate) fn replace_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let replace = ReplaceAnn::read(&doc.anns, self.host)?;
        let Some(idxs) = self.documents(&ann, left, doc)? else {
            return Ok(());
        };
        self.replace_matched(left, &idxs, doc, &replace)?;
        if idxs.is_empty() && replace.or_add {
            let added = self.replace_added(doc, &replace)?;
            let first = left.first_mut().ok_or_else(no_document_set)?;
            first.items.push(added);
        }
        Ok(())
    }

    pub(crate) fn insert_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let Some(idxs) = self.documents(&ann, left, doc)? else {
            return Ok(());
        };
        let insert = InsertAnn::read(&doc.anns, self.host)?;
        let mut inserted = Vec::with_capacity(left.len());
        for (set, hit) in left.iter().zip(masks(left, &idxs)) {
            inserted.push(self.insertions(&set.items, hit, doc, &insert)?);
        }
        for (set, row) in left.iter_mut().zip(inserted) {
            splice(&mut set.items, row, &insert);
        }
        Ok(())
    }

    pub(crate) fn append_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
    ) -> Result<(), OverlayError> {
        let last = left.last_mut().ok_or_else(no_document_set)?;
        last.items.push(doc.clone());
        Ok(())
    }

    pub(crate) fn assert_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&doc.anns, parent)?;
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let check = AssertAnn::read(&doc.anns)?;
        let Some(idxs) = self.documents(&ann, left, doc)? else {
            return Ok(());
        };
        self.assert_matched(left, &idxs, doc, &check, &defaults)
    }
}
