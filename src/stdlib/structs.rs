//! `@ytt:struct`: `make(**fields)`, `make_and_bind(receiver, **fields)` (function fields get
//! the receiver bound as their first argument), `bind(fn, *args)`, `encode(value)` (dicts,
//! fragments and structs to structs, recursively) and `decode(value)` (the reverse: to dicts
//! and lists).

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value};

use super::args::{as_plain, err, is_callable, plain_err, Args, Kwargs};
use super::bound::Bound;
use crate::eval::convert::{unhashable_key, value_to_starlark, MapAs};
use crate::eval::structs::YttStruct;
use crate::yaml::Value as YValue;

/// The first map key (depth first, as ytt converts) that is not a string.
fn first_non_string_key(v: &YValue) -> Option<&YValue> {
    match v {
        YValue::Map(m) => m.items.iter().find_map(|it| match &it.key {
            YValue::String(_) => first_non_string_key(&it.value),
            other => Some(other),
        }),
        YValue::Array(a) => a
            .items
            .iter()
            .find_map(|it| first_non_string_key(&it.value)),
        _ => None,
    }
}

/// A Go value as `fmt.Sprintf("%s", v)` shows it (`%!s(int64=1)` for a non-string).
fn go_format_s(v: &YValue) -> String {
    match v {
        YValue::String(s) => s.clone(),
        YValue::Null => "%!s(<nil>)".to_string(),
        YValue::Bool(b) => format!("%!s(bool={b})"),
        YValue::Int(i) => format!("%!s(int64={i})"),
        YValue::Uint(u) => format!("%!s(uint64={u})"),
        YValue::Float(f) => format!("%!s(float64={f})"),
        YValue::Array(a) => {
            let items: Vec<String> = a.items.iter().map(|it| go_format_s(&it.value)).collect();
            format!("[{}]", items.join(" "))
        }
        YValue::Map(_) => "map[...]".to_string(),
    }
}

/// Keyword arguments with the names their author wrote (`struct.make(assert=1)` arrives as the
/// engine's stand-in for the reserved word).
fn as_written(kwargs: Kwargs<'_>) -> Kwargs<'_> {
    kwargs
        .into_iter()
        .map(|(k, v)| match crate::template::keywords::original(&k) {
            o if o.len() != k.len() => (o.to_string(), v),
            _ => (k, v),
        })
        .collect()
}

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
        Ok(heap.alloc_complex(YttStruct::new(as_written(kwargs))))
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
        let fields = as_written(kwargs)
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
        let plain = as_plain(NAME, v)?;
        if let Some(key) = first_non_string_key(&plain) {
            // ytt panics on such a key (and shows Go's backtrace as the reason).
            return Err(plain_err(format!(
                "(p) expected struct key {} to be string (backtrace: goroutine 1 [running]:\n\
                 (ytt shows a Go backtrace here: struct keys must be strings)\n)",
                go_format_s(key)
            )));
        }
        Ok(value_to_starlark(&plain, heap, MapAs::Struct))
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
