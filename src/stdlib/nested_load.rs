//! The runtime half of `load()` inside blocks (see `template::nested_load`): loads a module
//! when the statement runs and returns the requested symbols in order.

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::tuple::{AllocTuple, UnpackTuple};
use starlark::values::Value;

use crate::eval::host::Extra;

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::Error::msg(msg))
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn __ytt_nested_load<'v>(
        #[starlark(require = pos)] path: &str,
        #[starlark(args)] names: UnpackTuple<&str>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let extra = eval
            .extra
            .and_then(|e| e.downcast_ref::<Extra>())
            .ok_or_else(|| err(format!("cannot load {path}: not inside a library")))?;
        let module = extra.host.load(&extra.ctx, path)?;
        let mut values = Vec::with_capacity(names.items.len());
        for name in names.items {
            let v = module
                .get(name)
                .map_err(|_| err(format!("load: name {name} not found in module {path}")))?;
            // SAFETY: `owned_frozen_value` makes the evaluator's frozen heap keep the loaded
            // module's heap alive, and that heap outlives every `Value<'v>` of this module.
            let frozen = unsafe { v.owned_frozen_value(eval.frozen_heap()) };
            values.push(frozen.to_value());
        }
        Ok(eval.heap().alloc(AllocTuple(values)))
    }
}
