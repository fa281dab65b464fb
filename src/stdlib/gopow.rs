//! `math.pow` as ytt computes it: Go's `math.Pow` algorithm (the fraction of the exponent
//! through `exp(yf * ln x)`, the integer part by repeated squaring of the mantissa with the
//! powers of two kept apart), so results agree with ytt to the last digit where the C library's
//! `pow` rounds otherwise (`math.pow(123456789.0, 2)` is `1.524157875019052e+16`).

/// Go's `math.Pow(x, y)`.
pub fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        let odd = x.is_sign_negative() && is_odd_int(y);
        return match (y < 0.0, odd) {
            (true, true) => f64::NEG_INFINITY,
            (true, false) => f64::INFINITY,
            (false, true) => x,
            (false, false) => 0.0,
        };
    }
    if y.is_infinite() {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let mut yi = y.abs().trunc();
    let mut yf = y.abs() - yi;
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= (1u64 << 63) as f64 {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    // The answer is a1 * 2**ae.
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = (yf * x.ln()).exp();
    }
    let (mut x1, mut xe) = frexp(x);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            // Overflows or underflows whatever bits are left.
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

fn is_odd_int(x: f64) -> bool {
    if x.abs() >= 9_007_199_254_740_992.0 {
        return false;
    }
    x.fract() == 0.0 && (x.trunc() as i64) & 1 == 1
}

const MASK: u64 = 0x7FF;
const SHIFT: u32 = 52;
const BIAS: i64 = 1023;
const SMALLEST_NORMAL: f64 = 2.225_073_858_507_201_4e-308;

/// A subnormal scaled up to a normal number, and the power of two taken out.
fn normalize(x: f64) -> (f64, i64) {
    if x.abs() < SMALLEST_NORMAL {
        return (x * (1u64 << 52) as f64, -52);
    }
    (x, 0)
}

/// `x = frac * 2**exp` with `0.5 <= |frac| < 1`.
fn frexp(f: f64) -> (f64, i64) {
    if f == 0.0 || f.is_infinite() || f.is_nan() {
        return (f, 0);
    }
    let (f, e) = normalize(f);
    let mut bits = f.to_bits();
    let exp = e + ((bits >> SHIFT) & MASK) as i64 - BIAS + 1;
    bits &= !(MASK << SHIFT);
    bits |= ((BIAS - 1) as u64) << SHIFT;
    (f64::from_bits(bits), exp)
}

/// `frac * 2**exp`, as Go rounds it into the subnormals.
fn ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || frac.is_infinite() || frac.is_nan() {
        return frac;
    }
    let (frac, e) = normalize(frac);
    let mut bits = frac.to_bits();
    let mut exp = exp + e + ((bits >> SHIFT) & MASK) as i64 - BIAS;
    if exp < -1075 {
        return 0.0_f64.copysign(frac);
    }
    if exp > 1023 {
        return if frac < 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    bits &= !(MASK << SHIFT);
    bits |= ((exp + BIAS) as u64) << SHIFT;
    m * f64::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_powers_round_as_go_does() {
        assert_eq!(pow(123456789.0, 2.0), 15241578750190520.0);
        assert_eq!(pow(2.5, 3.0), 15.625);
        assert_eq!(pow(2.0, -2.0), 0.25);
        assert_eq!(pow(-2.0, 3.0), -8.0);
        assert_eq!(pow(10.0, 400.0), f64::INFINITY);
        assert_eq!(pow(2.0, -1074.0), f64::from_bits(1));
        assert_eq!(pow(-0.0, -3.0), f64::NEG_INFINITY);
        assert!(pow(-8.0, 0.5).is_nan());
        assert_eq!(pow(4.0, 0.5), 2.0);
    }

    #[test]
    fn frexp_and_ldexp_invert() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(ldexp(0.75, 2), 3.0);
        assert_eq!(ldexp(0.5, -1073), f64::from_bits(1));
    }
}
