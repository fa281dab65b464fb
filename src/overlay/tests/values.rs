//! Exact one-document overlays (data values, schemas) and plain merge (`--data-values-file`).

use super::Case;
use crate::overlay::apply_exact;
use crate::overlay::host::NoStarlark;
use crate::overlay::plain_merge::{plain_merge_overlay, NOT_PLAIN};
use crate::yaml::emit::value_to_yaml;
use crate::yaml::node::Document;

fn doc(c: &mut Case, src: &str, file: &str) -> Document {
    let mut ds = c.docs(src, file);
    ds.items.pop().expect("a document")
}

fn exact(c: &mut Case, left: &str, right: &str) -> Result<String, String> {
    let l = doc(c, left, "values.yml");
    let r = doc(c, right, "more.yml");
    apply_exact(l, &r, &mut c.host)
        .map(|d| value_to_yaml(&d.value))
        .map_err(|e| e.message)
}

fn plain(c: &mut Case, left: &str, right: &str) -> Result<String, String> {
    let l = doc(c, left, "values.yml");
    let r = doc(c, right, "plain.yml");
    let overlay = plain_merge_overlay(&r)?;
    apply_exact(l, &overlay, &mut NoStarlark)
        .map(|d| value_to_yaml(&d.value))
        .map_err(|e| e.message)
}

#[test]
fn exact_overlays_need_no_document_matcher() {
    let mut c = Case::new();
    assert_eq!(
        exact(
            &mut c,
            "a: 1\nb:\n  c: 2\n",
            "b:\n  c: 3\n#@overlay/match missing_ok=True\nd: 4\n"
        ),
        Ok("a: 1\nb:\n  c: 3\nd: 4\n".into())
    );
    // cmd-template-cmd_overlays/MultipleDataValuesOneEmptyAndOneNonEmpty
    assert_eq!(
        exact(
            &mut c,
            "---\n",
            "#@overlay/replace\n---\nkey: value_from_data_value_overlay\n"
        ),
        Ok("key: value_from_data_value_overlay\n".into())
    );
}

#[test]
fn exact_overlays_still_count_their_one_match() {
    let mut c = Case::new();
    assert_eq!(
        exact(&mut c, "---\na: 1\n", "#@overlay/match expects=2\n---\na: 2\n"),
        Err("Document on line more.yml:2: Expected number of matched nodes to be 2, but was 1 (lines: values.yml:1)".into())
    );
}

#[test]
fn exact_overlays_strip_overlay_annotations() {
    let mut c = Case::new();
    let l = doc(&mut c, "a: 1\n", "values.yml");
    let r = doc(
        &mut c,
        "#@overlay/match missing_ok=True\nb:\n  #@overlay/match missing_ok=True\n  c: 1\n",
        "more.yml",
    );
    let out = apply_exact(l, &r, &mut c.host).expect("applies");
    let crate::yaml::node::Value::Map(m) = &out.value else {
        panic!()
    };
    assert!(m.items[1].anns.is_empty());
    let crate::yaml::node::Value::Map(inner) = &m.items[1].value else {
        panic!()
    };
    assert!(inner.items[0].anns.is_empty());
}

#[test]
fn plain_merge_adds_keys_and_replaces_arrays_and_scalars() {
    let mut c = Case::new();
    let left = "a: 1\nlist:\n- 1\n- 2\nm:\n  x: 1\n";
    let right = "list:\n- 3\nm:\n  z: 2\nnew:\n  deep: true\na: [x]\n";
    assert_eq!(
        plain(&mut c, left, right),
        Ok("a:\n- x\nlist:\n- 3\nm:\n  x: 1\n  z: 2\nnew:\n  deep: true\n".into())
    );
    // A map does not merge into a scalar (ytt gives the same error).
    assert_eq!(
        plain(&mut c, "a: 1\n", "a:\n  b: 2\n"),
        Err("Document on line plain.yml:1: Map item (key 'a') on line plain.yml:1: Expected map, but was integer".into())
    );
}

#[test]
fn plain_merge_rejects_templating() {
    let mut c = Case::new();
    let r = doc(
        &mut c,
        "#@overlay/match missing_ok=True\na: 1\n",
        "plain.yml",
    );
    assert_eq!(plain_merge_overlay(&r), Err(NOT_PLAIN.to_string()));
    let r = doc(&mut c, "#! just a comment\na: 1\n", "plain.yml");
    assert!(plain_merge_overlay(&r).is_ok());
}

#[test]
fn plain_merge_annotations_follow_ytt() {
    let mut c = Case::new();
    let r = doc(&mut c, "m:\n  k: v\nl: [1]\n", "plain.yml");
    let o = plain_merge_overlay(&r).expect("plain");
    assert!(o.anns.has("overlay/match") && !o.anns.has("overlay/replace"));
    let crate::yaml::node::Value::Map(m) = &o.value else {
        panic!()
    };
    assert!(m.anns.has("overlay/match"));
    assert!(!m.items[0].anns.has("overlay/replace"));
    assert!(m.items[1].anns.has("overlay/replace"));
    let crate::yaml::node::Value::Array(a) = &m.items[1].value else {
        panic!()
    };
    assert!(a.items[0].anns.is_empty(), "array items are not annotated");
}
