//! `x[i]` as starlark-go words its failures: `list index 3 out of range [-2:1]`, `index 0 out
//! of range: empty tuple`, `string index: got string, want int`. The crate's messages name
//! neither the indexed value's type nor its length, so an evaluation that fails in an index
//! expression runs once more with that one expression made a call of `__ytt_index`
//! (`eval::index_retry`); every other `x[i]` stays the crate's own operator.

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, UnpackValue, Value};

use super::args::{go_type_name, plain_err};
use crate::eval::index_retry::{go_words, Indexed};

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn __ytt_index<'v>(
        #[starlark(require = pos)] x: Value<'v>,
        #[starlark(require = pos)] i: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        x.at(i, heap).map_err(|e| words(x, i).map_or(e, plain_err))
    }
}

/// starlark-go's message for `x[i]`, when `x` is a list, a tuple or a string and starlark-go
/// fails on `i` (`None` where it would not, as for an index into a multi-byte character,
/// which the crate and starlark-go count differently).
fn words(x: Value<'_>, i: Value<'_>) -> Option<String> {
    let (kind, len) = if let Some(l) = ListRef::from_value(x) {
        ("list", l.len())
    } else if let Some(t) = TupleRef::from_value(x) {
        ("tuple", t.len())
    } else {
        // starlark-go counts a string's bytes.
        ("string", x.unpack_str()?.len())
    };
    let index = if i.get_type() == "int" {
        match i32::unpack_value(i) {
            Ok(Some(n)) => Indexed::Int(i64::from(n)),
            _ => Indexed::TooBig(i.to_repr()),
        }
    } else {
        Indexed::Other(go_type_name(i))
    };
    go_words(kind, len, index)
}
