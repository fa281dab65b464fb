//! Documents: `by=` is required (a function; matchers see documents numbered from 0), merge,
//! remove, replace (via, or_add), insert (via), append, when=, child defaults, positions.

use super::{yv, Case};
use crate::overlay::test_host::show;
use crate::overlay::{apply, Fragment};
use crate::yaml::node::Value;

#[test]
fn merge_into_documents_matched_by_subset() {
    // ytt-library__overlay__doc-subset, test1 and test2
    let mut c = Case::new();
    c.name("test1", |h| h.subset(yv("metadata:\n  name: test1\n")));
    c.name("test2", |h| h.subset(yv("metadata:\n- name: test2\n")));
    let right = "#@overlay/match by=test1,expects=2\n---\n#@overlay/match missing_ok=True\nkey1:\n- name: foo\n";
    let left = "---\nmetadata:\n  name: test1\n---\nmetadata:\n  name: test1\n  other: key\n---\nmetadata:\n  other: key\n--- {}\n";
    assert_eq!(
        c.apply_docs(left, right),
        Ok("metadata:\n  name: test1\nkey1:\n- name: foo\n---\nmetadata:\n  name: test1\n  other: key\nkey1:\n- name: foo\n---\nmetadata:\n  other: key\n".into())
    );
    let right = "#@overlay/match by=test2,expects=2\n---\n#@overlay/match missing_ok=True\nkey1:\n- name: foo\n";
    let left = "---\nmetadata:\n- name: test2\n---\nmetadata:\n- name: test2\n- other: key\n---\nmetadata:\n- other: key\n";
    assert_eq!(
        c.apply_docs(left, right),
        Ok("metadata:\n- name: test2\nkey1:\n- name: foo\n---\nmetadata:\n- name: test2\n- other: key\nkey1:\n- name: foo\n---\nmetadata:\n- other: key\n".into())
    );
}

#[test]
fn document_matchers_get_the_index_across_documents() {
    let mut c = Case::new();
    c.name("second", |h| h.index(1));
    let right = "#@overlay/match by=second\n---\nb: 2\n";
    assert_eq!(
        c.apply_docs("---\nb: 0\n---\nb: 1\n", right),
        Ok("b: 0\n---\nb: 2\n".into())
    );
    assert_eq!(
        c.host.calls,
        vec!["matcher(0, {b: 0}, {b: 2})", "matcher(1, {b: 1}, {b: 2})"]
    );
}

#[test]
fn insert_documents_before_and_after() {
    // ytt-library__overlay__insert-into-doc
    let mut c = Case::new();
    c.name("item1", |h| h.subset(yv("item: 1\n")));
    c.name("item2", |h| h.subset(yv("item: 2\n")));
    let right = "#@overlay/match by=item1\n#@overlay/insert before=True\n---\nbefore: 1\n#@overlay/match by=item2\n#@overlay/insert after=True\n---\nafter: 2\n";
    assert_eq!(
        c.apply_docs("---\nitem: 1\n---\nitem: 2\n", right),
        Ok("before: 1\n---\nitem: 1\n---\nitem: 2\n---\nafter: 2\n".into())
    );
}

#[test]
fn insert_document_via() {
    // ytt-library__overlay__insert-into-doc-via (reduced)
    let mut c = Case::new();
    c.name("all", |h| h.all());
    c.name("pair", |h| {
        h.via(|l, r| Ok(yv(&format!("left: {}\nright: {}\n", show(l), show(r)))))
    });
    let right =
        "#@overlay/match by=all, expects=2\n#@overlay/insert after=True, via=pair\n---\n200\n";
    assert_eq!(
        c.apply_docs("--- 1\n--- 2\n", right),
        Ok("1\n---\nleft: 1\nright: 200\n---\n2\n---\nleft: 2\nright: 200\n".into())
    );
}

#[test]
fn replace_remove_and_or_add_documents() {
    // ytt-library__overlay__replace-or-add test3, inline-remove test3, replace-func test3
    let mut c = Case::new();
    c.name("all", |h| h.all());
    c.name("none", |h| h.not(|_, _, _| true));
    c.name("doc1", |h| h.subset(Value::String("doc1".into())));
    c.name("prefixed", |h| {
        h.via(|l, r| Ok(Value::String(format!("p-{}-{}", show(l), show(r)))))
    });
    let right = "#@overlay/match by=none, expects=0\n#@overlay/replace or_add=True\n---\nval2\n";
    assert_eq!(
        c.apply_docs("--- val1\n--- val11\n", right),
        Ok("val1\n---\nval11\n---\nval2\n".into())
    );
    let right = "#@overlay/match by=doc1\n#@overlay/remove\n---\n\"doc1\"\n";
    assert_eq!(
        c.apply_docs("--- \"doc1\"\n--- \"doc2\"\n", right),
        Ok("doc2\n".into())
    );
    let right = "#@overlay/match by=all,expects=2\n#@overlay/replace via=prefixed\n---\nval2\n";
    assert_eq!(
        c.apply_docs("--- val1\n--- val11\n", right),
        Ok("p-val1-val2\n---\np-val11-val2\n".into())
    );
}

#[test]
fn append_and_merge_over_null_documents() {
    // ytt-library__overlay__merge-over-nil test3
    let mut c = Case::new();
    c.name("all", |h| h.all());
    assert_eq!(
        c.apply_docs(
            "--- null\n",
            "#@overlay/match by=all\n---\ntest3: foo bar\n"
        ),
        Ok("test3: foo bar\n".into())
    );
    assert_eq!(
        c.apply_docs("--- a\n", "#@overlay/append\n---\nb\n"),
        Ok("a\n---\nb\n".into())
    );
}

#[test]
fn when_and_child_defaults_on_documents() {
    // ytt-library__overlay__when test2, match-child-defaults test3 and test4
    let mut c = Case::new();
    c.name("all", |h| h.all());
    c.name("blah", |h| h.subset(yv("blah: blah\n")));
    c.name("val1", |h| h.subset(yv("name: val1\n")));
    let right = "#@overlay/match by=all,when=\"1+\"\n---\nk: string\n#@overlay/match by=blah,when=1\n---\nnegative: no-match\n";
    assert_eq!(
        c.apply_docs("---\nk: val\n", right),
        Ok("k: string\n".into())
    );
    let right = "#@overlay/match-child-defaults missing_ok=True\n#@overlay/match by=all\n---\nkey2:\n#@overlay/match by=\"name\"\n- name: val3\n";
    assert_eq!(
        c.apply_docs("---\nkey2:\n- name: val1\n", right),
        Ok("key2:\n- name: val1\n- name: val3\n".into())
    );
    let right = "#@overlay/match-child-defaults when=\"1+\"\n#@overlay/match by=all\n---\nkey3:\n#@overlay/match by=val1\n- name: val3\n#@overlay/match by=blah\n- other-key: no-error\n";
    assert_eq!(
        c.apply_docs("---\nkey3:\n- name: val1\n", right),
        Ok("key3:\n- name: val3\n".into())
    );
}

#[test]
fn positions_after_merge_and_replace() {
    // ytt-library__overlay__map-output-position and array-output-position
    let mut c = Case::new();
    c.name("all", |h| h.all());
    c.name("secret", |h| h.subset(yv("needsSecret: true\n")));
    let left = Fragment::DocSet(c.docs(
        "---\nmeta:\n  ann:\n    key: 1\nclients:\n  - needsSecret: true\n",
        "left.yml",
    ));
    let right = Fragment::DocSet(c.docs(
        "#@overlay/match by=all\n---\nmeta:\n  #@overlay/replace\n  ann:\n    keya: 2\nclients:\n  #@overlay/match by=secret\n  #@overlay/replace\n  - secret: foo\n",
        "right.yml",
    ));
    let Ok(Fragment::DocSet(ds)) = apply(left, &right, &mut c.host) else {
        panic!("apply failed")
    };
    let doc = &ds.items[0];
    assert_eq!(
        doc.pos.as_compact(),
        "left.yml:1",
        "documents keep their position"
    );
    let Value::Map(m) = &doc.value else { panic!() };
    assert_eq!(m.items[0].pos.as_compact(), "left.yml:2");
    let Value::Map(meta) = &m.items[0].value else {
        panic!()
    };
    assert_eq!(
        meta.items[0].pos.as_compact(),
        "right.yml:5",
        "replaced item is the overlay's"
    );
    let Value::Array(clients) = &m.items[1].value else {
        panic!()
    };
    assert_eq!(clients.items[0].pos.as_compact(), "right.yml:10");
    assert!(
        ds.items.iter().all(|d| d.anns.is_empty()),
        "overlay annotations are removed"
    );
    assert!(meta.items[0].anns.is_empty());
}
