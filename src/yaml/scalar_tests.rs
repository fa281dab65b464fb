//! Tests of scalar resolution: YAML 1.1 words and numbers, explicit tags, strict mode,
//! timestamps.

use super::time::is_timestamp;
use super::*;

fn plain(s: &str) -> Value {
    resolve_scalar(None, s, true, false).unwrap()
}

fn tagged(t: &str, s: &str) -> Result<Value, String> {
    resolve_scalar(Some(&format!("{TAG_PREFIX}{t}")), s, false, false)
}

fn strict(s: &str) -> Result<Value, String> {
    resolve_scalar(None, s, true, true)
}

#[test]
fn yaml11_words() {
    for s in ["y", "Y", "yes", "Yes", "on", "ON", "true", "True"] {
        assert_eq!(plain(s), Value::Bool(true), "{s}");
    }
    for s in ["n", "NO", "off", "false", "FALSE"] {
        assert_eq!(plain(s), Value::Bool(false), "{s}");
    }
    for s in ["", "~", "null", "Null", "NULL"] {
        assert_eq!(plain(s), Value::Null, "{s}");
    }
    for s in ["tRUE", "nan", "yES", "<<", "Nope"] {
        assert_eq!(plain(s), Value::String(s.into()), "{s}");
    }
}

#[test]
fn numbers() {
    assert_eq!(plain("42"), Value::Int(42));
    assert_eq!(plain("-42"), Value::Int(-42));
    assert_eq!(plain("+7"), Value::Int(7));
    assert_eq!(plain("0x1F"), Value::Int(31));
    assert_eq!(plain("0o17"), Value::Int(15));
    assert_eq!(plain("017"), Value::Int(15));
    assert_eq!(plain("-017"), Value::Int(-15));
    assert_eq!(plain("0b101"), Value::Int(5));
    assert_eq!(plain("-0b101"), Value::Int(-5));
    assert_eq!(plain("1_000"), Value::Int(1000));
    assert_eq!(plain("08"), Value::Float(8.0));
    assert_eq!(plain("1.5"), Value::Float(1.5));
    assert_eq!(plain("-.5"), Value::Float(-0.5));
    assert_eq!(plain(".5"), Value::Float(0.5));
    assert_eq!(plain("1e3"), Value::Float(1000.0));
    assert_eq!(plain("1."), Value::Float(1.0));
    assert_eq!(plain(".inf"), Value::Float(f64::INFINITY));
    assert_eq!(plain("-.Inf"), Value::Float(f64::NEG_INFINITY));
    assert!(matches!(plain(".NaN"), Value::Float(f) if f.is_nan()));
    assert_eq!(plain("9223372036854775807"), Value::Int(i64::MAX));
    assert_eq!(plain("-9223372036854775808"), Value::Int(i64::MIN));
    assert_eq!(
        plain("18446744073709551615"),
        Value::Float(18446744073709551615u64 as f64)
    );
    assert_eq!(plain("1e400"), Value::String("1e400".into()));
    assert_eq!(plain("1:30"), Value::String("1:30".into()));
    assert_eq!(plain("0x"), Value::String("0x".into()));
    assert_eq!(plain(".e1"), Value::String(".e1".into()));
    assert_eq!(plain("2001-12-14"), Value::String("2001-12-14".into()));
}

#[test]
fn unquoted_non_plain_is_string() {
    assert_eq!(
        resolve_scalar(None, "yes", false, true).unwrap(),
        Value::String("yes".into())
    );
}

#[test]
fn explicit_tags() {
    assert_eq!(tagged("str", "123").unwrap(), Value::String("123".into()));
    assert_eq!(tagged("int", "0x10").unwrap(), Value::Int(16));
    assert_eq!(tagged("float", "1").unwrap(), Value::Float(1.0));
    assert_eq!(tagged("bool", "yes").unwrap(), Value::Bool(true));
    assert_eq!(tagged("null", "~").unwrap(), Value::Null);
    assert_eq!(
        tagged("binary", "aGk=").unwrap(),
        Value::String("hi".into())
    );
    assert_eq!(
        tagged("timestamp", "2001-12-14t21:59:43.10-05:00").unwrap(),
        Value::String("2001-12-14t21:59:43.10-05:00".into())
    );
    assert_eq!(
        tagged("int", "1.5").unwrap_err(),
        "yaml: cannot decode !!float `1.5` as a !!int"
    );
    assert_eq!(
        tagged("int", "abc").unwrap_err(),
        "yaml: cannot decode !!str `abc` as a !!int"
    );
    assert_eq!(
        tagged("bool", "1").unwrap_err(),
        "yaml: cannot decode !!int `1` as a !!bool"
    );
    assert_eq!(
        tagged("binary", "!!").unwrap_err(),
        "yaml: !!binary value contains invalid base64 data"
    );
    let custom = resolve_scalar(Some("!foo"), "12", false, true).unwrap();
    assert_eq!(custom, Value::String("12".into()));
}

#[test]
fn strict_mode() {
    assert_eq!(strict("123").unwrap(), Value::Int(123));
    assert_eq!(strict("-1.5e3").unwrap(), Value::Float(-1500.0));
    assert_eq!(strict("true").unwrap(), Value::Bool(true));
    assert_eq!(strict("").unwrap(), Value::Null);
    assert_eq!(strict("abc").unwrap(), Value::String("abc".into()));
    let amb = |s: &str, a: &str, b: &str| {
        assert_eq!(
            strict(s).unwrap_err(),
            format!("yaml: Strict parsing: Found '{s}' ambigious (could be {a} or {b})")
        )
    };
    amb("yes", "!!str", "!!bool");
    amb("null", "!!str", "!!null");
    amb("~", "!!str", "!!null");
    amb("0x1F", "!!str", "!!int");
    amb("012", "!!str", "!!int");
    amb("+1", "!!str", "!!int");
    amb("1.", "!!str", "!!float");
    amb("2001-12-14", "!!str", "!!timestamp");
    amb("<<", "!!str", "!!merge");
    assert_eq!(
        strict("a b").unwrap_err(),
        "yaml: Strict parsing: Strings with whitespace must be explicitly quoted: 'a b'"
    );
    assert_eq!(
        strict("a:b").unwrap_err(),
        "yaml: Strict parsing: Strings with colon must be explicitly quoted: 'a:b'"
    );
    assert_eq!(
        strict("a---b").unwrap_err(),
        "yaml: Strict parsing: Strings with triple-dash must be explicitly quoted: 'a---b'"
    );
    assert_eq!(
        strict("1e400").unwrap_err(),
        "yaml: Strict parsing: Parsing float '1e400': strconv.ParseFloat: parsing \"1e400\": value out of range"
    );
    let tagged_strict = resolve_scalar(Some("tag:yaml.org,2002:bool"), "yes", true, true);
    assert_eq!(tagged_strict.unwrap(), Value::Bool(true));
}

#[test]
fn timestamps() {
    assert!(is_timestamp("2001-12-14"));
    assert!(is_timestamp("2001-1-2"));
    assert!(is_timestamp("2001-12-14 21:59:43.10"));
    assert!(is_timestamp("2001-12-14T21:59:43Z"));
    assert!(!is_timestamp("2001-02-30"));
    assert!(!is_timestamp("2001-12-14 21:59:43.10 -5"));
    assert!(!is_timestamp("20011-12-14"));
}
