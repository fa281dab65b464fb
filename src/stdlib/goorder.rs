//! `sorted`, `min` and `max` as starlark-go (ytt's fork) has them. They order values with the
//! same comparison as the `<` operator (`goops::compare`): `None` orders with `None`, lists
//! and tuples compare element by element, and a pair that does not order is named in Go's
//! words (`min: string < int not implemented`). `sorted` runs Go's stable sort
//! (`stdlib::gosort`) and reports the last comparison error it met, without a prefix, as Go
//! does; its arguments, and `min`'s and `max`'s `key`, are checked as Go's `UnpackArgs` checks
//! them. The crate's versions failed on `sorted([None, None])`, which ytt renders.

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::Value;

use super::args::{plain_err, Args, Kwargs};
use super::golike::Op;
use super::goops::compare_values;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn sorted<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let [iterable, key, reverse] = unpack(
            "sorted",
            &args.items,
            &kwargs,
            &["iterable", "key?", "reverse?"],
        )?;
        let Some((iterable, how)) = iterable else {
            return Err(plain_err("sorted: missing argument for iterable"));
        };
        let values = iterate(iterable, eval)
            .ok_or_else(|| type_error("sorted", "iterable", how, iterable, "iterable"))?;
        let key = match key {
            Some((k, how)) if !callable(k) => {
                return Err(type_error("sorted", "key", how, k, "callable"))
            }
            Some((k, _)) => Some(k),
            None => None,
        };
        let reverse = match reverse {
            None => false,
            Some((r, how)) => r
                .unpack_bool()
                .ok_or_else(|| type_error("sorted", "reverse", how, r, "bool"))?,
        };
        let mut pairs: Vec<(Value<'v>, Value<'v>)> = Vec::with_capacity(values.len());
        for v in values {
            let k = match key {
                Some(f) => eval.eval_function(f, &[v], &[])?,
                None => v,
            };
            pairs.push((k, v));
        }
        // Go keeps the last error and goes on sorting with `false` for that pair.
        let mut failed: Option<starlark::Error> = None;
        let mut less = |x: &(Value<'v>, Value<'v>), y: &(Value<'v>, Value<'v>)| {
            let (a, b) = if reverse { (y.0, x.0) } else { (x.0, y.0) };
            match compare_values(Op::Lt, a, b) {
                Ok(lt) => lt,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        };
        super::gosort::stable(&mut pairs, &mut less);
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(eval
            .heap()
            .alloc(pairs.into_iter().map(|(_, v)| v).collect::<Vec<_>>()))
    }

    fn min<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        extremum("min", Op::Lt, &args.items, &kwargs, eval)
    }

    fn max<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        extremum("max", Op::Gt, &args.items, &kwargs, eval)
    }
}

/// How an argument was given: by position, or by keyword (Go quotes the name then).
#[derive(Clone, Copy)]
enum Given {
    Position,
    Keyword,
}

/// Go's `UnpackArgs` for `params` (`name?` optional and all after it): each parameter's value
/// and how it was given, or Go's message for too many, unknown, repeated or missing ones.
fn unpack<'v, const N: usize>(
    name: &str,
    args: &[Value<'v>],
    kwargs: &Kwargs<'v>,
    params: &[&str; N],
) -> starlark::Result<[Option<(Value<'v>, Given)>; N]> {
    let mut out: [Option<(Value<'v>, Given)>; N] = [None; N];
    if args.len() > N {
        return Err(plain_err(format!(
            "{name}: got {} arguments, want at most {N}",
            args.len()
        )));
    }
    for (slot, v) in out.iter_mut().zip(args) {
        *slot = Some((*v, Given::Position));
    }
    for (k, v) in kwargs {
        let k = crate::template::keywords::original(k);
        let Some(i) = params.iter().position(|p| p.trim_end_matches('?') == k) else {
            return Err(plain_err(format!(
                "{name}: unexpected keyword argument \"{k}\""
            )));
        };
        if out[i].is_some() {
            return Err(plain_err(format!(
                "{name}: got multiple values for keyword argument \"{k}\""
            )));
        }
        out[i] = Some((*v, Given::Keyword));
    }
    if let Some(missing) = params
        .iter()
        .zip(&out)
        .take_while(|(p, _)| !p.ends_with('?'))
        .find(|(_, v)| v.is_none())
    {
        return Err(plain_err(format!(
            "{name}: missing argument for {}",
            missing.0
        )));
    }
    Ok(out)
}

/// Go's message for an argument of the wrong type.
fn type_error(name: &str, param: &str, how: Given, v: Value<'_>, want: &str) -> starlark::Error {
    let param = match how {
        Given::Position => param.to_string(),
        Given::Keyword => format!("\"{param}\""),
    };
    plain_err(format!(
        "{name}: for parameter {param}: got {}, want {want}",
        v.get_type()
    ))
}

/// The elements of a value starlark-go can iterate (a string is not one), or `None`.
fn iterate<'v>(v: Value<'v>, eval: &mut Evaluator<'v, '_, '_>) -> Option<Vec<Value<'v>>> {
    if v.unpack_str().is_some() {
        return None;
    }
    v.iterate(eval.heap()).ok().map(Iterator::collect)
}

fn callable(v: Value<'_>) -> bool {
    matches!(
        v.get_type(),
        "function" | "builtin_function_or_method" | "native_method"
    )
}

/// `min` or `max`: the first element whose key is strictly beyond every earlier one's.
fn extremum<'v>(
    name: &str,
    op: Op,
    args: &[Value<'v>],
    kwargs: &Kwargs<'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    if args.is_empty() {
        return Err(plain_err(format!(
            "{name} requires at least one positional argument"
        )));
    }
    let [key] = unpack(name, &[], kwargs, &["key?"])?;
    let key = match key {
        Some((k, how)) if !callable(k) => return Err(type_error(name, "key", how, k, "callable")),
        Some((k, _)) => Some(k),
        None => None,
    };
    let values = match args {
        [one] => iterate(*one, eval).ok_or_else(|| {
            plain_err(format!("{name}: {} value is not iterable", one.get_type()))
        })?,
        many => many.to_vec(),
    };
    let mut items = values.into_iter();
    let Some(mut best) = items.next() else {
        return Err(plain_err(format!("{name}: argument is an empty sequence")));
    };
    let key_of = |v: Value<'v>, eval: &mut Evaluator<'v, '_, '_>| match key {
        Some(f) => eval.eval_function(f, &[v], &[]),
        None => Ok(v),
    };
    let mut best_key = key_of(best, eval)?;
    for x in items {
        let k = key_of(x, eval)?;
        let beyond = compare_values(op, k, best_key).map_err(|e| {
            plain_err(format!(
                "{name}: {}",
                crate::eval::errors::plain_message(&e)
            ))
        })?;
        if beyond {
            best = x;
            best_key = k;
        }
    }
    Ok(best)
}
