//! `@ytt:assert`: `fail(msg)` stops evaluation with a message.

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::none::NoneType;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn fail(#[starlark(require = pos)] msg: &str) -> starlark::Result<NoneType> {
        Err(starlark::Error::new_kind(starlark::ErrorKind::Fail(
            anyhow::Error::msg(format!(" {msg}")),
        )))
    }
}
