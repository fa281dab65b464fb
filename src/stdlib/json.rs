//! `@ytt:json`: `encode(value, indent=0, escape_html=True)` writes a value as Go's
//! `encoding/json` does for ytt (object keys sorted, no final newline) and `decode(text)`
//! reads JSON into plain values (objects as dicts, numbers as floats). Spec 001 adds
//! `decodable(text)`, true when `decode` would succeed.

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value as SValue};

use super::args::{encoder_value, err, kwarg_bool, kwarg_indent, one_str, Args, Kwargs};
use crate::yaml::json::value_to_json;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn encode<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "json.encode";
        let plain = encoder_value(NAME, &args, &kwargs, &["indent", "escape_html"])?;
        let indent = kwarg_indent(NAME, &kwargs)?;
        let escape_html = kwarg_bool(NAME, &kwargs, "escape_html", true)?;
        let text = value_to_json(&plain, indent, escape_html).map_err(|e| err(NAME, e))?;
        Ok(heap.alloc_str(&text).to_value())
    }

    fn decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        super::decoded::decoded("json.decode", &args, heap, super::json_decode::decode)
    }

    /// Spec 001: whether `decode` would succeed.
    fn decodable<'v>(#[starlark(args)] args: Args<'v>) -> starlark::Result<bool> {
        let text = one_str("json.decodable", &args)?;
        Ok(super::json_decode::decode(text).is_ok())
    }
}
