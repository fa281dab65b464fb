//! `yamlfragment`: the Starlark value of YAML built by a template function (a document set, a
//! map or an array). It is immutable; indexing, `len`, `in` and iteration read the node tree as
//! ytt's fragment does (maps iterate keys, arrays and document sets iterate values), and what
//! ytt's fragment does not implement (`==` between fragments, slicing, item assignment) fails
//! with its messages.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::starlark_simple_value;
use starlark::values::starlark_value;
use starlark::values::{
    Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Value as SValue, ValueLike,
};

use super::convert::{node_value_to_starlark, starlark_to_key};
use crate::yaml::{Array, DocSet, Map, Value};

/// What a fragment holds.
#[derive(Debug, Clone)]
pub enum FragData {
    Null,
    DocSet(DocSet),
    Map(Map),
    Array(Array),
}

#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct Fragment {
    #[allocative(skip)]
    pub data: Arc<FragData>,
}

starlark_simple_value!(Fragment);

impl fmt::Display for Fragment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = match &*self.data {
            FragData::Null => "<nil>",
            FragData::DocSet(_) => "*yamlmeta.DocumentSet",
            FragData::Map(_) => "*yamlmeta.Map",
            FragData::Array(_) => "*yamlmeta.Array",
        };
        write!(f, "yamlfragment({inner})")
    }
}

impl Fragment {
    pub fn new(data: FragData) -> Fragment {
        Fragment {
            data: Arc::new(data),
        }
    }

    fn len(&self) -> usize {
        match &*self.data {
            FragData::Null => 0,
            FragData::DocSet(d) => d.items.len(),
            FragData::Map(m) => m.items.len(),
            FragData::Array(a) => a.items.len(),
        }
    }

    fn values(&self) -> Vec<&Value> {
        match &*self.data {
            FragData::Null => Vec::new(),
            FragData::DocSet(d) => d.items.iter().map(|i| &i.value).collect(),
            FragData::Map(m) => m.items.iter().map(|i| &i.value).collect(),
            FragData::Array(a) => a.items.iter().map(|i| &i.value).collect(),
        }
    }
}

#[starlark_value(type = "yamlfragment")]
impl<'v> StarlarkValue<'v> for Fragment {
    fn to_bool(&self) -> bool {
        self.len() > 0
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(self.len() as i32)
    }

    fn at(&self, index: SValue<'v>, heap: Heap<'v>) -> starlark::Result<SValue<'v>> {
        let key = starlark_to_key(index)?;
        let found = match &*self.data {
            FragData::Null => None,
            FragData::Map(m) => m
                .items
                .iter()
                .find(|i| map_key_matches(&i.key, &key))
                .map(|i| &i.value),
            FragData::Array(_) | FragData::DocSet(_) => {
                let Value::Int(i) = key else {
                    return Err(starlark::Error::new_other(anyhow_msg(format!(
                        "yamlfragment.Get: Expected array index to be an int64, but was {}",
                        go_index_type(index, &key)
                    ))));
                };
                let vals = self.values();
                usize::try_from(i).ok().and_then(|i| vals.get(i).copied())
            }
        };
        match found {
            Some(v) => Ok(node_value_to_starlark(v, heap, false)),
            None => Err(starlark::Error::new_other(anyhow_msg(format!(
                "key {} not in yamlfragment",
                index.to_repr()
            )))),
        }
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<SValue<'v>>> {
        Ok(match &*self.data {
            FragData::Map(m) => m
                .items
                .iter()
                .map(|i| node_value_to_starlark(&i.key, heap, false))
                .collect(),
            _ => self
                .values()
                .into_iter()
                .map(|v| node_value_to_starlark(v, heap, false))
                .collect(),
        })
    }

    fn is_in(&self, other: SValue<'v>) -> starlark::Result<bool> {
        // ytt answers `in` with its lookup (keys for maps, valid indexes for arrays and
        // document sets), and starlark-go's `in` drops the lookup's error: a key that cannot
        // be converted, or an array asked for a key that is not an int, is simply not in.
        let Ok(key) = starlark_to_key(other) else {
            return Ok(false);
        };
        let len = match &*self.data {
            FragData::Map(m) => return Ok(m.items.iter().any(|i| map_key_matches(&i.key, &key))),
            FragData::Null => return Ok(false),
            FragData::Array(a) => a.items.len(),
            FragData::DocSet(d) => d.items.len(),
        };
        Ok(matches!(key, Value::Int(i) if i >= 0 && (i as usize) < len))
    }

    /// ytt's fragment refuses to be compared with another fragment (`CompareSameType` is not
    /// implemented), also when it is the same one; other types are simply unequal.
    fn equals(&self, other: SValue<'v>) -> starlark::Result<bool> {
        match other.downcast_ref::<Fragment>() {
            Some(_) => Err(not_implemented("CompareSameType")),
            None => Ok(false),
        }
    }

    fn compare(&self, other: SValue<'v>) -> starlark::Result<std::cmp::Ordering> {
        match other.downcast_ref::<Fragment>() {
            Some(_) => Err(not_implemented("CompareSameType")),
            None => starlark::values::ValueError::unsupported_with(self, "compare", other),
        }
    }

    fn set_at(&self, _index: SValue<'v>, _new_value: SValue<'v>) -> starlark::Result<()> {
        Err(not_implemented("SetKey"))
    }

    fn slice(
        &self,
        _start: Option<SValue<'v>>,
        _stop: Option<SValue<'v>>,
        _stride: Option<SValue<'v>>,
        _heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        Err(starlark::Error::new_other(anyhow_msg(
            "(p) yamlfragment.Slice: Not implemented".to_string(),
        )))
    }
}

/// ytt's error for what its fragment does not implement.
fn not_implemented(what: &str) -> starlark::Error {
    starlark::Error::new_other(anyhow_msg(format!("yamlfragment.{what}: Not implemented")))
}

/// Whether a map fragment's key is the one looked up. ytt compares Go values: a YAML integer
/// key is a Go `int` and a Starlark integer an `int64`, so an integer never finds a key.
fn map_key_matches(item_key: &Value, wanted: &Value) -> bool {
    !matches!(wanted, Value::Int(_) | Value::Uint(_)) && item_key == wanted
}

/// Go's type name for `index` converted to `key`: a fragment is the YAML node it holds (ytt
/// converts it to that node, `*yamlmeta.Map`, where a dict becomes an `*orderedmap.Map`).
fn go_index_type(index: SValue<'_>, key: &Value) -> &'static str {
    match index.downcast_ref::<Fragment>().map(|f| &*f.data) {
        Some(FragData::Map(_)) => "*yamlmeta.Map",
        Some(FragData::Array(_)) => "*yamlmeta.Array",
        Some(FragData::DocSet(_)) => "*yamlmeta.DocumentSet",
        _ => go_type_name(key),
    }
}

/// Go's type name for a converted value, as ytt's messages show it.
pub fn go_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int64",
        Value::Uint(_) => "uint64",
        Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::Map(_) => "*orderedmap.Map",
        Value::Array(_) => "[]interface {}",
    }
}

/// An error carrying just a message (shown verbatim).
pub fn anyhow_msg(msg: String) -> anyhow::Error {
    anyhow::Error::msg(msg)
}
