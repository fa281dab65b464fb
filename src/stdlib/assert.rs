//! `@ytt:assert`: `fail(msg)`, `equals(expected, actual)` (compared as YAML text),
//! `try_to(fn)` (a call turned into `(result, None)` or `(None, error message)`), and the
//! assertion builders `min`, `max`, `min_len`, `max_len`, `not_null`, `one_not_null` and
//! `one_of`, whose values carry a `check(value)` (see `assertion` and `assert_rules`).

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::none::NoneType;
use starlark::values::{Heap, Value};

use super::args::{as_str, err, go_type, is_callable, is_sequence, want_count, wrap, Args};
use super::assert_rules::{length_bound, plain_items, Rule};
use super::assertion::{check_error, Assertion};
use super::yaml::{encode_starlark, round_trip};
use crate::eval::errors::plain_message;
use crate::eval::host::Extra;
use crate::eval::run::LibEnv;

/// The YAML text `assert.equals` compares.
fn as_yaml(name: &str, v: Value<'_>) -> starlark::Result<String> {
    encode_starlark(v).map_err(|e| wrap(name, &e))
}

fn alloc_rule(heap: Heap<'_>, rule: Rule) -> Value<'_> {
    heap.alloc(Assertion::new(rule))
}

/// Whether the library ran out of time (then `try_to` must not swallow the error).
fn out_of_time(eval: &Evaluator<'_, '_, '_>) -> bool {
    let Some(extra) = eval.extra else {
        return false;
    };
    if let Some(e) = extra.downcast_ref::<Extra>() {
        return e.host.env().limits.expired();
    }
    extra
        .downcast_ref::<LibEnv>()
        .is_some_and(|env| env.limits.expired())
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn fail(#[starlark(args)] args: Args<'_>) -> starlark::Result<NoneType> {
        const NAME: &str = "assert.fail";
        want_count(NAME, &args.items, 1)?;
        let msg = as_str(NAME, args.items[0])?;
        Err(err(NAME, format!("fail: {msg}")))
    }

    fn equals(#[starlark(args)] args: Args<'_>) -> starlark::Result<NoneType> {
        const NAME: &str = "assert.equals";
        want_count(NAME, &args.items, 2)?;
        let (expected, actual) = (args.items[0], args.items[1]);
        for v in [expected, actual] {
            if is_callable(v) {
                return Err(err(
                    NAME,
                    format!(
                        "expected argument not to be a function, but was {}",
                        go_type(v)
                    ),
                ));
            }
        }
        let want = as_yaml(NAME, expected)?;
        let got = as_yaml(NAME, actual)?;
        if want != got {
            return Err(err(
                NAME,
                format!(
                    "Not equal:\n(expected type: {})\n{want}\n\n(was type: {})\n{got}",
                    expected.get_type(),
                    actual.get_type()
                ),
            ));
        }
        Ok(NoneType)
    }

    fn try_to<'v>(
        #[starlark(args)] args: Args<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.try_to";
        want_count(NAME, &args.items, 1)?;
        let f = args.items[0];
        if !is_callable(f) {
            return Err(err(
                NAME,
                format!("expected argument to be a function, but was {}", go_type(f)),
            ));
        }
        let heap = eval.heap();
        match eval.eval_function(f, &[], &[]) {
            Ok(v) => Ok(heap.alloc((v, Value::new_none()))),
            Err(e) if out_of_time(eval) => Err(e),
            Err(e) => {
                let msg = heap.alloc_str(&plain_message(&e)).to_value();
                Ok(heap.alloc((Value::new_none(), msg)))
            }
        }
    }

    fn min<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        want_count("assert.min", &args.items, 1)?;
        Ok(alloc_rule(heap, Rule::Min(round_trip(args.items[0]))))
    }

    fn max<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        want_count("assert.max", &args.items, 1)?;
        Ok(alloc_rule(heap, Rule::Max(round_trip(args.items[0]))))
    }

    fn min_len<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.min_len";
        want_count(NAME, &args.items, 1)?;
        Ok(alloc_rule(
            heap,
            Rule::MinLen(length_bound(args.items[0]).map_err(|m| err(NAME, m))?),
        ))
    }

    fn max_len<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.max_len";
        want_count(NAME, &args.items, 1)?;
        Ok(alloc_rule(
            heap,
            Rule::MaxLen(length_bound(args.items[0]).map_err(|m| err(NAME, m))?),
        ))
    }

    fn not_null<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.not_null";
        match args.items[..] {
            [] => Ok(alloc_rule(heap, Rule::NotNull)),
            // The short form checks at once: `assert.not_null(value)`.
            [v] => match Rule::NotNull.check_starlark(v) {
                Ok(()) => Ok(Value::new_bool(true)),
                Err(m) => Err(wrap(NAME, &check_error(m))),
            },
            _ => Err(err(
                NAME,
                format!("got {} arguments, want at most 1", args.items.len()),
            )),
        }
    }

    fn one_not_null<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.one_not_null";
        let keys = match args.items[..] {
            [] => None,
            [v] if v.unpack_bool() == Some(true) => None,
            [v] if v.unpack_bool() == Some(false) => {
                return Err(err(NAME, "one_not_null() cannot be False"))
            }
            [v] if is_sequence(v, heap) => Some(plain_items(v, heap)),
            [v] => {
                return Err(err(
                    NAME,
                    format!("expected a sequence of keys, but was a '{}'", v.get_type()),
                ))
            }
            _ => {
                return Err(err(
                    NAME,
                    format!("got {} arguments, want 1", args.items.len()),
                ))
            }
        };
        Ok(alloc_rule(heap, Rule::OneNotNull(keys)))
    }

    fn one_of<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.one_of";
        let set = match args.items[..] {
            [] => return Err(err(NAME, "got 0 arguments, want at least 1")),
            [one] => one,
            _ => heap.alloc(starlark::values::tuple::AllocTuple(
                args.items.iter().copied(),
            )),
        };
        if !is_sequence(set, heap) {
            return Err(err(
                NAME,
                format!("expected a sequence, but was a '{}'", set.get_type()),
            ));
        }
        Ok(alloc_rule(heap, Rule::OneOf(round_trip(set))))
    }
}
