//! TOML text as ytt's `toml.encode` writes it with BurntSushi's encoder: keys sorted, plain
//! keys of a table before its sub-tables, sub-tables and arrays of tables indented one level
//! per depth (two spaces unless `indent` says otherwise), a blank line before each top-level
//! table, arrays inline (`[1, 2]`), maps inside arrays as inline tables, floats always with a
//! decimal point, null values left out.

use std::collections::BTreeMap;

use super::golike::quote_escaped;
use crate::yaml::Value;

const NO_KEY: &str = "toml: top-level values must be Go maps or structs";
const NIL_ELEMENT: &str = "toml: cannot encode array with nil element";

/// Encodes a value; `indent` is one level of indentation.
pub fn encode(v: &Value, indent: &str) -> Result<String, String> {
    let mut e = Encoder {
        out: String::new(),
        indent: indent.to_string(),
        written: false,
    };
    e.encode(&[], v)?;
    Ok(e.out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Plain,
    Table,
    TableArray,
}

/// How a value is written: as `key = value`, as a table, or as an array of tables.
fn kind(v: &Value) -> Result<Kind, String> {
    Ok(match v {
        Value::Map(_) => Kind::Table,
        Value::Array(a) if is_table_array(a)? => Kind::TableArray,
        _ => Kind::Plain,
    })
}

fn is_table_array(a: &crate::yaml::Array) -> Result<bool, String> {
    let mut all_tables = !a.items.is_empty();
    for item in &a.items {
        match &item.value {
            Value::Null => return Err(NIL_ELEMENT.to_string()),
            Value::Map(_) => {}
            other => {
                // Nested arrays are checked for null elements too.
                kind(other)?;
                all_tables = false;
            }
        }
    }
    Ok(all_tables)
}

/// The members of a map by key (a repeated key keeps its last value); keys must be strings.
fn members(m: &crate::yaml::Map) -> Result<BTreeMap<&str, &Value>, String> {
    let mut out = BTreeMap::new();
    for item in &m.items {
        let key = item.key.as_str().ok_or("Expected key to be string")?;
        out.insert(key, &item.value);
    }
    Ok(out)
}

fn is_bare(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A basic string with TOML escapes.
pub fn quote(s: &str) -> String {
    quote_escaped(s, |c| format!("\\u{:04x}", c as u32))
}

fn key_piece(k: &str) -> String {
    if is_bare(k) {
        k.to_string()
    } else {
        quote(k)
    }
}

fn float_text(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let s = format!("{f}");
    if s.contains('.') {
        s
    } else {
        s + ".0"
    }
}

struct Encoder {
    out: String,
    indent: String,
    written: bool,
}

impl Encoder {
    fn write(&mut self, s: &str) {
        self.out.push_str(s);
        self.written = true;
    }

    fn newline(&mut self) {
        if self.written {
            self.write("\n");
        }
    }

    fn indent_for(&self, key: &[&str]) -> String {
        self.indent.repeat(key.len().saturating_sub(1))
    }

    fn header(key: &[&str]) -> String {
        key.iter()
            .map(|k| key_piece(k))
            .collect::<Vec<_>>()
            .join(".")
    }

    fn encode(&mut self, key: &[&str], v: &Value) -> Result<(), String> {
        match v {
            Value::Null => Ok(()),
            Value::Map(m) => {
                if key.len() == 1 {
                    self.newline();
                }
                if !key.is_empty() {
                    let line = format!("{}[{}]", self.indent_for(key), Self::header(key));
                    self.write(&line);
                    self.newline();
                }
                self.map_body(key, m, false)
            }
            Value::Array(a) if is_table_array(a)? => {
                if key.is_empty() {
                    return Err(NO_KEY.to_string());
                }
                for item in &a.items {
                    let Value::Map(m) = &item.value else { continue };
                    self.newline();
                    let line = format!("{}[[{}]]", self.indent_for(key), Self::header(key));
                    self.write(&line);
                    self.newline();
                    self.map_body(key, m, false)?;
                }
                Ok(())
            }
            _ => self.key_value(key, v, false),
        }
    }

    fn key_value(&mut self, key: &[&str], v: &Value, inline: bool) -> Result<(), String> {
        let Some(last) = key.last() else {
            return Err(NO_KEY.to_string());
        };
        let prefix = format!("{}{} = ", self.indent_for(key), key_piece(last));
        self.write(&prefix);
        self.element(v)?;
        if !inline {
            self.newline();
        }
        Ok(())
    }

    fn element(&mut self, v: &Value) -> Result<(), String> {
        match v {
            Value::Null => return Err(NIL_ELEMENT.to_string()),
            Value::Bool(b) => self.write(if *b { "true" } else { "false" }),
            Value::Int(i) => self.write(&i.to_string()),
            Value::Uint(u) => self.write(&u.to_string()),
            Value::Float(f) => self.write(&float_text(*f)),
            Value::String(s) => self.write(&quote(s)),
            Value::Array(a) => {
                self.write("[");
                for (i, item) in a.items.iter().enumerate() {
                    self.element(&item.value)?;
                    if i + 1 != a.items.len() {
                        self.write(", ");
                    }
                }
                self.write("]");
            }
            Value::Map(m) => self.map_body(&[], m, true)?,
        }
        Ok(())
    }

    fn map_body(&mut self, key: &[&str], m: &crate::yaml::Map, inline: bool) -> Result<(), String> {
        let all = members(m)?;
        let mut direct = Vec::new();
        let mut sub = Vec::new();
        for (k, v) in &all {
            match kind(v)? {
                Kind::Plain => direct.push((*k, *v)),
                Kind::Table | Kind::TableArray => sub.push((*k, *v)),
            }
        }
        if inline {
            self.write("{");
        }
        let trailing_comma = !sub.is_empty();
        self.members(key, &direct, inline, trailing_comma)?;
        self.members(key, &sub, inline, false)?;
        if inline {
            self.write("}");
        }
        Ok(())
    }

    fn members(
        &mut self,
        key: &[&str],
        items: &[(&str, &Value)],
        inline: bool,
        trailing_comma: bool,
    ) -> Result<(), String> {
        for (i, (k, v)) in items.iter().enumerate() {
            if matches!(v, Value::Null) {
                continue;
            }
            if inline {
                self.key_value(&[k], v, true)?;
                if trailing_comma || i + 1 != items.len() {
                    self.write(", ");
                }
            } else {
                let mut path = key.to_vec();
                path.push(k);
                self.encode(&path, v)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        crate::stdlib::json_decode::decode(s).unwrap_or(Value::Null)
    }

    #[test]
    fn tables_come_after_plain_keys() {
        let v = j(r#"{"inside_map": {"fragment": ["piece1", "piece2"]},
                     "inside_array": [{"fragment": ["piece1", "piece2"]}], "a": 1.0}"#);
        assert_eq!(
            encode(&v, "  ").unwrap_or_default(),
            "a = 1.0\n\n[[inside_array]]\n  fragment = [\"piece1\", \"piece2\"]\n\n[inside_map]\n  fragment = [\"piece1\", \"piece2\"]\n"
        );
    }

    #[test]
    fn quotes_control_characters_as_toml_does() {
        assert_eq!(
            quote("\u{7}\u{b}\u{8}\u{1}\u{7f}\t\"\\"),
            "\"\\u0007\\u000b\\b\\u0001\\u007f\\t\\\"\\\\\""
        );
    }

    #[test]
    fn inline_tables_nulls_and_errors() {
        let v = j(r#"{"a": [1, {"b": "x y", "c": null}], "n": null, "q k": "\u0001"}"#);
        assert_eq!(
            encode(&v, "  ").unwrap_or_default(),
            "a = [1.0, {b = \"x y\", }]\n\"q k\" = \"\\u0001\"\n"
        );
        assert_eq!(encode(&j("[1]"), "  "), Err(NO_KEY.to_string()));
        assert_eq!(
            encode(&j(r#"{"a": [null]}"#), "  "),
            Err(NIL_ELEMENT.to_string())
        );
        assert_eq!(encode(&j("{}"), "  "), Ok(String::new()));
    }
}
