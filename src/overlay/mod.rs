//! ytt's overlay engine (`@ytt:overlay` and the `@overlay/...` annotations): applies a
//! right-hand tree (the overlay) onto a left-hand tree, node by node.
//!
//! - Documents are matched with `@overlay/match by=<function>` (required, except in an exact
//!   one-document merge, see [`apply_exact`]); map items match by key unless `by=` says
//!   otherwise; array items match nothing unless annotated with `@overlay/match by=...`.
//! - Each node does one operation: `@overlay/merge` (default), `@overlay/remove`,
//!   `@overlay/replace` (`via=`, `or_add=`), `@overlay/insert` (`before=`/`after=`, `via=`;
//!   array items and documents), `@overlay/append` (array items and documents),
//!   `@overlay/assert` (`via=`).
//! - Match counts are checked (`expects=`, `missing_ok=`, `when=`, defaults from
//!   `@overlay/match-child-defaults`, else exactly one), with ytt's messages.
//!
//! Starlark values in annotation arguments are never evaluated here: the engine asks an
//! [`OverlayHost`] (see [`host`]). Entry points: [`apply`] (`overlay.apply`), [`apply_exact`]
//! (data values and schema overlays), [`post_process`] (a library's overlay documents) and
//! [`plain_merge_overlay`] (plain YAML data values).

mod array_ops;
mod assert;
mod child_defaults;
mod common;
pub mod compare;
mod doc_ops;
mod engine;
pub mod error;
mod expects;
pub mod host;
mod insert;
mod kwargs;
mod map_ops;
mod matching;
pub mod native;
pub mod plain_merge;
pub mod post_process;
mod replace;
pub mod strip;
#[cfg(test)]
pub mod test_host;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

pub use compare::{map_key_matches_left, subset_matches_left, Left};
pub use doc_ops::Matched;
pub use error::OverlayError;
pub use host::{AssertReturned, HandleKind, HostError, OverlayHost, Returned};
pub use native::NativeMatcher;
pub use plain_merge::plain_merge_overlay;
pub use post_process::{post_process_counted, FileDocs};
pub use strip::{strip_overlay_annotations, strip_overlay_annotations_docset};

use crate::yaml::node::{DocSet, Document, Value};
use child_defaults::ChildDefaults;
use engine::Engine;

/// A value `overlay.apply` works on: a document set (what a function whose body is YAML
/// documents returns) or a single value (a map or array fragment, or a scalar).
#[derive(Clone, Debug, PartialEq)]
pub enum Fragment {
    DocSet(DocSet),
    Value(Value),
}

impl Fragment {
    fn type_name(&self) -> &'static str {
        match self {
            Fragment::DocSet(_) => "document set",
            Fragment::Value(v) => v.type_name(),
        }
    }
}

/// `overlay.apply(left, right)` for one right-hand side (the Starlark function folds over its
/// arguments): overlays `right` onto `left` and returns `left` modified, with every
/// `@overlay/...` annotation removed from it. A document set overlays a document set, a map a
/// map, an array an array; a scalar `right` leaves `left` unchanged (as in ytt). Errors carry
/// ytt's message without the `overlay.apply: ` prefix.
pub fn apply(
    left: Fragment,
    right: &Fragment,
    host: &mut dyn OverlayHost,
) -> Result<Fragment, OverlayError> {
    let mut left = left;
    let mut engine = Engine::new(host, false);
    let defaults = ChildDefaults::default();
    match (&mut left, right) {
        (Fragment::DocSet(l), Fragment::DocSet(r)) => {
            engine.apply_docs(std::slice::from_mut(l), r, &defaults)?;
        }
        (l, Fragment::DocSet(_)) => {
            return Err(OverlayError::new(format!(
                "Expected document set, but was {}",
                l.type_name()
            )))
        }
        (Fragment::Value(l), Fragment::Value(r)) => {
            engine.apply_value(l, r, &defaults)?;
        }
        (Fragment::DocSet(_), Fragment::Value(r)) => match r {
            Value::Map(_) => return Err(OverlayError::new("Expected map, but was document set")),
            Value::Array(_) => {
                return Err(OverlayError::new("Expected array, but was document set"))
            }
            _ => {}
        },
    }
    match &mut left {
        Fragment::DocSet(ds) => strip_overlay_annotations_docset(ds),
        Fragment::Value(v) => strip_overlay_annotations(v),
    }
    Ok(left)
}

/// ytt's exact one-document overlay (data values, data values schemas, plain-merge values):
/// `right` applies to `left` whatever its `@overlay/match by=` says (its `expects=`,
/// `missing_ok=` and `when=` still count, against one match). Returns the first resulting
/// document with overlay annotations removed.
pub fn apply_exact(
    left: Document,
    right: &Document,
    host: &mut dyn OverlayHost,
) -> Result<Document, OverlayError> {
    let mut sets = [DocSet {
        items: vec![left],
        ..DocSet::default()
    }];
    let mut engine = Engine::new(host, true);
    engine.apply_doc(&mut sets, right, &ChildDefaults::default())?;
    let [mut set] = sets;
    strip_overlay_annotations_docset(&mut set);
    set.items.into_iter().next().ok_or_else(|| {
        OverlayError::new("Internal inconsistency: Expected a document to remain after overlaying")
    })
}
