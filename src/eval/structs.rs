//! ytt's `struct`: an ordered set of named values with attribute access (`s.name`), string
//! indexing (`s["name"]`), iteration over names and `len`. `data.values` and `struct.make()`
//! produce it; it prints as `struct(...)` like ytt's, and `==` is identity, as in ytt.
//!
//! ytt's struct does not freeze what it holds: a list or dict reached through `data.values` or
//! through a `struct.make()` of a loaded module can be appended to (`l = data.values.names;
//! l.append(x)`, the TKG extensions' dex certificate; round eleven's FE11-C1), where the same
//! list held by a module's global directly is frozen. Here modules and `data.values` are frozen
//! values shared by every file, so a frozen list or dict read out of a struct is handed out as a
//! fresh copy on the reader's heap (see [`thaw`]). One difference remains: ytt hands a file the
//! same list at every read, so `data.values.names.append(x)` followed by `data.values.names`
//! shows `x` there and not here.

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::starlark_complex_value;
use starlark::values::dict::{Dict, DictRef};
use starlark::values::list::{AllocList, ListRef};
use starlark::values::{
    starlark_value, Freeze, Heap, NoSerialize, StarlarkValue, Trace, Value, ValueLike,
};
use starlark_map::small_map::SmallMap;

use super::fragment::anyhow_msg;

#[derive(Debug, Trace, Freeze, Coerce, ProvidesStaticType, NoSerialize, Allocative)]
#[repr(C)]
pub struct YttStructGen<V: starlark::values::ValueLifetimeless> {
    pub fields: SmallMap<String, V>,
}

starlark_complex_value!(pub YttStruct);

impl<V: starlark::values::ValueLifetimeless> fmt::Display for YttStructGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

impl<'v> YttStruct<'v> {
    pub fn new(fields: SmallMap<String, Value<'v>>) -> YttStruct<'v> {
        YttStructGen { fields }
    }
}

/// The fields of a struct value, frozen or not.
pub fn struct_fields<'v>(v: Value<'v>) -> Option<Vec<(String, Value<'v>)>> {
    YttStruct::from_value(v).map(|s| {
        s.fields
            .iter()
            .map(|(k, v)| (k.clone(), v.to_value()))
            .collect()
    })
}

#[starlark_value(type = "struct")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for YttStructGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn to_bool(&self) -> bool {
        !self.fields.is_empty()
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(self.fields.len() as i32)
    }

    fn get_attr(&self, attribute: &str, heap: Heap<'v>) -> Option<Value<'v>> {
        // `s.assert` reaches here as the engine's stand-in for the reserved word.
        let attribute = crate::template::keywords::original(attribute);
        self.fields.get(attribute).map(|v| thaw(v.to_value(), heap))
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        self.fields
            .contains_key(crate::template::keywords::original(attribute))
    }

    fn dir_attr(&self) -> Vec<String> {
        self.fields.keys().cloned().collect()
    }

    fn at(&self, index: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let Some(name) = index.unpack_str() else {
            return Err(starlark::Error::new_other(anyhow_msg(format!(
                "expected a string, but was {}",
                index.get_type()
            ))));
        };
        match self.fields.get(name) {
            Some(v) => Ok(thaw(v.to_value(), heap)),
            None => Err(starlark::Error::new_other(anyhow_msg(format!(
                "key \"{name}\" not in struct"
            )))),
        }
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self
            .fields
            .keys()
            .map(|k| heap.alloc_str(k).to_value())
            .collect())
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other
            .unpack_str()
            .map(|s| self.fields.contains_key(s))
            .unwrap_or(false))
    }

    /// starlark-go compares structs by identity (ytt's struct has no `CompareSameType`): the
    /// crate answers `==` of a value with itself before asking.
    fn equals(&self, _other: Value<'v>) -> starlark::Result<bool> {
        Ok(false)
    }

    fn set_at(&self, _index: Value<'v>, _new_value: Value<'v>) -> starlark::Result<()> {
        Err(starlark::Error::new_other(anyhow_msg(
            "struct value does not support item assignment".to_string(),
        )))
    }
}

/// A frozen list or dict as a copy on `heap` that can be changed, with the lists and dicts it
/// holds copied the same way (structs inside copy theirs when read); any other value as it is.
fn thaw<'v>(v: Value<'v>, heap: Heap<'v>) -> Value<'v> {
    if v.unpack_frozen().is_none() {
        return v;
    }
    if let Some(list) = ListRef::from_value(v) {
        let items: Vec<Value<'v>> = list.iter().map(|x| thaw(x, heap)).collect();
        return heap.alloc(AllocList(items));
    }
    if let Some(dict) = DictRef::from_value(v) {
        let content = dict
            .iter_hashed()
            .map(|(k, x)| (k, thaw(x, heap)))
            .collect();
        return heap.alloc(Dict::new(content));
    }
    v
}

/// The value `template.replace()` returns: setting it on a node does nothing.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct Noop;

starlark::starlark_simple_value!(Noop);

impl fmt::Display for Noop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("noop")
    }
}

#[starlark_value(type = "noop")]
impl<'v> StarlarkValue<'v> for Noop {
    fn to_bool(&self) -> bool {
        false
    }
}

pub fn noop_value(heap: Heap<'_>) -> Value<'_> {
    heap.alloc(Noop)
}
