//! `@ytt:struct`: `make(**kwargs)`, `make_and_bind(receiver, **fns)`, `encode(value)` (structs
//! to dicts, recursively) and `decode(value)` (dicts to structs).

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::list::{AllocList, ListRef};
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, Value};
use starlark_map::small_map::SmallMap;

use crate::eval::structs::{struct_fields, YttStruct};

fn encode<'v>(v: Value<'v>, heap: Heap<'v>) -> Value<'v> {
    if let Some(fields) = struct_fields(v) {
        let items: Vec<(Value<'v>, Value<'v>)> = fields
            .into_iter()
            .map(|(k, x)| (heap.alloc_str(&k).to_value(), encode(x, heap)))
            .collect();
        return heap.alloc(AllocDict(items));
    }
    if let Some(d) = DictRef::from_value(v) {
        let items: Vec<(Value<'v>, Value<'v>)> =
            d.iter().map(|(k, x)| (k, encode(x, heap))).collect();
        return heap.alloc(AllocDict(items));
    }
    if let Some(l) = ListRef::from_value(v) {
        let items: Vec<Value<'v>> = l.iter().map(|x| encode(x, heap)).collect();
        return heap.alloc(AllocList(items));
    }
    if let Some(t) = TupleRef::from_value(v) {
        let items: Vec<Value<'v>> = t.iter().map(|x| encode(x, heap)).collect();
        return heap.alloc(AllocList(items));
    }
    v
}

fn decode<'v>(v: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
    if let Some(d) = DictRef::from_value(v) {
        let mut fields = SmallMap::new();
        for (k, x) in d.iter() {
            let Some(k) = k.unpack_str() else {
                return Err(starlark::Error::new_other(anyhow::Error::msg(format!(
                    "expected dict key to be string, but was {}",
                    k.get_type()
                ))));
            };
            fields.insert(k.to_string(), decode(x, heap)?);
        }
        return Ok(heap.alloc_complex(YttStruct::new(fields)));
    }
    if let Some(l) = ListRef::from_value(v) {
        let mut items = Vec::new();
        for x in l.iter() {
            items.push(decode(x, heap)?);
        }
        return Ok(heap.alloc(AllocList(items)));
    }
    Ok(v)
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn make<'v>(
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        Ok(heap.alloc_complex(YttStruct::new(kwargs)))
    }

    fn encode<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        Ok(encode(value, heap))
    }

    fn decode<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        decode(value, heap)
    }
}
