//! `format % args` as starlark-go (ytt's fork) interpolates it: conversions `%s %r %d %i %o
//! %x %X %e %f %g %E %F %G %c %%`, named arguments `%(key)s`, no width, precision or flags
//! (`unknown conversion %5`), floats printed as Go prints them, and its error messages.

use num_bigint::BigInt;
use num_traits::FromPrimitive;
use starlark::values::dict::DictRef;
use starlark::values::float::StarlarkFloat;
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, UnpackValue, Value, ValueLike};

use super::args::plain_err;
use super::gobuiltins::go_repr;
use super::godict::mapping_items;

/// The value of `%(key)` in `x`: starlark-go asks any mapping, so in ytt a struct
/// (`data.values`, `struct.make`), a map fragment and the struct-like values of `@ytt:url`,
/// `@ytt:ip` and `@ytt:assert` answer as a dict does; an array fragment finds no key
/// (starlark-go drops its lookup's error).
fn by_key<'v>(x: Value<'v>, key: &str, heap: Heap<'v>) -> starlark::Result<Option<Value<'v>>> {
    if let Some(dict) = DictRef::from_value(x) {
        return Ok(dict
            .iter()
            .find(|(k, _)| k.unpack_str() == Some(key))
            .map(|(_, v)| v));
    }
    match mapping_items(x, heap) {
        Some(Ok(items)) => Ok(items
            .into_iter()
            .find(|(k, _)| k.unpack_str() == Some(key))
            .map(|(_, v)| v)),
        // An array fragment: starlark-go drops its lookup's error, so the key is not found.
        Some(Err(_)) => Ok(None),
        None => Err(plain_err("format requires a mapping")),
    }
}

/// Interpolates `x` into `format`.
pub fn interpolate<'v>(format: &str, x: Value<'v>, heap: Heap<'v>) -> starlark::Result<String> {
    let tuple = TupleRef::from_value(x);
    let nargs = tuple.map_or(1, |t| t.len());
    let mut out = String::with_capacity(format.len());
    let mut index = 0;
    let mut rest = format;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(r) = rest.strip_prefix('%') {
            out.push('%');
            rest = r;
            continue;
        }
        let arg = if let Some(r) = rest.strip_prefix('(') {
            let j = r
                .find(')')
                .ok_or_else(|| plain_err("incomplete format key"))?;
            let key = &r[..j];
            let found = by_key(x, key, heap)?;
            rest = &r[j + 1..];
            found.ok_or_else(|| plain_err(format!("key not found: {key}")))?
        } else {
            if index >= nargs {
                return Err(plain_err("not enough arguments for format string"));
            }
            match tuple {
                Some(t) => t.content()[index],
                None => x,
            }
        };
        let c = rest
            .chars()
            .next()
            .ok_or_else(|| plain_err("incomplete format"))?;
        convert(c, arg, &mut out)?;
        rest = &rest[c.len_utf8()..];
        index += 1;
    }
    out.push_str(rest);
    if index < nargs {
        return Err(plain_err("too many arguments for format string"));
    }
    Ok(out)
}

fn convert(c: char, arg: Value<'_>, out: &mut String) -> starlark::Result<()> {
    match c {
        's' if arg.unpack_str().is_some() => out.push_str(arg.unpack_str().unwrap_or("")),
        's' | 'r' => out.push_str(&go_repr(arg)),
        'd' | 'i' | 'o' | 'x' | 'X' => {
            let i =
                to_int(arg).map_err(|e| plain_err(format!("%{c} format requires integer: {e}")))?;
            let text = match c {
                'o' => i.to_str_radix(8),
                'x' => i.to_str_radix(16),
                'X' => i.to_str_radix(16).to_uppercase(),
                _ => i.to_string(),
            };
            out.push_str(&text);
        }
        'e' | 'f' | 'g' | 'E' | 'F' | 'G' => {
            let f = to_float(arg).ok_or_else(|| {
                plain_err(format!(
                    "%{c} format requires float, not {}",
                    arg.get_type()
                ))
            })?;
            out.push_str(&format_float(c, f));
        }
        'c' => {
            if let Some(s) = arg.unpack_str() {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(ch), None) => out.push(ch),
                    _ => return Err(plain_err("%c format requires a single-character string")),
                }
            } else if arg.get_type() == "int" {
                let ch = i32::unpack_value(arg)
                    .ok()
                    .flatten()
                    .and_then(|i| u32::try_from(i).ok())
                    .and_then(char::from_u32);
                match ch {
                    Some(ch) => out.push(ch),
                    None => {
                        return Err(plain_err(format!(
                            "%c format requires a valid Unicode code point, got {}",
                            arg.to_str()
                        )))
                    }
                }
            } else {
                return Err(plain_err(format!(
                    "%c format requires int or single-character string, not {}",
                    arg.get_type()
                )));
            }
        }
        '%' => out.push('%'),
        other => return Err(plain_err(format!("unknown conversion %{other}"))),
    }
    Ok(())
}

/// starlark-go's `NumberToInt`.
fn to_int(v: Value<'_>) -> Result<BigInt, String> {
    if v.get_type() == "int" {
        return BigInt::unpack_value(v)
            .ok()
            .flatten()
            .ok_or_else(|| "cannot convert int to int".to_string());
    }
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        if f.0.is_nan() {
            return Err("cannot convert float NaN to integer".to_string());
        }
        if f.0.is_infinite() {
            return Err("cannot convert float infinity to integer".to_string());
        }
        return Ok(BigInt::from_f64(f.0.trunc()).unwrap_or_default());
    }
    Err(format!("cannot convert {} to int", v.get_type()))
}

fn to_float(v: Value<'_>) -> Option<f64> {
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return Some(f.0);
    }
    if v.get_type() == "int" {
        return BigInt::unpack_value(v)
            .ok()
            .flatten()
            .and_then(|i| num_traits::ToPrimitive::to_f64(&i));
    }
    None
}

/// Go's `fmt` verbs `%e %f %g` (and upper-case forms) for a float64.
fn format_float(verb: char, f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let s = match verb.to_ascii_lowercase() {
        'e' => go_exponent(&format!("{f:.6e}")),
        'f' => format!("{f:.6}"),
        _ => {
            // Shortest digits; exponent form when the exponent is below -4 or at least 6.
            let sci = format!("{f:e}");
            let exp: i32 = sci
                .split_once('e')
                .and_then(|(_, e)| e.parse().ok())
                .unwrap_or(0);
            if !(-4..6).contains(&exp) {
                go_exponent(&sci)
            } else {
                format!("{f}")
            }
        }
    };
    if verb.is_ascii_uppercase() {
        s.to_uppercase()
    } else {
        s
    }
}

/// Rust's `1.5e2` / `1.5e-7` written as Go writes exponents: `1.5e+02`, `1.5e-07`.
fn go_exponent(sci: &str) -> String {
    match sci.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = match e.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', e),
            };
            format!("{m}e{sign}{digits:0>2}")
        }
        None => sci.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_format_as_go_formats_them() {
        assert_eq!(format_float('e', 100.0), "1.000000e+02");
        assert_eq!(format_float('E', 1e-5), "1.000000E-05");
        assert_eq!(format_float('f', 0.1), "0.100000");
        assert_eq!(format_float('g', 100.0), "100");
        assert_eq!(format_float('g', 1234567.0), "1.234567e+06");
        assert_eq!(format_float('g', 1e-5), "1e-05");
        assert_eq!(format_float('g', 123456.0), "123456");
        assert_eq!(format_float('G', 1e100), "1E+100");
    }
}
