//! Tests of match-count checking: every form of `expects=`, `missing_ok=`, `when=`, and ytt's
//! messages for each failure.

use super::*;
use crate::overlay::host::HostError;
use crate::overlay::test_host::TestHost;
use crate::overlay::test_support::at;

fn int(n: i64) -> AnnValue {
    AnnValue::Scalar(Value::Int(n))
}

fn string(s: &str) -> AnnValue {
    AnnValue::Scalar(Value::String(s.to_string()))
}

fn boolean(b: bool) -> AnnValue {
    AnnValue::Scalar(Value::Bool(b))
}

fn positions(n: u32) -> Vec<Pos> {
    (0..n).map(|i| at("tpl.yml", 2 + 4 * i)).collect()
}

fn expects(v: AnnValue) -> Expects {
    Expects {
        expects: Some(v),
        ..Expects::default()
    }
}

fn message(r: Result<(), CheckFail>) -> String {
    match r {
        Ok(()) => "ok".to_string(),
        Err(CheckFail::Count {
            message,
            conditional,
        }) => format!(
            "count{}: {message}",
            if conditional { " (when)" } else { "" }
        ),
        Err(CheckFail::Error(message)) => format!("error: {message}"),
    }
}

#[test]
fn default_is_exactly_one_with_sorted_positions() {
    let mut host = TestHost::new();
    let e = Expects::default();
    assert_eq!(message(e.check(&positions(1), &mut host)), "ok");
    assert_eq!(
        message(e.check(&[], &mut host)),
        "count: Expected number of matched nodes to be 1, but was 0"
    );
    // Positions are sorted as strings: tpl.yml:10 sorts before tpl.yml:2.
    assert_eq!(
        message(e.check(&positions(3), &mut host)),
        "count: Expected number of matched nodes to be 1, but was 3 (lines: tpl.yml:10, tpl.yml:2, tpl.yml:6)"
    );
}

#[test]
fn expects_int_string_and_list() {
    let mut host = TestHost::new();
    assert_eq!(
        message(expects(int(2)).check(&positions(2), &mut host)),
        "ok"
    );
    assert_eq!(
        message(expects(string("2+")).check(&positions(3), &mut host)),
        "ok"
    );
    assert_eq!(
        message(expects(string("2+")).check(&positions(1), &mut host)),
        "count: Expected number of matched nodes to be >= 2, but was 1 (lines: tpl.yml:2)"
    );
    assert_eq!(
        message(expects(string("x+")).check(&positions(1), &mut host)),
        "error: Expected 'x+' to be in format 'i+' where i is an integer"
    );
    assert_eq!(
        message(expects(string("2")).check(&positions(1), &mut host)),
        "error: Expected '2' to be in format 'i+' where i is an integer"
    );
    let list = host.list(vec![int(0), string("3+")]);
    assert_eq!(message(expects(list.clone()).check(&[], &mut host)), "ok");
    assert_eq!(
        message(expects(list).check(&positions(1), &mut host)),
        "count: Expected number of matched nodes to be >= 3, but was 1 (lines: tpl.yml:2)"
    );
}

#[test]
fn expects_function_gets_the_count() {
    let mut host = TestHost::new();
    let even = host.expects_fn(|n| n % 2 == 0);
    assert_eq!(
        message(expects(even.clone()).check(&positions(2), &mut host)),
        "ok"
    );
    assert_eq!(
        message(expects(even).check(&positions(1), &mut host)),
        "count: Expectation of number of matched nodes failed"
    );
    assert_eq!(host.calls, vec!["expects(2)", "expects(1)"]);
    let bad = host.expects_raw(|_| Ok(Returned::Other("starlark.Int".into())));
    assert_eq!(
        message(expects(bad).check(&[], &mut host)),
        "error: Expected keyword argument 'expects' to have a function that returns a boolean"
    );
    let failing = host.expects_raw(|_| Err(HostError::from("boom")));
    assert_eq!(
        message(expects(failing).check(&[], &mut host)),
        "error: boom"
    );
}

#[test]
fn expects_of_other_types_is_an_error() {
    let mut host = TestHost::new();
    let tuple = host.other("starlark.Tuple");
    assert_eq!(
        message(expects(tuple).check(&[], &mut host)),
        "error: Expected 'overlay/match' annotation keyword argument 'expects' to be either int, string or function, but was starlark.Tuple"
    );
    assert_eq!(
        message(expects(boolean(true)).check(&[], &mut host)),
        "error: Expected 'overlay/match' annotation keyword argument 'expects' to be either int, string or function, but was starlark.Bool"
    );
}

#[test]
fn missing_ok_allows_zero_or_one() {
    let mut host = TestHost::new();
    let e = Expects {
        missing_ok: Some(boolean(true)),
        ..Expects::default()
    };
    assert_eq!(message(e.check(&[], &mut host)), "ok");
    assert_eq!(message(e.check(&positions(1), &mut host)), "ok");
    assert_eq!(
        message(e.check(&positions(2), &mut host)),
        "count: Expected number of matched nodes to be 1, but was 2 (lines: tpl.yml:2, tpl.yml:6)"
    );
    let strict = Expects {
        missing_ok: Some(boolean(false)),
        ..Expects::default()
    };
    assert_eq!(
        message(strict.check(&[], &mut host)),
        "count: Expected number of matched nodes to be 1, but was 0"
    );
    let bad = Expects {
        missing_ok: Some(int(1)),
        ..Expects::default()
    };
    assert_eq!(
        message(bad.check(&[], &mut host)),
        "error: Expected keyword argument 'missing_ok' to be a boolean"
    );
}

#[test]
fn when_failures_are_conditional() {
    let mut host = TestHost::new();
    let e = Expects {
        when: Some(string("1+")),
        ..Expects::default()
    };
    assert_eq!(message(e.check(&positions(2), &mut host)), "ok");
    assert_eq!(
        message(e.check(&[], &mut host)),
        "count (when): Expected number of matched nodes to be >= 1, but was 0"
    );
    let f = host.expects_fn(|n| n == 1);
    let e = Expects {
        when: Some(f),
        ..Expects::default()
    };
    assert_eq!(
        message(e.check(&[], &mut host)),
        "count (when): Expectation of number of matched nodes failed"
    );
    // A malformed `when=` is still an error.
    let e = Expects {
        when: Some(string("1")),
        ..Expects::default()
    };
    assert_eq!(
        message(e.check(&[], &mut host)),
        "error: Expected '1' to be in format 'i+' where i is an integer"
    );
}

#[test]
fn only_one_kind_of_expectation() {
    let mut host = TestHost::new();
    let both = |a: (&str, AnnValue), b: (&str, AnnValue)| {
        let mut e = Expects::default();
        for (k, v) in [a, b] {
            match k {
                "expects" => e.expects = Some(v),
                "missing_ok" => e.missing_ok = Some(v),
                _ => e.when = Some(v),
            }
        }
        e
    };
    let e = both(("expects", int(1)), ("missing_ok", boolean(true)));
    assert_eq!(
        message(e.check(&[], &mut host)),
        "error: Expected only one of keyword arguments ('missing_ok', 'expects') specified"
    );
    let e = both(("when", int(1)), ("missing_ok", boolean(true)));
    assert_eq!(
        message(e.check(&[], &mut host)),
        "error: Expected only one of keyword arguments ('missing_ok', 'when') specified"
    );
    let e = both(("when", int(1)), ("expects", int(1)));
    assert_eq!(
        message(e.check(&[], &mut host)),
        "error: Expected only one of keyword arguments ('when', 'expects') specified"
    );
}

#[test]
fn defaults_fill_only_missing_arguments() {
    let mut e = Expects {
        missing_ok: Some(boolean(true)),
        ..Expects::default()
    };
    e.fill_in_defaults(&Expects {
        expects: Some(int(2)),
        missing_ok: Some(boolean(false)),
        when: None,
    });
    assert_eq!(e.missing_ok, Some(boolean(true)));
    assert_eq!(e.expects, Some(int(2)));
}

#[test]
fn deeply_nested_lists_are_rejected() {
    let mut host = TestHost::new();
    let mut v = int(0);
    for _ in 0..40 {
        v = host.list(vec![v]);
    }
    let got = message(expects(v).check(&[], &mut host));
    assert!(got.starts_with("error: "), "{got}");
}
