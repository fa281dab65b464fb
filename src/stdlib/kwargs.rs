//! The runtime half of `f(*value)` and `f(**value)` (see `template::kwargs_splat`). After
//! `*` starlark-go spreads any iterable but a string (`argument after * must be iterable, not
//! string`). After `**` it spreads any mapping it can enumerate, a struct or a YAML map
//! fragment as well as a dict (fragment values stay fragments, as ytt looks them up; see
//! `stdlib::godict`), and names what is not one with its messages (`argument after ** must be
//! a mapping, not list`, `keywords must be strings, not int`); what it gives the crate is then
//! always a dict of string keys. `__ytt_named` gathers the named arguments after a `*`
//! spread of a call written over several lines into one `**` mapping
//! (`template::named_after_star`).

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::Value;

use super::args::plain_err;
use super::godict::mapping_items;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    /// A `*` argument as starlark-go spreads it: any iterable but a string.
    fn __ytt_args<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        if value.unpack_str().is_some() || value.iterate(eval.heap()).is_err() {
            return Err(plain_err(format!(
                "argument after * must be iterable, not {}",
                value.get_type()
            )));
        }
        Ok(value)
    }

    fn __ytt_kwargs<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let Some(items) = mapping_items(value, heap) else {
            return Err(plain_err(format!(
                "argument after ** must be a mapping, not {}",
                value.get_type()
            )));
        };
        let items = items.map_err(plain_err)?;
        if let Some((k, _)) = items.iter().find(|(k, _)| k.unpack_str().is_none()) {
            return Err(plain_err(format!(
                "keywords must be strings, not {}",
                k.get_type()
            )));
        }
        Ok(heap.alloc(AllocDict(items)))
    }

    /// The named arguments written after a `*` spread in a call over several lines, as the
    /// one `**` mapping they become there (see `template::named_after_star`).
    fn __ytt_named<'v>(
        #[starlark(kwargs)] kwargs: DictRef<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let items: Vec<(Value<'v>, Value<'v>)> = kwargs.iter().collect();
        Ok(eval.heap().alloc(AllocDict(items)))
    }
}
