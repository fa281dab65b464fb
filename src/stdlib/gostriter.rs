//! The iterables starlark-go's `codepoints()`, `codepoint_ords()`, `elems()` and `elem_ords()`
//! return: not lists but values of type `codepoints` or `elems`, shown as the call that made
//! them (`"ab".codepoints()`), iterable, without a length or indexing, which ytt cannot place
//! in YAML (`eval::convert` names them `starlark.stringIterable`).

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::starlark_simple_value;
use starlark::values::{starlark_value, Heap, NoSerialize, StarlarkValue, Value};

/// The string and whether the iterable yields numbers (`_ords`).
#[derive(Debug, Allocative)]
struct Source {
    s: String,
    ords: bool,
}

impl Source {
    fn show(&self, f: &mut fmt::Formatter<'_>, etype: &str) -> fmt::Result {
        let call = if self.ords { "_ords" } else { "s" };
        f.write_str("\"")?;
        for c in self.s.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\t' => f.write_str("\\t")?,
                '\r' => f.write_str("\\r")?,
                c => write!(f, "{c}")?,
            }
        }
        write!(f, "\".{etype}{call}()")
    }
}

/// `s.codepoints()` or `s.codepoint_ords()`.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct Codepoints(Source);

/// `s.elems()` or `s.elem_ords()`.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct Elems(Source);

starlark_simple_value!(Codepoints);
starlark_simple_value!(Elems);

impl fmt::Display for Codepoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.show(f, "codepoint")
    }
}

impl fmt::Display for Elems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.show(f, "elem")
    }
}

#[starlark_value(type = "codepoints")]
impl<'v> StarlarkValue<'v> for Codepoints {
    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self
            .0
            .s
            .chars()
            .map(|c| {
                if self.0.ords {
                    heap.alloc(c as i64)
                } else {
                    heap.alloc_str(c.encode_utf8(&mut [0; 4])).to_value()
                }
            })
            .collect())
    }
}

#[starlark_value(type = "elems")]
impl<'v> StarlarkValue<'v> for Elems {
    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        let bytes = crate::eval::bytestr::to_bytes(&self.0.s);
        Ok(bytes
            .iter()
            .map(|b| {
                if self.0.ords {
                    heap.alloc(i64::from(*b))
                } else {
                    heap.alloc_str(&crate::eval::bytestr::from_bytes(&[*b]))
                        .to_value()
                }
            })
            .collect())
    }
}

/// The iterable of `s.codepoints()` (`codepoints` true) or `s.elems()`, of numbers if `ords`.
pub fn alloc<'v>(heap: Heap<'v>, s: &str, codepoints: bool, ords: bool) -> Value<'v> {
    let source = Source {
        s: s.to_string(),
        ords,
    };
    if codepoints {
        heap.alloc(Codepoints(source))
    } else {
        heap.alloc(Elems(source))
    }
}
