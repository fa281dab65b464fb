//! starlark-go's view of plain values (what `yaml.decode` gives back): their type names, their
//! `str()` and `repr()` text, and `==`, `<`, `<=`, `>`, `>=` with starlark-go's rules and
//! errors. ytt's assertions compare values after a YAML round trip, so they work on these.

use std::cmp::Ordering;

use crate::yaml::Value;

/// starlark-go's type name of a decoded value.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Uint(_) => "int",
        Value::Float(_) => "float",
        Value::String(_) => "string",
        Value::Map(_) => "dict",
        Value::Array(_) => "list",
    }
}

/// `str(v)`: strings as they are, anything else as its `repr`.
pub fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => repr(other),
    }
}

/// `repr(v)` as starlark-go prints it.
pub fn repr(v: &Value) -> String {
    match v {
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Float(f) => format_g(*f, 6),
        Value::String(s) => quote(s),
        Value::Array(a) => {
            let items: Vec<String> = a.items.iter().map(|i| repr(&i.value)).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Map(m) => {
            let items: Vec<String> = m
                .items
                .iter()
                .map(|i| format!("{}: {}", repr(&i.key), repr(&i.value)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// A string literal as starlark-go writes it: double quotes, Go escapes.
pub fn quote(s: &str) -> String {
    quote_escaped(s, go_control_escape)
}

/// Go's escape for a control character without one of the shared short forms.
fn go_control_escape(c: char) -> String {
    match c {
        '\u{7}' => "\\a".to_string(),
        '\u{b}' => "\\v".to_string(),
        c => format!("\\x{:02x}", c as u32),
    }
}

/// `s` in double quotes with the backslash escapes Go and TOML share (`\"`, `\\`, `\b`,
/// `\t`, `\n`, `\f`, `\r`); any other control character (or DEL) is written as
/// `other_control` says.
pub fn quote_escaped(s: &str, other_control: fn(char) -> String) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&other_control(c)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.FormatFloat(f, 'g', prec, 64)`: `prec` significant digits, trailing zeros
/// dropped, exponent form when the exponent is below -4 or at least `prec`.
pub fn format_g(f: f64, prec: usize) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let prec = prec.max(1);
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let sci = format!("{:.*e}", prec - 1, f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= prec as i64 {
        let mantissa = trim_fraction(mantissa);
        let exp_sign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{mantissa}e{exp_sign}{:02}", exp.abs());
    }
    let decimals = usize::try_from(prec as i64 - 1 - exp).unwrap_or(0);
    let fixed = format!("{:.*}", decimals, f.abs());
    format!("{sign}{}", trim_fraction(&fixed))
}

fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// The order of an int and a float, exactly (None when the float is NaN).
fn cmp_int_float(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // 2^63 is exactly representable; every float at or beyond it is outside i64.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if f >= LIMIT {
        return Some(Ordering::Less);
    }
    if f < -LIMIT {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    // `whole` is within i64 here.
    let w = whole as i64;
    match i.cmp(&w) {
        Ordering::Equal => {
            let frac = f - whole;
            Some(if frac > 0.0 {
                Ordering::Less
            } else if frac < 0.0 {
                Ordering::Greater
            } else {
                Ordering::Equal
            })
        }
        o => Some(o),
    }
}

/// `a == b` as starlark-go decides it (ints and floats compare by value; other types differ).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Uint(x), Value::Uint(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Int(i), Value::Float(f)) | (Value::Float(f), Value::Int(i)) => {
            cmp_int_float(*i, *f) == Some(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(p, q)| equal(&p.value, &q.value))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.items.len() == y.items.len()
                && x.items.iter().all(|p| {
                    y.items
                        .iter()
                        .find(|q| equal(&p.key, &q.key))
                        .is_some_and(|q| equal(&p.value, &q.value))
                })
        }
        _ => false,
    }
}

/// An ordered comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub fn token(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    pub fn holds(self, o: Ordering) -> bool {
        match self {
            Op::Lt => o == Ordering::Less,
            Op::Le => o != Ordering::Greater,
            Op::Gt => o == Ordering::Greater,
            Op::Ge => o != Ordering::Less,
        }
    }
}

/// `a <op> b`, or starlark-go's error (`string >= int not implemented`).
pub fn compare(op: Op, a: &Value, b: &Value) -> Result<bool, String> {
    let order = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Uint(x), Value::Uint(y)) => Some(x.cmp(y)),
        // A Uint is above every Int.
        (Value::Int(_), Value::Uint(_)) => Some(Ordering::Less),
        (Value::Uint(_), Value::Int(_)) => Some(Ordering::Greater),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Int(i), Value::Float(f)) => cmp_int_float(*i, *f),
        (Value::Float(f), Value::Int(i)) => cmp_int_float(*i, *f).map(Ordering::reverse),
        (Value::String(x), Value::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Array(x), Value::Array(y)) => {
            let first_diff = x
                .items
                .iter()
                .zip(&y.items)
                .find(|(p, q)| !equal(&p.value, &q.value));
            return match first_diff {
                Some((p, q)) => compare(op, &p.value, &q.value),
                None => Ok(op.holds(x.items.len().cmp(&y.items.len()))),
            };
        }
        _ => {
            return Err(format!(
                "{} {} {} not implemented",
                type_name(a),
                op.token(),
                type_name(b)
            ))
        }
    };
    Ok(order.is_some_and(|o| op.holds(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_with_six_significant_digits() {
        assert_eq!(format_g(3.0, 6), "3");
        assert_eq!(format_g(0.1, 6), "0.1");
        assert_eq!(format_g(1.23456789, 6), "1.23457");
        assert_eq!(format_g(1234567.0, 6), "1.23457e+06");
        assert_eq!(format_g(100000.0, 6), "100000");
        assert_eq!(format_g(0.0001, 6), "0.0001");
        assert_eq!(format_g(0.00001, 6), "1e-05");
        assert_eq!(format_g(9.9999995, 6), "10");
        assert_eq!(format_g(-2.5, 6), "-2.5");
        assert_eq!(format_g(f64::INFINITY, 6), "+Inf");
    }

    #[test]
    fn ints_and_floats_compare_by_value() {
        assert!(equal(&Value::Int(1), &Value::Float(1.0)));
        assert!(!equal(&Value::Int(1), &Value::Float(1.5)));
        assert_eq!(
            compare(Op::Lt, &Value::Int(1), &Value::Float(1.5)),
            Ok(true)
        );
        assert_eq!(
            compare(Op::Ge, &Value::Float(f64::NAN), &Value::Int(1)),
            Ok(false)
        );
        assert!(!equal(&Value::Bool(false), &Value::Int(0)));
    }

    #[test]
    fn mixed_types_do_not_order() {
        assert_eq!(
            compare(Op::Ge, &Value::String("a".into()), &Value::Int(1)),
            Err("string >= int not implemented".to_string())
        );
        assert_eq!(
            compare(Op::Le, &Value::Null, &Value::Null),
            Err("NoneType <= NoneType not implemented".to_string())
        );
    }

    #[test]
    fn repr_quotes_strings_inside_lists() {
        let list = Value::Array(Box::new(crate::yaml::Array {
            items: vec![
                crate::yaml::ArrayItem::new(Value::String("foo".into()), Default::default()),
                crate::yaml::ArrayItem::new(Value::Float(0.5), Default::default()),
            ],
            ..Default::default()
        }));
        assert_eq!(repr(&list), "[\"foo\", 0.5]");
        assert_eq!(str_of(&Value::String("a\"b".into())), "a\"b");
        assert_eq!(quote("a\"b\n"), "\"a\\\"b\\n\"");
    }

    #[test]
    fn quotes_control_characters_as_go_does() {
        assert_eq!(
            quote("\u{7}\u{b}\u{8}\u{1}\u{7f}\t"),
            "\"\\a\\v\\b\\x01\\x7f\\t\""
        );
    }
}
