//! Overlay documents of a library's templates (documents annotated `@overlay/match`) applied,
//! in file order, to the other documents once every template has been evaluated; empty
//! documents are dropped and files left without documents produce no output.

use super::exec::LibExec;
use crate::eval::run::EvalError;
use crate::yaml::{DocSet, Value};

const MATCH: &str = "overlay/match";

/// Applies the overlay documents of `docsets` (file path, documents) to the rest.
pub fn apply(
    exec: &LibExec<'_>,
    docsets: Vec<(String, DocSet)>,
) -> Result<Vec<(String, DocSet)>, EvalError> {
    let mut overlays: Vec<(String, DocSet)> = Vec::new();
    let mut plain: Vec<(String, DocSet)> = Vec::new();
    for (path, ds) in docsets {
        let (over, rest): (Vec<_>, Vec<_>) = ds.items.into_iter().partition(|d| d.anns.has(MATCH));
        if !over.is_empty() {
            overlays.push((
                path.clone(),
                DocSet {
                    items: over,
                    ..DocSet::default()
                },
            ));
        }
        let rest: Vec<_> = rest
            .into_iter()
            .filter(|d| !matches!(d.value, Value::Null))
            .collect();
        if !rest.is_empty() {
            plain.push((
                path,
                DocSet {
                    items: rest,
                    pos: ds.pos,
                    comments: ds.comments,
                    anns: ds.anns,
                },
            ));
        }
    }
    if overlays.is_empty() {
        return Ok(plain);
    }
    let order: Vec<String> = overlays.iter().map(|(p, _)| p.clone()).collect();
    crate::eval::overlay_host::post_process(exec, plain, overlays).map_err(|e| EvalError {
        message: format!(
            "Overlaying (in following order: {}): {}",
            order.join(", "),
            e.message
        ),
        pos: e.pos,
    })
}
