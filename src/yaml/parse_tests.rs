//! Tests of the YAML parser: positions, comment attachment, anchors and merges, multi-document
//! streams and error texts (the intent of ytt's own parser tests).

use super::*;
use crate::yaml::node::{Array, Map, MapItem};

fn p(src: &str) -> DocSet {
    let file: Arc<str> = Arc::from("f.yml");
    parse(src, &file, &ParseOpts::default()).unwrap()
}

fn err(src: &str) -> String {
    let file: Arc<str> = Arc::from("f.yml");
    parse(src, &file, &ParseOpts::default())
        .unwrap_err()
        .message
}

fn map(v: &Value) -> &Map {
    match v {
        Value::Map(m) => m,
        other => panic!("not a map: {other:?}"),
    }
}

fn arr(v: &Value) -> &Array {
    match v {
        Value::Array(a) => a,
        other => panic!("not an array: {other:?}"),
    }
}

fn texts(cs: &[Comment]) -> Vec<(String, u32)> {
    cs.iter().map(|c| (c.data.clone(), c.pos.line)).collect()
}

fn c(data: &str, line: u32) -> (String, u32) {
    (data.to_string(), line)
}

fn item<'a>(m: &'a Map, key: &str) -> &'a MapItem {
    m.items
        .iter()
        .find(|i| i.key.as_str() == Some(key))
        .unwrap()
}

#[test]
fn empty_and_blank_sources_yield_one_document_at_line_1() {
    for src in ["", "\n"] {
        let ds = p(src);
        assert_eq!(ds.items.len(), 1);
        assert_eq!(ds.items[0].pos.line, 1);
        assert_eq!(ds.items[0].value, Value::Null);
        assert!(!ds.items[0].injected);
        assert!(!ds.pos.is_known());
    }
}

#[test]
fn only_comments_go_to_an_injected_end_document() {
    let ds = p("#");
    assert_eq!(ds.items.len(), 2);
    assert_eq!(ds.items[0].pos.line, 1);
    assert!(ds.items[1].injected);
    assert!(!ds.items[1].pos.is_known());
    assert_eq!(texts(&ds.items[1].comments), vec![c("", 1)]);

    let ds = p("---\n# comment-first\n");
    assert_eq!(ds.items.len(), 2);
    assert_eq!(texts(&ds.items[1].comments), vec![c(" comment-first", 2)]);

    let ds = p("--- # comment\n");
    assert_eq!(ds.items.len(), 1);
    assert_eq!(texts(&ds.items[0].comments), vec![c(" comment", 1)]);
}

#[test]
fn document_comments_move_to_the_next_document() {
    let ds = p("---\n# comment-first\n---\n---\n# comment-second\n");
    let lines: Vec<u32> = ds.items.iter().map(|d| d.pos.line).collect();
    assert_eq!(lines, vec![1, 3, 4, 0]);
    assert!(ds.items[0].comments.is_empty());
    assert_eq!(texts(&ds.items[1].comments), vec![c(" comment-first", 2)]);
    assert_eq!(texts(&ds.items[3].comments), vec![c(" comment-second", 5)]);

    let ds = p("# comment-first\n---\n---\n# comment-second\n");
    let lines: Vec<u32> = ds.items.iter().map(|d| d.pos.line).collect();
    assert_eq!(lines, vec![1, 2, 3, 0]);
    assert_eq!(texts(&ds.items[1].comments), vec![c(" comment-first", 1)]);

    let ds = p("#@data/values\n---\na: 1\n");
    assert_eq!(texts(&ds.items[1].comments), vec![c("@data/values", 1)]);
}

#[test]
fn map_comments_and_positions() {
    let src = "---\n# before-map\nmap:\n  # before-key1\n  key1: val1 # inline-key1\n  # after-key1\n  # before-key2\n  key2: val2\n";
    let ds = p(src);
    let doc = &ds.items[0];
    assert_eq!(doc.pos.line, 1);
    let top = map(&doc.value);
    assert_eq!(top.pos.line, 1);
    let m = item(top, "map");
    assert_eq!(m.pos.line, 3);
    assert_eq!(texts(&m.comments), vec![c(" before-map", 2)]);
    let inner = map(&m.value);
    assert_eq!(inner.pos.line, 3);
    let k1 = item(inner, "key1");
    assert_eq!((k1.pos.line, k1.pos.col, k1.pos.offset), (5, 3, 40));
    assert_eq!(
        texts(&k1.comments),
        vec![c(" before-key1", 4), c(" inline-key1", 5)]
    );
    assert_eq!(k1.comments[1].pos.col, 14);
    let k2 = item(inner, "key2");
    assert_eq!(k2.pos.line, 8);
    assert_eq!(
        texts(&k2.comments),
        vec![c(" after-key1", 6), c(" before-key2", 7)]
    );
}

#[test]
fn array_comments_and_positions() {
    let src = "---\narray:\n# before-1\n- 1 # inline-1\n# after-1\n# before-2\n- 2\n- 3\n- # empty\n- \n  # on-map\n  key: value\n# on-array-item-with-map\n- key: value\n";
    let ds = p(src);
    let a = arr(&item(map(&ds.items[0].value), "array").value);
    assert_eq!(a.pos.line, 2);
    let lines: Vec<u32> = a.items.iter().map(|i| i.pos.line).collect();
    assert_eq!(lines, vec![4, 7, 8, 9, 10, 14]);
    assert_eq!(
        texts(&a.items[0].comments),
        vec![c(" before-1", 3), c(" inline-1", 4)]
    );
    assert_eq!(
        texts(&a.items[1].comments),
        vec![c(" after-1", 5), c(" before-2", 6)]
    );
    assert_eq!(a.items[3].value, Value::Null);
    assert_eq!(texts(&a.items[3].comments), vec![c(" empty", 9)]);
    let on_map = map(&a.items[4].value);
    assert_eq!(on_map.pos.line, 10);
    assert_eq!(texts(&on_map.items[0].comments), vec![c(" on-map", 11)]);
    assert_eq!(
        texts(&a.items[5].comments),
        vec![c(" on-array-item-with-map", 13)]
    );
}

#[test]
fn document_without_dashes() {
    let ds = p("key: 1\n# c\n---\nother: 2\n");
    assert_eq!(ds.items.len(), 2);
    assert_eq!(ds.items[0].pos.line, 1);
    assert_eq!(ds.items[1].pos.line, 3);
    assert_eq!(texts(&ds.items[1].comments), vec![c(" c", 2)]);
    let k = &map(&ds.items[0].value).items[0];
    assert_eq!((k.pos.line, k.pos.col, k.pos.offset), (1, 1, 0));
    assert_eq!(map(&ds.items[1].value).items[0].pos.offset, 15);
}

#[test]
fn unindented_comment_goes_to_next_item() {
    let ds = p("---\nkey:\n  nested: true\n# comment\n  nested: true\n");
    let inner = map(&map(&ds.items[0].value).items[0].value);
    assert_eq!(inner.items.len(), 2);
    assert!(inner.items[0].comments.is_empty());
    assert_eq!(texts(&inner.items[1].comments), vec![c(" comment", 4)]);
}

#[test]
fn hash_inside_scalars_is_not_a_comment() {
    let src = "a: \"x # y\"\nb: 'p # q'\nc: |\n  # not\n  x # y\nd: e#f\ne: [1, \"#\"] # real\n";
    let ds = p(src);
    let m = map(&ds.items[0].value);
    let all: Vec<_> = m.items.iter().flat_map(|i| texts(&i.comments)).collect();
    assert!(all.is_empty());
    let e = arr(&item(m, "e").value);
    assert_eq!(texts(&e.items[1].comments), vec![c(" real", 7)]);
    assert_eq!(item(m, "c").value, Value::String("# not\nx # y\n".into()));
    assert_eq!(item(m, "d").value, Value::String("e#f".into()));
}

#[test]
fn anchors_copy_subtrees_and_inline_comments_go_to_the_last_copy() {
    let src = "\n#@ variable = 123\nvalue: &value\n  path: #@ variable\n  #@annotation\n  args:\n  - 1\n  - 2\nanchored_value: *value\n";
    let ds = p(src);
    let top = map(&ds.items[0].value);
    let orig = item(top, "value");
    assert_eq!(texts(&orig.comments), vec![c("@ variable = 123", 2)]);
    let om = map(&orig.value);
    assert!(om.items[0].comments.is_empty());
    assert_eq!(texts(&om.items[1].comments), vec![c("@annotation", 5)]);
    let copy = item(top, "anchored_value");
    let cm = map(&copy.value);
    assert_eq!(cm.pos.line, 9);
    assert_eq!(cm.items[0].pos.line, 4);
    assert_eq!(texts(&cm.items[0].comments), vec![c("@ variable", 4)]);
    assert!(cm.items[1].comments.is_empty());
    assert_eq!(arr(&cm.items[1].value).items[1].pos.line, 8);
}

#[test]
fn merge_keys() {
    let ds = p("a: &a {x: 1, w: 2}\nb:\n  <<: *a\n  z: 3\n");
    let b = map(&item(map(&ds.items[0].value), "b").value);
    let keys: Vec<_> = b.items.iter().map(|i| i.key.clone()).collect();
    let expected: Vec<Value> = ["x", "w", "z"]
        .iter()
        .map(|s| Value::String(s.to_string()))
        .collect();
    assert_eq!(keys, expected);
    assert_eq!(b.items[0].pos.line, 1);
    let ds = p("b:\n  <<: {x: 1}\n  <<: []\n");
    assert_eq!(
        map(&item(map(&ds.items[0].value), "b").value).items.len(),
        1
    );
    let want = "yaml: map merge requires map or sequence of maps as the value";
    assert_eq!(err("a: &a {x: 1}\nb:\n  <<: [*a]\n"), want);
    assert_eq!(err("a: &a 1\nb:\n  <<: *a\n"), want);
    assert_eq!(err("b:\n  <<: 1\n"), want);
    let ds = p("b:\n  \"<<\": 1\n");
    assert_eq!(
        map(&item(map(&ds.items[0].value), "b").value).items.len(),
        1
    );
}

#[test]
fn alias_errors() {
    assert_eq!(err("a: *x\n"), "yaml: unknown anchor 'x' referenced");
    assert_eq!(
        err("a: &x [*x]\n"),
        "yaml: anchor 'x' value contains itself"
    );
}

#[test]
fn duplicate_keys_are_kept() {
    let ds = p("a: 1\na: 2\n");
    assert_eq!(map(&ds.items[0].value).items.len(), 2);
}

#[test]
fn yaml11_scalars_in_documents() {
    let ds = p("a: yes\nb: '1'\nc: 0x10\nd: ~\ne: !!str 12\nf: 1.5\n? [k]\n: v\n");
    let m = map(&ds.items[0].value);
    let vals: Vec<_> = m.items.iter().map(|i| i.value.clone()).collect();
    assert_eq!(vals[0], Value::Bool(true));
    assert_eq!(vals[1], Value::String("1".into()));
    assert_eq!(vals[2], Value::Int(16));
    assert_eq!(vals[3], Value::Null);
    assert_eq!(vals[4], Value::String("12".into()));
    assert_eq!(vals[5], Value::Float(1.5));
    assert!(matches!(m.items[6].key, Value::Array(_)));
}

#[test]
fn flow_sequence_item_positions_follow_the_separators() {
    let ds = p("a: [1,\n  2]\n");
    let a = arr(&map(&ds.items[0].value).items[0].value);
    let pos: Vec<_> = a.items.iter().map(|i| (i.pos.line, i.pos.col)).collect();
    assert_eq!(pos, vec![(1, 4), (1, 6)]);
}

#[test]
fn indented_documents_and_tabs() {
    let ds = p("#! c\n#@ if True:\n  #@ if False:\n---\n  test1: a\n  #@ else/end:\n---\n  test1: b\n#@ end\n");
    assert_eq!(ds.items.len(), 4);
    assert_eq!(ds.items[3].comments.len(), 1);
    let ds = p("key:\tvalue\n");
    assert_eq!(
        map(&ds.items[0].value).items[0].value,
        Value::String("value".into())
    );
}

#[test]
fn explicit_document_end() {
    let ds = p("a: 1\n...\n---\nb: 2\n...\n");
    assert_eq!(ds.items.len(), 2);
    assert_eq!(ds.items[1].pos.line, 3);
}

#[test]
fn block_scalar_at_end_of_input() {
    let v = |s: &str| map(&p(s).items[0].value).items[0].value.clone();
    assert_eq!(v("a: |\n  x"), Value::String("x".into()));
    assert_eq!(v("a: |+\n  x"), Value::String("x".into()));
    assert_eq!(v("a: |\n  x\n  "), Value::String("x\n".into()));
    assert_eq!(v("a: |+\n  x\n  "), Value::String("x\n".into()));
    assert_eq!(v("a: >-\n  x\n  y"), Value::String("x y".into()));
}

#[test]
fn error_messages() {
    assert_eq!(
        err("apiVersion: @123"),
        "yaml: line 1: found character that cannot start any token"
    );
    assert_eq!(
        err("---\napiVersion: @123"),
        "yaml: line 2: found character that cannot start any token"
    );
    assert_eq!(
        err("\n\n\napiVersion: @123"),
        "yaml: line 4: found character that cannot start any token"
    );
    assert_eq!(
        err("\n\n---\napiVersion: @123"),
        "yaml: line 4: found character that cannot start any token"
    );
    assert_eq!(
        err("\nkey: val\nyamlfunc yamlfunc"),
        "yaml: line 4: could not find expected ':'"
    );
    assert_eq!(
        err("\n[foo]\n  bar = 123\n"),
        "yaml: line 2: did not find expected <document start>"
    );
    assert_eq!(
        err("a:\n  b: 1\n c: 2\n"),
        "yaml: line 2: did not find expected key"
    );
    let e = parse("x: @", &Arc::from("f.yml"), &ParseOpts::default()).unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (1, 4));
}

#[test]
fn go_yaml_takes_only_a_yaml_1_1_directive() {
    // libyaml takes `%YAML 1.2` too; go-yaml words it as it words 2.0.
    let two = err("%YAML 2.0\n---\na: 1\n");
    assert_eq!(two, "yaml: line 0: found incompatible YAML document");
    assert_eq!(err("%YAML 1.2\n---\na: 1\n"), two);
    // A later document's directive: at its line, as libyaml words 2.0 there.
    let later = |v: &str| err(&format!("a: 0\n---\nb: 1\n...\n%YAML {v}\n---\nc: 2\n"));
    assert_eq!(later("1.2"), later("2.0"));
    assert!(later("1.2").contains("found incompatible YAML document"));
    let file: Arc<str> = Arc::from("f.yml");
    assert!(parse("%YAML 1.1\n---\na: 1\n", &file, &ParseOpts::default()).is_ok());
}

#[test]
fn strict_mode_errors() {
    let file: Arc<str> = Arc::from("f.yml");
    let strict = ParseOpts { strict: true };
    let e = parse("a: 1\nstr: yes", &file, &strict).unwrap_err();
    assert_eq!(
        e.message,
        "yaml: Strict parsing: Found 'yes' ambigious (could be !!str or !!bool)"
    );
    assert_eq!(e.pos.line, 2);
    assert!(parse("a: \"yes\"\n<<: {b: 1}\n", &file, &strict).is_ok());
    assert!(parse("yes: 1\n", &file, &strict).is_err());
}

#[test]
fn never_panics_on_odd_input() {
    for src in [
        "[!!str, a]",
        "\"\\",
        "a: |\n  x\n   ",
        "- - - [",
        "\u{feff}a: 1",
        "a: \"x",
    ] {
        let file: Arc<str> = Arc::from("f.yml");
        let _ = parse(src, &file, &ParseOpts::default());
    }
    let deep = "[".repeat(5000);
    assert!(parse(&deep, &Arc::from("f.yml"), &ParseOpts::default()).is_err());
}

#[test]
fn strict_examples_from_ytt() {
    let file: Arc<str> = Arc::from("f.yml");
    let strict = ParseOpts { strict: true };
    let run = |src: &str| parse(src, &file, &strict).map(|ds| ds.items[0].value.clone());
    let amb = |v: &str, t: &str| {
        format!("yaml: Strict parsing: Found '{v}' ambigious (could be !!str or {t})")
    };
    let errs = [
        ("foo:\n  blah:key", "yaml: Strict parsing: Strings with colon must be explicitly quoted: 'blah:key'".to_string()),
        ("100\n100", "yaml: Strict parsing: Strings with whitespace must be explicitly quoted: '100 100'".to_string()),
        ("YES", amb("YES", "!!bool")),
        ("~", amb("~", "!!null")),
        (".nan", amb(".nan", "!!float")),
        ("011", amb("011", "!!int")),
        (".1", amb(".1", "!!float")),
        ("0b0001", amb("0b0001", "!!int")),
        ("-0b0001", amb("-0b0001", "!!int")),
        ("---key: value", "yaml: Strict parsing: Strings with triple-dash must be explicitly quoted: '---key'".to_string()),
        ("prevval---key: value", "yaml: Strict parsing: Strings with triple-dash must be explicitly quoted: 'prevval---key'".to_string()),
    ];
    for (src, want) in errs {
        assert_eq!(run(src).unwrap_err().message, want, "{src}");
    }
    assert_eq!(
        run("|\n  123\n  123").unwrap(),
        Value::String("123\n123".into())
    );
    assert_eq!(run("-9223372036854775808").unwrap(), Value::Int(i64::MIN));
    assert_eq!(run("9230.9230").unwrap(), Value::Float(9230.923));
    assert_eq!(run("!!int 0b0010").unwrap(), Value::Int(2));
}

/// An error the parser meets comes first, as in go-yaml, even when the scanner would fail
/// further down (libyaml-safer's panic on `[!!str, e]`).
#[test]
fn the_first_error_in_the_text_is_reported() {
    let src = "a:\n  - b: 1\n {  c: 2\nd: [!!str, e]\n";
    assert_eq!(err(src), "yaml: line 2: did not find expected key");
}

/// Reading the text between events gives what the scanner's tokens gave: the same documents,
/// positions (sequence items at their `-`, `[` or `,`) and comments, or the same error.
#[test]
fn text_reading_agrees_with_the_scanner() {
    let file: Arc<str> = Arc::from("f.yml");
    let opts = ParseOpts::default();
    let mut sources: Vec<String> = [
        "- a\n- b # c\n-\n- - x\n  - y\n#@ z\n- [1, [2, 3],#q\n  4]\n",
        "k: &my-anchor # one\n  - a # - , [\n  -   # two\n    b\nl: !!str # three\n  v#w\n",
        "#@ load(\"@ytt:data\", \"data\")\n---\n#@ for x in data.values.l:\n- name: #@ x\n  v: [a, {b: c}, ? d]\n#@ end\n--- # doc\n...\n# after\n",
        "a: |\n  - not # an item\n  text\nb: >-\n  folded\n# end\n",
        "- 'q # x'\n- \"d # y\" # z\n- !!map {a: 1} # w\n- &x [*x]\n",
        "[a, b\n",
        "- a\n b: c\n",
        "k:\n- a\n-\n- &a-b !t c\n",
        "s: [exist: ing, new]\nv: ['get': , 'w']\nr: [ ? fl, pr ]\nq: [: x, y]\n",
        "",
        "# only a comment\n",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut dirs = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
                sources.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    assert!(sources.len() > 100, "{} sources", sources.len());
    for src in &sources {
        let text = parse_with(src, &file, &opts, false);
        let scanned = parse_with(src, &file, &opts, true);
        assert_eq!(format!("{text:?}"), format!("{scanned:?}"), "{src}");
    }
}

/// ytt's scanner reads `,`, `[` and `]` into a tag, which is then unknown (checked with the
/// ytt binary): the node keeps its plain value, and the text keeps its positions.
#[test]
fn tags_run_on_over_commas_and_brackets_as_in_ytt() {
    let ds = p("a: !!str, 5\nb: [!!int, 6, &x !t, y]\nc: 1\n");
    let m = map(&ds.items[0].value);
    assert_eq!(m.items[0].value, Value::String("5".into()));
    let b = arr(&m.items[1].value);
    assert_eq!(b.items.len(), 2);
    assert_eq!(b.items[0].value, Value::String("6".into()));
    assert_eq!(b.items[1].value, Value::String("y".into()));
    assert_eq!((m.items[2].pos.line, m.items[2].pos.col), (3, 1));
    assert_eq!(
        err("d: [!!str,e]\n"),
        "yaml: line 1: did not find expected ',' or ']'"
    );
    assert_eq!(
        p("s: 'q !x, y'\n").items[0].value,
        p("s: q !x, y\n").items[0].value
    );
}
