//! Binary operators as starlark-go (ytt's fork) evaluates them, where the crate differs:
//! `*` refuses repeats of a billion elements or more at once (`excessive repeat`), `|` does not
//! merge dicts, and `<`, `<=`, `>`, `>=` order `None` (all equal), compare lists and tuples
//! element by element with starlark-go's rules, and word their errors as starlark-go does;
//! `%` on a string interpolates as starlark-go does (`stdlib::gopercent`).
//! `eval::gocompat` turns each operator into a call of these functions.

use std::cmp::Ordering;

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, UnpackValue, Value, ValueLike};

use super::args::{go_type_name, plain_err};
use super::golike::Op;

/// starlark-go's limit on the elements one repeat may make (`maxAlloc`).
const MAX_REPEAT: i64 = 1 << 30;

/// How deep comparisons of nested lists may go (starlark-go's `maxdepth`).
const MAX_DEPTH: u32 = 10;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn __ytt_mul<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        let repeat = match (seq_len(a), seq_len(b)) {
            (Some(n), None) if b.get_type() == "int" => Some((n, b)),
            (None, Some(n)) if a.get_type() == "int" => Some((n, a)),
            _ => None,
        };
        if let Some((len, count)) = repeat {
            check_repeat(len, count)?;
        }
        a.mul(b, heap)
    }

    fn __ytt_percent<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        match a.unpack_str() {
            Some(format) => {
                let s = super::gopercent::interpolate(format, b, heap)?;
                Ok(heap.alloc_str(&s).to_value())
            }
            None => a.percent(b, heap),
        }
    }

    fn __ytt_shl<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        // The crate wraps small ints at 32 bits (`4 << 30` is 0); starlark-go does not.
        if a.get_type() == "int" && b.get_type() == "int" {
            if let (Ok(Some(x)), Ok(Some(n))) =
                (num_bigint::BigInt::unpack_value(a), i32::unpack_value(b))
            {
                if n < 0 {
                    return Err(plain_err(format!("negative shift count: {n}")));
                }
                if n >= 512 {
                    return Err(plain_err(format!("shift count too large: {n}")));
                }
                return Ok(heap.alloc(x << n as usize));
            }
        }
        a.left_shift(b, heap)
    }

    fn __ytt_bitor<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        // starlark-go's `|` joins two ints or two sets, nothing else (the crate's also merges
        // dicts and makes type unions such as `None | struct`).
        match (a.get_type(), b.get_type()) {
            ("int", "int") | ("set", "set") => a.bit_or(b, heap),
            _ => Err(plain_err(format!(
                "unknown binary op: {} | {}",
                go_type_name(a),
                go_type_name(b)
            ))),
        }
    }

    fn __ytt_lt<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compare(Op::Lt, a, b, MAX_DEPTH)
    }

    fn __ytt_le<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compare(Op::Le, a, b, MAX_DEPTH)
    }

    fn __ytt_gt<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compare(Op::Gt, a, b, MAX_DEPTH)
    }

    fn __ytt_ge<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compare(Op::Ge, a, b, MAX_DEPTH)
    }
}

/// An int against a float that is no NaN, exactly (starlark-go compares their rationals).
fn int_float_cmp(i: &num_bigint::BigInt, f: f64) -> Ordering {
    if f.is_infinite() {
        return if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    let floor = f.floor();
    let Some(whole) = <num_bigint::BigInt as num_traits::FromPrimitive>::from_f64(floor) else {
        return Ordering::Equal;
    };
    match i.cmp(&whole) {
        // `i` equals the float's whole part: the float is larger if it has a fraction.
        Ordering::Equal if f > floor => Ordering::Less,
        o => o,
    }
}

/// The length a repeat multiplies: bytes of a string, elements of a list or tuple.
fn seq_len(v: Value<'_>) -> Option<usize> {
    if let Some(s) = v.unpack_str() {
        return Some(s.len());
    }
    if let Some(l) = ListRef::from_value(v) {
        return Some(l.len());
    }
    TupleRef::from_value(v).map(|t| t.len())
}

/// starlark-go's checks before a repeat: the count must fit in 32 bits and the result must
/// stay under a billion elements.
fn check_repeat(len: usize, count: Value<'_>) -> starlark::Result<()> {
    if len == 0 {
        return Ok(());
    }
    let n = match i32::unpack_value(count) {
        Ok(Some(n)) => n,
        _ => {
            return Err(plain_err(format!(
                "repeat count {} too large",
                count.to_str()
            )))
        }
    };
    if n < 1 {
        return Ok(());
    }
    let size = (len as i64).saturating_mul(i64::from(n));
    if size >= MAX_REPEAT {
        return Err(plain_err(format!("excessive repeat ({size} elements)")));
    }
    Ok(())
}

fn float_of(v: Value<'_>) -> Option<f64> {
    v.downcast_ref::<StarlarkFloat>().map(|f| f.0)
}

fn not_implemented(op: Op, a: Value<'_>, b: Value<'_>) -> starlark::Error {
    plain_err(format!(
        "{} {} {} not implemented",
        a.get_type(),
        op.token(),
        b.get_type()
    ))
}

/// `a <op> b` as starlark-go's `Compare` decides it (for `sorted`, `min` and `max`).
pub fn compare_values<'v>(op: Op, a: Value<'v>, b: Value<'v>) -> starlark::Result<bool> {
    compare(op, a, b, MAX_DEPTH)
}

/// `a <op> b` as starlark-go's `CompareDepth` decides it.
fn compare<'v>(op: Op, a: Value<'v>, b: Value<'v>, depth: u32) -> starlark::Result<bool> {
    if depth == 0 {
        return Err(plain_err("comparison exceeded maximum recursion depth"));
    }
    let (ta, tb) = (a.get_type(), b.get_type());
    if ta == tb {
        return match ta {
            "NoneType" => Ok(op.holds(Ordering::Equal)),
            // ytt's fragment says itself that it does not compare (`yamlfragment.
            // CompareSameType: Not implemented`).
            "yamlfragment" => Ok(op.holds(a.compare(b)?)),
            "float" => Ok(match (float_of(a), float_of(b)) {
                (Some(x), Some(y)) => x.partial_cmp(&y).is_some_and(|o| op.holds(o)),
                _ => false,
            }),
            "int" | "string" | "bool" => Ok(op.holds(a.compare(b)?)),
            "list" | "tuple" => {
                let items = |v: Value<'v>| -> Vec<Value<'v>> {
                    match ListRef::from_value(v) {
                        Some(l) => l.content().to_vec(),
                        None => TupleRef::from_value(v)
                            .map(|t| t.content().to_vec())
                            .unwrap_or_default(),
                    }
                };
                let (xs, ys) = (items(a), items(b));
                for (x, y) in xs.iter().zip(&ys) {
                    if !x.equals(*y)? {
                        return compare(op, *x, *y, depth - 1);
                    }
                }
                Ok(op.holds(xs.len().cmp(&ys.len())))
            }
            _ => Err(not_implemented(op, a, b)),
        };
    }
    let mixed_number = matches!((ta, tb), ("int", "float") | ("float", "int"));
    if mixed_number {
        if float_of(a).or(float_of(b)).is_some_and(f64::is_nan) {
            return Ok(false);
        }
        // Exactly, as starlark-go compares an int with a float (the crate makes the int a
        // float first: `9007199254740993 > 9007199254740992.0` is false there).
        let exact = match (num_bigint::BigInt::unpack_value(a), float_of(b)) {
            (Ok(Some(i)), Some(f)) => Some(int_float_cmp(&i, f)),
            _ => match (float_of(a), num_bigint::BigInt::unpack_value(b)) {
                (Some(f), Ok(Some(i))) => Some(int_float_cmp(&i, f).reverse()),
                _ => None,
            },
        };
        return Ok(op.holds(match exact {
            Some(o) => o,
            None => a.compare(b)?,
        }));
    }
    Err(not_implemented(op, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_and_floats_compare_exactly() {
        let big = |s: &str| s.parse::<num_bigint::BigInt>().unwrap();
        let cmp = |i: &str, f: f64| int_float_cmp(&big(i), f);
        assert_eq!(
            cmp("9007199254740993", 9007199254740992.0),
            Ordering::Greater
        );
        assert_eq!(
            cmp("9223372036854775807", 9223372036854775807.0),
            Ordering::Less
        );
        assert_eq!(cmp("3", 3.0), Ordering::Equal);
        assert_eq!(cmp("3", 3.5), Ordering::Less);
        assert_eq!(cmp("-4", -3.5), Ordering::Less);
        assert_eq!(cmp("-3", -3.5), Ordering::Greater);
        assert_eq!(cmp("1", f64::NEG_INFINITY), Ordering::Greater);
    }
}
