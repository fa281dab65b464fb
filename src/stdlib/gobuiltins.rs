//! The builtins as ytt's starlark-go universe has them: the crate's builtins that starlark-go
//! lacks (`abs`, ...) are left out, so using one is `undefined: abs` as in ytt; `len` counts a
//! string's bytes; `int` parses strings as starlark-go does (no `_` separators, arbitrary
//! precision, its error messages); `str` and `repr` write floats with six significant digits;
//! `zip` names an argument that is not iterable; `dir`, `hasattr` and `getattr` know
//! starlark-go's string methods; `dict` is `stdlib::godict`'s; `ord` counts code points in Go's
//! words; `sorted`, `min` and `max` are `stdlib::goorder`'s.

use num_bigint::BigInt;
use num_traits::{FromPrimitive, ToPrimitive};
use starlark::environment::{Globals, GlobalsBuilder};
use starlark::starlark_module;
use starlark::values::dict::DictRef;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::{AllocTuple, TupleRef};
use starlark::values::{FrozenValue, Heap, UnpackValue, Value, ValueLike};

use super::args::{plain_err, Args, Kwargs};
use super::golike as crate_golike;
use super::gostr::{string_attr, STRING_METHODS};

/// starlark-go's universe (as ytt configures it, with `set`).
pub const UNIVERSE: &[&str] = &[
    "None",
    "True",
    "False",
    "any",
    "all",
    "bool",
    "chr",
    "dict",
    "dir",
    "enumerate",
    "fail",
    "float",
    "getattr",
    "hasattr",
    "hash",
    "int",
    "len",
    "list",
    "max",
    "min",
    "ord",
    "print",
    "range",
    "repr",
    "reversed",
    "set",
    "sorted",
    "str",
    "tuple",
    "type",
    "zip",
];

/// Names this module defines in place of the crate's.
const OVERRIDDEN: &[&str] = &[
    "int", "len", "str", "repr", "zip", "dir", "hasattr", "getattr", "dict", "sorted", "min",
    "max", "ord",
];

/// Copies the crate's globals that are in starlark-go's universe into `builder`, then adds
/// this module's builtins.
pub fn register_universe(builder: &mut GlobalsBuilder, crate_globals: &Globals) {
    builder.frozen_heap().add_reference(crate_globals.heap());
    for (name, value) in crate_globals.iter() {
        if UNIVERSE.contains(&name) && !OVERRIDDEN.contains(&name) {
            builder.set(name, value);
        }
    }
    register(builder);
}

/// The constants of the universe (`None`, `True`, `False`), as the crate defines them.
pub fn register_constants(builder: &mut GlobalsBuilder) {
    builder.set("None", FrozenValue::new_none());
    builder.set("True", FrozenValue::new_bool(true));
    builder.set("False", FrozenValue::new_bool(false));
}

/// This module's builtins alone.
pub fn register_own(builder: &mut GlobalsBuilder) {
    register(builder);
}

/// Whether `code` has a word that is one of the crate's builtins in the universe (a word in a
/// string or a comment counts too: it only costs building them).
pub fn names_crate_builtin(code: &str) -> bool {
    let is_builtin = |word: &[u8]| {
        // Most words are not builtins: a word's first byte and length settle it before
        // comparing.
        (3..=9).contains(&word.len())
            && word[0].is_ascii_lowercase()
            && UNIVERSE.iter().any(|name| name.as_bytes() == word)
            && !OVERRIDDEN.iter().any(|name| name.as_bytes() == word)
    };
    // One pass over the bytes, a word checked where it ends (a generic split of every
    // template's code was a noticeable part of a lint run).
    let bytes = code.as_bytes();
    let mut start = None;
    for (i, b) in bytes.iter().enumerate() {
        let in_word = b.is_ascii_alphanumeric() || *b == b'_';
        match (in_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if is_builtin(&bytes[s..i]) {
                    return true;
                }
                start = None;
            }
            _ => {}
        }
    }
    start.is_some_and(|s| is_builtin(&bytes[s..]))
}

#[starlark_module]
fn register(builder: &mut GlobalsBuilder) {
    /// starlark-go's `dict`: structs and map fragments are mappings (`stdlib::godict`).
    fn dict<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        let kwargs = kwargs
            .into_iter()
            .map(|(k, v)| {
                let k = crate::template::keywords::original(&k);
                (heap.alloc_str(k).to_value(), v)
            })
            .collect();
        super::godict::dict(&args.items, kwargs, heap)
    }

    fn str<'v>(
        #[starlark(require = pos)] x: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if x.unpack_str().is_some() {
            return Ok(x);
        }
        Ok(heap.alloc_str(&go_repr(x)).to_value())
    }

    fn repr<'v>(#[starlark(require = pos)] x: Value<'v>) -> starlark::Result<String> {
        Ok(go_repr(x))
    }

    /// starlark-go's `ord`: the code point of a one-character string, its messages.
    fn ord<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
    ) -> starlark::Result<i64> {
        if !kwargs.is_empty() {
            return Err(plain_err("ord does not accept keyword arguments"));
        }
        let [x] = args.items.as_slice() else {
            return Err(plain_err(format!(
                "ord: got {} arguments, want 1",
                args.items.len()
            )));
        };
        let s = x
            .unpack_str()
            .ok_or_else(|| plain_err(format!("ord: got {}, want string", x.get_type())))?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(i64::from(u32::from(c))),
            _ => Err(plain_err(format!(
                "ord: string encodes {} Unicode code points, want 1",
                s.chars().count()
            ))),
        }
    }

    /// starlark-go's `zip`: a list of tuples as long as the shortest argument; an argument
    /// that is not iterable is named by its position.
    fn zip<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if !kwargs.is_empty() {
            return Err(plain_err("zip does not accept keyword arguments"));
        }
        let mut columns: Vec<Vec<Value<'v>>> = Vec::with_capacity(args.items.len());
        for (i, seq) in args.items.iter().enumerate() {
            let items = seq.iterate(heap).map_err(|_| {
                plain_err(format!(
                    "zip: argument #{} is not iterable: {}",
                    i + 1,
                    seq.get_type()
                ))
            })?;
            columns.push(items.collect());
        }
        let rows = columns.iter().map(Vec::len).min().unwrap_or(0);
        let list: Vec<Value<'v>> = (0..rows)
            .map(|r| heap.alloc(AllocTuple(columns.iter().map(|c| c[r]))))
            .collect();
        Ok(heap.alloc(list))
    }

    /// `dir(x)`; a string has starlark-go's string methods.
    fn dir<'v>(#[starlark(require = pos)] x: Value<'v>) -> starlark::Result<Vec<String>> {
        if x.unpack_str().is_some() {
            return Ok(STRING_METHODS.iter().map(|m| m.to_string()).collect());
        }
        Ok(x.dir_attr())
    }

    fn hasattr<'v>(
        #[starlark(require = pos)] x: Value<'v>,
        #[starlark(require = pos)] name: &str,
        heap: Heap<'v>,
    ) -> starlark::Result<bool> {
        if x.unpack_str().is_some() {
            return Ok(STRING_METHODS.contains(&name));
        }
        Ok(x.has_attr(name, heap))
    }

    /// `getattr(x, name[, default])`, with starlark-go's string methods.
    fn getattr<'v>(
        #[starlark(require = pos)] x: Value<'v>,
        #[starlark(require = pos)] name: &str,
        #[starlark(require = pos)] default: Option<Value<'v>>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if let Some(s) = x.unpack_str() {
            return match (string_attr(s, name, heap), default) {
                (Some(v), _) => v,
                (None, Some(d)) => Ok(d),
                (None, None) => Err(plain_err(format!(
                    "getattr: string has no .{name} field or method"
                ))),
            };
        }
        // A list's `pop` and a dict's `update` as `x.pop` and `x.update` give them
        // (`stdlib::golist_pop`, `stdlib::godict`).
        let go_method = match name {
            "pop" => super::golist_pop::pop_method(x, heap),
            "update" => super::godict::update_method(x, heap),
            _ => None,
        };
        if let Some(m) = go_method {
            return Ok(m);
        }
        match (x.get_attr(name, heap)?, default) {
            (Some(v), _) => Ok(v),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(plain_err(format!(
                "getattr: {} has no .{name} field or method",
                x.get_type()
            ))),
        }
    }

    fn len<'v>(#[starlark(require = pos)] x: Value<'v>) -> starlark::Result<i64> {
        if let Some(s) = x.unpack_str() {
            return Ok(crate::eval::bytestr::byte_len(s) as i64);
        }
        x.length()
            .map(i64::from)
            .map_err(|_| plain_err(format!("len: value of type {} has no len", x.get_type())))
    }

    fn int<'v>(
        #[starlark(require = pos)] x: Option<Value<'v>>,
        base: Option<Value<'v>>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        let Some(x) = x else {
            return Err(plain_err("int: missing argument for x"));
        };
        if let Some(s) = x.unpack_str() {
            let b = match base {
                None => 10,
                Some(b) => match i32::unpack_value(b) {
                    Ok(Some(b)) if b == 0 || (2..=36).contains(&b) => b as u32,
                    _ => return Err(plain_err("int: base must be an integer >= 2 && <= 36")),
                },
            };
            return parse_int(s, b)
                .map(|i| alloc_int(i, heap))
                .map_err(|b| plain_err(format!("int: invalid literal with base {b}: {s}")));
        }
        if base.is_some() {
            return Err(plain_err(
                "int: can't convert non-string with explicit base",
            ));
        }
        if let Some(b) = x.unpack_bool() {
            return Ok(heap.alloc(i64::from(b)));
        }
        if x.get_type() == "int" {
            return Ok(x);
        }
        if let Some(f) = x.downcast_ref::<StarlarkFloat>() {
            let f = f.0;
            if f.is_nan() {
                return Err(plain_err("int: cannot convert float NaN to integer"));
            }
            if f.is_infinite() {
                return Err(plain_err("int: cannot convert float infinity to integer"));
            }
            let i = BigInt::from_f64(f.trunc()).unwrap_or_default();
            return Ok(alloc_int(i, heap));
        }
        Err(plain_err(format!(
            "int: cannot convert {} to int",
            x.get_type()
        )))
    }
}

/// `repr(x)` as starlark-go writes it: floats with six significant digits (`%g`), also inside
/// lists, tuples and dicts; everything else as the crate writes it.
pub fn go_repr(x: Value<'_>) -> String {
    let mut out = String::new();
    write_repr(x, &mut out, 0);
    out
}

fn write_repr(x: Value<'_>, out: &mut String, depth: u32) {
    if depth > 100 {
        out.push_str(&x.to_repr());
        return;
    }
    let join = |items: &mut dyn Iterator<Item = Value<'_>>, out: &mut String| {
        for (i, v) in items.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_repr(v, out, depth + 1);
        }
    };
    if let Some(f) = x.downcast_ref::<StarlarkFloat>() {
        out.push_str(&crate_golike::format_g(f.0, 6));
    } else if let Some(l) = ListRef::from_value(x) {
        out.push('[');
        join(&mut l.content().iter().copied(), out);
        out.push(']');
    } else if let Some(t) = TupleRef::from_value(x) {
        out.push('(');
        join(&mut t.content().iter().copied(), out);
        if t.len() == 1 {
            out.push(',');
        }
        out.push(')');
    } else if let Some(d) = DictRef::from_value(x) {
        out.push('{');
        for (i, (k, v)) in d.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_repr(k, out, depth + 1);
            out.push_str(": ");
            write_repr(v, out, depth + 1);
        }
        out.push('}');
    } else {
        out.push_str(&x.to_repr());
    }
}

/// An int in the crate's smallest form for it.
fn alloc_int(i: BigInt, heap: Heap<'_>) -> Value<'_> {
    match i.to_i32() {
        Some(small) => heap.alloc(small),
        None => heap.alloc(i),
    }
}

/// starlark-go's `int(s, base)` for a string (`base` 0 detects the base from the prefix).
/// Err carries the base the message names.
fn parse_int(orig: &str, base: u32) -> Result<BigInt, u32> {
    let mut b = base;
    let (neg, mut s) = match orig.as_bytes().first() {
        Some(b'+') => (false, &orig[1..]),
        Some(b'-') => (true, &orig[1..]),
        _ => (false, orig),
    };
    let bytes = s.as_bytes();
    let mut prefix = 0;
    if bytes.len() > 1 && bytes[0] == b'0' {
        if bytes.len() > 2 {
            prefix = match bytes[1] {
                b'o' | b'O' => 8,
                b'x' | b'X' => 16,
                b'b' | b'B' => 2,
                _ => 0,
            };
            if prefix != 0 {
                s = &s[2..];
            }
        }
        if prefix == 0 && b == 0 {
            return if s.bytes().skip(1).all(|c| c == b'0') {
                Ok(BigInt::from(0))
            } else {
                Err(0)
            };
        }
        if b != 0 && prefix != 0 && prefix != b {
            return Err(b);
        }
    }
    if b == 0 {
        b = if prefix != 0 { prefix } else { 10 };
    }
    let digits_ok = !s.is_empty() && s.chars().all(|c| c.to_digit(36).is_some_and(|d| d < b));
    if !digits_ok {
        return Err(b);
    }
    let magnitude = BigInt::parse_bytes(s.as_bytes(), b).ok_or(b)?;
    Ok(if neg { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_parse_as_starlark_go_parses_them() {
        assert_eq!(parse_int("1_000", 10), Err(10));
        assert_eq!(parse_int("0x_1", 0), Err(16));
        assert_eq!(parse_int("-0x1f", 0), Ok(BigInt::from(-31)));
        assert_eq!(parse_int("0755", 0), Err(0));
        assert_eq!(parse_int("000", 0), Ok(BigInt::from(0)));
        assert_eq!(parse_int("0o17", 16), Err(16));
        assert_eq!(parse_int("12a", 16), Ok(BigInt::from(298)));
        assert_eq!(parse_int("", 10), Err(10));
        assert_eq!(parse_int("+-1", 10), Err(10));
        assert_eq!(
            parse_int(&"9".repeat(30), 10).map(|i| i.to_string()),
            Ok("9".repeat(30))
        );
    }

    #[test]
    fn each_crate_builtin_is_noticed() {
        for name in UNIVERSE {
            let crate_own = !OVERRIDDEN.contains(name) && !["None", "True", "False"].contains(name);
            assert_eq!(
                names_crate_builtin(&format!("x = {name}(y)")),
                crate_own,
                "{name}"
            );
        }
        assert!(!names_crate_builtin(
            "# listing settings\nx = a.sorting + 'ranges' + Set"
        ));
        assert!(names_crate_builtin("#@ x = enumerate(y)"));
    }
}
