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
            if try_timestamp && time::is_timestamp(value) {
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
        return fail(format!(
            "Strings with colon must be explicitly quoted: '{s}'"
        ));
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

#[path = "scalar_time.rs"]
mod time;

#[cfg(test)]
#[path = "scalar_tests.rs"]
mod tests;
