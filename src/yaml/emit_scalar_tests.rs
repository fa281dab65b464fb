//! Scalar style tests: which quoting go-yaml v2 (as used by ytt) picks and how it escapes.

use crate::yaml::emit::value_to_yaml;
use crate::yaml::emit_testutil::{f, map, s};
use crate::yaml::node::Value;

/// The text printed for a string as the value of key `k`.
fn val(text: &str) -> String {
    let out = value_to_yaml(&map(vec![("k", s(text))]));
    out.strip_prefix("k: ")
        .and_then(|x| x.strip_suffix('\n'))
        .unwrap_or(&out)
        .to_string()
}

#[test]
fn strings_that_would_read_back_as_other_types_are_double_quoted() {
    // From cmd-template-* expected outputs: bool: "true", int: "123", float: "123.123", ...
    for (text, want) in [
        ("true", "\"true\""),
        ("123", "\"123\""),
        ("123.123", "\"123.123\""),
        ("null", "\"null\""),
        ("", "\"\""),
        ("8", "\"8\""),
        ("yes", "\"yes\""),
        ("~", "\"~\""),
        ("1:20", "\"1:20\""),
        ("2001-12-14", "\"2001-12-14\""),
        ("0x1F", "\"0x1F\""),
        (".5", "\".5\""),
    ] {
        assert_eq!(val(text), want, "{text}");
    }
}

#[test]
fn indicators_force_single_quotes() {
    // From expected outputs: '*', '#value', '...', '2001:db8::', '@foo blah bar', '-text=Hi from #ytt apple'
    for (text, want) in [
        ("*", "'*'"),
        ("#value", "'#value'"),
        ("...", "'...'"),
        ("2001:db8::", "'2001:db8::'"),
        ("@foo blah bar", "'@foo blah bar'"),
        ("-text=Hi from #ytt apple", "'-text=Hi from #ytt apple'"),
        ("{}", "'{}'"),
        ("check: value is empty", "'check: value is empty'"),
        ("a 'q' b", "a 'q' b"),
        ("'q'", "'''q'''"),
        ("-", "'-'"),
        ("- a", "'- a'"),
        ("? a", "'? a'"),
        (": a", "': a'"),
        ("a:", "'a:'"),
        (" lead", "' lead'"),
        ("trail ", "'trail '"),
        ("%x", "'%x'"),
        ("`x", "'`x'"),
    ] {
        assert_eq!(val(text), want, "{text}");
    }
}

#[test]
fn plain_when_allowed() {
    for text in [
        "from \"root\" library",
        "a:b",
        "a#b",
        "?a",
        "-a",
        "--kubelet-service=kube-system/kubelet",
        "quay.io/coreos/prometheus-operator:v0.39.0",
        "100m",
        "ŻQ\"k頂箨J-`稆涒聽ȑǕÄ",
        "<<",
        "10:61",
        "1e999",
        "a, b",
        "a[b",
    ] {
        assert_eq!(val(text), text, "{text}");
    }
    assert_eq!(val("[a"), "'[a'");
}

#[test]
fn double_quote_escapes() {
    assert_eq!(val("tab\there"), "\"tab\\there\"");
    assert_eq!(val("cr\r"), "\"cr\\r\"");
    assert_eq!(val("bell\u{7}"), "\"bell\\a\"");
    assert_eq!(val("del\u{7f}"), "\"del\\x7F\"");
    assert_eq!(val("c1\u{80}"), "\"c1\\x80\"");
    assert_eq!(val("nel\u{85}"), "\"nel\\N\"");
    assert_eq!(val("emoji 😀"), "\"emoji \\U0001F600\"");
    assert_eq!(val("nonchar\u{fffe}"), "\"nonchar\\uFFFE\"");
    assert_eq!(val("\u{feff}ab"), "\"\\uFEFF\\x61\\x62\"");
    assert_eq!(val("q\"\\\t"), "\"q\\\"\\\\\\t\"");
    // A space before a line break rules out block style: "\n" is escaped instead.
    assert_eq!(val("a \nb"), "\"a \\nb\"");
    assert_eq!(val("x\n "), "\"x\\n \"");
    assert_eq!(val("nbsp\u{a0}x"), "nbsp\u{a0}x");
}

#[test]
fn line_breaks_other_than_line_feed() {
    // LS is printable and a break: single quotes, with the break written as is.
    assert_eq!(val("a\u{2028}b"), "'a\u{2028}  b'");
    // A line feed plus a tab: literal style is not allowed.
    assert_eq!(val("a\n\tb"), "\"a\\n\\tb\"");
    // Break followed by space: literal is fine.
    assert_eq!(val("a\n b"), "|-\n  a\n   b");
}

#[test]
fn long_strings_are_not_folded() {
    let long = "word ".repeat(40) + "end";
    assert_eq!(val(&long), long);
    let quoted = format!("{long}: x");
    assert_eq!(val(&quoted), format!("'{quoted}'"));
}

#[test]
fn floats_and_specials() {
    let v = |x: f64| value_to_yaml(&map(vec![("k", f(x))]));
    assert_eq!(v(0.1), "k: 0.1\n");
    assert_eq!(v(3.0), "k: 3\n");
    assert_eq!(v(1e6), "k: 1e+06\n");
    assert_eq!(v(f64::INFINITY), "k: .inf\n");
    assert_eq!(v(f64::NEG_INFINITY), "k: -.inf\n");
    assert_eq!(v(f64::NAN), "k: .nan\n");
    assert_eq!(v(0.018713221139656417), "k: 0.018713221139656417\n");
    assert_eq!(value_to_yaml(&Value::Null), "null\n");
}
