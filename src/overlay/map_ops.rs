//! Overlay operations on map items: merge (the default: recurse into matched items, add the
//! item when nothing matched and that is allowed), remove, replace and assert.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::engine::Engine;
use super::error::OverlayError;
use super::matching::{mask, MatchAnn};
use super::replace::ReplaceAnn;
use crate::yaml::node::{Map, MapItem, Value};

impl Engine<'_> {
    pub(crate) fn merge_map_item(
        &mut self,
        left: &mut Map,
        item: &MapItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&item.anns, parent)?;
        let ann = MatchAnn::for_map_item(&item.anns, parent)?;
        let Some(idxs) = ann.map_items(left, item, self.host)? else {
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
                // The left item keeps its key, comments and annotations; value and position
                // come from the overlay.
                target.value = item.value.clone();
                target.pos = item.pos.clone();
            }
        }
        Ok(())
    }

    pub(crate) fn remove_map_item(
        &mut self,
        left: &mut Map,
        item: &MapItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_map_item(&item.anns, parent)?;
        let Some(idxs) = ann.map_items(left, item, self.host)? else {
            return Ok(());
        };
        let mut hit = mask(left.items.len(), &idxs).into_iter();
        left.items.retain(|_| !hit.next().unwrap_or(false));
        Ok(())
    }

    pub(crate) fn replace_map_item(
        &mut self,
        left: &mut Map,
        item: &MapItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let ann = MatchAnn::for_map_item(&item.anns, parent)?;
        let replace = ReplaceAnn::read(&item.anns, self.host)?;
        let Some(idxs) = ann.map_items(left, item, self.host)? else {
            return Ok(());
        };
        for &idx in &idxs {
            let Some(target) = left.items.get_mut(idx) else {
                continue;
            };
            let value = replace.value(Some(&target.value), &item.value, self.host)?;
            // The whole left item is replaced: key, position and annotations are the overlay's.
            *target = item_with(item, value);
        }
        if idxs.is_empty() && replace.or_add {
            let value = replace.value(None, &item.value, self.host)?;
            left.items.push(item_with(item, value));
        }
        Ok(())
    }

    pub(crate) fn assert_map_item(
        &mut self,
        left: &mut Map,
        item: &MapItem,
        parent: &ChildDefaults,
    ) -> Result<(), OverlayError> {
        let defaults = ChildDefaults::read(&item.anns, parent)?;
        let ann = MatchAnn::for_map_item(&item.anns, parent)?;
        let check = AssertAnn::read(&item.anns)?;
        let Some(idxs) = ann.map_items(left, item, self.host)? else {
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
fn item_with(item: &MapItem, value: Value) -> MapItem {
    MapItem {
        key: item.key.clone(),
        value,
        pos: item.pos.clone(),
        comments: item.comments.clone(),
        anns: item.anns.clone(),
    }
}
