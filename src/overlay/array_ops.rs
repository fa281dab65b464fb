//! Overlay operations on array items: merge (recurse into matched items, append the item when
//! nothing matched: an unannotated item simply appends), remove, replace, insert before/after
//! and assert. `@overlay/append` is handled by the engine's walk.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::engine::Engine;
use super::error::OverlayError;
use super::insert::InsertAnn;
use super::matching::{mask, MatchAnn};
use super::replace::ReplaceAnn;
use crate::yaml::node::{Array, ArrayItem, Value};

impl Engine<'_> {
    pub(crate) fn merge_array_item(
        &mut self,
        left: &mut Array,
        item: &ArrayItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&item.anns, parent)?;
        let ann = MatchAnn::for_array_item(&item.anns, parent)?;
        let Some(idxs) = ann.array_items(left, &item.value, self.host)? else {
            return Ok(());
        };
        if idxs.is_empty() {
            left.items.push(item.clone());
            return Ok(());
        }
        for idx in idxs {
            let Some(target) = left.items.get_mut(idx) else {
                continue;
            };
            let replace = match target.value {
                Value::Null => true,
                _ => self.apply_value(&mut target.value, &item.value, &defaults)?,
            };
            if replace {
                target.value = item.value.clone();
                target.pos = item.pos.clone();
            }
        }
        Ok(())
    }

    pub(crate) fn remove_array_item(
        &mut self,
        left: &mut Array,
        item: &ArrayItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_array_item(&item.anns, parent)?;
        let Some(idxs) = ann.array_items(left, &item.value, self.host)? else {
            return Ok(());
        };
        let mut hit = mask(left.items.len(), &idxs).into_iter();
        left.items.retain(|_| !hit.next().unwrap_or(false));
        Ok(())
    }

    pub(crate) fn replace_array_item(
        &mut self,
        left: &mut Array,
        item: &ArrayItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_array_item(&item.anns, parent)?;
        let replace = ReplaceAnn::read(&item.anns, self.host)?;
        let Some(idxs) = ann.array_items(left, &item.value, self.host)? else {
            return Ok(());
        };
        for &idx in &idxs {
            let Some(target) = left.items.get_mut(idx) else {
                continue;
            };
            let value = replace.value(Some(&target.value), &item.value, self.host)?;
            *target = item_with(item, value);
        }
        if idxs.is_empty() && replace.or_add {
            let value = replace.value(None, &item.value, self.host)?;
            left.items.push(item_with(item, value));
        }
        Ok(())
    }

    pub(crate) fn insert_array_item(
        &mut self,
        left: &mut Array,
        item: &ArrayItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_array_item(&item.anns, parent)?;
        let Some(idxs) = ann.array_items(left, &item.value, self.host)? else {
            return Ok(());
        };
        let insert = InsertAnn::read(&item.anns, self.host)?;
        let hit = mask(left.items.len(), &idxs);
        let mut inserted = Vec::with_capacity(hit.len());
        for (target, hit) in left.items.iter().zip(hit) {
            if hit {
                let value = insert.value(&target.value, &item.value, self.host)?;
                inserted.push(Some(item_with(item, value)));
            } else {
                inserted.push(None);
            }
        }
        let old = std::mem::take(&mut left.items);
        for (target, new) in old.into_iter().zip(inserted) {
            match new {
                None => left.items.push(target),
                Some(new) => {
                    if insert.before {
                        left.items.push(new.clone());
                    }
                    left.items.push(target);
                    if insert.after {
                        left.items.push(new);
                    }
                }
            }
        }
        Ok(())
    }

    pub(crate) fn assert_array_item(
        &mut self,
        left: &mut Array,
        item: &ArrayItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&item.anns, parent)?;
        let ann = MatchAnn::for_array_item(&item.anns, parent)?;
        let check = AssertAnn::read(&item.anns)?;
        let Some(idxs) = ann.array_items(left, &item.value, self.host)? else {
            return Ok(());
        };
        for idx in idxs {
            let Some(target) = left.items.get_mut(idx) else {
                continue;
            };
            check.check(&target.value, &item.value, self.host)?;
            self.apply_value(&mut target.value, &item.value, &defaults)?;
        }
        Ok(())
    }
}

/// A copy of the overlay item holding `value` instead of its own.
fn item_with(item: &ArrayItem, value: Value) -> ArrayItem {
    ArrayItem {
        value,
        pos: item.pos.clone(),
        comments: item.comments.clone(),
        anns: item.anns.clone(),
    }
}
