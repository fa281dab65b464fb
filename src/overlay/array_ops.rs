//! Overlay operations on array items: merge (recurse into matched items, append the item when
//! nothing matched: an unannotated item simply appends), remove, replace, insert before/after
//! and assert. `@overlay/append` is handled by the engine's walk.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::common::{remove_hits, splice};
use super::engine::Engine;
use super::error::OverlayError;
use super::insert::InsertAnn;
use super::matching::{mask, MatchAnn};
use super::replace::ReplaceAnn;
use crate::yaml::node::{Array, ArrayItem};

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
        self.merge_matched(left, &idxs, item, &defaults)
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
        let hit = mask(left.items.len(), &idxs);
        remove_hits(&mut left.items, hit);
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
        self.replace_matched(left, &idxs, item, &replace)?;
        if idxs.is_empty() && replace.or_add {
            let added = self.replace_added(item, &replace)?;
            left.items.push(added);
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
        let inserted = self.insertions(&left.items, hit, item, &insert)?;
        splice(&mut left.items, inserted, &insert);
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
        self.assert_matched(left, &idxs, item, &check, &defaults)
    }
}
