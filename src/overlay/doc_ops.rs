//! Overlay operations on documents. The left side is a list of document sets (one per template
//! file when overlaying a library's output) so that documents stay with their file; matchers
//! see the documents numbered across all sets. Merge, remove, replace (`or_add` adds to the
//! first set), insert before/after, append (to the last set) and assert.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::engine::Engine;
use super::error::OverlayError;
use super::insert::InsertAnn;
use super::matching::{mask, MatchAnn};
use super::replace::ReplaceAnn;
use crate::yaml::node::{DocSet, Document, Value};

fn no_document_set() -> OverlayError {
    OverlayError::new("Internal inconsistency: Expected at least one document set")
}

fn doc_at(left: &mut [DocSet], (i, j): (usize, usize)) -> Option<&mut Document> {
    left.get_mut(i)?.items.get_mut(j)
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
    pub(crate) fn merge_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&doc.anns, parent)?;
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let Some(idxs) = ann.documents(left, &doc.value, self.exact, self.host)? else {
            return Ok(());
        };
        for at in idxs {
            let Some(target) = doc_at(left, at) else {
                continue;
            };
            let replace = match target.value {
                Value::Null => true,
                _ => self.apply_value(&mut target.value, &doc.value, &defaults)?,
            };
            if replace {
                // Unlike items, a document keeps its own position.
                target.value = doc.value.clone();
            }
        }
        Ok(())
    }

    pub(crate) fn remove_document(
        &mut self,
        left: &mut [DocSet],
        doc: &Document,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_document(&doc.anns, parent, self.exact)?;
        let Some(idxs) = ann.documents(left, &doc.value, self.exact, self.host)? else {
            return Ok(());
        };
        let hits = masks(left, &idxs);
        for (set, hit) in left.iter_mut().zip(hits) {
            let mut hit = hit.into_iter();
            set.items.retain(|_| !hit.next().unwrap_or(false));
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
        let Some(idxs) = ann.documents(left, &doc.value, self.exact, self.host)? else {
            return Ok(());
        };
        for &at in &idxs {
            let Some(target) = doc_at(left, at) else {
                continue;
            };
            let value = replace.value(Some(&target.value), &doc.value, self.host)?;
            *target = doc_with(doc, value);
        }
        if idxs.is_empty() && replace.or_add {
            let value = replace.value(None, &doc.value, self.host)?;
            let first = left.first_mut().ok_or_else(no_document_set)?;
            first.items.push(doc_with(doc, value));
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
        let Some(idxs) = ann.documents(left, &doc.value, self.exact, self.host)? else {
            return Ok(());
        };
        let insert = InsertAnn::read(&doc.anns, self.host)?;
        let mut inserted: Vec<Vec<Option<Document>>> = Vec::with_capacity(left.len());
        for (set, hit) in left.iter().zip(masks(left, &idxs)) {
            let mut row = Vec::with_capacity(set.items.len());
            for (target, hit) in set.items.iter().zip(hit) {
                row.push(if hit {
                    let value = insert.value(&target.value, &doc.value, self.host)?;
                    Some(doc_with(doc, value))
                } else {
                    None
                });
            }
            inserted.push(row);
        }
        for (set, row) in left.iter_mut().zip(inserted) {
            let old = std::mem::take(&mut set.items);
            for (target, new) in old.into_iter().zip(row) {
                match new {
                    None => set.items.push(target),
                    Some(new) => {
                        if insert.before {
                            set.items.push(new.clone());
                        }
                        set.items.push(target);
                        if insert.after {
                            set.items.push(new);
                        }
                    }
                }
            }
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
        let Some(idxs) = ann.documents(left, &doc.value, self.exact, self.host)? else {
            return Ok(());
        };
        for at in idxs {
            let Some(target) = doc_at(left, at) else {
                continue;
            };
            check.check(&target.value, &doc.value, self.host)?;
            self.apply_value(&mut target.value, &doc.value, &defaults)?;
        }
        Ok(())
    }
}

/// A copy of the overlay document holding `value` instead of its own.
fn doc_with(doc: &Document, value: Value) -> Document {
    Document {
        value,
        pos: doc.pos.clone(),
        comments: doc.comments.clone(),
        anns: doc.anns.clone(),
        injected: doc.injected,
    }
}
