//! Conversions between Starlark values and YAML node values, following ytt's rules: dicts become
//! maps, lists/tuples/sets arrays, structs maps, fragments their nodes; in the other direction a
//! map becomes a fragment, a struct or a dict depending on who asks.

use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::float::StarlarkFloat;
use starlark::values::list::{AllocList, ListRef};
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, UnpackValue, Value as SValue, ValueLike};
use starlark_map::small_map::SmallMap;

use super::fragment::{anyhow_msg, FragData, Fragment};
use super::structs::{struct_fields, YttStruct};
use crate::pos::Pos;
use crate::yaml::{Array, ArrayItem, DocSet, Map, MapItem, Value};

/// What a Starlark value becomes when a template sets it on a node.
#[derive(Debug)]
pub enum NodeVal {
    Value(Value),
    DocSet(DocSet),
    /// `template.replace()` already did the work.
    Noop,
}

/// Marker value returned by `template.replace()`.
pub const NOOP_TYPE: &str = "noop";

/// What a value that must not become YAML says about itself (ytt's `ConversionHint`): a value
/// type provides it from `StarlarkValue::provide`, and converting the value fails with
/// `Unable to convert value: <hint>`.
#[derive(Debug, Clone, starlark::any::ProvidesStaticType)]
pub struct ConversionHint(pub String);

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow_msg(msg))
}

/// Converts a value set on a node (`key: #@ value`).
pub fn starlark_to_node(v: SValue<'_>) -> starlark::Result<NodeVal> {
    if v.get_type() == NOOP_TYPE {
        return Ok(NodeVal::Noop);
    }
    if let Some(f) = v.downcast_ref::<Fragment>() {
        return Ok(match &*f.data {
            FragData::Null => NodeVal::Value(Value::Null),
            FragData::DocSet(d) => NodeVal::DocSet(d.clone()),
            FragData::Map(m) => NodeVal::Value(Value::Map(Box::new(m.clone()))),
            FragData::Array(a) => NodeVal::Value(Value::Array(Box::new(a.clone()))),
        });
    }
    Ok(NodeVal::Value(starlark_to_value(v)?))
}

/// The first line of ytt's error for an int beyond 64 bits placed in YAML (a recovered panic).
pub const BIG_INT_PANIC: &str = "(p) not sure how to get int (backtrace: goroutine 1 [running]:";

/// What stands for the Go backtrace ytt prints after [`BIG_INT_PANIC`].
const BIG_INT_REASON: &str =
    "(ytt shows a Go backtrace here: integers beyond 64 bits cannot be placed in YAML)";

/// Converts a Starlark value to a plain YAML value (fragments inside become their nodes).
pub fn starlark_to_value(v: SValue<'_>) -> starlark::Result<Value> {
    to_value_depth(v, 0)
}

fn to_value_depth(v: SValue<'_>, depth: u32) -> starlark::Result<Value> {
    if depth > 10_000 {
        return Err(err("value is nested too deeply to convert".into()));
    }
    if v.is_none() {
        return Ok(Value::Null);
    }
    if let Some(b) = v.unpack_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(s) = v.unpack_str() {
        return Ok(Value::String(s.to_string()));
    }
    if v.get_type() == "int" {
        if let Ok(Some(i)) = i64::unpack_value(v) {
            return Ok(Value::Int(i));
        }
        // Beyond int64: Go's uint64 when it fits, as ytt converts it.
        let text = v.to_str();
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::Uint(u));
        }
        // Beyond uint64 ytt panics (and shows Go's backtrace as the reason).
        return Err(err(format!("{BIG_INT_PANIC}\n{BIG_INT_REASON}\n)")));
    }
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return Ok(Value::Float(f.0));
    }
    if let Some(f) = v.downcast_ref::<Fragment>() {
        return Ok(match &*f.data {
            FragData::Null => Value::Null,
            FragData::Map(m) => Value::Map(Box::new(m.clone())),
            FragData::Array(a) => Value::Array(Box::new(a.clone())),
            FragData::DocSet(_) => {
                return Err(err(
                    "map items can only contain arrays, maps, or scalars; this is a document set"
                        .into(),
                ))
            }
        });
    }
    if let Some(d) = DictRef::from_value(v) {
        let mut map = Map::default();
        for (k, val) in d.iter() {
            map.items.push(MapItem::new(
                to_value_depth(k, depth + 1)?,
                to_value_depth(val, depth + 1)?,
                Pos::unknown(),
            ));
        }
        return Ok(Value::Map(Box::new(map)));
    }
    if let Some(fields) = struct_fields(v) {
        let mut map = Map::default();
        for (k, val) in fields {
            map.items.push(MapItem::new(
                Value::String(k),
                to_value_depth(val, depth + 1)?,
                Pos::unknown(),
            ));
        }
        return Ok(Value::Map(Box::new(map)));
    }
    let items: Option<Vec<SValue>> = match ListRef::from_value(v) {
        Some(l) => Some(l.iter().collect()),
        None => TupleRef::from_value(v).map(|t| t.iter().collect()),
    };
    if let Some(items) = items {
        let mut arr = Array::default();
        for it in items {
            arr.items.push(ArrayItem::new(
                to_value_depth(it, depth + 1)?,
                Pos::unknown(),
            ));
        }
        return Ok(Value::Array(Box::new(arr)));
    }
    if let Some(ConversionHint(hint)) = v.request_value::<ConversionHint>() {
        return Err(err(format!("Unable to convert value: {hint}")));
    }
    if let Some(go) = go_type(v) {
        // ytt panics on these (and shows Go's backtrace as the reason).
        return Err(err(format!(
            "(p) unknown type {go} for conversion to go value (backtrace: goroutine 1 [running]:\n\
             (ytt shows a Go backtrace here: a {} cannot be placed in YAML)\n)",
            v.get_type()
        )));
    }
    Err(err(format!(
        "unknown type {} for conversion to go value",
        v.get_type()
    )))
}

/// The Go type starlark-go has for a value that ytt cannot place in YAML.
fn go_type(v: SValue<'_>) -> Option<&'static str> {
    Some(match v.get_type() {
        // The crate's functions defined in Starlark are named with their module (`t.yml.f`).
        // A lambda (an assertion's `check` is one) is a Starlark function too.
        "function" if v.to_repr().contains('.') || v.to_repr() == "<function lambda>" => {
            "*starlark.Function"
        }
        "function" | "builtin_function_or_method" | "native_method" => "*starlark.Builtin",
        "range" => "starlark.rangeValue",
        // The crate's `elems()` is an `iterator`.
        "codepoints" | "elems" | "iterator" => "starlark.stringIterable",
        _ => return None,
    })
}

/// Converts a value used as a key (map lookups in fragments).
pub fn starlark_to_key(v: SValue<'_>) -> starlark::Result<Value> {
    starlark_to_value(v)
}

/// How maps are presented to Starlark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapAs {
    /// `yamlfragment`, as when reading through a fragment.
    Fragment,
    /// ytt's `struct` (data values).
    Struct,
    /// A `dict` (decoded YAML or JSON).
    Dict,
}

/// The first map key in `v` that cannot be a Starlark dict key (a list or a map), as starlark
/// names its type; such a value cannot become a dict.
pub fn unhashable_key(v: &Value) -> Option<&'static str> {
    match v {
        Value::Map(m) => m.items.iter().find_map(|it| match &it.key {
            Value::Array(_) => Some("list"),
            Value::Map(_) => Some("dict"),
            _ => unhashable_key(&it.value),
        }),
        Value::Array(a) => a.items.iter().find_map(|it| unhashable_key(&it.value)),
        _ => None,
    }
}

/// Converts a node value for Starlark (`false` keeps maps and arrays as fragments).
pub fn node_value_to_starlark<'v>(v: &Value, heap: Heap<'v>, _plain: bool) -> SValue<'v> {
    value_to_starlark(v, heap, MapAs::Fragment)
}

/// Converts a YAML value to a Starlark value, presenting maps as `how` says.
pub fn value_to_starlark<'v>(v: &Value, heap: Heap<'v>, how: MapAs) -> SValue<'v> {
    match v {
        Value::Null => SValue::new_none(),
        Value::Bool(b) => SValue::new_bool(*b),
        Value::Int(i) => heap.alloc(*i),
        Value::Uint(u) => heap.alloc(*u),
        Value::Float(f) => heap.alloc(*f),
        Value::String(s) => heap.alloc_str(s).to_value(),
        Value::Map(m) => match how {
            MapAs::Fragment => heap.alloc(Fragment::new(FragData::Map((**m).clone()))),
            MapAs::Struct => {
                let mut fields = SmallMap::new();
                for it in &m.items {
                    let key = match &it.key {
                        Value::String(s) => s.clone(),
                        other => crate::yaml::scalar_key_string(other),
                    };
                    fields.insert(key, value_to_starlark(&it.value, heap, how));
                }
                heap.alloc_complex(YttStruct::new(fields))
            }
            MapAs::Dict => {
                // A list or map key cannot be a dict key: callers refuse such values first
                // (`unhashable_key`); here they are left out rather than panicking.
                let items: Vec<(SValue<'v>, SValue<'v>)> = m
                    .items
                    .iter()
                    .filter(|it| !matches!(it.key, Value::Map(_) | Value::Array(_)))
                    .map(|it| {
                        (
                            value_to_starlark(&it.key, heap, how),
                            value_to_starlark(&it.value, heap, how),
                        )
                    })
                    .collect();
                heap.alloc(AllocDict(items))
            }
        },
        Value::Array(a) => match how {
            MapAs::Fragment => heap.alloc(Fragment::new(FragData::Array((**a).clone()))),
            _ => heap.alloc(AllocList(
                a.items
                    .iter()
                    .map(|it| value_to_starlark(&it.value, heap, how)),
            )),
        },
    }
}
