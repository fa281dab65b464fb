//! Validation of output documents (spec 000, increment 4; ytt ignores these rules): the
//! `@assert/validate` annotations of template nodes are checked on the final documents, after
//! overlays, like data values. `--output-disable-validation` turns it off.

use std::cell::RefCell;

use super::render::render;
use super::run::{check, Target};
use super::Invalidation;
use crate::eval::host::Host;
use crate::eval::overlay_host::with_host;
use crate::eval::run::{ErrorKind, EvalError};
use crate::yaml::DocSet;

/// Checks every output document of the root library; violations are recorded in `record`
/// and returned as one error, as data values violations are.
pub fn check_output(
    root: &dyn Host,
    record: &RefCell<Vec<Invalidation>>,
    docs: &DocSet,
) -> Result<(), EvalError> {
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
    let invalid = found.map_err(|m| {
        EvalError::new(
            ErrorKind::OutputInvalid,
            format!("Validating output documents:\n{m}"),
            None,
        )
    })?;
    if invalid.is_empty() {
        return Ok(());
    }
    let pos = invalid.first().map(|i| i.value_pos.clone());
    record.borrow_mut().extend(invalid.iter().cloned());
    Err(EvalError::new(
        ErrorKind::OutputInvalid,
        format!("Validating output documents:\n{}", render(&invalid)),
        pos,
    ))
}
