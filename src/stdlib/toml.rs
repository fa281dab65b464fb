//! `@ytt:toml`: `encode(value, indent=0)` writes a map as TOML (see `toml_encode`) and
//! `decode(text)` reads TOML into plain values (tables as dicts with sorted keys).

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value as SValue};

use super::args::{encoder_value, err, kwarg_indent, Args, Kwargs};
use super::toml_encode::encode;
use crate::pos::Pos;
use crate::yaml::{Array, ArrayItem, Map, MapItem, Value};

fn from_toml(v: toml::Value) -> Result<Value, String> {
    Ok(match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::Int(i),
        toml::Value::Float(f) => Value::Float(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(_) => {
            return Err("unknown type time.Time for conversion to starlark value".to_string())
        }
        toml::Value::Array(items) => {
            let mut arr = Array::default();
            for item in items {
                arr.items
                    .push(ArrayItem::new(from_toml(item)?, Pos::unknown()));
            }
            Value::Array(Box::new(arr))
        }
        toml::Value::Table(t) => from_table(t)?,
    })
}

/// A table as a map, keys sorted (ytt sorts the keys of decoded maps).
fn from_table(t: toml::Table) -> Result<Value, String> {
    let mut entries: Vec<(String, toml::Value)> = t.into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut map = Map::default();
    for (k, v) in entries {
        map.items.push(MapItem::new(
            Value::String(k),
            from_toml(v)?,
            Pos::unknown(),
        ));
    }
    Ok(Value::Map(Box::new(map)))
}

/// The message of a parse error without the crate's source excerpt (the crate leaves some
/// messages empty: those say where the input went wrong).
fn parse_error_message(e: &toml::de::Error, text: &str) -> String {
    let own = e.message().trim();
    if !own.is_empty() {
        return own.replace('\n', ", ");
    }
    let at = e.span().map_or(0, |s| s.start);
    let before = text.get(..at).unwrap_or(text);
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("unexpected input at column {column}")
}

/// Parses TOML text; errors name the line as `toml: line N: message`.
pub fn decode(text: &str) -> Result<Value, String> {
    match text.parse::<toml::Table>() {
        Ok(t) => from_table(t),
        Err(e) => {
            let line = e
                .span()
                .map(|s| text.get(..s.start).unwrap_or(text).matches('\n').count() + 1);
            let msg = parse_error_message(&e, text);
            Err(match line {
                Some(l) => format!("toml: line {l}: {msg}"),
                None => format!("toml: {msg}"),
            })
        }
    }
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn encode<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "toml.encode";
        let plain = encoder_value(NAME, &args, &kwargs, &["indent"])?;
        let indent = match kwarg_indent(NAME, &kwargs)? {
            // 0 keeps the encoder's default of two spaces.
            0 => 2,
            i => i,
        };
        let text = encode(&plain, &" ".repeat(indent)).map_err(|m| err(NAME, m))?;
        Ok(heap.alloc_str(&text).to_value())
    }

    fn decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        super::decoded::decoded("toml.decode", &args, heap, decode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_tables_and_reports_lines() {
        let v = decode("b = 1\na = [1, 2]\n[t]\nx = \"y\"\n").unwrap_or(Value::Null);
        let Value::Map(m) = &v else {
            panic!("expected a map, got {v:?}");
        };
        let keys: Vec<&str> = m.items.iter().filter_map(|i| i.key.as_str()).collect();
        assert_eq!(keys, vec!["a", "b", "t"]);
        let e = decode("a = 1\nb = ").err().unwrap_or_default();
        assert!(e.starts_with("toml: line 2: "), "{e}");
        assert_eq!(e, "toml: line 2: unexpected input at column 5");
    }
}
