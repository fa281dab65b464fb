//! The runtime half of `f(**value)` (see `template::kwargs_splat`): structs and YAML map
//! fragments become dicts (an empty fragment an empty dict) (fragment values stay fragments, as ytt looks them up); anything else
//! is returned as is for Starlark to judge.

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::AllocDict;
use starlark::values::{Value, ValueLike};

use crate::eval::convert::{value_to_starlark, MapAs};
use crate::eval::fragment::{FragData, Fragment};
use crate::eval::structs::struct_fields;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn __ytt_kwargs<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        if let Some(fields) = struct_fields(value) {
            let items: Vec<(Value<'v>, Value<'v>)> = fields
                .into_iter()
                .map(|(k, v)| (heap.alloc_str(&k).to_value(), v))
                .collect();
            return Ok(heap.alloc(AllocDict(items)));
        }
        if let Some(f) = value.downcast_ref::<Fragment>() {
            if let FragData::Null = &*f.data {
                return Ok(heap.alloc(AllocDict(Vec::<(Value<'v>, Value<'v>)>::new())));
            }
            if let FragData::Map(m) = &*f.data {
                let items: Vec<(Value<'v>, Value<'v>)> = m
                    .items
                    .iter()
                    .map(|it| {
                        (
                            value_to_starlark(&it.key, heap, MapAs::Fragment),
                            value_to_starlark(&it.value, heap, MapAs::Fragment),
                        )
                    })
                    .collect();
                return Ok(heap.alloc(AllocDict(items)));
            }
        }
        Ok(value)
    }
}
