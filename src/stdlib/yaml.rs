//! `@ytt:yaml`: `encode(value)` prints a value as ytt prints documents and `decode(string)`
//! reads exactly one YAML document into plain values (dicts, lists, scalars). Spec 001 adds
//! `decodable(text)`, true when `decode` would succeed.
//!
//! ytt encodes through a document set: a null value, and a YAML fragment holding an empty
//! map or array, are empty documents and print as `""`; a Starlark `{}` prints as `{}\n`; a
//! fragment holding several documents prints them separated by `---`.

use std::sync::Arc;

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value as SValue, ValueLike};

use super::args::{as_str, exactly_one, wrap, Args};
use crate::eval::convert::{starlark_to_value, unhashable_key, value_to_starlark, MapAs};
use crate::eval::fragment::{FragData, Fragment};
use crate::yaml::emit::{docset_to_yaml, is_empty_document_value, value_to_yaml};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::Value;

/// `yaml.encode(value)`: the YAML text of a Starlark value.
pub fn encode_starlark(v: SValue<'_>) -> starlark::Result<String> {
    if let Some(f) = v.downcast_ref::<Fragment>() {
        return Ok(match &*f.data {
            FragData::DocSet(d) => docset_to_yaml(d),
            FragData::Null => String::new(),
            FragData::Map(m) => encode_node(&Value::Map(Box::new(m.clone()))),
            FragData::Array(a) => encode_node(&Value::Array(Box::new(a.clone()))),
        });
    }
    let plain = starlark_to_value(v)?;
    Ok(match plain {
        Value::Null => String::new(),
        other => value_to_yaml(&other),
    })
}

/// The YAML text of a node value (a map or array of a template is a fragment: empty ones
/// print as `""`).
pub fn encode_node(v: &Value) -> String {
    if is_empty_document_value(v) {
        String::new()
    } else {
        value_to_yaml(v)
    }
}

/// `yaml.decode(text)`: the value of the one document in `text`.
pub fn decode_str(text: &str) -> Result<Value, String> {
    let file: Arc<str> = Arc::from("");
    let docs = parse(text, &file, &ParseOpts::default()).map_err(|e| e.message)?;
    // A stream that ends in comments gets an extra, injected document that ytt's plain
    // parser (which drops comments) would not have.
    let mut values = docs
        .items
        .into_iter()
        .enumerate()
        .filter(|(i, d)| *i == 0 || !d.injected)
        .map(|(_, d)| d.value);
    match (values.next(), values.next()) {
        (Some(v), None) => Ok(v),
        _ => Err("Expected to find exactly one YAML document".to_string()),
    }
}

/// `yaml.decode(yaml.encode(value))`: a value as ytt's assertions see it (errors worded as
/// those two calls word them).
pub fn round_trip(v: SValue<'_>) -> Result<Value, String> {
    let text = encode_starlark(v)
        .map_err(|e| format!("yaml.encode: {}", crate::eval::errors::plain_message(&e)))?;
    decode_str(&text).map_err(|m| format!("yaml.decode: {m}"))
}

/// The round trip of a plain node value (maps and arrays taken as fragments).
pub fn round_trip_node(v: &Value) -> Result<Value, String> {
    decode_str(&encode_node(v)).map_err(|m| format!("yaml.decode: {m}"))
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn encode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "yaml.encode";
        let v = exactly_one(NAME, &args.items)?;
        let text = encode_starlark(v).map_err(|e| wrap(NAME, &e))?;
        Ok(heap.alloc_str(&text).to_value())
    }

    fn decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "yaml.decode";
        let text = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        let v = decode_str(text).map_err(|m| super::args::err(NAME, m))?;
        if let Some(kind) = unhashable_key(&v) {
            return Err(super::args::err(
                NAME,
                format!("unhashable type: {kind} (a map key cannot be a {kind})"),
            ));
        }
        Ok(value_to_starlark(&v, heap, MapAs::Dict))
    }

    /// Spec 001: whether `decode` would succeed.
    fn decodable<'v>(#[starlark(args)] args: Args<'v>) -> starlark::Result<bool> {
        const NAME: &str = "yaml.decodable";
        let text = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        Ok(decode_str(text).is_ok())
    }
}
