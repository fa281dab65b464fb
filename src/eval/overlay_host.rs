//! Bridge between the overlay engine and the Starlark evaluator: data values overlays and the
//! overlay post-processing of a library's documents. (Wired to the engine in progress.)

use crate::eval::run::EvalError;
use crate::library::LibExec;
use crate::yaml::{DocSet, Document};

fn unavailable() -> EvalError {
    EvalError {
        message: "overlays are not supported yet".into(),
        pos: None,
    }
}

/// Overlays one data values document onto another (ytt's exact-match mode).
pub fn overlay_values(
    _exec: &LibExec<'_>,
    _left: Document,
    _right: Document,
) -> Result<Document, EvalError> {
    Err(unavailable())
}

/// Applies overlay documents (per file, in file order) to the other documents.
pub fn post_process(
    _exec: &LibExec<'_>,
    _plain: Vec<(String, DocSet)>,
    _overlays: Vec<(String, DocSet)>,
) -> Result<Vec<(String, DocSet)>, EvalError> {
    Err(unavailable())
}
