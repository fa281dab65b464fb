//! A small JSON reader that keeps byte offsets, for pointing inside an annotation's JSON.
//!
//! Syntax errors carry the messages of Go's `encoding/json` (the validator's parser), so the
//! linter says what the validator would answer: "invalid character 'j' after object key".

/// A JSON value with the byte range it covers in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Json {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<Member>),
}

/// One `"key": value` of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_start: usize,
    pub value: Json,
}

impl Json {
    /// Go's name for the JSON type, as in "cannot unmarshal string into ...".
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "bool",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }
}

/// A syntax error at a byte offset.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

const MAX_DEPTH: usize = 1000;

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    depth: usize,
}

/// Parses one JSON value filling the whole text (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, SyntaxError> {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    r.skip_ws();
    let value = r.value("looking for beginning of value")?;
    r.skip_ws();
    if r.pos < r.b.len() {
        return Err(r.bad("after top-level value"));
    }
    Ok(value)
}

/// Go's `quoteChar`: how a byte is shown in a syntax error.
fn quote_byte(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => {
            let ch = char::from(c);
            let shown = match ch {
                '\n' => "\\n".to_string(),
                '\r' => "\\r".to_string(),
                '\t' => "\\t".to_string(),
                c if c.is_control() => format!("\\x{:02x}", c as u32),
                c => c.to_string(),
            };
            format!("'{shown}'")
        }
    }
}

impl<'a> Reader<'a> {
    fn skip_ws(&mut self) {
        while self.pos < self.b.len() && matches!(self.b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn bad(&self, context: &str) -> SyntaxError {
        match self.b.get(self.pos) {
            Some(&c) => SyntaxError {
                offset: self.pos,
                message: format!("invalid character {} {}", quote_byte(c), context),
            },
            None => self.eof(),
        }
    }

    fn eof(&self) -> SyntaxError {
        SyntaxError {
            offset: self.b.len(),
            message: "unexpected end of JSON input".to_string(),
        }
    }

    fn value(&mut self, context: &str) -> Result<Json, SyntaxError> {
        let start = self.pos;
        let kind = match self.b.get(self.pos) {
            None => return Err(self.eof()),
            Some(b'{') => self.nested(Self::object)?,
            Some(b'[') => self.nested(Self::array)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b't') => self.literal("true", Kind::Bool(true))?,
            Some(b'f') => self.literal("false", Kind::Bool(false))?,
            Some(b'n') => self.literal("null", Kind::Null)?,
            Some(c) if *c == b'-' || c.is_ascii_digit() => Kind::Number(self.number()?),
            Some(_) => return Err(self.bad(context)),
        };
        Ok(Json {
            kind,
            start,
            end: self.pos,
        })
    }

    fn nested(
        &mut self,
        f: fn(&mut Self) -> Result<Kind, SyntaxError>,
    ) -> Result<Kind, SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SyntaxError {
                offset: self.pos,
                message: "exceeded max depth".to_string(),
            });
        }
        let out = f(self);
        self.depth -= 1;
        out
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<Kind, SyntaxError> {
        for (i, want) in word.bytes().enumerate() {
            match self.b.get(self.pos) {
                Some(&c) if c == want => self.pos += 1,
                Some(_) => {
                    let ctx = format!("in literal {} (expecting {})", word, quote_byte(want));
                    return Err(if i == 0 {
                        self.bad("looking for beginning of value")
                    } else {
                        self.bad(&ctx)
                    });
                }
                None => return Err(self.eof()),
            }
        }
        Ok(kind)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<String, SyntaxError> {
        let start = self.pos;
        if self.b[self.pos] == b'-' {
            self.pos += 1;
        }
        match self.b.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(c) if c.is_ascii_digit() => {
                self.digits();
            }
            Some(_) => return Err(self.bad("in numeric literal")),
            None => return Err(self.eof()),
        }
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.bad("after decimal point in numeric literal"));
            }
        }
        if matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.b.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.bad("in exponent of numeric literal"));
            }
        }
        Ok(self.text[start..self.pos].to_string())
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut v = 0u32;
        for _ in 0..4 {
            match self.b.get(self.pos) {
                Some(c) if c.is_ascii_hexdigit() => {
                    v = v * 16 + char::from(*c).to_digit(16).unwrap_or(0);
                    self.pos += 1;
                }
                Some(_) => return Err(self.bad("in \\u hexadecimal character escape")),
                None => return Err(self.eof()),
            }
        }
        Ok(v)
    }

    /// A string starting at the opening quote; returns the decoded text.
    fn string(&mut self) -> Result<String, SyntaxError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.pos;
            while self.pos < self.b.len() && !matches!(self.b[self.pos], b'"' | b'\\' | 0..=0x1f) {
                self.pos += 1;
            }
            out.push_str(&self.text[run..self.pos]);
            match self.b.get(self.pos) {
                None => return Err(self.eof()),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.bad("in string literal")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), SyntaxError> {
        let c = match self.b.get(self.pos) {
            None => return Err(self.eof()),
            Some(c) => *c,
        };
        let simple = match crate::stdlib::json_decode::simple_escape(c) {
            Some(simple) => simple,
            None => return Err(self.bad("in string escape code")),
        };
        self.pos += 1;
        if let Some(ch) = simple {
            out.push(ch);
            return Ok(());
        }
        let first = self.hex4()?;
        let code = if (0xd800..0xdc00).contains(&first) && self.text[self.pos..].starts_with("\\u")
        {
            let save = self.pos;
            self.pos += 2;
            let second = self.hex4()?;
            if (0xdc00..0xe000).contains(&second) {
                0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)
            } else {
                self.pos = save;
                0xfffd
            }
        } else {
            first
        };
        out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
        Ok(())
    }

    fn array(&mut self) -> Result<Kind, SyntaxError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.b.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Kind::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value("looking for beginning of value")?);
            self.skip_ws();
            match self.b.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Kind::Array(items));
                }
                _ => return Err(self.bad("after array element")),
            }
        }
    }

    fn object(&mut self) -> Result<Kind, SyntaxError> {
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.b.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.skip_ws();
            if self.b.get(self.pos) != Some(&b'"') {
                return Err(self.bad("looking for beginning of object key string"));
            }
            let key_start = self.pos;
            let key = self.string()?;
            self.skip_ws();
            if self.b.get(self.pos) != Some(&b':') {
                return Err(self.bad("after object key"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value("looking for beginning of value")?;
            members.push(Member {
                key,
                key_start,
                value,
            });
            self.skip_ws();
            match self.b.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.bad("after object key:value pair")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (usize, String) {
        let e = parse(text).unwrap_err();
        (e.offset, e.message)
    }

    #[test]
    fn parses_values_with_offsets() {
        let j = parse(" [ {\"a\": 1, \"b\": \"x\\u00e9\"}, true, null ] ").unwrap();
        let Kind::Array(items) = &j.kind else {
            panic!("not an array")
        };
        assert_eq!(j.start, 1);
        let Kind::Object(members) = &items[0].kind else {
            panic!("not an object")
        };
        assert_eq!(members[0].key, "a");
        assert_eq!(members[0].key_start, 4);
        assert_eq!(members[0].value.kind, Kind::Number("1".into()));
        assert_eq!(members[1].value.kind, Kind::String("xé".into()));
        assert_eq!(items[1].kind, Kind::Bool(true));
        assert_eq!(items[2].kind, Kind::Null);
    }

    #[test]
    fn go_messages_for_the_spec_mistakes() {
        // a typographic quote ends nowhere, the next `"` closes the key
        let text = "{\"path\u{201d}: \"jsonpath::x\"}";
        let (at, msg) = err(text);
        assert_eq!(msg, "invalid character 'j' after object key");
        assert_eq!(&text[at..at + 1], "j");
        let (_, msg) = err("{\"message\": \"m\"\n \"min\": 1}");
        assert_eq!(msg, "invalid character '\"' after object key:value pair");
        assert_eq!(err("[1 2]").1, "invalid character '2' after array element");
        assert_eq!(err("[").1, "unexpected end of JSON input");
        assert_eq!(err("").1, "unexpected end of JSON input");
        assert_eq!(
            err("[tru]").1,
            "invalid character ']' in literal true (expecting 'e')"
        );
        assert_eq!(
            err("{a}").1,
            "invalid character 'a' looking for beginning of object key string"
        );
        assert_eq!(err("[] x").1, "invalid character 'x' after top-level value");
        assert_eq!(err("[-x]").1, "invalid character 'x' in numeric literal");
        assert_eq!(
            err("[\"\\q\"]").1,
            "invalid character 'q' in string escape code"
        );
    }
}
