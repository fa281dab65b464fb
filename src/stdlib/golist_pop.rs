//! `list.pop(i)` as starlark-go has it. The crate's `pop` refuses a negative index (``Index
//! `-1` is out of bound``) where starlark-go counts it from the end (`l.pop(-1)` renders in
//! ytt), and words its other failures its own way. starlark-go unpacks the index as Go's
//! `UnpackPositionalArgs` does (`pop: got 2 arguments, want at most 1`, `pop: unexpected
//! keyword arguments`, `pop: for parameter 1: got string, want int`, `... 4294967296 out of
//! range`), then says `pop: list index 5 out of range [-3:2]` (`pop: index -1 out of range:
//! empty list`), and only then checks that the list may change (`pop: cannot pop from frozen
//! list`, `... during iteration`). `eval::gocompat` sends `.pop` lookups through
//! `__ytt_attr`, which hands a list's `pop` here; the element is removed by the crate's own
//! `pop`, given the index made non-negative.

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_complex_value;
use starlark::values::list::ListRef;
use starlark::values::{
    starlark_value, Freeze, Heap, NoSerialize, StarlarkValue, Trace, Value, ValueLike,
};

use super::args::{go_type_name, plain_err};

/// `l.pop` bound to its list.
#[derive(Debug, Trace, Freeze, Coerce, ProvidesStaticType, NoSerialize, Allocative)]
#[repr(C)]
pub struct ListPopGen<V: starlark::values::ValueLifetimeless> {
    list: V,
}

starlark_complex_value!(pub ListPop);

impl<V: starlark::values::ValueLifetimeless> fmt::Display for ListPopGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<built-in method pop of list value>")
    }
}

/// `list.pop` of `l`, if `l` is a list.
pub fn pop_method<'v>(l: Value<'v>, heap: Heap<'v>) -> Option<Value<'v>> {
    ListRef::from_value(l)?;
    Some(heap.alloc_complex(ListPop { list: l }))
}

/// The index `pop` is given, checked as starlark-go's `AsInt32` checks it.
fn index_arg(v: Value<'_>) -> Result<i64, String> {
    if v.get_type() != "int" {
        return Err(format!("got {}, want int", go_type_name(v)));
    }
    match v.unpack_i32() {
        Some(i) => Ok(i64::from(i)),
        None => Err(format!("{} out of range", v.to_repr())),
    }
}

/// The position `pop` removes from a list of `n` elements, or starlark-go's `outOfRange`
/// message.
fn position(index: Option<i64>, n: usize) -> Result<usize, String> {
    let len = i64::try_from(n).unwrap_or(i64::MAX);
    let given = index.unwrap_or(len - 1);
    let at = if given < 0 { given + len } else { given };
    if at < 0 || at >= len {
        return Err(if n == 0 {
            format!("index {given} out of range: empty list")
        } else {
            format!("list index {given} out of range [{}:{}]", -len, len - 1)
        });
    }
    usize::try_from(at).map_err(|_| format!("list index {given} out of range"))
}

/// starlark-go's words for the crate's refusal to change a list.
fn mutation_words(e: &starlark::Error) -> Option<&'static str> {
    let text = format!("{e:#}");
    if text.contains("Immutable") {
        Some("pop: cannot pop from frozen list")
    } else if text.contains("while iterating") {
        Some("pop: cannot pop from list during iteration")
    } else {
        None
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for ListPopGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    /// starlark-go hashes a builtin by its name (a builtin may be a dict key).
    fn write_hash(
        &self,
        hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        crate::stdlib::builtin_hash::by_name("pop", hasher)
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        if !args.names_map()?.is_empty() {
            return Err(plain_err("pop: unexpected keyword arguments"));
        }
        let pos: Vec<Value<'v>> = args.positions(heap)?.collect();
        if pos.len() > 1 {
            return Err(plain_err(format!(
                "pop: got {} arguments, want at most 1",
                pos.len()
            )));
        }
        let index = match pos.first() {
            Some(v) => {
                Some(index_arg(*v).map_err(|m| plain_err(format!("pop: for parameter 1: {m}")))?)
            }
            None => None,
        };
        let list = self.list.to_value();
        let n = ListRef::from_value(list).map_or(0, |l| l.len());
        let at = position(index, n).map_err(|m| plain_err(format!("pop: {m}")))?;
        let at = i32::try_from(at).map_err(|_| plain_err("pop: list too long"))?;
        let method = list.get_attr_error("pop", heap)?;
        eval.eval_function(method, &[heap.alloc(at)], &[])
            .map_err(|e| match mutation_words(&e) {
                Some(words) => plain_err(words),
                None => e,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_from_the_end_and_fail_in_starlark_gos_words() {
        assert_eq!(position(None, 3), Ok(2));
        assert_eq!(position(Some(-1), 3), Ok(2));
        assert_eq!(position(Some(-3), 3), Ok(0));
        assert_eq!(
            position(Some(3), 3),
            Err("list index 3 out of range [-3:2]".to_string())
        );
        assert_eq!(
            position(Some(-4), 3),
            Err("list index -4 out of range [-3:2]".to_string())
        );
        assert_eq!(
            position(None, 0),
            Err("index -1 out of range: empty list".to_string())
        );
        assert_eq!(
            position(Some(0), 0),
            Err("index 0 out of range: empty list".to_string())
        );
    }
}
