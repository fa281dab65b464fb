//! Array items: unannotated items append, `by=` matchers (index, all, map key, subset,
//! functions), replace, remove, insert before/after (with via), append, when=.

use super::{yv, Case};
use crate::overlay::host::HostError;
use crate::overlay::test_host::show;
use crate::yaml::node::Value;

fn stock(c: &mut Case) {
    c.name("all", |h| h.all());
    c.name("index0", |h| h.index(0));
    c.name("index1", |h| h.index(1));
    c.name("not_all", |h| h.not(|_, _, _| true));
}

#[test]
fn unannotated_items_append() {
    // ytt-library__overlay__append-to-array
    let mut c = Case::new();
    assert_eq!(
        c.apply_values("- item1\n", "- item2\n#@overlay/append\n- item3\n"),
        Ok("- item1\n- item2\n- item3\n".into())
    );
    assert_eq!(
        c.apply_values(
            "list1: []\nlist2:\n  - item1\n",
            "list1:\n  - item1\nlist2: []\n"
        ),
        Ok("list1:\n- item1\nlist2:\n- item1\n".into())
    );
}

#[test]
fn replace_by_index_and_by_all() {
    // ytt-library__overlay__overlay, test3 and test4
    let mut c = Case::new();
    stock(&mut c);
    let left = "key1:\n- item1\n- item2\n";
    let right = "key1:\n#@overlay/match by=index1\n#@overlay/replace\n- item3\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n- item1\n- item3\n".into())
    );
    let left = "key1:\n- item1\n- item2\nkey2: []\n";
    let right = "key1:\n#@overlay/match by=all,expects=\"0+\"\n#@overlay/replace\n- item4\nkey2:\n#@overlay/match by=all,expects=\"0+\"\n#@overlay/replace\n- item4\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n- item4\n- item4\nkey2: []\n".into())
    );
}

#[test]
fn replace_by_map_key_name() {
    // ytt-library__overlay__overlay, test5
    let mut c = Case::new();
    let left = "key1:\n- name: blah\n- name: foo\n- name: foo2\n";
    let right =
        "key1:\n#@overlay/match by=\"name\"\n#@overlay/replace\n- name: foo\n  other: key\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n- name: blah\n- name: foo\n  other: key\n- name: foo2\n".into())
    );
}

#[test]
fn by_key_name_errors_when_the_key_is_missing() {
    let mut c = Case::new();
    let right = "#@overlay/match by=\"name\"\n- name: x\n";
    assert_eq!(
        c.apply_values("- other: 1\n", right),
        Err("Array item on line right.yml:2: overlay.map_key_matcher: Expected to find map item with key 'name', but did not".into())
    );
    assert_eq!(
        c.apply_values("- text\n", right),
        Err("Array item on line right.yml:2: overlay.map_key_matcher: Expected value to be map, but was string".into())
    );
}

#[test]
fn merge_by_map_key_with_nested_ops() {
    // ytt-library__overlay__array-by-key
    let mut c = Case::new();
    c.name("map_key", |h| h.map_key("needsSecret"));
    let left =
        "clients:\n- needsSecret: true\n- secret: bar\n  needsSecret: false\n- needsSecret: true\n";
    let want = "clients:\n- secret: ree\n- secret: bar\n  needsSecret: false\n- secret: ree\n";
    for by in ["\"needsSecret\"", "map_key"] {
        let right = format!("clients:\n#@overlay/match by={by},expects=\"1+\"\n-\n  #@overlay/match missing_ok=True\n  secret: ree\n  #@overlay/remove\n  needsSecret: true\n");
        assert_eq!(c.apply_values(left, &right), Ok(want.into()));
    }
}

#[test]
fn merge_into_items_of_a_starlark_built_value() {
    // ytt-library__overlay__yaml-over-map
    let mut c = Case::new();
    let left = "key1:\n- name: foo\n  another: key\n";
    let right = "key1:\n#@overlay/match by=\"name\"\n- name: foo\n  #@overlay/match expects=[0,1]\n  other: key\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key1:\n- name: foo\n  another: key\n  other: key\n".into())
    );
}

#[test]
fn remove_by_index_and_merge_over_null_item() {
    // ytt-library__overlay__inline-remove test2, merge-over-nil test2
    let mut c = Case::new();
    stock(&mut c);
    assert_eq!(
        c.apply_values(
            "- item1\n",
            "#@overlay/match by=index0\n#@overlay/remove\n-\n"
        ),
        Ok("[]\n".into())
    );
    assert_eq!(
        c.apply_values("- null\n", "#@overlay/match by=all\n- - bar 42\n"),
        Ok("- - bar 42\n".into())
    );
}

#[test]
fn replace_or_add_and_replace_via() {
    // ytt-library__overlay__replace-or-add test2, replace-func test2
    let mut c = Case::new();
    stock(&mut c);
    c.name("prefixed", |h| {
        h.via(|l, r| Ok(Value::String(format!("prefix-{}-{}", show(l), show(r)))))
    });
    let right = "#@overlay/match by=not_all, expects=0\n#@overlay/replace or_add=True\n- val2\n";
    assert_eq!(
        c.apply_values("- val1\n- val11\n", right),
        Ok("- val1\n- val11\n- val2\n".into())
    );
    let right = "#@overlay/match by=all,expects=2\n#@overlay/replace via=prefixed\n- val2\n";
    assert_eq!(
        c.apply_values("- val1\n- val11\n", right),
        Ok("- prefix-val1-val2\n- prefix-val11-val2\n".into())
    );
}

#[test]
fn insert_before_and_after_each_match() {
    // ytt-library__overlay__insert-into-array
    let mut c = Case::new();
    c.name("item1", |h| h.subset(yv("item: 1\n")));
    c.name("item3", |h| h.subset(yv("item: 3\n")));
    let right = "#@overlay/match by=item1\n#@overlay/insert before=True\n- before: 1\n#@overlay/match by=item1\n#@overlay/insert after=True\n- after: 1\n#@overlay/match by=item3\n#@overlay/insert after=True\n- after: 3\n";
    assert_eq!(
        c.apply_values("- item: 1\n- item: 2\n- item: 3\n", right),
        Ok("- before: 1\n- item: 1\n- after: 1\n- item: 2\n- item: 3\n- after: 3\n".into())
    );
}

#[test]
fn insert_via_gets_left_and_right_values() {
    // ytt-library__overlay__insert-into-array-via
    let mut c = Case::new();
    c.name("is_item", |h| {
        h.matcher(|_, l, _| matches!(l, Value::Map(m) if m.items.iter().any(|i| i.key == Value::String("item".into()))))
    });
    c.name("combine", |h| {
        h.via(|l, r| {
            let num = |v: &Value| match v {
                Value::Map(m) => match m.items.first().map(|i| &i.value) {
                    Some(Value::Int(n)) => Ok(*n),
                    _ => Err(HostError::from("no item")),
                },
                _ => Err(HostError::from("not a map")),
            };
            Ok(yv(&format!("combined: {}\n", num(l)? + num(r)?)))
        })
    });
    let right = "#@overlay/match by=is_item, expects=2\n#@overlay/insert before=True, via=combine\n- item: 100\n";
    assert_eq!(
        c.apply_values("- item: 1\n- item: 2\n", right),
        Ok("- combined: 101\n- item: 1\n- combined: 102\n- item: 2\n".into())
    );
    assert!(c
        .host
        .calls
        .contains(&"via({item: 1}, {item: 100})".to_string()));
}

#[test]
fn when_skips_items_whose_condition_fails() {
    // ytt-library__overlay__when (arrays)
    let mut c = Case::new();
    stock(&mut c);
    c.name("is_one", |h| h.expects_fn(|n| n == 1));
    c.name("blah", |h| h.subset(yv("blah: blah\n")));
    let left = "array:\n- val1\narray2:\n- val1\narray3:\n- val1\n";
    let right = "array:\n#@overlay/match by=all,when=\"1+\"\n- input_string\n#@overlay/match by=all,when=\"10+\"\n- negative\narray2:\n#@overlay/match by=all,when=1\n- input_int\n#@overlay/match by=all,when=3\n- negative\narray3:\n#@overlay/match by=all,when=is_one\n- input_func\n#@overlay/match by=blah,when=is_one\n- negative\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("array:\n- input_string\narray2:\n- input_int\narray3:\n- input_func\n".into())
    );
}

#[test]
fn child_defaults_reach_array_items_with_a_matcher() {
    // ytt-library__overlay__match-child-defaults, test2
    let mut c = Case::new();
    let left = "key2:\n- name: val1\n- name: val2\n";
    let right = "#@overlay/match-child-defaults missing_ok=True\nkey2:\n#@overlay/match by=\"name\"\n- name: val3\n#@overlay/match by=\"name\"\n- name: val4\n";
    assert_eq!(
        c.apply_values(left, right),
        Ok("key2:\n- name: val1\n- name: val2\n- name: val3\n- name: val4\n".into())
    );
}

#[test]
fn logical_matchers() {
    // ytt-library__overlay__logical-ops, test1 and test3
    let mut c = Case::new();
    c.name("never", |h| h.matcher(|_, _, _| false));
    c.name("not_first", |h| {
        let first = yv("name: first\n");
        h.not(move |_, l, _| crate::overlay::compare::subset_matches(l, &first))
    });
    let left = "- name: first\n- name: second\n- name: third\n";
    let item = "-\n  #@overlay/match missing_ok=True\n  found: true\n";
    assert_eq!(
        c.apply_values(left, &format!("#@overlay/match by=never,expects=0\n{item}")),
        Ok("- name: first\n- name: second\n- name: third\n- found: true\n".into())
    );
    assert_eq!(
        c.apply_values(
            left,
            &format!("#@overlay/match by=not_first,expects=2\n{item}")
        ),
        Ok("- name: first\n- name: second\n  found: true\n- name: third\n  found: true\n".into())
    );
}

#[test]
fn matcher_receives_index_and_values() {
    // ytt-library__overlay__match-by-gets-yamlfragments, test2
    let mut c = Case::new();
    c.name("is_test2", |h| {
        h.matcher(|_, l, _| *l == Value::String("test2".into()))
    });
    let right = "#@overlay/match by=is_test2,expects=2\n#@overlay/replace\n- test2 (found)\n";
    assert_eq!(
        c.apply_values("- test2\n- test2\n- other\n", right),
        Ok("- test2 (found)\n- test2 (found)\n- other\n".into())
    );
    assert_eq!(
        c.host.calls,
        vec![
            "matcher(0, test2, test2 (found))",
            "matcher(1, test2, test2 (found))",
            "matcher(2, other, test2 (found))",
        ]
    );
}
