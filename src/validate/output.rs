//! Validation of output documents (spec 000, increment 4; ytt ignores these rules): the
//! `@assert/validate` annotations of template nodes are checked on the final documents, after
//! overlays, like data values. `--output-disable-validation` turns it off.

use super::render::render;
use super::run::{check, Target};
use crate::eval::overlay_host::with_host;
use crate::eval::run::EvalError;
use crate::library::LibExec;
use crate::yaml::DocSet;

/// Checks every output document of the root library; violations are recorded on the workspace
/// and returned as one error, as data values violations are.
pub fn check_output(root: &LibExec<'_>, docs: &DocSet) -> Result<(), EvalError> {
    let found = with_host(root, |host| {
        let mut all = Vec::new();
        for doc in &docs.items {
            let target = Target {
                doc,
                ty: None,
                asserts: true,
            };
            all.extend(check(&target, host)?);
        }
        Ok::<_, String>(all)
    });
    let invalid = found.map_err(|m| EvalError {
        message: format!("Validating output documents:\n{m}"),
        pos: None,
    })?;
    if invalid.is_empty() {
        return Ok(());
    }
    let pos = invalid.first().map(|i| i.value_pos.clone());
    root.ws
        .output_violations
        .borrow_mut()
        .extend(invalid.iter().cloned());
    Err(EvalError {
        message: format!("Validating output documents:\n{}", render(&invalid)),
        pos,
    })
}
