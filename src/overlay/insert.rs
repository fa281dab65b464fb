//! `@overlay/insert before=..., after=..., via=...`: a node inserted next to each matched left
//! array item or document, its value being the overlay node's value or `via(left, right)`.

use super::host::OverlayHost;
use super::kwargs::{bool_arg, func_arg, kwargs, unknown_kwarg, INSERT};
use crate::yaml::node::{Annotations, Handle, Value};

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct InsertAnn {
    pub before: bool,
    pub after: bool,
    via: Option<Handle>,
}

impl InsertAnn {
    pub(crate) fn read(
        anns: &Annotations,
        host: &mut dyn OverlayHost,
    ) -> Result<InsertAnn, String> {
        if !anns.has(INSERT) {
            return Err(format!("Expected item to have '{INSERT}' annotation"));
        }
        let args = kwargs(anns, INSERT);
        if args.is_empty() {
            return Err(format!(
                "Expected '{INSERT}' annotation to have at least one keyword argument (before=..., after=...)"
            ));
        }
        let mut ann = InsertAnn::default();
        for (name, value) in args {
            match name.as_str() {
                "before" => ann.before = bool_arg(value, host)?,
                "after" => ann.after = bool_arg(value, host)?,
                "via" => ann.via = Some(func_arg(value, INSERT, name, host)?),
                other => return Err(unknown_kwarg(INSERT, other)),
            }
        }
        Ok(ann)
    }

    /// The value to insert next to a left node whose value is `existing`.
    pub(crate) fn value(
        &self,
        existing: &Value,
        new: &Value,
        host: &mut dyn OverlayHost,
    ) -> Result<Value, String> {
        match self.via {
            None => Ok(new.clone()),
            Some(func) => host.call_via(func, existing, new).map_err(|e| e.0),
        }
    }
}
