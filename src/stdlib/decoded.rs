//! The `decode(text)` of the text formats whose decoder needs nothing else (`@ytt:json`,
//! `@ytt:toml`): one string argument, read by the format's decoder, returned as plain
//! Starlark values with every map a dict. A decoder's error is the builtin's, prefixed with
//! its name as ytt prefixes it.

use starlark::values::{Heap, Value};

use super::args::{err, one_str, Args};
use crate::eval::convert::{value_to_starlark, MapAs};
use crate::yaml::Value as YValue;

/// The value builtin `name` (`json.decode`) returns for `args` with `decode` as its reader.
pub fn decoded<'v>(
    name: &str,
    args: &Args<'v>,
    heap: Heap<'v>,
    decode: fn(&str) -> Result<YValue, String>,
) -> starlark::Result<Value<'v>> {
    let text = one_str(name, args)?;
    let v = decode(text).map_err(|m| err(name, m))?;
    Ok(value_to_starlark(&v, heap, MapAs::Dict))
}
