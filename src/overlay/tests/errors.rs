//! ytt's error messages: the context chain, assert failures, misplaced operations, malformed
//! annotation arguments.

use super::Case;
use crate::overlay::host::{AssertReturned, HostError};
use crate::yaml::node::Value;

#[test]
fn assert_default_compares_structurally() {
    // ytt-library__overlay__assert and assert-err-default
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("key1: val1\n", "#@overlay/assert\nkey1: val1\n"),
        Ok("key1: val1\n".into())
    );
    assert_eq!(
        c.apply_values("key1: val1\n", "#@overlay/assert\nkey1: val2\n"),
        Err("Map item (key 'key1') on line right.yml:2: Expected objects to equal, but did not: Expected leaf values to match string string".into())
    );
}

#[test]
fn assert_recurses_and_reports_nested_failures() {
    // ytt-library__overlay__assert-err-nested
    let mut c = Case::new();
    c.name("is_val1", |h| {
        h.assert_via(|l, _| Ok(AssertReturned::Bool(*l == Value::String("val1".into()))))
    });
    c.name("is_2", |h| {
        h.assert_via(|l, _| Ok(AssertReturned::Bool(*l == Value::Int(2))))
    });
    c.name("index0", |h| h.index(0));
    c.name("index1", |h| h.index(1));
    let left = "key1:\n  key1a: val1\n  keys:\n  - 1\n  - 2\n";
    let right = "#@overlay/assert\nkey1:\n  #@overlay/assert via=is_val1\n  key1a: val1\n  keys:\n  #@overlay/match by=index0\n  #@overlay/assert via=is_2\n  - 1\n  #@overlay/match by=index1\n  - 2\n";
    assert_eq!(
        c.apply_values(left, right),
        Err("Map item (key 'key1') on line right.yml:2: Map item (key 'keys') on line right.yml:5: Array item on line right.yml:8: Expected via invocation to return true, but was false".into())
    );
}

#[test]
fn assert_via_results() {
    // ytt-library__overlay__assert-err-via-{assert,bool,tuple,unexpected}
    let mut c = Case::new();
    c.name("fails", |h| {
        h.assert_via(|_, _| Err(HostError::from("assert.fail: fail: fail")))
    });
    c.name("pair", |h| {
        h.assert_via(|l, r| Ok(AssertReturned::Pair(l == r, "vals not equal".into())))
    });
    c.name("odd", |h| h.assert_via(|_, _| Ok(AssertReturned::Other)));
    c.name("none", |h| h.assert_via(|_, _| Ok(AssertReturned::None)));
    let run = |c: &mut Case, via: &str| {
        c.apply_values(
            "key1: val1\n",
            &format!("#@overlay/assert via={via}\nkey1: val2\n"),
        )
    };
    let at = "Map item (key 'key1') on line right.yml:2: ";
    assert_eq!(
        run(&mut c, "fails"),
        Err(format!("{at}assert.fail: fail: fail"))
    );
    assert_eq!(
        run(&mut c, "pair"),
        Err(format!("{at}Expected via invocation to return true, but was false with message: vals not equal"))
    );
    assert_eq!(
        run(&mut c, "odd"),
        Err(format!("{at}Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those"))
    );
    // A passing assert still merges the item's value (a scalar is not replaced).
    assert_eq!(run(&mut c, "none"), Ok("key1: val1\n".into()));
    assert_eq!(
        run(&mut c, "\"text\""),
        Err(format!("{at}Expected 'overlay/assert' annotation keyword argument 'via' to be function, but was starlark.String"))
    );
}

#[test]
fn insert_and_append_are_for_array_items_and_documents() {
    // ytt-library__overlay__insert-into-map-err
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let right = "#@overlay/match by=all\n---\nvalue:\n  #@overlay/insert\n  b: 10\n";
    assert_eq!(
        c.apply_docs("---\nvalue:\n  a: I win\n  b: 4\n", right),
        Err("Document on line right.yml:2: Map item (key 'value') on line right.yml:3: Map item (key 'b') on line right.yml:5: Found @overlay/insert on map item (right.yml:5); only array items can be annotated with @overlay/insert".into())
    );
    assert_eq!(
        c.apply_values("a: 1\n", "#@overlay/append\na: 2\n"),
        Err("Map item (key 'a') on line right.yml:2: Found @overlay/append on map item (right.yml:2); only array items can be annotated with @overlay/append".into())
    );
}

#[test]
fn via_must_be_a_function() {
    // ytt-library__overlay__insert-into-via-err and replace-func-err
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let right = "#@overlay/match by=all, expects=1\n#@overlay/insert before=True, via=\"not a function\"\n---\n";
    assert_eq!(
        c.apply_docs("---\nitem: 1\n", right),
        Err("Document on line right.yml:3: Expected 'overlay/insert' annotation keyword argument 'via' to be function, but was starlark.String".into())
    );
    let right =
        "#@overlay/match by=all, expects=1\n#@overlay/replace via=\"not a function\"\n---\n";
    assert_eq!(
        c.apply_docs("---\nitem: 1\n", right),
        Err("Document on line right.yml:3: Expected 'overlay/replace' annotation keyword argument 'via' to be function, but was starlark.String".into())
    );
}

#[test]
fn malformed_match_annotations() {
    let mut c = Case::new();
    c.name("tuple", |h| h.other("starlark.Tuple"));
    let cases = [
        (
            "---\na: 1\n",
            "---\na: 2\n",
            "Document on line right.yml:1: Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)",
        ),
        (
            "---\na: 1\n",
            "#@overlay/match expects=1\n---\na: 2\n",
            "Document on line right.yml:2: Expected 'overlay/match' annotation keyword argument 'by'  to be specified",
        ),
        (
            "---\na: 1\n",
            "#@overlay/match by=\"a\"\n---\na: 2\n",
            "Document on line right.yml:2: Expected 'overlay/match' annotation keyword argument 'by' to be function, but was starlark.String",
        ),
        (
            "---\na: 1\n",
            "#@overlay/match by=tuple, bogus=1\n---\na: 2\n",
            "Document on line right.yml:2: Unknown 'overlay/match' annotation keyword argument 'bogus'",
        ),
    ];
    for (left, right, want) in cases {
        assert_eq!(c.apply_docs(left, right), Err(want.to_string()), "{right}");
    }
    let cases = [
        (
            "#@overlay/match missing_ok=True\n- x\n",
            "Array item on line right.yml:2: Expected 'overlay/match' annotation keyword argument 'by' to be specified",
        ),
        (
            "#@overlay/match by=1\n- x\n",
            "Array item on line right.yml:2: Expected 'overlay/match' annotation keyword argument 'by' to be either string (for map key) or function, but was starlark.Int",
        ),
        (
            "#@overlay/remove\n#@overlay/replace\n- x\n",
            "Array item on line right.yml:3: Expected to find only one overlay operation",
        ),
        (
            "#@overlay/match by=tuple\n#@overlay/insert\n- x\n",
            "Array item on line right.yml:3: Expected 'overlay/match' annotation keyword argument 'by' to be either string (for map key) or function, but was starlark.Tuple",
        ),
        (
            "#@overlay/match-child-defaults by=1\n- x\n",
            "Array item on line right.yml:2: Unknown 'overlay/match-child-defaults' annotation keyword argument 'by'",
        ),
    ];
    for (right, want) in cases {
        assert_eq!(
            c.apply_values("- a\n", right),
            Err(want.to_string()),
            "{right}"
        );
    }
}

#[test]
fn insert_needs_a_position_and_replace_a_bool() {
    let mut c = Case::new();
    c.name("all", |h| h.all());
    assert_eq!(
        c.apply_values("- a\n", "#@overlay/match by=all\n#@overlay/insert\n- x\n"),
        Err("Array item on line right.yml:3: Expected 'overlay/insert' annotation to have at least one keyword argument (before=..., after=...)".into())
    );
    assert_eq!(
        c.apply_values(
            "- a\n",
            "#@overlay/match by=all\n#@overlay/replace or_add=1\n- x\n"
        ),
        Err("Array item on line right.yml:3: expected starlark.Bool, but was starlark.Int".into())
    );
    assert_eq!(
        c.apply_values("- a\n", "#@overlay/match by=all\n#@overlay/replace bogus=1\n- x\n"),
        Err("Array item on line right.yml:3: Unknown 'overlay/replace' annotation keyword argument 'bogus'".into())
    );
}

#[test]
fn matchers_must_return_bools_and_their_errors_propagate() {
    let mut c = Case::new();
    c.name("int", |h| {
        h.raw_matcher(|_, _, _| Ok(crate::overlay::Returned::Other("starlark.Int".into())))
    });
    c.name("boom", |h| {
        h.raw_matcher(|_, _, _| Err(HostError::from("fail: boom")))
    });
    assert_eq!(
        c.apply_values("- a\n", "#@overlay/match by=int\n- x\n"),
        Err("Array item on line right.yml:2: expected starlark.Bool, but was starlark.Int".into())
    );
    assert_eq!(
        c.apply_values("a: 1\n", "#@overlay/match by=boom\na: 2\n"),
        Err("Map item (key 'a') on line right.yml:2: fail: boom".into())
    );
}

#[test]
fn type_mismatches_between_left_and_right() {
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("a: [1]\n", "a:\n  b: 1\n"),
        Err("Map item (key 'a') on line right.yml:1: Expected map, but was array".into())
    );
    assert_eq!(
        c.apply_values("a:\n  b: 1\n", "a:\n- 1\n"),
        Err("Map item (key 'a') on line right.yml:1: Expected array, but was map".into())
    );
    assert_eq!(
        c.apply_values("a: 1\n", "- 1\n"),
        Err("Expected array, but was map".into())
    );
    let left = crate::overlay::Fragment::Value(Value::Int(1));
    let right = crate::overlay::Fragment::DocSet(Default::default());
    assert_eq!(
        super::print(crate::overlay::apply(left, &right, &mut c.host)),
        Err("Expected document set, but was integer".into())
    );
}

#[test]
fn non_string_keys_print_like_go() {
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("a: 1\n", "1: 2\n"),
        Err("Map item (key '%!s(int=1)') on line right.yml:1: Expected number of matched nodes to be 1, but was 0".into())
    );
}

/// `a: {a: {... value}}`, `depth` maps deep.
fn nested(depth: usize, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..depth {
        v = crate::yaml::emit_testutil::map(vec![("a", v)]);
    }
    v
}

#[test]
fn deep_overlays_are_refused_without_overflowing() {
    let mut c = Case::new();
    let left = crate::overlay::Fragment::Value(nested(2000, Value::Int(1)));
    let right = crate::overlay::Fragment::Value(nested(2000, Value::Int(2)));
    let got = super::print(crate::overlay::apply(left, &right, &mut c.host));
    let err = got.expect_err("too deep");
    assert!(
        err.ends_with("Expected overlay to be nested at most 256 levels deep"),
        "{err}"
    );
    let deep = nested(2000, Value::Int(1));
    assert!(crate::overlay::compare::compare(&deep, &deep).is_err());
    assert!(crate::overlay::compare::compare(
        &nested(100, Value::Int(1)),
        &nested(100, Value::Int(1))
    )
    .is_ok());
    let ok = crate::overlay::apply(
        crate::overlay::Fragment::Value(nested(200, Value::Int(1))),
        &crate::overlay::Fragment::Value(nested(200, Value::Int(2))),
        &mut c.host,
    );
    assert!(ok.is_ok());
}
