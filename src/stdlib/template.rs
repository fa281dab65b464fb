//! `@ytt:template`: `replace(value)` splices a fragment in place of the current node.

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::Value;

use crate::eval::instr::replace_current;
use crate::eval::structs::noop_value;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn replace<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        replace_current(value, eval)?;
        Ok(noop_value(eval.heap()))
    }
}
