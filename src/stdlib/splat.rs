//! `__ytt_kwargs(value)`, the universe builtin behind `f(**value)` (see `template::splat`):
//! ytt unpacks structs and map fragments as keyword arguments, so they become dicts here;
//! dicts and anything else are handed back unchanged.

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::dict::AllocDict;
use starlark::values::{Heap, Value, ValueLike};

use crate::eval::convert::node_value_to_starlark;
use crate::eval::fragment::{FragData, Fragment};
use crate::eval::structs::struct_fields;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn __ytt_kwargs<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if let Some(fields) = struct_fields(value) {
            let items: Vec<(Value<'v>, Value<'v>)> = fields
                .into_iter()
                .map(|(k, v)| (heap.alloc_str(&k).to_value(), v))
                .collect();
            return Ok(heap.alloc(AllocDict(items)));
        }
        if let Some(f) = value.downcast_ref::<Fragment>() {
            match &*f.data {
                FragData::Map(m) => {
                    return Ok(heap.alloc(AllocDict(m.items.iter().map(|it| {
                        (
                            node_value_to_starlark(&it.key, heap, false),
                            node_value_to_starlark(&it.value, heap, false),
                        )
                    }))))
                }
                FragData::Null => return Ok(heap.alloc(AllocDict(Vec::<(Value, Value)>::new()))),
                _ => {}
            }
        }
        Ok(value)
    }
}
