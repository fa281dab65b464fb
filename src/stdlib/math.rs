//! `@ytt:math`: the floating-point functions ytt provides (`ceil`, `floor`, `round`, `mod`,
//! `pow`, `sqrt`, `exp`, `log(x, base=e)`, trigonometric and hyperbolic functions, `hypot`,
//! `copysign`, `fabs`, `remainder`, `degrees`, `radians`, `gamma`) and the constants `e` and
//! `pi`. Arguments may be ints or floats; results are floats, except `ceil` and `floor`,
//! which give ints. As ytt warns, results are not guaranteed bit-identical across platforms.
//!
//! Errors carry the builtin names ytt gives them (including `round` for `mod`).

use num_bigint::BigInt;
use num_traits::FromPrimitive;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::float::StarlarkFloat;
use starlark::values::{Heap, Value, ValueLike};

use super::args::{as_f64, err, go_type, plain_err, Args};

fn unary(name: &str, args: &Args<'_>, f: fn(f64) -> f64) -> starlark::Result<f64> {
    let [x] = args.items[..] else {
        return Err(err(name, "expected exactly one argument"));
    };
    Ok(f(as_f64(name, x)?))
}

fn binary(name: &str, args: &Args<'_>, f: fn(f64, f64) -> f64) -> starlark::Result<f64> {
    let [x, y] = args.items[..] else {
        return Err(err(name, "expected exactly two arguments"));
    };
    Ok(f(as_f64(name, x)?, as_f64(name, y)?))
}

/// `ceil`/`floor`: ints are returned as they are, floats rounded to an int.
fn to_int<'v>(
    name: &str,
    args: &Args<'v>,
    heap: Heap<'v>,
    round: fn(f64) -> f64,
) -> starlark::Result<Value<'v>> {
    let x = match args.items[..] {
        [x] => x,
        [] => {
            return Err(err(
                name,
                format!("{name}: got 0 arguments, want at least 1"),
            ))
        }
        _ => {
            return Err(err(
                name,
                format!("{name}: got {} arguments, want at most 1", args.items.len()),
            ))
        }
    };
    if x.get_type() == "int" {
        return Ok(x);
    }
    let Some(f) = x.downcast_ref::<StarlarkFloat>() else {
        return Err(err(
            name,
            format!("expected float value, but was {}", go_type(x)),
        ));
    };
    let r = round(f.0);
    if r.is_nan() {
        return Err(err(name, "cannot convert float NaN to integer"));
    }
    if r.is_infinite() {
        return Err(err(name, "cannot convert float infinity to integer"));
    }
    if r.abs() < 9.0e15 {
        return Ok(heap.alloc(r as i64));
    }
    match BigInt::from_f64(r) {
        Some(b) => Ok(heap.alloc(b)),
        None => Err(err(name, "cannot convert float to integer")),
    }
}

/// The IEEE 754 remainder: `x - n*y` with `n` the integer nearest `x/y` (ties to even).
pub fn ieee_remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let (ax, ay) = (x.abs(), y.abs());
    // `%` is exact; it leaves the remainder of truncated division.
    let mut r = ax % ay;
    let quotient_odd = ((ax - r) / ay) % 2.0 == 1.0;
    if r > ay / 2.0 || (r == ay / 2.0 && quotient_odd) {
        r -= ay;
    }
    if x.is_sign_negative() {
        -r
    } else {
        r
    }
}

/// The gamma function (Lanczos approximation; exact factorials for small whole numbers).
pub fn gamma_fn(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if x < 0.0 && x.fract() == 0.0 {
        return f64::NAN;
    }
    if x > 171.7 {
        return f64::INFINITY;
    }
    if x.fract() == 0.0 && x <= 23.0 {
        return (1..x as u32).map(f64::from).product();
    }
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1-x) = π / sin(πx).
        return std::f64::consts::PI / ((std::f64::consts::PI * x).sin() * gamma_fn(1.0 - x));
    }
    const G: f64 = 7.0;
    const COEF: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut a = COEF[0];
    let t = x + G + 0.5;
    for (i, c) in COEF.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
}

/// Registers the module's members.
pub fn register(builder: &mut GlobalsBuilder) {
    functions(builder);
    builder.set("e", std::f64::consts::E);
    builder.set("pi", std::f64::consts::PI);
}

#[starlark_module]
fn functions(builder: &mut GlobalsBuilder) {
    fn ceil<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        to_int("ceil", &args, heap, f64::ceil)
    }

    fn floor<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        to_int("floor", &args, heap, f64::floor)
    }

    fn copysign(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        binary("copysign", &args, f64::copysign)
    }

    fn fabs(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("fabs", &args, f64::abs)
    }

    fn r#mod(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        // ytt names this builtin `round`.
        binary("round", &args, |x, y| x % y)
    }

    fn pow(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        binary("pow", &args, super::gopow::pow)
    }

    fn remainder(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        binary("remainder", &args, ieee_remainder)
    }

    fn round(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("round", &args, f64::round)
    }

    fn exp(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("exp", &args, f64::exp)
    }

    fn sqrt(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("sqrt", &args, f64::sqrt)
    }

    fn acos(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("acos", &args, f64::acos)
    }

    fn asin(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("asin", &args, f64::asin)
    }

    fn atan(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("atan", &args, f64::atan)
    }

    fn atan2(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        binary("atan2", &args, f64::atan2)
    }

    fn cos(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("cos", &args, f64::cos)
    }

    fn hypot(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        binary("hypot", &args, f64::hypot)
    }

    fn sin(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("sin", &args, f64::sin)
    }

    fn tan(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("tan", &args, f64::tan)
    }

    fn degrees(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("degrees", &args, |x| {
            360.0 * x / (2.0 * std::f64::consts::PI)
        })
    }

    fn radians(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("radians", &args, |x| 2.0 * std::f64::consts::PI * x / 360.0)
    }

    fn acosh(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("acosh", &args, f64::acosh)
    }

    fn asinh(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("asinh", &args, f64::asinh)
    }

    fn atanh(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("atanh", &args, f64::atanh)
    }

    fn cosh(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("cosh", &args, f64::cosh)
    }

    fn sinh(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("sinh", &args, f64::sinh)
    }

    fn tanh(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("tanh", &args, f64::tanh)
    }

    fn gamma(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        unary("gamma", &args, gamma_fn)
    }

    fn log(#[starlark(args)] args: Args<'_>) -> starlark::Result<f64> {
        // Not wrapped with its name in ytt: errors read as they are.
        let (x, base) = match args.items[..] {
            [x] => (x, None),
            [x, base] => (x, Some(base)),
            [] => return Err(plain_err("log: got 0 arguments, want at least 1")),
            _ => {
                return Err(plain_err(format!(
                    "log: got {} arguments, want at most 2",
                    args.items.len()
                )))
            }
        };
        let unwrap = |v: Value<'_>| {
            as_f64("", v)
                .map_err(|_| plain_err(format!("expected float value, but was {}", go_type(v))))
        };
        let x = unwrap(x)?;
        let base = match base {
            Some(b) => unwrap(b)?,
            None => std::f64::consts::E,
        };
        Ok(x.ln() / base.ln())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainder_rounds_the_quotient_to_even() {
        assert_eq!(ieee_remainder(5.0, 2.0), 1.0);
        assert_eq!(ieee_remainder(7.0, 2.0), -1.0);
        assert_eq!(ieee_remainder(-7.0, 2.0), 1.0);
        assert_eq!(ieee_remainder(10.0, 3.0), 1.0);
        assert_eq!(ieee_remainder(11.0, 3.0), -1.0);
        assert!(ieee_remainder(1.0, 0.0).is_nan());
    }

    #[test]
    fn gamma_of_whole_and_half_numbers() {
        assert_eq!(gamma_fn(5.0), 24.0);
        assert_eq!(gamma_fn(1.0), 1.0);
        assert!((gamma_fn(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-14);
        assert!((gamma_fn(-0.5) + 2.0 * std::f64::consts::PI.sqrt()).abs() < 1e-13);
        assert!(gamma_fn(-2.0).is_nan());
        assert_eq!(gamma_fn(0.0), f64::INFINITY);
    }
}
