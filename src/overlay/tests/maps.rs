//! Map items: merge by key, missing_ok, remove, replace (via, or_add), match-child-defaults,
//! `by=` as a map key name or a function.

use super::{yv, Case};
use crate::overlay::compare::subset_matches;
use crate::overlay::host::HostError;
use crate::overlay::test_host::show;
use crate::yaml::node::Value;

#[test]
fn merge_replaces_scalars_by_key() {
    // ytt-library__overlay__overlay, test1 and test2
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("key1: val1\n", "key1: val2\n"),
        Ok("key1: val2\n".into())
    );
    let left = "key1:\n  key10: val10\n  key11: val11\nkey3: val3\n";
    let right = "key1:\n  key10: val10.0\n  #@overlay/match missing_ok=True\n  key12: val12\n#@overlay/match missing_ok=True\nkey2: val2\n#@overlay/remove\nkey3:\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n  key10: val10.0\n  key11: val11\n  key12: val12\nkey2: val2\n".into())
    );
}

#[test]
fn a_new_key_needs_missing_ok() {
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("a: 1\n", "b: 2\n"),
        Err("Map item (key 'b') on line right.yml:1: Expected number of matched nodes to be 1, but was 0".into())
    );
}

#[test]
fn missing_ok_adds_whole_subtrees() {
    // ytt-library__overlay__required-nested
    let mut c = Case::new();
    let left = "key1:\n  key1: val1\n  key2: val2\n";
    let right = "#@overlay/match missing_ok=True\nkey2:\n- name: foo\n  other: key\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n  key1: val1\n  key2: val2\nkey2:\n- name: foo\n  other: key\n".into())
    );
    let right = "#@overlay/match missing_ok=True\nkey1:\n  key1: val1\n  #@overlay/match missing_ok=True\n  key3: val3\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n  key1: val1\n  key2: val2\n  key3: val3\n".into())
    );
}

#[test]
fn inline_remove_and_remove_of_missing_key() {
    // ytt-library__overlay__inline-remove, test1
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("key1: val2\n", "key1: #@overlay/remove\n"),
        Ok("{}\n".into())
    );
    assert_eq!(
        c.apply_values("a: 1\n", "#@overlay/remove\nb:\n"),
        Err("Map item (key 'b') on line right.yml:2: Expected number of matched nodes to be 1, but was 0".into())
    );
}

#[test]
fn merging_a_map_over_null_replaces_it() {
    // ytt-library__overlay__merge-over-nil, test1
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("foo: null\n", "foo:\n  bar: 42\n"),
        Ok("foo:\n  bar: 42\n".into())
    );
}

#[test]
fn merging_a_map_over_a_scalar_fails_and_replace_does_not() {
    // ytt-library__overlay__yaml-array-over-yaml-map
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("a: text\n", "a:\n  b: 1\n"),
        Err("Map item (key 'a') on line right.yml:1: Expected map, but was string".into())
    );
    let left = "key1:\n  key1: val1\n  key2: val2\n";
    let right = "#@overlay/replace\nkey1:\n- name: foo\n  other: key\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n- name: foo\n  other: key\n".into())
    );
}

#[test]
fn replace_via_and_or_add() {
    // ytt-library__overlay__replace-func, test1/test1b; replace-or-add, test1/test1a
    let mut c = Case::new();
    c.name("prefixed", |h| {
        h.via(|l, r| match (l, r) {
            (Value::String(l), Value::String(r)) => Ok(Value::String(format!("prefix-{l}-{r}"))),
            _ => Err(HostError::from("unsupported operand")),
        })
    });
    c.name("pair", |h| {
        h.via(|l, r| Ok(yv(&format!("- {}\n- {}\n", show(l), show(r)))))
    });
    assert_eq!(
        c.apply_values(
            "key1: val1\n",
            "#@overlay/replace via=prefixed\nkey1: val2\n"
        ),
        Ok("key1: prefix-val1-val2\n".into())
    );
    assert_eq!(
        c.apply_values(
            "key1: val1\n",
            "#@overlay/match expects=0\n#@overlay/replace or_add=True\nkey2: val2\n"
        ),
        Ok("key1: val1\nkey2: val2\n".into())
    );
    assert_eq!(
        c.apply_values(
            "key1: val1\n",
            "#@overlay/match expects=0\n#@overlay/replace via=pair, or_add=True\nkey2: val2\n"
        ),
        Ok("key1: val1\nkey2:\n- null\n- val2\n".into())
    );
    assert_eq!(c.host.calls.last(), Some(&"via(null, val2)".to_string()));
}

#[test]
fn by_key_name_matches_items_whose_values_share_the_key() {
    // ytt-library__overlay__map-by-key
    let mut c = Case::new();
    let left = "clients:\n  client1:\n    needsSecret: true\n  client2:\n    secret: bar\n    needsSecret: false\n  client3:\n    needsSecret: true\n";
    let right = "clients:\n  #@overlay/match by=\"needsSecret\",expects=\"1+\"\n  _add_secret_:\n    #@overlay/match missing_ok=True\n    secret: ree\n    #@overlay/remove\n    needsSecret: true\n";
    let want = "clients:\n  client1:\n    secret: ree\n  client2:\n    secret: bar\n    needsSecret: false\n  client3:\n    secret: ree\n";
    assert_eq!(c.apply_values(left, right), Ok(want.into()));
}

#[test]
fn by_function_gets_key_and_both_values() {
    // ytt-library__overlay__map-by-subset and match-by-gets-yamlfragments, test3
    let mut c = Case::new();
    c.name("has_name", |h| {
        h.matcher(|_, l, _| {
            let want = yv("name: test3\n");
            subset_matches(l, &want)
        })
    });
    let left = "key1:\n  name: test3\nkey2:\n  name: test3\nkey3:\n  other: key\n";
    let right = "#@overlay/match by=has_name,expects=2\n_:\n  #@overlay/match missing_ok=True\n  found: true\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n  name: test3\n  found: true\nkey2:\n  name: test3\n  found: true\nkey3:\n  other: key\n".into())
    );
    assert_eq!(
        c.host.calls,
        vec![
            "matcher(key1, {name: test3}, {found: true})",
            "matcher(key2, {name: test3}, {found: true})",
            "matcher(key3, {other: key}, {found: true})",
        ]
    );
}

#[test]
fn by_all_with_nested_missing_ok_remove() {
    // ytt-library__overlay__map-by-all
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let left = "clients:\n  client1:\n    secret: foo\n  client2:\n    secret: bar\n  client3:\n    needsSecret: true\n";
    let right = "clients:\n  #@overlay/match by=all,expects=\"1+\"\n  _:\n    #@overlay/match missing_ok=True\n    secret: ree\n    #@overlay/match missing_ok=True\n    #@overlay/remove\n    needsSecret: true\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("clients:\n  client1:\n    secret: ree\n  client2:\n    secret: ree\n  client3:\n    secret: ree\n".into())
    );
}

#[test]
fn match_child_defaults_apply_to_descendants_only() {
    // ytt-library__overlay__match-child-defaults, test1
    let mut c = Case::new();
    let left = "key2:\n  key2d: {}\n";
    let right = "#@overlay/match missing_ok=True\n#@overlay/match-child-defaults missing_ok=True\nkey2:\n  key2a: val2a\n  key2b: val2b\n  key2c:\n    key2ca: val2ca\n  #@overlay/match-child-defaults missing_ok=False\n  key2d:\n    #@overlay/match missing_ok=True\n    key2da: val2ca\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key2:\n  key2d:\n    key2da: val2ca\n  key2a: val2a\n  key2b: val2b\n  key2c:\n    key2ca: val2ca\n".into())
    );
    // Without the defaults on key2, key2a would need its own missing_ok.
    let right = "key2:\n  key2a: val2a\n";
    assert_eq!(
        c.apply_values(left, right),
        Err("Map item (key 'key2') on line right.yml:1: Map item (key 'key2a') on line right.yml:2: Expected number of matched nodes to be 1, but was 0".into())
    );
}

#[test]
fn items_are_applied_in_order_against_the_updated_map() {
    let mut c = Case::new();
    let right = "#@overlay/match missing_ok=True\nb: 1\nb: 2\n";
    // The second `b` (no missing_ok) finds the `b` the first one added.
    let got = c.apply_values("a: 0\n", right);
    assert_eq!(got, Ok("a: 0\nb: 2\n".into()));
}

#[test]
fn merged_scalars_take_the_overlay_position() {
    // ytt-library__overlay__map-output-position: replaced items point at the overlay.
    let mut c = Case::new();
    let l = super::super::Fragment::Value(c.value("a:\n  k: 1\n", "left.yml"));
    let r = super::super::Fragment::Value(c.value("a:\n  k: 2\n", "right.yml"));
    let Ok(super::super::Fragment::Value(Value::Map(m))) = super::super::apply(l, &r, &mut c.host)
    else {
        panic!("apply failed");
    };
    assert_eq!(m.items[0].pos.as_compact(), "left.yml:1");
    let Value::Map(inner) = &m.items[0].value else {
        panic!()
    };
    assert_eq!(inner.items[0].pos.as_compact(), "right.yml:2");
}
