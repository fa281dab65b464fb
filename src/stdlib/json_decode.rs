//! JSON text to plain values as ytt's `json.decode` reads it with Go's `encoding/json`: the
//! same inputs are accepted and rejected, with Go's messages (`invalid character '}' looking
//! for beginning of value`, `unexpected end of JSON input`); numbers become floats, objects
//! become maps with their keys sorted (a repeated key keeps its last value).
//!
//! The reader keeps its own stack instead of recursing, so deep nesting cannot overflow.

use std::collections::BTreeMap;

use crate::pos::Pos;
use crate::yaml::{Array, ArrayItem, Map, MapItem, Value};

/// Go's limit on nesting.
const MAX_DEPTH: usize = 10_000;

const EOF: &str = "unexpected end of JSON input";

/// Reads one JSON value (and nothing else but whitespace).
pub fn decode(text: &str) -> Result<Value, String> {
    let mut r = Reader {
        s: text,
        b: text.as_bytes(),
        i: 0,
        range_error: None,
    };
    let v = r.document()?;
    match r.range_error {
        Some(e) => Err(e),
        None => Ok(v),
    }
}

enum Frame {
    Array(Vec<Value>),
    /// The members so far and the key whose value is being read.
    Object(BTreeMap<String, Value>, String),
}

/// What follows a complete value.
enum Attached {
    /// It was the whole document.
    Done(Value),
    /// A separator: the next element or member value comes.
    NextValue,
    /// It completed its container, which is now the complete value.
    Closed(Value),
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    /// The first number Go could not store (reported after the syntax check passes).
    range_error: Option<String>,
}

/// Go's `quoteChar` of the byte a syntax error stops at.
fn quote_byte(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        b'\n' => "'\\n'".to_string(),
        b'\t' => "'\\t'".to_string(),
        b'\r' => "'\\r'".to_string(),
        7 => "'\\a'".to_string(),
        8 => "'\\b'".to_string(),
        0x0c => "'\\f'".to_string(),
        0x0b => "'\\v'".to_string(),
        c if c < 0x20 || c == 0x7f => format!("'\\x{c:02x}'"),
        c if (0x80..=0xa0).contains(&c) || c == 0xad => format!("'\\u{:04x}'", c),
        c => format!("'{}'", char::from(c)),
    }
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// A syntax error at the current byte (or the end of input).
    fn fail(&self, context: &str) -> String {
        match self.peek() {
            Some(c) => format!("invalid character {} {context}", quote_byte(c)),
            None => EOF.to_string(),
        }
    }

    fn expect(&mut self, c: u8, context: &str) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.fail(context))
        }
    }

    fn document(&mut self) -> Result<Value, String> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            self.skip_ws();
            let Some(mut v) = self.begin(&mut stack)? else {
                continue;
            };
            loop {
                match self.attach(&mut stack, v)? {
                    Attached::Done(whole) => return Ok(whole),
                    Attached::NextValue => break,
                    Attached::Closed(container) => v = container,
                }
            }
        }
    }

    /// Starts a value: a scalar or an empty container is complete; otherwise a frame is opened
    /// (with the first key read, for an object) and its first value comes next.
    fn begin(&mut self, stack: &mut Vec<Frame>) -> Result<Option<Value>, String> {
        let (open, close) = match self.peek() {
            Some(b'{') => (b'{', b'}'),
            Some(b'[') => (b'[', b']'),
            _ => return self.scalar().map(Some),
        };
        self.push(stack)?;
        self.i += 1;
        self.skip_ws();
        if self.peek() == Some(close) {
            self.i += 1;
            return Ok(Some(if open == b'{' {
                Value::Map(Box::default())
            } else {
                Value::Array(Box::default())
            }));
        }
        if open == b'{' {
            let key = self.key("looking for beginning of object key string")?;
            stack.push(Frame::Object(BTreeMap::new(), key));
        } else {
            stack.push(Frame::Array(Vec::new()));
        }
        Ok(None)
    }

    /// Hands a complete value to the enclosing array or object, and reads what follows it.
    fn attach(&mut self, stack: &mut Vec<Frame>, v: Value) -> Result<Attached, String> {
        self.skip_ws();
        let (sep, close, context) = match stack.last_mut() {
            None => {
                if self.peek().is_some() {
                    return Err(self.fail("after top-level value"));
                }
                return Ok(Attached::Done(v));
            }
            Some(Frame::Array(items)) => {
                items.push(v);
                (b',', b']', "after array element")
            }
            Some(Frame::Object(members, key)) => {
                members.insert(std::mem::take(key), v);
                (b',', b'}', "after object key:value pair")
            }
        };
        match self.peek() {
            Some(c) if c == sep => {
                self.i += 1;
                if let Some(Frame::Object(_, key)) = stack.last_mut() {
                    self.skip_ws();
                    *key = self.key("looking for beginning of object key string")?;
                }
                Ok(Attached::NextValue)
            }
            Some(c) if c == close => {
                self.i += 1;
                Ok(Attached::Closed(match stack.pop() {
                    Some(Frame::Array(items)) => array(items),
                    Some(Frame::Object(members, _)) => object(members),
                    None => return Err(EOF.to_string()),
                }))
            }
            _ => Err(self.fail(context)),
        }
    }

    fn push(&self, stack: &mut [Frame]) -> Result<(), String> {
        if stack.len() >= MAX_DEPTH {
            return Err(self.fail("exceeded max depth"));
        }
        Ok(())
    }

    /// An object key and its colon.
    fn key(&mut self, context: &str) -> Result<String, String> {
        if self.peek() != Some(b'"') {
            return Err(self.fail(context));
        }
        let k = self.string()?;
        self.skip_ws();
        self.expect(b':', "after object key")?;
        Ok(k)
    }

    fn scalar(&mut self) -> Result<Value, String> {
        match self.peek() {
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.fail("looking for beginning of value")),
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, String> {
        for want in word.bytes() {
            if self.peek() != Some(want) {
                return Err(self.fail(&format!(
                    "in literal {word} (expecting {})",
                    quote_byte(want)
                )));
            }
            self.i += 1;
        }
        Ok(v)
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.fail("in numeric literal")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.fail("after decimal point in numeric literal"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.fail("in exponent of numeric literal"));
            }
            self.digits();
        }
        let text = self.s.get(start..self.i).unwrap_or("");
        let f: f64 = text.parse().unwrap_or(f64::INFINITY);
        if f.is_infinite() && self.range_error.is_none() {
            self.range_error = Some(format!(
                "json: cannot unmarshal number {text} into Go value of type float64"
            ));
        }
        Ok(Value::Float(f))
    }

    /// A string literal (the reader is at its opening quote).
    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = String::new();
        let mut run = self.i;
        loop {
            let Some(c) = self.peek() else {
                return Err(EOF.to_string());
            };
            match c {
                b'"' => {
                    out.push_str(self.s.get(run..self.i).unwrap_or(""));
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(self.s.get(run..self.i).unwrap_or(""));
                    self.i += 1;
                    self.escape(&mut out)?;
                    run = self.i;
                }
                c if c < 0x20 => return Err(self.fail("in string literal")),
                _ => self.i += 1,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), String> {
        let c = self.peek().ok_or_else(|| EOF.to_string())?;
        let simple = match simple_escape(c) {
            Some(simple) => simple,
            None => return Err(self.fail("in string escape code")),
        };
        self.i += 1;
        if let Some(ch) = simple {
            out.push(ch);
            return Ok(());
        }
        let unit = self.hex4()?;
        let ch =
            if (0xd800..0xdc00).contains(&unit) && self.b.get(self.i..self.i + 2) == Some(b"\\u") {
                let save = self.i;
                self.i += 2;
                let low = self.hex4()?;
                if (0xdc00..0xe000).contains(&low) {
                    char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))
                } else {
                    // Not a pair: the lone surrogate is replaced, the next escape read on its own.
                    self.i = save;
                    None
                }
            } else {
                char::from_u32(unit)
            };
        out.push(ch.unwrap_or('\u{fffd}'));
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut n = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.fail("in \\u hexadecimal character escape")),
            };
            n = n * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(n)
    }
}

fn array(items: Vec<Value>) -> Value {
    Value::Array(Box::new(Array {
        items: items
            .into_iter()
            .map(|v| ArrayItem::new(v, Pos::unknown()))
            .collect(),
        ..Array::default()
    }))
}

fn object(members: BTreeMap<String, Value>) -> Value {
    Value::Map(Box::new(Map {
        items: members
            .into_iter()
            .map(|(k, v)| MapItem::new(Value::String(k), v, Pos::unknown()))
            .collect(),
        ..Map::default()
    }))
}

/// The character a JSON escape `\c` stands for: `Some(Some(ch))` for the one-letter escapes,
/// `Some(None)` for `\u` (four hex digits follow), `None` when `c` starts no escape.
pub fn simple_escape(c: u8) -> Option<Option<char>> {
    Some(match c {
        b'"' => Some('"'),
        b'\\' => Some('\\'),
        b'/' => Some('/'),
        b'b' => Some('\u{8}'),
        b'f' => Some('\u{c}'),
        b'n' => Some('\n'),
        b'r' => Some('\r'),
        b't' => Some('\t'),
        b'u' => None,
        _ => return None,
    })
}

#[cfg(test)]
#[path = "json_decode_tests.rs"]
mod tests;
