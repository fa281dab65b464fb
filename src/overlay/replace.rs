//! `@overlay/replace via=..., or_add=...`: the value that replaces a matched left node, either
//! the overlay node's own value or what `via(left, right)` returns; with `or_add=True` a node
//! that matched nothing is added (computed by `via(None, right)`).

use super::host::OverlayHost;
use super::kwargs::{bool_arg, func_arg, kwargs, unknown_kwarg, REPLACE};
use crate::yaml::node::{Annotations, Handle, Value};

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ReplaceAnn {
    via: Option<Handle>,
    pub or_add: bool,
}

impl ReplaceAnn {
    pub(crate) fn read(
        anns: &Annotations,
        host: &mut dyn OverlayHost,
    ) -> Result<ReplaceAnn, String> {
        let mut ann = ReplaceAnn::default();
        for (name, value) in kwargs(anns, REPLACE) {
            match name.as_str() {
                "via" => ann.via = Some(func_arg(value, REPLACE, name, host)?),
                "or_add" => ann.or_add = bool_arg(value, host)?,
                other => return Err(unknown_kwarg(REPLACE, other)),
            }
        }
        Ok(ann)
    }

    /// The new value for a node whose current value is `existing` (`None` when adding).
    pub(crate) fn value(
        &self,
        existing: Option<&Value>,
        new: &Value,
        host: &mut dyn OverlayHost,
    ) -> Result<Value, String> {
        match self.via {
            None => Ok(new.clone()),
            Some(func) => host
                .call_via(func, existing.unwrap_or(&Value::Null), new)
                .map_err(|e| e.0),
        }
    }
}
