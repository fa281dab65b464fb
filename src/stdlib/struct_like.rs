//! The values of `@ytt:url`, `@ytt:ip` and `@ytt:assert` are ytt structs underneath (their Go
//! types embed `StarlarkStruct`, holding their methods and fields in order): `len` counts those
//! names, iteration and `list()` give them, `"string" in v` and `v["string"]` look them up, and
//! `dict(v)`, `d.update(v)` and `**v` take them as a mapping (`stdlib::godict`). Each type
//! lists its names in ytt's order and gets these behaviours from [`struct_like!`].

use starlark::values::{Heap, Value};

use super::args::{go_type_name, plain_err};

/// The names of a struct-like value, in ytt's order: what `godict` asks a value for.
#[derive(Clone, Copy, Debug, starlark::any::ProvidesStaticType)]
pub struct StructNames(pub &'static [&'static str]);

/// The fields of a struct-like value, looked up by name.
pub fn fields<'v>(v: Value<'v>, heap: Heap<'v>) -> Option<Vec<(Value<'v>, Value<'v>)>> {
    let StructNames(names) = v.request_value::<StructNames>()?;
    Some(
        names
            .iter()
            .filter_map(|n| {
                let field = v.get_attr(n, heap).ok().flatten()?;
                Some((heap.alloc_str(n).to_value(), field))
            })
            .collect(),
    )
}

/// `v[key]` of a struct-like value `v` named `names`, as ytt's struct answers it: the field or
/// method of that name, or starlark-go's error (`key "a" not in @ytt:url.value`, `expected a
/// string, but was int`).
pub fn at<'v>(
    v: Value<'v>,
    key: Value<'v>,
    names: &[&str],
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    let Some(name) = key.unpack_str() else {
        return Err(plain_err(format!(
            "expected a string, but was {}",
            go_type_name(key)
        )));
    };
    if names.contains(&name) {
        if let Some(found) = v.get_attr(name, heap)? {
            return Ok(found);
        }
    }
    Err(plain_err(format!(
        "key {} not in {}",
        key.to_repr(),
        v.get_type()
    )))
}

/// The `StarlarkValue` methods of a struct-like value with names `$names` (a `&[&str]`), for
/// the body of its `#[starlark_value]` impl (which provides `StructNames` in `provide`).
#[macro_export]
macro_rules! struct_like {
    ($names:expr) => {
        fn to_bool(&self) -> bool {
            true
        }

        fn length(&self) -> starlark::Result<i32> {
            Ok($names.len() as i32)
        }

        fn iterate_collect(
            &self,
            heap: starlark::values::Heap<'v>,
        ) -> starlark::Result<Vec<starlark::values::Value<'v>>> {
            Ok($names
                .iter()
                .map(|n| heap.alloc_str(n).to_value())
                .collect())
        }

        fn is_in(&self, other: starlark::values::Value<'v>) -> starlark::Result<bool> {
            Ok(other.unpack_str().is_some_and(|s| $names.contains(&s)))
        }

        fn at(
            &self,
            index: starlark::values::Value<'v>,
            heap: starlark::values::Heap<'v>,
        ) -> starlark::Result<starlark::values::Value<'v>> {
            // A copy answers for the value (the crate gives `at` no handle on it): these
            // values never change, and ytt makes a new method value at each lookup anyway.
            let me = heap.alloc(self.clone());
            $crate::stdlib::struct_like::at(me, index, $names, heap)
        }
    };
}
