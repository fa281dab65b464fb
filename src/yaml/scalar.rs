//! Resolution of YAML scalars into values the way ytt's go-yaml v2 fork does it: YAML 1.1
//! plain scalars (`yes`/`on`/`~`, octal with a leading zero, `0x`/`0o`/`0b` integers, `_`
//! separators, `.inf`/`.nan`), explicit `!!` tags with go-yaml's error texts, and ytt's
//! `--strict` mode, which rejects plain scalars whose YAML 1.1 reading is ambiguous.
//!
//! Integers that fit in an `u64` but not in an `i64` are go-yaml `uint64`s; the node tree has no
//! such type, so they become `Value::Float` (the nearest representable value).

use crate::yaml::node::Value;

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// What a scalar resolves to before it is turned into a `Value`; the tag name is go-yaml's.
#[derive(Clone, Debug, PartialEq)]
enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str,
    Timestamp,
    Merge,
}

impl Resolved {
    fn tag(&self) -> &'static str {
        match self {
            Resolved::Null => "!!null",
            Resolved::Bool(_) => "!!bool",
            Resolved::Int(_) | Resolved::Uint(_) => "!!int",
            Resolved::Float(_) => "!!float",
            Resolved::Str => "!!str",
            Resolved::Timestamp => "!!timestamp",
            Resolved::Merge => "!!merge",
        }
    }
}

/// Short form of a tag as go-yaml prints it (`!!int` for `tag:yaml.org,2002:int`).
pub fn short_tag(tag: &str) -> String {
    match tag.strip_prefix(TAG_PREFIX) {
        Some(rest) => format!("!!{rest}"),
        None => tag.to_string(),
    }
}

/// Resolves one scalar. `tag` is the full tag of the node (if any), `plain_implicit` says the
/// scalar was plain and untagged (or carried the non-specific `!`). Errors are go-yaml's
/// messages, starting with `yaml: `.
pub fn resolve_scalar(
    tag: Option<&str>,
    value: &str,
    plain_implicit: bool,
    strict: bool,
) -> Result<Value, String> {
    let tag = tag.unwrap_or("");
    if tag.is_empty() && !plain_implicit {
        return Ok(Value::String(value.to_string()));
    }
    if tag == "tag:yaml.org,2002:binary" {
        return decode_binary(value);
    }
    let resolved = resolve_native(tag, value)?;
    let resolved = if strict && tag.is_empty() {
        check_strict(value, resolved)?
    } else {
        resolved
    };
    Ok(match resolved {
        Resolved::Null => Value::Null,
        Resolved::Bool(b) => Value::Bool(b),
        Resolved::Int(i) => Value::Int(i),
        Resolved::Uint(u) => Value::Float(u as f64),
        Resolved::Float(f) => Value::Float(f),
        Resolved::Str | Resolved::Timestamp | Resolved::Merge => Value::String(value.to_string()),
    })
}

fn decode_binary(value: &str) -> Result<Value, String> {
    use base64::Engine;
    let cleaned: String = value.chars().filter(|c| *c != '\n' && *c != '\r').collect();
    match base64::engine::general_purpose::STANDARD.decode(cleaned.as_bytes()) {
        Ok(bytes) => Ok(Value::String(String::from_utf8_lossy(&bytes).into_owned())),
        Err(_) => Err("yaml: !!binary value contains invalid base64 data".to_string()),
    }
}

/// go-yaml's `resolve`: the plain YAML 1.1 reading, checked against an explicit tag.
fn resolve_native(tag: &str, value: &str) -> Result<Resolved, String> {
    let short = short_tag(tag);
    let resolvable = matches!(
        short.as_str(),
        "" | "!!str" | "!!bool" | "!!int" | "!!float" | "!!null" | "!!timestamp"
    );
    if !resolvable {
        return Ok(Resolved::Str);
    }
    let found = if short == "!!str" {
        Resolved::Str
    } else {
        implicit_resolve(value, short.is_empty() || short == "!!timestamp")
    };
    if short.is_empty() || short == "!!str" || short == found.tag() {
        return Ok(found);
    }
    if short == "!!float" {
        if let Resolved::Int(i) = found {
            return Ok(Resolved::Float(i as f64));
        }
    }
    Err(format!(
        "yaml: cannot decode {} `{}` as a {}",
        found.tag(),
        value,
        short
    ))
}

fn implicit_resolve(value: &str, try_timestamp: bool) -> Resolved {
    if let Some(r) = lookup_word(value) {
        return r;
    }
    let first = value.as_bytes().first().copied().unwrap_or(b'N');
    match first {
        b'.' => match parse_go_float(value) {
            Some(f) => Resolved::Float(f),
            None => Resolved::Str,
        },
        b'0'..=b'9' | b'+' | b'-' => {
            if try_timestamp && is_timestamp(value) {
                return Resolved::Timestamp;
            }
            let plain: String = value.chars().filter(|c| *c != '_').collect();
            if let Some(i) = parse_go_int(&plain) {
                return Resolved::Int(i);
            }
            if let Some(u) = parse_go_uint(&plain) {
                return Resolved::Uint(u);
            }
            if is_yaml_float(&plain) {
                if let Some(f) = parse_go_float(&plain) {
                    return Resolved::Float(f);
                }
            }
            Resolved::Str
        }
        _ => Resolved::Str,
    }
}

fn lookup_word(value: &str) -> Option<Resolved> {
    Some(match value {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        "<<" => Resolved::Merge,
        _ => return None,
    })
}

/// Splits Go's base prefix (`0x`, `0o`, `0b`, or a bare leading `0` for octal) off digits.
fn split_base(s: &str) -> (u32, &str) {
    let b = s.as_bytes();
    if b.first() != Some(&b'0') {
        return (10, s);
    }
    if b.len() >= 3 {
        match b[1] {
            b'x' | b'X' => return (16, &s[2..]),
            b'o' | b'O' => return (8, &s[2..]),
            b'b' | b'B' => return (2, &s[2..]),
            _ => {}
        }
    }
    (8, &s[1..])
}

/// Go's `strconv.ParseUint(s, 0, 64)` (no sign accepted, no underscores left).
fn parse_go_uint(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (base, digits) = split_base(s);
    let mut acc: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(base)?;
        acc = acc.checked_mul(base as u64)?.checked_add(d as u64)?;
    }
    Some(acc)
}

/// Go's `strconv.ParseInt(s, 0, 64)`.
fn parse_go_int(s: &str) -> Option<i64> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mag = parse_go_uint(rest)?;
    if neg {
        if mag <= i64::MAX as u64 {
            Some(-(mag as i64))
        } else if mag == i64::MAX as u64 + 1 {
            Some(i64::MIN)
        } else {
            None
        }
    } else {
        i64::try_from(mag).ok()
    }
}

/// go-yaml's float pattern `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseFloat(s, 64)` for the decimal forms YAML can reach here: out-of-range
/// values are errors (`None`), as in Go.
fn parse_go_float(s: &str) -> Option<f64> {
    if !is_yaml_float(s) {
        return None;
    }
    let f: f64 = s.parse().ok()?;
    if f.is_infinite() {
        None
    } else {
        Some(f)
    }
}

/// Takes 1 or 2 leading ASCII digits (Go's non-fixed `getnum`).
fn take_num(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    let n = match (b.first(), b.get(1)) {
        (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => 2,
        (Some(x), _) if x.is_ascii_digit() => 1,
        _ => return None,
    };
    Some((s[..n].parse().ok()?, &s[n..]))
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The timestamp layouts go-yaml tries: `2006-1-2`, `2006-1-2 15:4:5.999999999`, and
/// `2006-1-2T15:4:5.999999999Z07:00` (also with a lower-case `t`).
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let year: u32 = s[..4].parse().unwrap_or(0);
    let Some((month, rest)) = take_num(&s[5..]) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix('-') else {
        return false;
    };
    let Some((day, rest)) = take_num(rest) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let (with_zone, rest) = match rest.as_bytes()[0] {
        b'T' | b't' => (true, &rest[1..]),
        b' ' => (false, &rest[1..]),
        _ => return false,
    };
    let Some(rest) = time_of_day(rest) else {
        return false;
    };
    if !with_zone {
        return rest.is_empty();
    }
    if rest == "Z" {
        return true;
    }
    let z = rest.as_bytes();
    z.len() == 6
        && matches!(z[0], b'+' | b'-')
        && z[3] == b':'
        && [1, 2, 4, 5].iter().all(|i| z[*i].is_ascii_digit())
}

fn time_of_day(s: &str) -> Option<&str> {
    let (h, rest) = take_num(s)?;
    let (m, rest) = take_num(rest.strip_prefix(':')?)?;
    let (sec, mut rest) = take_num(rest.strip_prefix(':')?)?;
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let b = rest.as_bytes();
    if b.len() >= 2 && matches!(b[0], b'.' | b',') && b[1].is_ascii_digit() {
        let n = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        rest = &rest[n..];
    }
    Some(rest)
}

fn is_strict_int(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    d == "0" || (!d.is_empty() && !d.starts_with('0') && d.bytes().all(|c| c.is_ascii_digit()))
}

fn is_strict_float(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    let int_len = d.bytes().take_while(u8::is_ascii_digit).count();
    let (int, mut rest) = d.split_at(int_len);
    if !(int == "0" || (!int.is_empty() && !int.starts_with('0'))) {
        return false;
    }
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &r[n..];
    }
    if let Some(r) = rest.strip_prefix(['e', 'E']) {
        let r = r.strip_prefix(['+', '-']).unwrap_or(r);
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        return n > 0 && n == r.len();
    }
    rest.is_empty()
}

/// ytt's conservative reading of a plain scalar in strict mode.
fn strict_conservative(s: &str) -> Result<Resolved, String> {
    let fail = |m: String| Err(format!("yaml: Strict parsing: {m}"));
    match s {
        "" => return Ok(Resolved::Null),
        "true" => return Ok(Resolved::Bool(true)),
        "false" => return Ok(Resolved::Bool(false)),
        _ => {}
    }
    if is_strict_int(s) {
        if let Some(i) = parse_go_int(s) {
            return Ok(Resolved::Int(i));
        }
        if let Some(u) = parse_go_uint(s) {
            return Ok(Resolved::Uint(u));
        }
        return fail(format!(
            "Parsing int '{s}': strconv.ParseInt: parsing \"{s}\": value out of range"
        ));
    }
    if is_strict_float(s) {
        return match parse_go_float(s) {
            Some(f) => Ok(Resolved::Float(f)),
            None => fail(format!(
                "Parsing float '{s}': strconv.ParseFloat: parsing \"{s}\": value out of range"
            )),
        };
    }
    if s.chars().any(char::is_whitespace) {
        return fail(format!(
            "Strings with whitespace must be explicitly quoted: '{s}'"
        ));
    }
    if s.contains(':') {
        return fail(format!("Strings with colon must be explicitly quoted: '{s}'"));
    }
    if s.contains("---") {
        return fail(format!(
            "Strings with triple-dash must be explicitly quoted: '{s}'"
        ));
    }
    Ok(Resolved::Str)
}

fn check_strict(s: &str, native: Resolved) -> Result<Resolved, String> {
    let conservative = strict_conservative(s)?;
    if conservative.tag() != native.tag() {
        return Err(format!(
            "yaml: Strict parsing: Found '{s}' ambigious (could be {} or {})",
            conservative.tag(),
            native.tag()
        ));
    }
    Ok(conservative)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Value {
        resolve_scalar(None, s, true, false).unwrap()
    }

    fn tagged(t: &str, s: &str) -> Result<Value, String> {
        resolve_scalar(Some(&format!("{TAG_PREFIX}{t}")), s, false, false)
    }

    fn strict(s: &str) -> Result<Value, String> {
        resolve_scalar(None, s, true, true)
    }

    #[test]
    fn yaml11_words() {
        for s in ["y", "Y", "yes", "Yes", "on", "ON", "true", "True"] {
            assert_eq!(plain(s), Value::Bool(true), "{s}");
        }
        for s in ["n", "NO", "off", "false", "FALSE"] {
            assert_eq!(plain(s), Value::Bool(false), "{s}");
        }
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(s), Value::Null, "{s}");
        }
        for s in ["tRUE", "nan", "yES", "<<", "Nope"] {
            assert_eq!(plain(s), Value::String(s.into()), "{s}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(plain("42"), Value::Int(42));
        assert_eq!(plain("-42"), Value::Int(-42));
        assert_eq!(plain("+7"), Value::Int(7));
        assert_eq!(plain("0x1F"), Value::Int(31));
        assert_eq!(plain("0o17"), Value::Int(15));
        assert_eq!(plain("017"), Value::Int(15));
        assert_eq!(plain("-017"), Value::Int(-15));
        assert_eq!(plain("0b101"), Value::Int(5));
        assert_eq!(plain("-0b101"), Value::Int(-5));
        assert_eq!(plain("1_000"), Value::Int(1000));
        assert_eq!(plain("08"), Value::Float(8.0));
        assert_eq!(plain("1.5"), Value::Float(1.5));
        assert_eq!(plain("-.5"), Value::Float(-0.5));
        assert_eq!(plain(".5"), Value::Float(0.5));
        assert_eq!(plain("1e3"), Value::Float(1000.0));
        assert_eq!(plain("1."), Value::Float(1.0));
        assert_eq!(plain(".inf"), Value::Float(f64::INFINITY));
        assert_eq!(plain("-.Inf"), Value::Float(f64::NEG_INFINITY));
        assert!(matches!(plain(".NaN"), Value::Float(f) if f.is_nan()));
        assert_eq!(plain("9223372036854775807"), Value::Int(i64::MAX));
        assert_eq!(plain("-9223372036854775808"), Value::Int(i64::MIN));
        assert_eq!(
            plain("18446744073709551615"),
            Value::Float(18446744073709551615u64 as f64)
        );
        assert_eq!(plain("1e400"), Value::String("1e400".into()));
        assert_eq!(plain("1:30"), Value::String("1:30".into()));
        assert_eq!(plain("0x"), Value::String("0x".into()));
        assert_eq!(plain(".e1"), Value::String(".e1".into()));
        assert_eq!(plain("2001-12-14"), Value::String("2001-12-14".into()));
    }

    #[test]
    fn unquoted_non_plain_is_string() {
        assert_eq!(
            resolve_scalar(None, "yes", false, true).unwrap(),
            Value::String("yes".into())
        );
    }

    #[test]
    fn explicit_tags() {
        assert_eq!(tagged("str", "123").unwrap(), Value::String("123".into()));
        assert_eq!(tagged("int", "0x10").unwrap(), Value::Int(16));
        assert_eq!(tagged("float", "1").unwrap(), Value::Float(1.0));
        assert_eq!(tagged("bool", "yes").unwrap(), Value::Bool(true));
        assert_eq!(tagged("null", "~").unwrap(), Value::Null);
        assert_eq!(tagged("binary", "aGk=").unwrap(), Value::String("hi".into()));
        assert_eq!(
            tagged("timestamp", "2001-12-14t21:59:43.10-05:00").unwrap(),
            Value::String("2001-12-14t21:59:43.10-05:00".into())
        );
        assert_eq!(
            tagged("int", "1.5").unwrap_err(),
            "yaml: cannot decode !!float `1.5` as a !!int"
        );
        assert_eq!(
            tagged("int", "abc").unwrap_err(),
            "yaml: cannot decode !!str `abc` as a !!int"
        );
        assert_eq!(
            tagged("bool", "1").unwrap_err(),
            "yaml: cannot decode !!int `1` as a !!bool"
        );
        assert_eq!(
            tagged("binary", "!!").unwrap_err(),
            "yaml: !!binary value contains invalid base64 data"
        );
        let custom = resolve_scalar(Some("!foo"), "12", false, true).unwrap();
        assert_eq!(custom, Value::String("12".into()));
    }

    #[test]
    fn strict_mode() {
        assert_eq!(strict("123").unwrap(), Value::Int(123));
        assert_eq!(strict("-1.5e3").unwrap(), Value::Float(-1500.0));
        assert_eq!(strict("true").unwrap(), Value::Bool(true));
        assert_eq!(strict("").unwrap(), Value::Null);
        assert_eq!(strict("abc").unwrap(), Value::String("abc".into()));
        let amb = |s: &str, a: &str, b: &str| {
            assert_eq!(
                strict(s).unwrap_err(),
                format!("yaml: Strict parsing: Found '{s}' ambigious (could be {a} or {b})")
            )
        };
        amb("yes", "!!str", "!!bool");
        amb("null", "!!str", "!!null");
        amb("~", "!!str", "!!null");
        amb("0x1F", "!!str", "!!int");
        amb("012", "!!str", "!!int");
        amb("+1", "!!str", "!!int");
        amb("1.", "!!str", "!!float");
        amb("2001-12-14", "!!str", "!!timestamp");
        amb("<<", "!!str", "!!merge");
        assert_eq!(
            strict("a b").unwrap_err(),
            "yaml: Strict parsing: Strings with whitespace must be explicitly quoted: 'a b'"
        );
        assert_eq!(
            strict("a:b").unwrap_err(),
            "yaml: Strict parsing: Strings with colon must be explicitly quoted: 'a:b'"
        );
        assert_eq!(
            strict("a---b").unwrap_err(),
            "yaml: Strict parsing: Strings with triple-dash must be explicitly quoted: 'a---b'"
        );
        assert_eq!(
            strict("1e400").unwrap_err(),
            "yaml: Strict parsing: Parsing float '1e400': strconv.ParseFloat: parsing \"1e400\": value out of range"
        );
        let tagged_strict = resolve_scalar(Some("tag:yaml.org,2002:bool"), "yes", true, true);
        assert_eq!(tagged_strict.unwrap(), Value::Bool(true));
    }

    #[test]
    fn timestamps() {
        assert!(is_timestamp("2001-12-14"));
        assert!(is_timestamp("2001-1-2"));
        assert!(is_timestamp("2001-12-14 21:59:43.10"));
        assert!(is_timestamp("2001-12-14T21:59:43Z"));
        assert!(!is_timestamp("2001-02-30"));
        assert!(!is_timestamp("2001-12-14 21:59:43.10 -5"));
        assert!(!is_timestamp("20011-12-14"));
    }
}
