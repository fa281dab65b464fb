//! Every code action the server offers keeps what ytt renders. On `fixtures/lsp-actions`
//! (findings in text-templated block scalars, folded and quoted strings, flow collections,
//! `#@` code, Starlark and a `.txt` template), each file is opened, each of its findings asked
//! for its actions, and each action applied alone; the root is rendered before and after. A
//! safe fix and a suppression must leave the rendered files and the exit status as they were
//! (a fix that may change them says so in its title, and is left out of the comparison); a
//! suppression must also suppress its finding.
//!
//! The renderer of the test that always runs is yttlint's own `template` command (which
//! renders as ytt does on the conformance cases and the corpus); the same test with ytt itself
//! needs ytt (`YTT`, else `ytt` on the `PATH`) and is run by `.ci/run` where it is installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::*;
use crate::util::json::{diagnostics, lint_json};

/// Renders the fixture's root (`ytt -f config --output-files DIR`): the exit status and every
/// file written, or the error.
fn render(dir: &Path, renderer: &Path) -> (i32, BTreeMap<String, String>) {
    let out = TempDir::new();
    let mut cmd = Command::new(renderer);
    if renderer == Path::new(BIN) {
        cmd.arg("template");
    }
    let run = cmd
        .args(["-f", "config", "--output-files"])
        .arg(&*out)
        .current_dir(dir)
        .output()
        .unwrap();
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&*out).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        files.insert(name, std::fs::read_to_string(&path).unwrap());
    }
    if !run.status.success() {
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        files.insert("(error)".into(), stderr);
    }
    (run.status.code().unwrap_or(-1), files)
}

/// The byte offset of an LSP position (the fixture is ASCII: characters are bytes).
fn offset(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().unwrap() as usize;
    let character = pos["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + character
}

/// `text` with `edits` (LSP text edits of one document) applied.
pub(super) fn applied(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let new = e["newText"].as_str().unwrap();
            (offset(text, &r["start"]), offset(text, &r["end"]), new)
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

/// The fixture's files, repository-relative.
fn files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir.join("config"))
        .unwrap()
        .map(|e| format!("config/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    out.sort();
    out
}

/// What applying every action taught.
#[derive(Default, Debug)]
struct Tally {
    safe_fixes: usize,
    unsafe_fixes: usize,
    suppressions: usize,
    /// Suppressions placed above the finding's line, not on it (a block scalar's node).
    above_the_node: usize,
}

fn every_action_keeps_the_output(renderer: &Path) -> Tally {
    let dir = TempDir::copy_of("lsp-actions");
    let before = render(&dir, renderer);
    assert_eq!(before.0, 0, "the fixture renders: {:?}", before.1);
    let mut c = Client::start(&dir);
    let mut texts = BTreeMap::new();
    for rel in files(&dir) {
        let text = std::fs::read_to_string(dir.join(&rel)).unwrap();
        c.open(&dir.join(&rel), &text);
        c.run_end(|l| l.contains("linted"));
        texts.insert(rel, text);
    }
    let shown = c.shown();
    let mut tally = Tally::default();
    for (rel, text) in &texts {
        let path = dir.join(rel);
        let Some(found) = shown.get(&uri(&path)) else {
            continue;
        };
        for d in found.as_array().unwrap() {
            let actions = c.request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri(&path)}, "range": d["range"], "context": {"diagnostics": [d]}}),
            );
            for action in actions.as_array().unwrap() {
                let title = action["title"].as_str().unwrap();
                let changes = action["edit"]["changes"].as_object().unwrap();
                assert_eq!(changes.len(), 1, "{action}");
                let edits = changes[&uri(&path)].as_array().unwrap();
                let edited = applied(text, edits);
                std::fs::write(&path, &edited).unwrap();
                let after = render(&dir, renderer);
                let suppression = title.starts_with("Suppress ");
                if title.ends_with("(changes what ytt renders)") {
                    tally.unsafe_fixes += 1;
                } else {
                    assert_eq!(
                        after, before,
                        "`{title}` on {rel} changed what ytt renders:\n{edited}"
                    );
                    if suppression {
                        tally.suppressions += 1;
                        let line = d["range"]["start"]["line"].as_u64().unwrap();
                        let placed = edits[0]["range"]["start"]["line"].as_u64().unwrap();
                        if placed < line {
                            tally.above_the_node += 1;
                        }
                        assert_suppressed(&dir, rel, d, line + 1);
                    } else {
                        tally.safe_fixes += 1;
                    }
                }
                std::fs::write(&path, text).unwrap();
            }
            if rel.ends_with(".txt") {
                assert!(
                    actions.as_array().unwrap().is_empty(),
                    "a text template has no comment to carry a suppression: {actions}"
                );
            }
        }
    }
    assert_eq!(c.finish(), 0);
    tally
}

/// The command line no longer reports the finding `d` of `rel` (now at line `line`, from 0).
fn assert_suppressed(dir: &Path, rel: &str, d: &Value, line: u64) {
    let (_, report) = lint_json(dir, &["--no-cache", "."]);
    let rule = d["code"].as_str().unwrap();
    let still: Vec<&Value> = diagnostics(&report)
        .iter()
        .filter(|f| f["rule"] == rule && f["file"] == rel && f["line"] == line + 1)
        .collect();
    assert!(
        still.is_empty(),
        "{rule} at {rel}:{} is still reported",
        line + 1
    );
}

#[test]
fn every_action_keeps_what_yttlint_template_renders() {
    let tally = every_action_keeps_the_output(Path::new(BIN));
    // The fixture has safe fixes (unused loads), suppressions on plain lines and above the
    // nodes of text-templated block scalars.
    assert!(tally.safe_fixes >= 4, "{tally:?}");
    assert!(tally.suppressions >= 10, "{tally:?}");
    assert!(tally.above_the_node >= 4, "{tally:?}");
}

/// ytt itself: `YTT`, else `ytt` on the `PATH`.
pub(super) fn ytt() -> PathBuf {
    crate::util::ytt()
}

#[test]
#[ignore = "needs ytt"]
fn every_action_keeps_what_ytt_renders() {
    let tally = every_action_keeps_the_output(&ytt());
    assert!(tally.suppressions >= 10, "{tally:?}");
}
