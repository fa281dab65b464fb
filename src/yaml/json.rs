//! JSON output as ytt produces it with Go's `encoding/json`: `ytt -o json` (each document
//! marshalled compactly, documents concatenated with nothing in between and no final newline)
//! and `json.encode()` of the `@ytt:json` module (optional indentation, optional HTML escaping).
//!
//! ytt hands `encoding/json` plain Go maps, so object keys come out sorted by their bytes, not
//! in document order, and every key must be a string.

use std::collections::BTreeMap;
use std::fmt;

use super::emit::printed_documents;
use super::go_float::{format_float_json, go_special_float_name};
use super::node::{DocSet, Value};

/// Why a value cannot be written as JSON.
#[derive(Clone, Debug, PartialEq)]
pub enum JsonError {
    /// A map key that is not a string (ytt panics with this message).
    NonStringKey,
    /// NaN or an infinity, named as Go names it (`NaN`, `+Inf`, `-Inf`).
    UnsupportedFloat(&'static str),
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::NonStringKey => f.write_str("Expected key to be string"),
            JsonError::UnsupportedFloat(name) => write!(f, "json: unsupported value: {name}"),
        }
    }
}

impl std::error::Error for JsonError {}

/// The whole standard output of `ytt -o json`: the printed documents (the same ones as for
/// YAML output) as compact JSON, HTML characters escaped, concatenated.
pub fn docset_to_json(ds: &DocSet) -> Result<String, JsonError> {
    let mut out = String::new();
    for doc in printed_documents(&ds.items) {
        out.push_str(&value_to_json(&doc.value, 0, true)?);
    }
    Ok(out)
}

/// `json.encode(value, indent=indent, escape_html=escape_html)`: compact when `indent` is 0,
/// otherwise one member per line indented by `indent` spaces per level; no final newline.
/// `escape_html` writes `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026` (ytt's default).
pub fn value_to_json(v: &Value, indent: usize, escape_html: bool) -> Result<String, JsonError> {
    let mut w = JsonWriter {
        out: String::new(),
        indent: " ".repeat(indent),
        escape_html,
    };
    w.value(v, 0)?;
    Ok(w.out)
}

struct JsonWriter {
    out: String,
    /// One level of indentation; empty for compact output.
    indent: String,
    escape_html: bool,
}

impl JsonWriter {
    fn newline(&mut self, depth: usize) {
        if self.indent.is_empty() {
            return;
        }
        self.out.push('\n');
        for _ in 0..depth {
            self.out.push_str(&self.indent);
        }
    }

    fn value(&mut self, v: &Value, depth: usize) -> Result<(), JsonError> {
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => self.out.push_str(&i.to_string()),
            Value::Uint(u) => self.out.push_str(&u.to_string()),
            Value::Float(f) => match format_float_json(*f) {
                Some(text) => self.out.push_str(&text),
                None => return Err(JsonError::UnsupportedFloat(go_special_float_name(*f))),
            },
            Value::String(s) => self.string(s),
            Value::Array(a) => {
                self.out.push('[');
                for (n, item) in a.items.iter().enumerate() {
                    if n > 0 {
                        self.out.push(',');
                    }
                    self.newline(depth + 1);
                    self.value(&item.value, depth + 1)?;
                }
                if !a.items.is_empty() {
                    self.newline(depth);
                }
                self.out.push(']');
            }
            Value::Map(m) => {
                // A Go map: keys sorted bytewise, a repeated key keeps its last value.
                let mut members: BTreeMap<&str, &Value> = BTreeMap::new();
                for item in &m.items {
                    let key = item.key.as_str().ok_or(JsonError::NonStringKey)?;
                    members.insert(key, &item.value);
                }
                self.out.push('{');
                for (n, (key, val)) in members.iter().enumerate() {
                    if n > 0 {
                        self.out.push(',');
                    }
                    self.newline(depth + 1);
                    self.string(key);
                    self.out.push(':');
                    if !self.indent.is_empty() {
                        self.out.push(' ');
                    }
                    self.value(val, depth + 1)?;
                }
                if !members.is_empty() {
                    self.newline(depth);
                }
                self.out.push('}');
            }
        }
        Ok(())
    }

    /// A JSON string as Go (1.21) writes it: `\"`, `\\`, `\n`, `\r`, `\t`, other control
    /// characters as `\u00XX`, U+2028/U+2029 always escaped, HTML characters when asked.
    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '<' | '>' | '&' if self.escape_html => {
                    self.out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                '\u{2028}' | '\u{2029}' => {
                    self.out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c if u32::from(c) < 0x20 => {
                    self.out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

#[cfg(test)]
mod tests {
    use super::{docset_to_json, value_to_json, JsonError};
    use crate::yaml::emit_testutil::{arr, b, docset, f, i, kmap, map, s};
    use crate::yaml::node::Value;

    fn sample() -> Value {
        map(vec![
            ("b", s("str")),
            ("a", arr(vec![i(1), i(2), i(3), map(vec![("c", i(456))])])),
        ])
    }

    #[test]
    fn compact_with_sorted_keys() {
        // From filetests-yamltemplate/ytt-library__json.
        let want = r#"{"a":[1,2,3,{"c":456}],"b":"str"}"#;
        assert_eq!(value_to_json(&sample(), 0, true).as_deref(), Ok(want));
        assert_eq!(value_to_json(&map(vec![]), 0, true).as_deref(), Ok("{}"));
        let frag = map(vec![(
            "fragment",
            arr(vec![
                s("piece1"),
                map(vec![("piece2", b(true)), ("piece1", b(false))]),
            ]),
        )]);
        let want = r#"{"fragment":["piece1",{"piece1":false,"piece2":true}]}"#;
        assert_eq!(value_to_json(&frag, 0, true).as_deref(), Ok(want));
    }

    #[test]
    fn indented() {
        // From filetests-yamltemplate/ytt-library__json (indent=4).
        let want = "{\n    \"a\": [\n        1,\n        2,\n        3,\n        {\n            \"c\": 456\n        }\n    ],\n    \"b\": \"str\"\n}";
        assert_eq!(value_to_json(&sample(), 4, true).as_deref(), Ok(want));
        let v = map(vec![("e", map(vec![])), ("l", arr(vec![]))]);
        let want = "{\n  \"e\": {},\n  \"l\": []\n}";
        assert_eq!(value_to_json(&v, 2, true).as_deref(), Ok(want));
    }

    #[test]
    fn escaping() {
        let v = map(vec![("a", s("<123>"))]);
        let want = r#"{"a":"\u003c123\u003e"}"#;
        assert_eq!(value_to_json(&v, 0, true).as_deref(), Ok(want));
        assert_eq!(
            value_to_json(&v, 0, false).as_deref(),
            Ok(r#"{"a":"<123>"}"#)
        );
        let v = s("q\"\\\n\r\t\u{8}\u{c}\u{1}\u{7f}&\u{2028}é😀");
        let want =
            r#""q\"\\\n\r\t\u0008\u000c\u0001\u007f\u0026\u2028é😀""#.replace("\\u007f", "\u{7f}");
        assert_eq!(value_to_json(&v, 0, true), Ok(want));
    }

    #[test]
    fn scalars_and_errors() {
        assert_eq!(value_to_json(&Value::Null, 0, true).as_deref(), Ok("null"));
        assert_eq!(value_to_json(&f(3.0), 0, true).as_deref(), Ok("3"));
        assert_eq!(value_to_json(&f(1e21), 0, true).as_deref(), Ok("1e+21"));
        assert_eq!(value_to_json(&f(0.1), 0, true).as_deref(), Ok("0.1"));
        assert_eq!(value_to_json(&b(true), 0, true).as_deref(), Ok("true"));
        let nan = value_to_json(&f(f64::NAN), 0, true);
        assert_eq!(nan, Err(JsonError::UnsupportedFloat("NaN")));
        let msg = value_to_json(&f(f64::NEG_INFINITY), 0, true).map_err(|e| e.to_string());
        assert_eq!(msg, Err("json: unsupported value: -Inf".to_string()));
        let bad = kmap(vec![(i(1), i(2))]);
        assert_eq!(value_to_json(&bad, 0, true), Err(JsonError::NonStringKey));
        let dup = kmap(vec![(s("a"), i(1)), (s("a"), i(2))]);
        assert_eq!(value_to_json(&dup, 0, true).as_deref(), Ok(r#"{"a":2}"#));
    }

    #[test]
    fn docset_output() {
        // From examples/json-output: documents are concatenated without separators.
        let doc = || {
            map(vec![
                ("kind", s("ClusterRole")),
                ("apiVersion", s("rbac/v1")),
            ])
        };
        let ds = docset(vec![doc(), Value::Null, map(vec![]), doc()]);
        let one = r#"{"apiVersion":"rbac/v1","kind":"ClusterRole"}"#;
        assert_eq!(docset_to_json(&ds), Ok(format!("{one}{one}")));
        assert_eq!(docset_to_json(&docset(vec![])).as_deref(), Ok(""));
    }
}
