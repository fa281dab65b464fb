//! A document whose lines end in a CR alone (the old Mac line end): the protocol counts an LF,
//! a CR LF and a CR alone as line ends, and so must every position the server sends and reads
//! (diagnostics, code actions and the fixes they carry, hover, definition, rename). The client
//! here splits lines as the protocol says, independently of the server's code, and what ytt
//! renders is compared before and after each edit.

use super::*;

/// The byte offset of an LSP position in `text`, lines split as the protocol says (an LF, a
/// CR LF or a CR alone ends one), characters in UTF-16 code units.
fn offset(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().unwrap() as usize;
    let character = pos["character"].as_u64().unwrap() as usize;
    let b = text.as_bytes();
    let mut start = 0;
    for _ in 0..line {
        let i = b[start..]
            .iter()
            .position(|c| *c == b'\n' || *c == b'\r')
            .map(|i| start + i)
            .expect("a line past the end");
        start = if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
    }
    let mut units = 0;
    for (i, ch) in text[start..].char_indices() {
        if units >= character || ch == '\n' || ch == '\r' {
            return start + i;
        }
        units += ch.len_utf16();
    }
    text.len()
}

/// The text of an LSP range.
fn ranged<'a>(text: &'a str, range: &Value) -> &'a str {
    &text[offset(text, &range["start"])..offset(text, &range["end"])]
}

/// `text` with LSP text `edits` applied.
fn applied(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                offset(text, &r["start"]),
                offset(text, &r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

/// What `yttlint template -f config` renders in `dir` (as ytt does), and its exit status.
fn render(dir: &Path) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(["template", "-f", "config"])
        .current_dir(dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// A Starlark module whose every line ends in a CR alone; a template and a values file with
/// a CR alone in a comment line (ytt's YAML parser, like the protocol, ends a line there).
const STAR: &str = "load(\"@ytt:data\", \"data\")\rload(\"@ytt:struct\", \"struct\")\r\rdef name():\r  return data.values.app + \"-svc\"\rend\r";
const TEMPLATE: &str = "#@ load(\"h.star\", \"name\")\n#! the service, old Mac style\r---\nkind: Service\nmetadata:\n  name: #@ name()\n";
const VALUES: &str = "#@data/values\n---\n#! the app's name\rapp: demo\n";

fn repo() -> TempDir {
    let dir = TempDir::new();
    dir.write("config/h.star", STAR);
    dir.write("config/t.yml", TEMPLATE);
    dir.write("config/values.yml", VALUES);
    dir.write(".yttlint.yaml", "roots:\n  - path: config\n");
    dir
}

#[test]
fn positions_count_a_lone_cr_as_a_line_end() {
    let dir = repo();
    let before = render(&dir);
    assert_eq!(before.0, Some(0), "{}", before.1);
    assert!(before.1.contains("name: demo-svc"), "{}", before.1);
    let star = dir.join("config/h.star");
    let tpl = dir.join("config/t.yml");
    let mut c = Client::start(&dir);
    c.open(&tpl, TEMPLATE);
    c.open(&star, STAR);
    // The unused load of the module: its range is the load, as the client counts lines.
    let found = c.diagnostics(&uri(&star), |p| {
        codes(p).contains(&"unused-load".to_string())
    });
    let d = found["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "unused-load")
        .unwrap()
        .clone();
    assert_eq!(d["range"]["start"]["line"], 1, "{d}");
    assert!(ranged(STAR, &d["range"]).contains("struct"), "{d}");

    // Its fix, applied by the client, removes that load and nothing else.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&star)}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with("Remove"))
        .unwrap_or_else(|| panic!("no fix among {actions}"));
    let edits = fix["edit"]["changes"][uri(&star)].as_array().unwrap();
    let fixed = applied(STAR, edits);
    assert!(!fixed.contains("@ytt:struct"), "{fixed:?}");
    assert_eq!(
        fixed.replace('\r', "\n").lines().count(),
        STAR.replace('\r', "\n").lines().count() - 1,
        "{fixed:?}"
    );
    std::fs::write(&star, &fixed).unwrap();
    assert_eq!(render(&dir), before, "the fix keeps what ytt renders");
    std::fs::write(&star, STAR).unwrap();

    // The suppression offered goes on a line of its own, just above the finding's line as
    // the client counts it (after the CR that ends line 0), and keeps what ytt renders.
    let suppress = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with("Suppress"))
        .unwrap_or_else(|| panic!("no suppression among {actions}"));
    let edits = suppress["edit"]["changes"][uri(&star)].as_array().unwrap();
    let suppressed = applied(STAR, edits);
    assert_eq!(
        suppressed,
        STAR.replacen("\rload(", "\r# yttlint: disable=unused-load\nload(", 1)
    );
    std::fs::write(&star, &suppressed).unwrap();
    assert_eq!(
        render(&dir),
        before,
        "the suppression keeps what ytt renders"
    );
    std::fs::write(&star, STAR).unwrap();

    // Definition of `name()` (line 5 of the template as the client counts) is at its `def`.
    let ch = TEMPLATE
        .split(['\n', '\r'])
        .nth(5)
        .unwrap()
        .find("name()")
        .unwrap();
    let def = c.at("textDocument/definition", &tpl, 5, ch);
    let def = if def.is_array() { def[0].clone() } else { def };
    assert_eq!(def["uri"], uri(&star), "{def}");
    let at = offset(STAR, &def["range"]["start"]);
    assert!(
        STAR[at..].starts_with("def name") || STAR[at..].starts_with("name"),
        "{def}"
    );

    // Hover on the module's `data.values.app` (line 4 as the client counts) shows the value.
    let ch = STAR.split('\r').nth(4).unwrap().find("app").unwrap();
    let hover = c.at("textDocument/hover", &star, 4, ch);
    assert!(hover_text(&hover).contains("demo"), "{hover}");

    // Rename of `app` in the values file, from line 3 as the client counts it.
    let values = dir.join("config/values.yml");
    c.open(&values, VALUES);
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&values)}, "position": {"line": 3, "character": 1}, "newName": "application"}),
    );
    let renamed_values = applied(VALUES, edit["changes"][uri(&values)].as_array().unwrap());
    let renamed_star = applied(STAR, edit["changes"][uri(&star)].as_array().unwrap());
    assert_eq!(renamed_values, VALUES.replace("\rapp:", "\rapplication:"));
    assert_eq!(
        renamed_star,
        STAR.replace("values.app ", "values.application ")
    );
    std::fs::write(&values, &renamed_values).unwrap();
    std::fs::write(&star, &renamed_star).unwrap();
    assert_eq!(render(&dir), before, "the rename keeps what ytt renders");
    assert_eq!(c.finish(), 0);
}
