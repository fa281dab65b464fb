//! `dict(...)` and `dict.update(...)` as starlark-go has them. starlark-go takes the key/value
//! pairs of any mapping it can enumerate (its `IterableMapping`): a dict, and in ytt a struct
//! (`data.values`, `struct.make`, `struct.encode`) and a YAML fragment (whose `Items` only a map
//! fragment has: ytt's panic for the others is shown as ytt shows it, `(p) ...`), and the
//! struct-like values of `@ytt:url`, `@ytt:ip` and `@ytt:assert` (`stdlib::struct_like`). Anything else
//! is a sequence of pairs, with starlark-go's messages. The crate knows only its own dicts, so
//! `d.update(data.values.m)` would iterate the struct's names (`update: got string, want
//! iterable`). `eval::gocompat` sends `.update` lookups through `__ytt_attr`, which hands a
//! dict's `update` here.

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_complex_value;
use starlark::values::dict::{AllocDict, DictMut, DictRef};
use starlark::values::{
    starlark_value, Freeze, Heap, NoSerialize, StarlarkValue, Trace, Value, ValueLike,
};
use starlark_map::small_map::SmallMap;
use starlark_map::Hashed;

use super::args::plain_err;
use crate::eval::convert::node_value_to_starlark;
use crate::eval::fragment::{FragData, Fragment};
use crate::eval::structs::struct_fields;

/// The key/value pairs of `v` if starlark-go sees it as a mapping it can enumerate; `Err` is
/// ytt's panic for a fragment that is not a map.
pub fn mapping_items<'v>(
    v: Value<'v>,
    heap: Heap<'v>,
) -> Option<Result<Vec<(Value<'v>, Value<'v>)>, String>> {
    if let Some(d) = DictRef::from_value(v) {
        return Some(Ok(d.iter().collect()));
    }
    if let Some(fields) = struct_fields(v) {
        return Some(Ok(fields
            .into_iter()
            .map(|(k, v)| (heap.alloc_str(&k).to_value(), v))
            .collect()));
    }
    if let Some(fields) = super::struct_like::fields(v, heap) {
        return Some(Ok(fields));
    }
    let f = v.downcast_ref::<Fragment>()?;
    Some(match &*f.data {
        FragData::Null => Ok(Vec::new()),
        FragData::Map(m) => Ok(m
            .items
            .iter()
            .map(|i| {
                (
                    node_value_to_starlark(&i.key, heap, false),
                    node_value_to_starlark(&i.value, heap, false),
                )
            })
            .collect()),
        FragData::Array(_) => Err(items_panic("*yamlmeta.Array")),
        FragData::DocSet(_) => Err(items_panic("*yamlmeta.DocumentSet")),
    })
}

/// ytt's recovered panic for `Items` of a fragment that is not a map.
fn items_panic(go_type: &str) -> String {
    format!("(p) yamlfragment.Items: Expected value to be a map, but was {go_type}")
}

/// A key as starlark-go hashes it: values it cannot hash are `unhashable type: T`.
pub fn hashed_key(k: Value<'_>) -> Result<Hashed<Value<'_>>, String> {
    k.get_hashed()
        .map_err(|_| format!("unhashable type: {}", k.get_type()))
}

/// The pairs starlark-go's `updateDict` adds for `updates` (the one positional argument) and
/// `kwargs`, in order. Errors are its messages, without the caller's name.
fn update_pairs<'v>(
    updates: Option<Value<'v>>,
    kwargs: Vec<(Value<'v>, Value<'v>)>,
    heap: Heap<'v>,
) -> Result<Vec<(Hashed<Value<'v>>, Value<'v>)>, String> {
    let mut out = Vec::new();
    if let Some(u) = updates {
        match mapping_items(u, heap) {
            Some(items) => {
                for (k, v) in items? {
                    out.push((hashed_key(k)?, v));
                }
            }
            None => {
                let iter = u
                    .iterate(heap)
                    .map_err(|_| format!("got {}, want iterable", u.get_type()))?;
                for (i, pair) in iter.enumerate() {
                    let Ok(inner) = pair.iterate(heap) else {
                        return Err(format!(
                            "dictionary update sequence element #{i} is not iterable ({})",
                            pair.get_type()
                        ));
                    };
                    let len = pair.length().map_err(|_| {
                        format!(
                            "dictionary update sequence element #{i} has unknown length ({})",
                            pair.get_type()
                        )
                    })?;
                    if len != 2 {
                        return Err(format!(
                            "dictionary update sequence element #{i} has length {len}, want 2"
                        ));
                    }
                    let kv: Vec<Value<'v>> = inner.take(2).collect();
                    if let [k, v] = kv.as_slice() {
                        out.push((hashed_key(*k)?, *v));
                    }
                }
            }
        }
    }
    for (k, v) in kwargs {
        out.push((hashed_key(k)?, v));
    }
    Ok(out)
}

/// An error of builtin `name`; a Go panic ytt recovered (`(p) ...`) is shown as it is.
fn named(name: &str, msg: String) -> starlark::Error {
    if msg.starts_with("(p) ") {
        return plain_err(msg);
    }
    plain_err(format!("{name}: {msg}"))
}

/// Keyword arguments as pairs of string values and values.
type Pairs<'v> = Vec<(Value<'v>, Value<'v>)>;

/// Positional and keyword arguments of a call, the keywords as string values.
fn call_args<'v>(
    args: &Arguments<'v, '_>,
    heap: Heap<'v>,
) -> starlark::Result<(Vec<Value<'v>>, Pairs<'v>)> {
    let pos: Vec<Value<'v>> = args.positions(heap)?.collect();
    let kwargs = args
        .names_map()?
        .into_iter()
        .map(|(k, v)| (k.to_value(), v))
        .collect();
    Ok((pos, kwargs))
}

/// The builtin `dict(...)`.
pub fn dict<'v>(
    pos: &[Value<'v>],
    kwargs: Vec<(Value<'v>, Value<'v>)>,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    if pos.len() > 1 {
        return Err(plain_err(format!(
            "dict: got {} arguments, want at most 1",
            pos.len()
        )));
    }
    let pairs = update_pairs(pos.first().copied(), kwargs, heap).map_err(|m| named("dict", m))?;
    let mut map = SmallMap::with_capacity(pairs.len());
    for (k, v) in pairs {
        map.insert_hashed(k, v);
    }
    Ok(heap.alloc(AllocDict(map.into_iter())))
}

/// `d.update` bound to its dict.
#[derive(Debug, Trace, Freeze, Coerce, ProvidesStaticType, NoSerialize, Allocative)]
#[repr(C)]
pub struct DictUpdateGen<V: starlark::values::ValueLifetimeless> {
    dict: V,
}

starlark_complex_value!(pub DictUpdate);

impl<V: starlark::values::ValueLifetimeless> fmt::Display for DictUpdateGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<built-in method update of dict value>")
    }
}

/// `dict.update` of `d`, if `d` is a dict.
pub fn update_method<'v>(d: Value<'v>, heap: Heap<'v>) -> Option<Value<'v>> {
    DictRef::from_value(d)?;
    Some(heap.alloc_complex(DictUpdate { dict: d }))
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for DictUpdateGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    /// starlark-go hashes a builtin by its name (a builtin may be a dict key).
    fn write_hash(
        &self,
        hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        crate::stdlib::builtin_hash::by_name("update", hasher)
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let (pos, kwargs) = call_args(args, heap)?;
        if pos.len() > 1 {
            return Err(plain_err(format!(
                "update: got {} arguments, want at most 1",
                pos.len()
            )));
        }
        let pairs =
            update_pairs(pos.first().copied(), kwargs, heap).map_err(|m| named("update", m))?;
        let mut d = DictMut::from_value(self.dict.to_value())
            .map_err(|_| plain_err("update: cannot insert into frozen hash table".to_string()))?;
        for (k, v) in pairs {
            d.aref.insert_hashed(k, v);
        }
        Ok(Value::new_none())
    }
}
