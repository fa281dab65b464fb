//! Overlay post-processing of a library's output (ytt's `cmd_overlays` tests): overlay
//! documents apply in file order to the documents of all files.

use super::Case;
use crate::overlay::post_process::{post_process, FileDocs};
use crate::overlay::test_support::yaml;

fn files(c: &mut Case, srcs: &[(&str, &str)]) -> Vec<FileDocs> {
    srcs.iter()
        .map(|(file, src)| FileDocs {
            file: file.to_string(),
            docs: c.docs(src, file),
        })
        .collect()
}

fn run(c: &mut Case, srcs: &[(&str, &str)]) -> Result<Vec<(String, String)>, String> {
    let input = files(c, srcs);
    match post_process(input, &mut c.host) {
        Ok(out) => Ok(out.into_iter().map(|f| (f.file, yaml(&f.docs))).collect()),
        Err(e) => Err(e.message),
    }
}

const TPL: &str = "\narray:\n- name: item1\n  subarray:\n  - item1\n";

#[test]
fn errors_name_the_overlay_files_in_order() {
    // cmd-template-cmd_overlays/DocumentOverlayDescriptiveError
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let overlay1 = "\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=all\n---\narray:\n#@overlay/match by=\"name\"\n- name: item1\n  #@overlay/match missing_ok=True\n  subarray2: 2\n";
    let overlay2 =
        "\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=all\n---\nmap: {}\n";
    assert_eq!(
        run(&mut c, &[("tpl.yml", TPL), ("overlay1.yml", overlay1), ("overlay2.yml", overlay2)]),
        Err("Overlaying (in following order: overlay1.yml, overlay2.yml): Document on line overlay2.yml:4: Map item (key 'map') on line overlay2.yml:5: Expected number of matched nodes to be 1, but was 0".into())
    );
}

#[test]
fn errors_list_the_matched_documents() {
    // cmd-template-cmd_overlays/DocumentOverlayMultipleMatchesDescriptiveError
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let tpl = "\n---\nid: 1\nname: foo\n\n---\nid: 2\nname: foo\n";
    let overlay =
        "\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=all\n---\noverlayed: true\n";
    assert_eq!(
        run(&mut c, &[("tpl.yml", tpl), ("overlay.yml", overlay)]),
        Err("Overlaying (in following order: overlay.yml): Document on line overlay.yml:4: Expected number of matched nodes to be 1, but was 2 (lines: tpl.yml:2, tpl.yml:6)".into())
    );
}

#[test]
fn overlays_apply_in_file_order() {
    // cmd-template-cmd_overlays/DocumentOverlays and DocumentOverlays2
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let add = "#@overlay/match by=all\n---\narray:\n#@overlay/match by=\"name\"\n- name: item1\n  #@overlay/match missing_ok=True\n  subarray2:\n  - yamlfunc: yamlfunc\n";
    let remove = "#@overlay/match by=all\n---\narray:\n#@overlay/match by=\"name\"\n- name: item1\n  #@overlay/remove\n  subarray2:\n";
    let added =
        "array:\n- name: item1\n  subarray:\n  - item1\n  subarray2:\n  - yamlfunc: yamlfunc\n";
    assert_eq!(
        run(&mut c, &[("tpl.yml", TPL), ("overlay.yml", add)]),
        Ok(vec![("tpl.yml".to_string(), added.to_string())])
    );
    let removed = "array:\n- name: item1\n  subarray:\n  - item1\n";
    assert_eq!(
        run(
            &mut c,
            &[
                ("tpl.yml", TPL),
                ("overlay2.yml", add),
                ("overlay1.yml", remove)
            ]
        ),
        Ok(vec![("tpl.yml".to_string(), removed.to_string())])
    );
}

#[test]
fn an_empty_overlay_document_empties_its_matches() {
    // cmd-template-cmd_overlays/EmptyOverlayAndEmptyDataValues
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let overlay = "#@overlay/match by=all\n---\n";
    let out = run(&mut c, &[("tpl.yml", TPL), ("overlay2.yml", overlay)]);
    assert_eq!(out, Ok(vec![("tpl.yml".to_string(), String::new())]));
}

#[test]
fn documents_are_numbered_across_files_and_appended_to_the_last() {
    let mut c = Case::new();
    c.name("third", |h| h.index(2));
    let overlay = "#@overlay/match by=third\n---\nnum: 3\n#@overlay/match by=third, expects=\"0+\"\n#@overlay/append\n---\nappended: true\n";
    let out = run(
        &mut c,
        &[
            ("a.yml", "---\nnum: 0\n--- {}\n---\nnum: 1\n"),
            ("o.yml", overlay),
            ("b.yml", "---\nnum: 2\n"),
        ],
    );
    assert_eq!(
        out,
        Ok(vec![
            ("a.yml".to_string(), "num: 0\n---\nnum: 1\n".to_string()),
            (
                "b.yml".to_string(),
                "num: 3\n---\nappended: true\n".to_string()
            ),
        ])
    );
    assert!(c
        .host
        .calls
        .contains(&"matcher(2, {num: 2}, {num: 3})".to_string()));
}

#[test]
fn or_add_goes_to_the_first_file_and_files_without_documents_are_dropped() {
    let mut c = Case::new();
    c.name("none", |h| h.not(|_, _, _| true));
    let overlay =
        "#@overlay/match by=none, expects=0\n#@overlay/replace or_add=True\n---\nadded: true\n";
    let out = run(
        &mut c,
        &[
            ("empty.yml", "--- {}\n"),
            ("a.yml", "---\nnum: 0\n"),
            ("o.yml", overlay),
            ("b.yml", "---\nnum: 1\n"),
        ],
    );
    assert_eq!(
        out,
        Ok(vec![
            (
                "a.yml".to_string(),
                "num: 0\n---\nadded: true\n".to_string()
            ),
            ("b.yml".to_string(), "num: 1\n".to_string()),
        ])
    );
}

#[test]
fn removing_every_document_of_a_file_keeps_the_file() {
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let overlay = "#@overlay/match by=all\n#@overlay/remove\n---\n";
    let out = run(&mut c, &[("a.yml", "---\nnum: 0\n"), ("o.yml", overlay)]);
    assert_eq!(out, Ok(vec![("a.yml".to_string(), String::new())]));
}

#[test]
fn overlay_annotations_stay_on_nodes_brought_in() {
    // As in ytt, post-processing does not strip annotations from the result.
    let mut c = Case::new();
    c.name("all", |h| h.all());
    let overlay = "#@overlay/match by=all\n---\n#@overlay/match missing_ok=True\nb: 1\n";
    let input = files(&mut c, &[("a.yml", "---\na: 0\n"), ("o.yml", overlay)]);
    let out = post_process(input, &mut c.host).expect("overlay applies");
    let crate::yaml::node::Value::Map(m) = &out[0].docs.items[0].value else {
        panic!("expected a map")
    };
    assert!(m.items[1].anns.has("overlay/match"));
}
