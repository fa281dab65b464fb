//! Kubernetes resource quantities (`2Gi`, `1G`, `500m`, `1.5Gi`, `1e3`) as the template
//! validator reads them: the exact value, and whether Go's `Quantity.AsInt64` would convert it.
//!
//! `AsInt64` only succeeds for quantities that `ParseQuantity` stored in its fast int64 form with
//! a non-negative scale: a binary suffix with a fraction (`1.5Gi`), any fraction left after the
//! suffix (`1500m`, `0.5`, `1.0`) or a number too long for int64 takes the slow decimal form, and
//! the validator then reports "mismatching type". The linter knows the exact value anyway.

/// A parsed quantity.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    /// The exact value is `mantissa / 10^scale` (scale may be 0), when it fits in i128.
    pub mantissa: Option<i128>,
    pub scale: u32,
    /// What the validator's `AsInt64` yields: `None` when it fails.
    pub as_int64: Option<i64>,
}

impl Quantity {
    /// The exact value rounded up to an integer (as `Quantity.Value()` rounds), if it fits.
    pub fn ceil(&self) -> Option<i128> {
        let m = self.mantissa?;
        let d = 10i128.checked_pow(self.scale)?;
        let q = m.div_euclid(d);
        Some(if m.rem_euclid(d) == 0 { q } else { q + 1 })
    }

    /// The exact value is a whole number.
    pub fn is_integral(&self) -> bool {
        match (self.mantissa, 10i128.checked_pow(self.scale)) {
            (Some(m), Some(d)) => m % d == 0,
            _ => false,
        }
    }
}

/// The pieces `parseQuantityString` cuts a quantity into.
struct Parts<'a> {
    positive: bool,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

fn split(text: &str) -> Option<Parts<'_>> {
    let b = text.as_bytes();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    while pos < b.len() && b[pos] == b'0' {
        pos += 1;
    }
    let start = pos;
    while pos < b.len() && b[pos].is_ascii_digit() {
        pos += 1;
    }
    let num = if pos == start { "0" } else { &text[start..pos] };
    let mut denom = "";
    if pos < b.len() && b[pos] == b'.' {
        pos += 1;
        let d = pos;
        while pos < b.len() && b[pos].is_ascii_digit() {
            pos += 1;
        }
        denom = &text[d..pos];
    }
    let suffix_start = pos;
    while pos < b.len() && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < b.len() && (b[pos] == b'-' || b[pos] == b'+') {
        pos += 1;
    }
    while pos < b.len() && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos != b.len() {
        return None;
    }
    Some(Parts {
        positive,
        num,
        denom,
        suffix: &text[suffix_start..],
    })
}

/// Base (2 or 10), exponent and whether the form is binary, for a suffix.
fn interpret(suffix: &str) -> Option<(u32, i32, bool)> {
    let dec = |e| Some((10, e, false));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => Some((2, 10, true)),
        "Mi" => Some((2, 20, true)),
        "Gi" => Some((2, 30, true)),
        "Ti" => Some((2, 40, true)),
        "Pi" => Some((2, 50, true)),
        "Ei" => Some((2, 60, true)),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E'])?;
            let e: i32 = rest.parse().ok()?;
            dec(e)
        }
    }
}

/// Parses a quantity; `None` when Kubernetes would reject the text.
pub fn parse(text: &str) -> Option<Quantity> {
    if text.is_empty() {
        return None;
    }
    let p = split(text)?;
    let (base, exp, binary) = interpret(p.suffix)?;
    let digits: String = format!("{}{}", p.num, p.denom);
    let sign: i128 = if p.positive { 1 } else { -1 };
    let (mantissa, scale) = exact(&digits, p.denom.len(), base, exp);
    let mantissa = mantissa.map(|m| m * sign);
    let as_int64 = fast_int64(&p, &digits, exp, binary);
    Some(Quantity {
        mantissa,
        scale,
        as_int64,
    })
}

/// The exact value of `digits / 10^frac * base^exp` as mantissa and decimal scale.
fn exact(digits: &str, frac: usize, base: u32, exp: i32) -> (Option<i128>, u32) {
    let m: Option<i128> = digits.parse().ok();
    let mut scale = frac as i64;
    let Some(mut m) = m else {
        return (None, 0);
    };
    if base == 2 {
        m = match m.checked_mul(1i128 << exp.clamp(0, 100)) {
            Some(v) => v,
            None => return (None, 0),
        };
    } else {
        scale -= i64::from(exp);
    }
    if scale < 0 {
        let Ok(up) = u32::try_from(-scale) else {
            return (None, 0);
        };
        match 10i128.checked_pow(up).and_then(|f| m.checked_mul(f)) {
            Some(v) => (Some(v), 0),
            None => (None, 0),
        }
    } else {
        match u32::try_from(scale) {
            Ok(s) if s <= 38 => (Some(m), s),
            _ => (None, 0),
        }
    }
}

/// Go's fast path in `ParseQuantity` followed by `int64Amount.AsInt64`.
fn fast_int64(p: &Parts, digits: &str, exp: i32, binary: bool) -> Option<i64> {
    let (precision, mut scale, mantissa): (i64, i64, i64) = if binary {
        if exp >= 0 && p.denom.is_empty() {
            let digits_prec = (exp as f32 * 3.0 / 10.0) as i64;
            (15 - p.num.len() as i64 - digits_prec - 1, 0, 1i64 << exp)
        } else {
            (-1, 0, 1)
        }
    } else {
        (18 - (p.num.len() + p.denom.len()) as i64, i64::from(exp), 1)
    };
    if precision < 0 {
        return None;
    }
    scale -= p.denom.len() as i64;
    if scale < -9 {
        return None;
    }
    let value: i64 = digits.parse().ok()?;
    let mut result = value.checked_mul(mantissa)?;
    if !p.positive {
        result = -result;
    }
    if scale < 0 {
        return None;
    }
    let factor = 10i64.checked_pow(u32::try_from(scale).ok()?)?;
    result.checked_mul(factor)
}

/// The shortest binary-suffixed or plain spelling of a whole number of bytes (`1536Mi`).
pub fn canonical(value: i128) -> String {
    const SUFFIXES: [(&str, u32); 6] = [
        ("Ei", 60),
        ("Pi", 50),
        ("Ti", 40),
        ("Gi", 30),
        ("Mi", 20),
        ("Ki", 10),
    ];
    if value != 0 {
        for (suffix, shift) in SUFFIXES {
            let unit = 1i128 << shift;
            if value % unit == 0 {
                return format!("{}{}", value / unit, suffix);
            }
        }
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> Option<i64> {
        parse(text).and_then(|q| q.as_int64)
    }

    #[test]
    fn whole_quantities_convert() {
        assert_eq!(int("2Gi"), Some(2147483648));
        assert_eq!(int("1G"), Some(1_000_000_000));
        assert_eq!(int("1536Mi"), Some(1610612736));
        assert_eq!(int("8Gi"), Some(8589934592));
        assert_eq!(int("0"), Some(0));
        assert_eq!(int("1073741824"), Some(1073741824));
        assert_eq!(int("1.5G"), Some(1_500_000_000));
        assert_eq!(int("1e3"), Some(1000));
        assert_eq!(int("-2Ki"), Some(-2048));
    }

    #[test]
    fn fractional_forms_do_not_convert_but_have_exact_values() {
        let q = parse("1.5Gi").unwrap();
        assert_eq!(q.as_int64, None);
        assert_eq!(q.ceil(), Some(1610612736));
        assert!(q.is_integral());
        assert_eq!(int("1500m"), None);
        assert_eq!(int("1.0"), None);
        assert_eq!(int("2.0Gi"), None);
        assert_eq!(parse("500m").unwrap().ceil(), Some(1));
        assert!(!parse("500m").unwrap().is_integral());
    }

    #[test]
    fn rejects_bad_text() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("1Gb"), None);
        assert_eq!(parse("abc"), None);
        assert_eq!(parse("1e"), None);
    }

    #[test]
    fn canonical_spelling() {
        assert_eq!(canonical(1610612736), "1536Mi");
        assert_eq!(canonical(2147483648), "2Gi");
        assert_eq!(canonical(1000), "1000");
    }
}
