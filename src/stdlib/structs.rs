//! `@ytt:struct`: `make(**fields)`, `make_and_bind(receiver, **fields)` (function fields get
//! the receiver bound as their first argument), `bind(fn, *args)`, `encode(value)` (dicts,
//! fragments and structs to structs, recursively) and `decode(value)` (the reverse: to dicts
//! and lists).

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value};

use super::args::{as_plain, err, is_callable, Args, Kwargs};
use super::bound::Bound;
use crate::eval::convert::{unhashable_key, value_to_starlark, MapAs};
use crate::eval::structs::YttStruct;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn make<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if !args.items.is_empty() {
            return Err(err(
                "struct.make",
                "unexpected positional arguments (structs are made from keyword arguments only)",
            ));
        }
        Ok(heap.alloc_complex(YttStruct::new(kwargs)))
    }

    fn make_and_bind<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        let [receiver] = args.items[..] else {
            return Err(err(
                "struct.make_and_bind",
                "expected at exactly one argument",
            ));
        };
        let fields = kwargs
            .into_iter()
            .map(|(k, v)| {
                let v = if is_callable(v) {
                    heap.alloc_complex(Bound::new(v, vec![receiver]))
                } else {
                    v
                };
                (k, v)
            })
            .collect();
        Ok(heap.alloc_complex(YttStruct::new(fields)))
    }

    fn bind<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let [func, bound @ ..] = &args.items[..] else {
            return Err(err("struct.bind", "expected at least two arguments"));
        };
        if bound.is_empty() {
            return Err(err("struct.bind", "expected at least two arguments"));
        }
        Ok(heap.alloc_complex(Bound::new(*func, bound.to_vec())))
    }

    fn encode<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        const NAME: &str = "struct.encode";
        let [v] = args.items[..] else {
            return Err(err(NAME, "expected exactly one argument"));
        };
        Ok(value_to_starlark(&as_plain(NAME, v)?, heap, MapAs::Struct))
    }

    fn decode<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        const NAME: &str = "struct.decode";
        let [v] = args.items[..] else {
            return Err(err(NAME, "expected exactly one argument"));
        };
        let plain = as_plain(NAME, v)?;
        if let Some(kind) = unhashable_key(&plain) {
            return Err(err(
                NAME,
                format!("unhashable type: {kind} (a map key cannot be a {kind})"),
            ));
        }
        Ok(value_to_starlark(&plain, heap, MapAs::Dict))
    }
}
