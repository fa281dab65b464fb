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

/// The byte offset of an LSP position (its character counts UTF-16 code units, as the
/// server's do).
pub(super) fn offset(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().unwrap() as usize;
    let character = pos["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (i, ch) in text[start..].char_indices() {
        if units >= character || ch == '\n' {
            return start + i;
        }
        units += ch.len_utf16();
    }
    text.len()
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
pub(super) struct Tally {
    pub safe_fixes: usize,
    pub unsafe_fixes: usize,
    pub suppressions: usize,
    /// Suppressions placed above the finding's line, not on it (a block scalar's node).
    pub above_the_node: usize,
}

/// A code action the server offered for a finding, and what it edits.
#[derive(Debug)]
pub(super) struct Offered {
    /// The file (repository-relative) of the finding and of every edit.
    pub rel: String,
    pub title: String,
    /// The finding it was offered for.
    pub diagnostic: Value,
    /// LSP text edits of `rel`.
    pub edits: Vec<Value>,
}

impl Offered {
    pub fn is_suppression(&self) -> bool {
        self.title.starts_with("Suppress ")
    }

    /// A fix that says it may change what ytt renders (left out of the comparison).
    pub fn may_change_output(&self) -> bool {
        self.title.ends_with("(changes what ytt renders)")
    }

    /// Counts it in `tally` (once it kept the output, for those that must).
    pub fn count(&self, tally: &mut Tally) {
        if self.may_change_output() {
            tally.unsafe_fixes += 1;
        } else if self.is_suppression() {
            tally.suppressions += 1;
            let line = self.diagnostic["range"]["start"]["line"].as_u64();
            if self.edits[0]["range"]["start"]["line"].as_u64() < line {
                tally.above_the_node += 1;
            }
        } else {
            tally.safe_fixes += 1;
        }
    }
}

/// Every action the server offers for each finding it shows in the open files `texts`
/// (repository-relative, with their text): each edits the finding's file only, and a text
/// template gets none (it has no comment to carry a suppression).
pub(super) fn offered(
    c: &mut Client,
    dir: &Path,
    texts: &BTreeMap<String, String>,
    shown: &BTreeMap<String, Value>,
) -> Vec<Offered> {
    let mut out = Vec::new();
    for rel in texts.keys() {
        let path = dir.join(rel);
        let Some(found) = shown.get(&uri(&path)) else {
            continue;
        };
        for d in found.as_array().unwrap() {
            let actions = c.request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri(&path)}, "range": d["range"], "context": {"diagnostics": [d]}}),
            );
            let actions = actions.as_array().cloned().unwrap_or_default();
            if rel.ends_with(".txt") {
                assert!(
                    actions.is_empty(),
                    "a text template has no comment to carry a suppression: {actions:?}"
                );
            }
            for action in actions {
                let changes = action["edit"]["changes"].as_object().unwrap();
                assert_eq!(changes.len(), 1, "{action}");
                out.push(Offered {
                    rel: rel.clone(),
                    title: action["title"].as_str().unwrap().to_string(),
                    diagnostic: d.clone(),
                    edits: changes[&uri(&path)].as_array().unwrap().clone(),
                });
            }
        }
    }
    out
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
    for action in offered(&mut c, &dir, &texts, &shown) {
        let (rel, title) = (&action.rel, &action.title);
        let path = dir.join(rel);
        let edited = applied(&texts[rel], &action.edits);
        std::fs::write(&path, &edited).unwrap();
        if !action.may_change_output() {
            let after = render(&dir, renderer);
            assert_eq!(
                after, before,
                "`{title}` on {rel} changed what ytt renders:\n{edited}"
            );
            if action.is_suppression() {
                let line = action.diagnostic["range"]["start"]["line"]
                    .as_u64()
                    .unwrap();
                assert_suppressed(&dir, rel, &action.diagnostic, line + 1);
            }
        }
        action.count(&mut tally);
        std::fs::write(&path, &texts[rel]).unwrap();
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
