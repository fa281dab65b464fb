//! `str.format` as starlark-go has it: `{}`, `{0}` and `{name}` fields with the `!s` and `!r`
//! conversions and no format spec, values written as starlark-go writes them (floats with six
//! significant digits, also inside lists), and starlark-go's error messages.
//! `stdlib::gostr` calls it for `"...".format(...)`.

use starlark::values::Value;

use super::args::plain_err;
use super::gobuiltins::go_repr;

/// `format.format(*pos, **named)`.
pub fn format<'v>(
    mut format: &str,
    pos: &[Value<'v>],
    named: &[(&str, Value<'v>)],
) -> starlark::Result<String> {
    let (mut auto, mut manual) = (false, false);
    let mut index = 0;
    let mut out = String::with_capacity(format.len());
    loop {
        let brace = format.find('{');
        let mut literal = &format[..brace.unwrap_or(format.len())];
        // `}}` is a literal `}`; a lone `}` is an error.
        while let Some(j) = literal.find('}') {
            if literal.as_bytes().get(j + 1) != Some(&b'}') {
                return Err(plain_err("format: single '}' in format"));
            }
            out.push_str(&literal[..=j]);
            literal = &literal[j + 2..];
        }
        out.push_str(literal);
        let Some(i) = brace else {
            break;
        };
        if format.as_bytes().get(i + 1) == Some(&b'{') {
            out.push('{');
            format = &format[i + 2..];
            continue;
        }
        format = &format[i + 1..];
        let Some(close) = format.find('}') else {
            return Err(plain_err("format: unmatched '{' in format"));
        };
        let field = &format[..close];
        format = &format[close + 1..];
        let (name, conv, spec) = match field.split_once('!') {
            None => match field.split_once(':') {
                None => (field, "s", ""),
                Some((n, s)) => (n, "s", s),
            },
            Some((n, rest)) => match rest.split_once(':') {
                None => (n, rest, ""),
                Some((c, s)) => (n, c, s),
            },
        };
        let arg = if name.is_empty() {
            if manual {
                return Err(plain_err(
                    "format: cannot switch from manual field specification to automatic field numbering",
                ));
            }
            auto = true;
            index += 1;
            *pos.get(index - 1)
                .ok_or_else(|| plain_err("format: tuple index out of range"))?
        } else if let Some(num) = decimal(name) {
            if auto {
                return Err(plain_err(
                    "format: cannot switch from automatic field numbering to manual field specification",
                ));
            }
            manual = true;
            *pos.get(num)
                .ok_or_else(|| plain_err("format: tuple index out of range"))?
        } else {
            match named.iter().find(|(k, _)| *k == name) {
                Some((_, v)) => *v,
                None => return Err(plain_err(missing_keyword(name))),
            }
        };
        if !spec.is_empty() {
            return Err(plain_err(format!(
                "format spec features not supported in replacement fields: {spec}"
            )));
        }
        match conv {
            "s" => match arg.unpack_str() {
                Some(s) => out.push_str(s),
                None => out.push_str(&go_repr(arg)),
            },
            "r" => out.push_str(&go_repr(arg)),
            _ => {
                return Err(plain_err(format!(
                    "format: unknown conversion {}",
                    go_quote(conv)
                )))
            }
        }
    }
    Ok(out)
}

/// The message for a field naming a keyword that was not given.
fn missing_keyword(name: &str) -> String {
    if name.contains('.') {
        format!("format: attribute syntax x.y is not supported in replacement fields: {name}")
    } else if name.contains('[') {
        format!("format: element syntax a[i] is not supported in replacement fields: {name}")
    } else if name.contains('{') {
        "format: nested replacement fields not supported".to_string()
    } else {
        format!("format: keyword {name} not found")
    }
}

/// starlark-go's `decimal`: a field name of decimal digits only (the empty name included, but
/// that is taken as automatic numbering before), within Go's int.
fn decimal(s: &str) -> Option<usize> {
    let mut x: i64 = 0;
    for b in s.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        x = x.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    usize::try_from(x).ok()
}

/// Go's `%q` of a string of printable characters (the conversion name in an error).
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_braces_and_errors() {
        assert_eq!(format("{{}} }}", &[], &[]).unwrap(), "{} }");
        let err = |f: &str| format(f, &[], &[]).unwrap_err().to_string();
        assert!(err("a } b").contains("single '}'"));
        assert!(err("a { b").contains("unmatched '{'"));
        assert!(err("{}").contains("tuple index out of range"));
        assert!(err("{a.b}").contains("attribute syntax"));
        assert!(err("{x}").contains("keyword x not found"));
    }

    #[test]
    fn field_numbers_are_decimal() {
        assert_eq!(decimal("0"), Some(0));
        assert_eq!(decimal("12"), Some(12));
        assert_eq!(decimal("1a"), None);
        assert_eq!(decimal("99999999999999999999"), None);
    }
}
