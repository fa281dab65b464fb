//! Float formatting as Go does it: `strconv.FormatFloat(f, 'g', -1, 64)` as go-yaml prints
//! floats (`3`, `0.5`, `1e+06`, `1.5e-07`, with `.inf`, `-.inf`, `.nan`), and the shortest
//! decimal or exponent form of `encoding/json`.

/// Shortest decimal digits of a finite, non-negative float and the position of the decimal
/// point relative to them (`digits = "15", point = 1` is 1.5).
fn shortest_digits(f: f64) -> (String, i32) {
    // Rust prints the shortest representation that reads back exactly, like Go does.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    (digits, exp + 1)
}

fn sign(f: f64) -> &'static str {
    if f.is_sign_negative() {
        "-"
    } else {
        ""
    }
}

/// `d.ddde±XX` with at least two exponent digits.
fn exponent_form(f: f64, digits: &str, point: i32) -> String {
    let mut out = sign(f).to_string();
    let mut chars = digits.chars();
    if let Some(first) = chars.next() {
        out.push(first);
    }
    let rest: String = chars.collect();
    if !rest.is_empty() {
        out.push('.');
        out.push_str(&rest);
    }
    let exp = point - 1;
    let exp_sign = if exp < 0 { '-' } else { '+' };
    out.push_str(&format!("e{exp_sign}{:02}", exp.abs()));
    out
}

/// Plain decimal notation with exactly the significant digits.
fn decimal_form(f: f64, digits: &str, point: i32) -> String {
    let mut out = sign(f).to_string();
    let nd = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if point <= 0 {
        out.push_str("0.");
        for _ in 0..-point {
            out.push('0');
        }
        out.push_str(digits);
    } else if point < nd {
        let split = usize::try_from(point).unwrap_or(0);
        out.push_str(&digits[..split]);
        out.push('.');
        out.push_str(&digits[split..]);
    } else {
        out.push_str(digits);
        for _ in 0..point - nd {
            out.push('0');
        }
    }
    out
}

/// go-yaml's float text: Go's `%g` with the shortest precision, YAML names for the specials.
pub(crate) fn format_float_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    if f == 0.0 {
        return format!("{}0", sign(f));
    }
    let (digits, point) = shortest_digits(f);
    let exp = point - 1;
    if !(-4..6).contains(&exp) {
        exponent_form(f, &digits, point)
    } else {
        decimal_form(f, &digits, point)
    }
}

/// `encoding/json`'s float text, or `None` for NaN and infinities (which Go refuses to encode).
pub(crate) fn format_float_json(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    if f == 0.0 {
        return Some(format!("{}0", sign(f)));
    }
    let (digits, point) = shortest_digits(f);
    let abs = f.abs();
    if !(1e-6..1e21).contains(&abs) {
        let text = exponent_form(f, &digits, point);
        // Go trims one leading zero from a negative two-digit exponent: e-07 becomes e-7.
        return Some(match text.rsplit_once("e-0") {
            Some((head, tail)) if tail.len() == 1 => format!("{head}e-{tail}"),
            _ => text,
        });
    }
    Some(decimal_form(f, &digits, point))
}

/// Go's name for a float that JSON cannot represent, as in `json: unsupported value: NaN`.
pub(crate) fn go_special_float_name(f: f64) -> &'static str {
    if f.is_nan() {
        "NaN"
    } else if f > 0.0 {
        "+Inf"
    } else {
        "-Inf"
    }
}

#[cfg(test)]
mod tests {
    use super::{format_float_g as g, format_float_json as j};

    #[test]
    fn yaml_floats_follow_go_g_format() {
        assert_eq!(g(3.0), "3");
        assert_eq!(g(0.5), "0.5");
        assert_eq!(g(123.123), "123.123");
        assert_eq!(g(-1.25), "-1.25");
        assert_eq!(g(100000.0), "100000");
        assert_eq!(g(1e6), "1e+06");
        assert_eq!(g(123456789.0), "1.23456789e+08");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(0.00001), "1e-05");
        assert_eq!(g(1.5e-7), "1.5e-07");
        assert_eq!(g(1e100), "1e+100");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(0.0), "0");
        assert_eq!(g(f64::INFINITY), ".inf");
        assert_eq!(g(f64::NEG_INFINITY), "-.inf");
        assert_eq!(g(f64::NAN), ".nan");
        assert_eq!(g(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn json_floats_follow_encoding_json() {
        assert_eq!(j(3.0).as_deref(), Some("3"));
        assert_eq!(j(1e6).as_deref(), Some("1000000"));
        assert_eq!(j(1e20).as_deref(), Some("100000000000000000000"));
        assert_eq!(j(1e21).as_deref(), Some("1e+21"));
        assert_eq!(j(1.5e-7).as_deref(), Some("1.5e-7"));
        assert_eq!(j(1e-10).as_deref(), Some("1e-10"));
        assert_eq!(j(0.000001).as_deref(), Some("0.000001"));
        assert_eq!(j(-2.5).as_deref(), Some("-2.5"));
        assert_eq!(j(f64::NAN), None);
    }
}
