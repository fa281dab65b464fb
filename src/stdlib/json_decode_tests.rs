//! Tests of `json_decode`: Go's acceptance, wording of errors, and nesting limits.

use super::*;

fn keys(v: &Value) -> Vec<String> {
    match v {
        Value::Map(m) => m
            .items
            .iter()
            .filter_map(|i| i.key.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

#[test]
fn objects_sort_keys_and_numbers_are_floats() {
    let v = decode(r#" {"b": [1, 2.5, {"x": null}], "a": "s\u00e9\n", "b": true} "#);
    let v = v.unwrap_or(Value::Null);
    assert_eq!(keys(&v), vec!["a", "b"]);
    if let Value::Map(m) = &v {
        assert_eq!(m.items[0].value, Value::String("sé\n".into()));
        assert_eq!(m.items[1].value, Value::Bool(true));
    }
    assert_eq!(decode("1"), Ok(Value::Float(1.0)));
}

#[test]
fn syntax_errors_use_go_wording() {
    let e = |s: &str| decode(s).err().unwrap_or_default();
    assert_eq!(
        e("}junk"),
        "invalid character '}' looking for beginning of value"
    );
    assert_eq!(e(""), "unexpected end of JSON input");
    assert_eq!(e("[1,"), "unexpected end of JSON input");
    assert_eq!(e("{\"a\" 1}"), "invalid character '1' after object key");
    assert_eq!(
        e("{\"a\":1 \"b\"}"),
        "invalid character '\"' after object key:value pair"
    );
    assert_eq!(e("[1 2]"), "invalid character '2' after array element");
    assert_eq!(
        e("{1:2}"),
        "invalid character '1' looking for beginning of object key string"
    );
    assert_eq!(e("01"), "invalid character '1' after top-level value");
    assert_eq!(e("-x"), "invalid character 'x' in numeric literal");
    assert_eq!(
        e("1.e3"),
        "invalid character 'e' after decimal point in numeric literal"
    );
    assert_eq!(
        e("tru "),
        "invalid character ' ' in literal true (expecting 'e')"
    );
    assert_eq!(e("\"a\tb\""), "invalid character '\\t' in string literal");
    assert_eq!(e("\"\\q\""), "invalid character 'q' in string escape code");
    assert_eq!(
        e("1e400"),
        "json: cannot unmarshal number 1e400 into Go value of type float64"
    );
}

#[test]
fn surrogate_pairs_combine() {
    assert_eq!(
        decode(r#""\ud83d\ude00\ud800x""#),
        Ok(Value::String("\u{1f600}\u{fffd}x".into()))
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "[".repeat(20_000);
    assert_eq!(
        decode(&deep).err().unwrap_or_default(),
        "invalid character '[' exceeded max depth"
    );
}
