//! `@overlay/assert via=...`: checks each matched left node, by structural comparison with the
//! overlay node's value (see [`super::compare`]) or by calling `via(left, right)`.

use super::compare::compare;
use super::host::{AssertReturned, OverlayHost};
use super::kwargs::{kwargs, unknown_kwarg, Arg, ASSERT};
use crate::yaml::node::{AnnValue, Annotations, Value};

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct AssertAnn {
    via: Option<AnnValue>,
}

impl AssertAnn {
    pub(crate) fn read(anns: &Annotations) -> Result<AssertAnn, String> {
        let mut ann = AssertAnn::default();
        for (name, value) in kwargs(anns, ASSERT) {
            match name.as_str() {
                "via" => ann.via = Some(value.clone()),
                other => return Err(unknown_kwarg(ASSERT, other)),
            }
        }
        Ok(ann)
    }

    /// Checks a matched left node's value against the overlay node's value.
    pub(crate) fn check(
        &self,
        existing: &Value,
        new: &Value,
        host: &mut dyn OverlayHost,
    ) -> Result<(), String> {
        let Some(via) = &self.via else {
            return compare(existing, new)
                .map_err(|d| format!("Expected objects to equal, but did not: {d}"));
        };
        let func = match Arg::resolve(via, host) {
            Arg::Callable(h) => h,
            other => {
                return Err(format!(
                "Expected '{ASSERT}' annotation keyword argument 'via' to be function, but was {}",
                other.go_type()
            ))
            }
        };
        match host.call_assert_via(func, existing, new).map_err(|e| e.0)? {
            AssertReturned::None | AssertReturned::Bool(true) | AssertReturned::Pair(true, _) => {
                Ok(())
            }
            AssertReturned::Bool(false) => {
                Err("Expected via invocation to return true, but was false".to_string())
            }
            AssertReturned::Pair(false, msg) => Err(format!(
                "Expected via invocation to return true, but was false with message: {msg}"
            )),
            AssertReturned::Other => Err("Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those".to_string()),
        }
    }
}
