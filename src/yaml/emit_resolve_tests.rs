//! Tests for deciding when a string may stay unquoted in YAML output.

use super::plain_reads_back_as_str as ok;

#[test]
fn reserved_words_and_null() {
    for s in [
        "", "~", "null", "true", "False", "yes", "Y", "n", "on", "OFF", ".inf", "-.Inf",
    ] {
        assert!(!ok(s), "{s}");
    }
    for s in ["nULL", "tRue", "yup", "<<", "o", "t", "f"] {
        assert!(ok(s), "{s}");
    }
}

#[test]
fn numbers() {
    for s in [
        "0", "123", "-1", "+5", "0x1F", "0o17", "017", "0b101", "1_000", "1.5", "1e3",
    ] {
        assert!(!ok(s), "{s}");
    }
    for s in [
        "08",
        "1.",
        ".5",
        "-.5",
        "+.5e3",
        ".5_5",
        "99999999999999999999",
        "123.123",
    ] {
        assert!(!ok(s), "{s}");
    }
    for s in [
        "1e999", ".5e999", "0x", "0xZ", "-", "+", "._5", ".5_", "1.2.3", "1e", "0x1p3",
    ] {
        assert!(ok(s), "{s}");
    }
    assert!(ok("0xFFFFFFFFFFFFFFFFF"));
    assert!(!ok("0xFFFFFFFFFFFFFFFF"));
    assert!(!ok("-9223372036854775808"));
}

#[test]
fn base60_and_timestamps() {
    for s in ["1:20", "12:30:45", "-1:30.5", "190:20:30"] {
        assert!(!ok(s), "{s}");
    }
    assert!(ok("10:61"));
    assert!(ok("1:2:345"));
    for s in [
        "2001-12-14",
        "2001-1-2",
        "2001-12-14t21:59:43.10Z",
        "2001-12-14 21:59:43.10",
    ] {
        assert!(!ok(s), "{s}");
    }
    assert!(!ok("2020-02-29T01:02:03+05:30"));
    for s in [
        "2001-13-01",
        "2021-02-29",
        "2001-12-14 ",
        "2001-12-14T21:59:43",
        "20011-12-14",
    ] {
        assert!(ok(s), "{s}");
    }
}
