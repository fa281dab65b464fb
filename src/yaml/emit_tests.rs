//! Layout tests for the YAML emitter; expected strings are real ytt outputs from the
//! conformance corpus or follow go-yaml v2's documented behaviour.

use super::{docset_to_yaml, value_to_yaml};
use crate::yaml::emit_testutil::{arr, b, docset, f, i, kmap, map, s};
use crate::yaml::node::Value;

#[test]
fn nested_maps_and_indentless_sequences() {
    // From filetests-yamltemplate/ytt-library__yaml (test1b).
    let frag = || {
        map(vec![(
            "fragment",
            arr(vec![s("piece1"), map(vec![("piece2", b(true))])]),
        )])
    };
    let v = map(vec![
        ("inside_map", frag()),
        ("inside_array", arr(vec![frag()])),
    ]);
    assert_eq!(
        value_to_yaml(&v),
        "inside_map:\n  fragment:\n  - piece1\n  - piece2: true\ninside_array:\n- fragment:\n  - piece1\n  - piece2: true\n"
    );
}

#[test]
fn sequences_of_sequences_and_maps() {
    let v = arr(vec![
        arr(vec![i(1), i(2)]),
        map(vec![("a", i(1)), ("b", arr(vec![s("x")]))]),
    ]);
    assert_eq!(value_to_yaml(&v), "- - 1\n  - 2\n- a: 1\n  b:\n  - x\n");
}

#[test]
fn empty_collections_are_flow() {
    assert_eq!(value_to_yaml(&map(vec![])), "{}\n");
    assert_eq!(value_to_yaml(&arr(vec![])), "[]\n");
    let v = map(vec![
        ("a", map(vec![])),
        ("b", arr(vec![])),
        ("c", arr(vec![arr(vec![])])),
    ]);
    assert_eq!(value_to_yaml(&v), "a: {}\nb: []\nc:\n- []\n");
}

#[test]
fn root_scalars() {
    assert_eq!(value_to_yaml(&s("test5")), "test5\n");
    assert_eq!(value_to_yaml(&Value::Null), "null\n");
    assert_eq!(value_to_yaml(&b(false)), "false\n");
    assert_eq!(value_to_yaml(&i(-42)), "-42\n");
    assert_eq!(value_to_yaml(&f(3.0)), "3\n");
    assert_eq!(value_to_yaml(&s("a\nb")), "|-\n  a\n  b\n");
    assert_eq!(value_to_yaml(&s("a\n")), "|\n  a\n");
}

#[test]
fn non_string_keys() {
    let v = kmap(vec![
        (i(1), s("one")),
        (b(true), s("yes")),
        (Value::Null, s("nil")),
        (f(1.5), s("x")),
        (s("1"), s("string one")),
        (s(""), s("empty")),
    ]);
    assert_eq!(
        value_to_yaml(&v),
        "1: one\ntrue: \"yes\"\nnull: nil\n1.5: x\n\"1\": string one\n\"\": empty\n"
    );
}

#[test]
fn keys_needing_the_complex_form() {
    let long = "k".repeat(129);
    let v = kmap(vec![(s(&long), i(1)), (s(&"k".repeat(128)), i(2))]);
    assert_eq!(
        value_to_yaml(&v),
        format!("? {long}\n: 1\n{}: 2\n", "k".repeat(128))
    );
    let v = kmap(vec![(s("a\nb"), i(1))]);
    assert_eq!(value_to_yaml(&v), "? |-\n  a\n  b\n: 1\n");
    let v = map(vec![("top", kmap(vec![(s("a\nb"), i(1))]))]);
    assert_eq!(value_to_yaml(&v), "top:\n  ? |-\n    a\n    b\n  : 1\n");
    let v = kmap(vec![(map(vec![("a", i(1))]), i(2))]);
    assert_eq!(value_to_yaml(&v), "? a: 1\n: 2\n");
    let v = kmap(vec![(arr(vec![]), i(2))]);
    assert_eq!(value_to_yaml(&v), "[]: 2\n");
}

#[test]
fn literal_blocks_nested() {
    // From examples: metadata.annotations.comment
    let v = map(vec![(
        "metadata",
        map(vec![(
            "annotations",
            map(vec![("comment", s("This deployment\nthe prometheus"))]),
        )]),
    )]);
    assert_eq!(
        value_to_yaml(&v),
        "metadata:\n  annotations:\n    comment: |-\n      This deployment\n      the prometheus\n"
    );
    let v = arr(vec![s("a\n\nb\n"), s("x")]);
    assert_eq!(value_to_yaml(&v), "- |\n  a\n\n  b\n- x\n");
    // From examples-extra/getting-started__*: a value made only of line breaks.
    let v = map(vec![("_", s("\n\n\n"))]);
    assert_eq!(value_to_yaml(&v), "_: |2+\n\n\n\n");
    let v = map(vec![("k", s("  indented\nnext")), ("z", i(1))]);
    assert_eq!(value_to_yaml(&v), "k: |2-\n    indented\n  next\nz: 1\n");
    let v = map(vec![("k", s("keep\n\n")), ("z", i(1))]);
    assert_eq!(value_to_yaml(&v), "k: |+\n  keep\n\nz: 1\n");
}

#[test]
fn docset_separators_and_skipped_documents() {
    let ds = docset(vec![
        Value::Null,
        s("test5"),
        map(vec![]),
        map(vec![("metadata", map(vec![("name", s("updated"))]))]),
        arr(vec![]),
        b(false),
    ]);
    assert_eq!(
        docset_to_yaml(&ds),
        "test5\n---\nmetadata:\n  name: updated\n---\nfalse\n"
    );
    assert_eq!(docset_to_yaml(&docset(vec![])), "");
    assert_eq!(docset_to_yaml(&docset(vec![Value::Null, map(vec![])])), "");
    let mut ds = docset(vec![i(1), i(2)]);
    ds.items[0].injected = true;
    assert_eq!(docset_to_yaml(&ds), "2\n");
}

#[test]
fn yaml_encode_of_docset_fragment() {
    // From ytt-library__yaml test1c: yaml.encode of a two-document fragment.
    let ds = docset(vec![
        map(vec![(
            "fragment",
            arr(vec![s("piece1"), map(vec![("piece2", b(true))])]),
        )]),
        s("doc2"),
    ]);
    assert_eq!(
        docset_to_yaml(&ds),
        "fragment:\n- piece1\n- piece2: true\n---\ndoc2\n"
    );
}
