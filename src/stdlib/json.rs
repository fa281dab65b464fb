//! `@ytt:json`: `encode(value, indent=0, escape_html=True)` writes a value as Go's
//! `encoding/json` does for ytt (object keys sorted, no final newline) and `decode(text)`
//! reads JSON into plain values (objects as dicts, numbers as floats).

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value as SValue};

use super::args::{
    as_plain, as_str, err, exactly_one, kwarg_bool, kwarg_i64, only_kwargs, Args, Kwargs,
};
use crate::eval::convert::{value_to_starlark, MapAs};
use crate::yaml::json::value_to_json;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn encode<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "json.encode";
        let v = exactly_one(NAME, &args.items)?;
        only_kwargs(NAME, &kwargs, &["indent", "escape_html"])?;
        let plain = as_plain(NAME, v)?;
        let indent = kwarg_i64(NAME, &kwargs, "indent")?;
        let indent = match usize::try_from(indent) {
            Ok(i) if i <= 8 => i,
            // Bounded as ytt bounds it (CWE-409).
            _ => return Err(err(NAME, "indent value must be between 0 and 8")),
        };
        let escape_html = kwarg_bool(NAME, &kwargs, "escape_html", true)?;
        let text = value_to_json(&plain, indent, escape_html).map_err(|e| err(NAME, e))?;
        Ok(heap.alloc_str(&text).to_value())
    }

    fn decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "json.decode";
        let text = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        let v = super::json_decode::decode(text).map_err(|m| err(NAME, m))?;
        Ok(value_to_starlark(&v, heap, MapAs::Dict))
    }
}
