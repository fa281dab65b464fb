//! String methods as starlark-go (ytt's fork) has them, where the crate's differ. starlark-go
//! strings are byte strings: `find`, `rfind`, `index`, `rindex` and `count` take and give byte
//! offsets, clamp their bounds to the string, and find the empty string anywhere in it
//! (`"abc".find("", 100)` is 3); `codepoints()`, `codepoint_ords()`, `elems()` and
//! `elem_ords()` return iterables (`stdlib::gostriter`); `split("")` is an error;
//! `removeprefix` and `removesuffix` do not exist; `replace` with a negative count replaces
//! all; `startswith` and `endswith` test an empty string when the end is before the start;
//! `strip("")` strips white space; `format` is `stdlib::goformat`. `eval::gocompat` sends
//! lookups of these names through `__ytt_attr`.
use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::tuple::TupleRef;
use starlark::values::{starlark_value, Heap, NoSerialize, StarlarkValue, UnpackValue, Value};

use super::args::plain_err;

/// A string method of starlark-go the crate lacks or has with other behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Allocative)]
enum Method {
    Find,
    Rfind,
    Index,
    Rindex,
    Count,
    Codepoints,
    CodepointOrds,
    ElemOrds,
    Elems,
    Split,
    Rsplit,
    Replace,
    StartsWith,
    EndsWith,
    Strip,
    Lstrip,
    Rstrip,
    Format,
}

impl Method {
    fn from_name(name: &str) -> Option<Method> {
        Some(match name {
            "find" => Method::Find,
            "rfind" => Method::Rfind,
            "index" => Method::Index,
            "rindex" => Method::Rindex,
            "count" => Method::Count,
            "codepoints" => Method::Codepoints,
            "codepoint_ords" => Method::CodepointOrds,
            "elem_ords" => Method::ElemOrds,
            "elems" => Method::Elems,
            "split" => Method::Split,
            "rsplit" => Method::Rsplit,
            "replace" => Method::Replace,
            "startswith" => Method::StartsWith,
            "endswith" => Method::EndsWith,
            "strip" => Method::Strip,
            "lstrip" => Method::Lstrip,
            "rstrip" => Method::Rstrip,
            "format" => Method::Format,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Method::Find => "find",
            Method::Rfind => "rfind",
            Method::Index => "index",
            Method::Rindex => "rindex",
            Method::Count => "count",
            Method::Codepoints => "codepoints",
            Method::CodepointOrds => "codepoint_ords",
            Method::ElemOrds => "elem_ords",
            Method::Elems => "elems",
            Method::Split => "split",
            Method::Rsplit => "rsplit",
            Method::Replace => "replace",
            Method::StartsWith => "startswith",
            Method::EndsWith => "endswith",
            Method::Strip => "strip",
            Method::Lstrip => "lstrip",
            Method::Rstrip => "rstrip",
            Method::Format => "format",
        }
    }
}

pub use crate::eval::spell::STRING_METHODS;

/// The method `name` of the string `s` as starlark-go has it (None if it has none).
pub fn string_attr<'v>(s: &str, name: &str, heap: Heap<'v>) -> Option<starlark::Result<Value<'v>>> {
    if !STRING_METHODS.contains(&name) {
        return None;
    }
    Some(match Method::from_name(name) {
        Some(method) => Ok(heap.alloc(StrMethod {
            recv: s.to_string(),
            method,
        })),
        None => heap.alloc_str(s).to_value().get_attr_error(name, heap),
    })
}

/// Names the crate has on strings and starlark-go does not.
const ABSENT: &[&str] = &["removeprefix", "removesuffix"];

/// A string method bound to its string (`"abc".find`).
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct StrMethod {
    recv: String,
    method: Method,
}

starlark_simple_value!(StrMethod);

impl fmt::Display for StrMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "<built-in method {} of string value>",
            self.method.name()
        )
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for StrMethod {
    /// starlark-go hashes a builtin by its name (a builtin may be a dict key).
    fn write_hash(
        &self,
        hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        crate::stdlib::builtin_hash::by_name(self.method.name(), hasher)
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let name = self.method.name();
        let heap = eval.heap();
        let pos: Vec<Value<'v>> = args.positions(heap)?.collect();
        let names = args.names_map()?;
        if !names.is_empty() && self.method != Method::Format {
            return Err(plain_err(format!("{name}: unexpected keyword arguments")));
        }
        match self.method {
            Method::Find | Method::Rfind | Method::Index | Method::Rindex | Method::Count => {
                self.search(&pos, heap)
            }
            Method::Codepoints | Method::CodepointOrds | Method::ElemOrds | Method::Elems => {
                if !pos.is_empty() {
                    return Err(plain_err(format!(
                        "{name}: got {} arguments, want at most 0",
                        pos.len()
                    )));
                }
                Ok(self.iterable(heap))
            }
            Method::Split | Method::Rsplit => {
                if let Some(sep) = pos.first().filter(|s| !s.is_none()) {
                    match sep.unpack_str() {
                        Some("") => return Err(plain_err("split: empty separator")),
                        Some(_) => {}
                        None => {
                            return Err(plain_err(format!(
                                "split: got {} for separator, want string",
                                sep.get_type()
                            )))
                        }
                    }
                }
                self.delegate(&pos, eval)
            }
            Method::Replace => {
                // A negative count replaces every occurrence, as Go's `strings.Replace`.
                let negative = pos
                    .get(2)
                    .and_then(|c| c.unpack_i32())
                    .is_some_and(|c| c < 0);
                let pos = if negative { &pos[..2] } else { &pos[..] };
                self.delegate(pos, eval)
            }
            Method::StartsWith | Method::EndsWith => self.affix(&pos),
            Method::Format => {
                let named: Vec<(&str, Value<'v>)> =
                    names.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                let s = super::goformat::format(&self.recv, &pos, &named)?;
                Ok(heap.alloc_str(&s).to_value())
            }
            Method::Strip | Method::Lstrip | Method::Rstrip => {
                if pos.len() > 1 {
                    return Err(plain_err(format!(
                        "{name}: got {} arguments, want at most 1",
                        pos.len()
                    )));
                }
                match pos.first().map(|c| (c, c.unpack_str())) {
                    // No characters, or none given: white space is stripped.
                    None | Some((_, Some(""))) => self.delegate(&[], eval),
                    Some((_, Some(_))) => self.delegate(&pos, eval),
                    Some((c, None)) => Err(plain_err(format!(
                        "{name}: for parameter 1: got {}, want string",
                        c.get_type()
                    ))),
                }
            }
        }
    }
}

impl StrMethod {
    /// Calls the crate's method of the same name.
    fn delegate<'v>(
        &self,
        pos: &[Value<'v>],
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let recv = heap.alloc_str(&self.recv).to_value();
        let method = recv.get_attr_error(self.method.name(), heap)?;
        eval.eval_function(method, pos, &[])
    }

    /// `find`, `rfind`, `index`, `rindex` and `count` over the string's bytes.
    fn search<'v>(&self, pos: &[Value<'v>], heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let name = self.method.name();
        if pos.is_empty() {
            return Err(plain_err(format!(
                "{name}: got 0 arguments, want at least 1"
            )));
        }
        if pos.len() > 3 {
            return Err(plain_err(format!(
                "{name}: got {} arguments, want at most 3",
                pos.len()
            )));
        }
        let sub = pos[0].unpack_str().ok_or_else(|| {
            plain_err(format!(
                "{name}: for parameter 1: got {}, want string",
                pos[0].get_type()
            ))
        })?;
        let s = self.recv.as_bytes();
        let start = bound(name, "start", pos.get(1).copied(), s.len(), 0)?;
        let end = bound(name, "end", pos.get(2).copied(), s.len(), s.len())?;
        let slice: &[u8] = if start < end { &s[start..end] } else { &[] };
        let sub = sub.as_bytes();
        if self.method == Method::Count {
            return Ok(heap.alloc(count(slice, sub) as i64));
        }
        let last = matches!(self.method, Method::Rfind | Method::Rindex);
        let found = if last {
            rfind_bytes(slice, sub)
        } else {
            find_bytes(slice, sub)
        };
        match found {
            Some(i) => Ok(heap.alloc((i + start) as i64)),
            None if matches!(self.method, Method::Index | Method::Rindex) => {
                Err(plain_err(format!("{name}: substring not found")))
            }
            None => Ok(heap.alloc(-1i64)),
        }
    }

    /// `startswith` and `endswith` over the string's bytes between the bounds (empty when the
    /// end is before the start); the prefix may be a tuple of strings.
    fn affix<'v>(&self, pos: &[Value<'v>]) -> starlark::Result<Value<'v>> {
        let name = self.method.name();
        if pos.is_empty() || pos.len() > 3 {
            let want = if pos.is_empty() {
                "at least 1"
            } else {
                "at most 3"
            };
            return Err(plain_err(format!(
                "{name}: got {} arguments, want {want}",
                pos.len()
            )));
        }
        let s = self.recv.as_bytes();
        let start = bound(name, "start", pos.get(1).copied(), s.len(), 0)?;
        let end = bound(name, "end", pos.get(2).copied(), s.len(), s.len())?;
        let s = &s[start..end.max(start)];
        let test = |affix: &str| {
            if self.method == Method::StartsWith {
                s.starts_with(affix.as_bytes())
            } else {
                s.ends_with(affix.as_bytes())
            }
        };
        if let Some(affix) = pos[0].unpack_str() {
            return Ok(Value::new_bool(test(affix)));
        }
        let Some(items) = TupleRef::from_value(pos[0]) else {
            return Err(plain_err(format!(
                "{name}: got {}, want string or tuple of string",
                pos[0].get_type()
            )));
        };
        for (i, x) in items.content().iter().enumerate() {
            let affix = x.unpack_str().ok_or_else(|| {
                plain_err(format!(
                    "{name}: want string, got {}, for element {i}",
                    x.get_type()
                ))
            })?;
            if test(affix) {
                return Ok(Value::new_bool(true));
            }
        }
        Ok(Value::new_bool(false))
    }

    /// The iterable `codepoints()`, `codepoint_ords()`, `elems()` or `elem_ords()` returns.
    fn iterable<'v>(&self, heap: Heap<'v>) -> Value<'v> {
        let codepoints = matches!(self.method, Method::Codepoints | Method::CodepointOrds);
        let ords = matches!(self.method, Method::CodepointOrds | Method::ElemOrds);
        super::gostriter::alloc(heap, &self.recv, codepoints, ords)
    }
}

/// A start or end bound as starlark-go's `indices` takes it: None for `default`, negative
/// from the end, clamped to `0..=len`.
fn bound(
    name: &str,
    which: &str,
    v: Option<Value<'_>>,
    len: usize,
    default: usize,
) -> starlark::Result<usize> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(default);
    };
    let i = match (v.get_type(), i32::unpack_value(v)) {
        ("int", Ok(Some(i))) => i64::from(i),
        _ => {
            return Err(plain_err(format!(
                "{name}: invalid {which} index: got {}, want int",
                v.get_type()
            )))
        }
    };
    let len = len as i64;
    let i = if i < 0 { i + len } else { i };
    Ok(i.clamp(0, len) as usize)
}

fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(hay.len());
    }
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// Go's `strings.Count`: non-overlapping occurrences; the empty string occurs once more than
/// there are code points.
fn count(hay: &[u8], needle: &[u8]) -> usize {
    if needle.is_empty() {
        return String::from_utf8_lossy(hay).chars().count() + 1;
    }
    let mut n = 0;
    let mut i = 0;
    while let Some(at) = find_bytes(&hay[i..], needle) {
        n += 1;
        i += at + needle.len();
    }
    n
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    /// `obj.name`, with starlark-go's string methods in place of the crate's.
    fn __ytt_attr<'v>(
        #[starlark(require = pos)] obj: Value<'v>,
        #[starlark(require = pos)] name: &str,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if let Some(s) = obj.unpack_str() {
            if let Some(method) = Method::from_name(name) {
                return Ok(heap.alloc(StrMethod {
                    recv: s.to_string(),
                    method,
                }));
            }
            if ABSENT.contains(&name) {
                return Err(plain_err(format!("string has no .{name} field or method")));
            }
        }
        if name == "update" {
            if let Some(m) = super::godict::update_method(obj, heap) {
                return Ok(m);
            }
        }
        if name == "pop" {
            if let Some(m) = super::golist_pop::pop_method(obj, heap) {
                return Ok(m);
            }
        }
        obj.get_attr_error(name, heap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_search_finds_the_empty_string_at_the_bounds() {
        assert_eq!(find_bytes(b"abc", b""), Some(0));
        assert_eq!(rfind_bytes(b"abc", b""), Some(3));
        assert_eq!(rfind_bytes(b"abcabc", b"bc"), Some(4));
        assert_eq!(count(b"aaaa", b"aa"), 2);
        assert_eq!(count("é".as_bytes(), b""), 2);
    }
}
