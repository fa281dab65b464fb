//! Overlay operations on map items: merge (the default: recurse into matched items, add the
//! item when nothing matched and that is allowed), remove, replace and assert.

use super::assert::AssertAnn;
use super::child_defaults::ChildDefaults;
use super::common::remove_hits;
use super::engine::Engine;
use super::error::OverlayError;
use super::matching::{mask, MatchAnn};
use super::replace::ReplaceAnn;
use crate::yaml::node::{Map, MapItem};

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
        self.merge_matched(left, &idxs, item, &defaults)
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
        let hit = mask(left.items.len(), &idxs);
        remove_hits(&mut left.items, hit);
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
        self.replace_matched(left, &idxs, item, &replace)?;
        if idxs.is_empty() && replace.or_add {
            let added = self.replace_added(item, &replace)?;
            left.items.push(added);
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
        self.assert_matched(left, &idxs, item, &check, &defaults)
    }
}
