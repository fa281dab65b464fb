//! The function `struct.bind(fn, *args)` returns: calling it calls `fn` with the bound
//! arguments first, then the call's own. Like ytt's `struct.bind_result` builtin, an error
//! inside is reported as `struct.bind_result: <message>`.

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_complex_value;
use starlark::values::{
    starlark_value, Freeze, NoSerialize, StarlarkValue, Trace, Value, ValueLike,
};

use super::args::wrap;

const NAME: &str = "struct.bind_result";

#[derive(Debug, Trace, Freeze, Coerce, ProvidesStaticType, NoSerialize, Allocative)]
#[repr(C)]
pub struct BoundGen<V: starlark::values::ValueLifetimeless> {
    func: V,
    bound: Vec<V>,
}

starlark_complex_value!(pub Bound);

impl<'v> Bound<'v> {
    pub fn new(func: Value<'v>, bound: Vec<Value<'v>>) -> Bound<'v> {
        BoundGen { func, bound }
    }
}

impl<V: starlark::values::ValueLifetimeless> fmt::Display for BoundGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in function {NAME}>")
    }
}

#[starlark_value(type = "function")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for BoundGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn name_for_call_stack(&self, _me: Value<'v>) -> String {
        NAME.to_string()
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let mut pos: Vec<Value<'v>> = self.bound.iter().map(|v| v.to_value()).collect();
        pos.extend(args.positions(heap)?);
        let names = args.names_map()?;
        let named: Vec<(&str, Value<'v>)> = names.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        eval.eval_function(self.func.to_value(), &pos, &named)
            .map_err(|e| wrap(NAME, &e))
    }
}
