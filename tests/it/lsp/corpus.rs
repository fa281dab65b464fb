//! The language server's rename and code actions on the real-world corpus
//! (`../shared/corpus`, or the directory `YTTLINT_CORPUS` names: `manifest.tsv` and
//! `roots/<id>/`), with ytt itself as the renderer (`YTT`, else `ytt` on the `PATH`). Each
//! root is copied to a directory of its own whose `.yttlint.yaml` gives its ytt command
//! (manifest.tsv's `ytt_cmd`), and is rendered with the arguments that file gives (a rename
//! edits its `-v` flags too): the exit status and the standard output are compared (not the
//! standard error, whose messages name lines a suppression comment moves). The editor's side is
//! played as an editor plays it: an edit the server answers is written to the files, given to
//! the server's buffers (`didOpen`, `didChange`) and saved (`didSave`).
//!
//! - Code actions (here): every action the server offers for every finding it shows after the
//!   root's first run. The actions whose edits are lines apart are applied together, a batch
//!   at a time, and the root rendered once per batch; a batch that changes the output is
//!   applied again one action at a time to name the action. `YTTLINT_CORPUS_ACTIONS=each`
//!   applies and renders every action alone. A fix that says it may change the output is left
//!   out of the comparison.
//! - Renames (`renames.rs`).
//!
//! Each test prints its counts (`--nocapture` shows them) and fails with the list of every
//! root where something went wrong. `YTTLINT_CORPUS_FILTER=TEXT` keeps the roots whose id
//! contains TEXT. Both need ytt and the corpus, and take minutes: `.ci/run` runs them.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::actions::{applied, offered, ytt, Offered, Tally};
use super::*;

mod renames;

/// One root of the corpus: its id and its ytt command's arguments.
struct CorpusRoot {
    id: String,
    args: Vec<String>,
}

fn corpus_dir() -> PathBuf {
    let dir = std::env::var_os("YTTLINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::util::repo_root().join("../shared/corpus"));
    assert!(
        dir.join("manifest.tsv").is_file(),
        "no corpus at {}: set YTTLINT_CORPUS to a directory with manifest.tsv and roots/",
        dir.display()
    );
    dir
}

/// The roots of `manifest.tsv` (those `YTTLINT_CORPUS_FILTER` keeps).
fn corpus_roots(corpus: &Path) -> Vec<CorpusRoot> {
    let manifest = std::fs::read_to_string(corpus.join("manifest.tsv")).unwrap();
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (id, cmd) = (column("id"), column("ytt_cmd"));
    let filter = std::env::var("YTTLINT_CORPUS_FILTER").unwrap_or_default();
    let roots: Vec<CorpusRoot> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            let command = fields[cmd];
            assert!(!command.contains(['\'', '"', '\\']), "quoting: {command}");
            let words: Vec<String> = command.split_whitespace().map(String::from).collect();
            assert_eq!(words[0], "ytt", "{command}");
            CorpusRoot {
                id: fields[id].to_string(),
                args: words[1..].to_vec(),
            }
        })
        .filter(|r| r.id.contains(&filter))
        .collect();
    assert!(!roots.is_empty(), "no root of the corpus has {filter:?}");
    roots
}

/// A copy of the root (every file writable) with its command in `.yttlint.yaml`.
fn copy_root(corpus: &Path, root: &CorpusRoot) -> TempDir {
    let dir = TempDir::new();
    crate::util::temp::copy_tree(&corpus.join("roots").join(&root.id), &dir);
    for (path, _) in snapshot(&dir) {
        let full = dir.join(path);
        let mut perms = std::fs::metadata(&full).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&full, perms).unwrap();
    }
    let args = serde_json::to_string(&root.args).unwrap();
    dir.write(
        ".yttlint.yaml",
        format!("roots:\n  - path: \".\"\n    args: {args}\n"),
    );
    dir
}

/// The arguments `.yttlint.yaml` gives the root now.
fn args_of(dir: &Path) -> Vec<String> {
    let config = std::fs::read_to_string(dir.join(".yttlint.yaml")).unwrap();
    let args = config
        .lines()
        .find_map(|l| l.trim().strip_prefix("args: "))
        .unwrap_or_else(|| panic!("no args in .yttlint.yaml:\n{config}"));
    serde_json::from_str(args).unwrap_or_else(|e| panic!("{e}: {args}"))
}

/// What ytt renders of the root: its exit status and standard output.
fn render(ytt: &Path, dir: &Path) -> (i32, String) {
    let run = Command::new(ytt)
        .args(args_of(dir))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    (run.status.code().unwrap_or(-1), out)
}

/// Every file under `dir`, by relative path, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// The first lines that differ between two renders (for a failure's message).
fn first_difference(a: &(i32, String), b: &(i32, String)) -> String {
    if a.0 != b.0 {
        return format!("exit status {} -> {}", a.0, b.0);
    }
    let (x, y): (Vec<&str>, Vec<&str>) = (a.1.lines().collect(), b.1.lines().collect());
    let n = x.iter().zip(&y).take_while(|(l, r)| l == r).count();
    format!(
        "line {}: {:?} -> {:?}",
        n + 1,
        x.get(n).unwrap_or(&"(end)"),
        y.get(n).unwrap_or(&"(end)")
    )
}

/// The editor's buffers: which files are open, at what version.
#[derive(Default)]
struct Buffers {
    versions: HashMap<PathBuf, i32>,
}

impl Buffers {
    /// Opens `path` (absolute) with its text on disk, unless it is open.
    fn open(&mut self, c: &mut Client, path: &Path) -> Option<String> {
        let text = std::fs::read_to_string(path).ok()?;
        if !self.versions.contains_key(path) {
            c.open(path, &text);
            self.versions.insert(path.to_path_buf(), 1);
        }
        Some(text)
    }

    /// Applies a workspace edit as an editor does: each file's edits to its text, the text
    /// written and given to the server (opened or changed), then saved.
    fn apply(&mut self, c: &mut Client, dir: &Path, edit: &Value) {
        let changes = edit["changes"].as_object().unwrap();
        let mut paths: Vec<(&String, &Value)> = changes.iter().collect();
        paths.sort_by_key(|(u, _)| *u);
        for (u, edits) in paths {
            let path = PathBuf::from(u.strip_prefix("file://").unwrap());
            assert!(path.starts_with(dir), "an edit outside the repository: {u}");
            let text = std::fs::read_to_string(&path).unwrap();
            let new = applied(&text, edits.as_array().unwrap());
            std::fs::write(&path, &new).unwrap();
            match self.versions.get_mut(&path) {
                Some(v) => {
                    *v += 1;
                    let v = *v;
                    c.change(&path, v, &new);
                }
                None => {
                    c.open(&path, &new);
                    self.versions.insert(path.clone(), 1);
                }
            }
            c.notify(
                "textDocument/didSave",
                json!({"textDocument": {"uri": uri(&path)}}),
            );
        }
    }
}

/// The file the server opens first in a root: the first template or Starlark file of its
/// first input (the root's first run publishes the findings of every file it reads).
fn first_file(dir: &Path) -> PathBuf {
    let args = args_of(dir);
    let input = args
        .iter()
        .zip(args.iter().skip(1))
        .find(|(flag, _)| *flag == "-f" || *flag == "--file")
        .map(|(_, v)| v.rsplit('=').next().unwrap_or(v).trim_end_matches('/'))
        .unwrap_or_else(|| panic!("no -f in {args:?}"));
    let files = snapshot(dir);
    let pick = files.keys().find(|p| {
        let name = p.to_string_lossy();
        let code = name.ends_with(".yml") || name.ends_with(".yaml") || name.ends_with(".star");
        code && (p.as_path() == Path::new(input) || p.starts_with(input))
    });
    dir.join(pick.unwrap_or_else(|| panic!("no file to open in {input} of {}", dir.display())))
}

/// Whether two actions' edits are lines apart (one line at least between them).
fn apart(a: &Offered, b: &Offered) -> bool {
    if a.rel != b.rel {
        return true;
    }
    let lines = |o: &Offered| -> Vec<(u64, u64)> {
        o.edits
            .iter()
            .map(|e| {
                let start = e["range"]["start"]["line"].as_u64().unwrap();
                let end = e["range"]["end"]["line"].as_u64().unwrap();
                (start, end.max(start))
            })
            .collect()
    };
    lines(a)
        .iter()
        .all(|(s, e)| lines(b).iter().all(|(s2, e2)| e + 1 < *s2 || e2 + 1 < *s))
}

/// The actions in batches whose members are lines apart, in the order offered.
fn batches(actions: Vec<Offered>) -> Vec<Vec<Offered>> {
    let mut out: Vec<Vec<Offered>> = Vec::new();
    for a in actions {
        match out.iter_mut().find(|b| b.iter().all(|o| apart(o, &a))) {
            Some(b) => b.push(a),
            None => out.push(vec![a]),
        }
    }
    out
}

/// Writes the files of `dir` with `actions` applied to their texts in `texts`; returns the
/// files written.
fn apply_actions(
    dir: &Path,
    texts: &BTreeMap<String, String>,
    actions: &[&Offered],
) -> Vec<String> {
    let mut by_file: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for a in actions {
        by_file.entry(&a.rel).or_default().extend(a.edits.clone());
    }
    for (rel, edits) in &by_file {
        std::fs::write(dir.join(rel), applied(&texts[*rel], edits)).unwrap();
    }
    by_file.keys().map(|r| r.to_string()).collect()
}

/// The counts of the actions test.
#[derive(Default, Debug)]
struct ActionCounts {
    roots: usize,
    findings: usize,
    actions: Tally,
    renders: usize,
}

/// Every action offered in one root (`problems` gets what went wrong).
fn actions_of_root(
    ytt: &Path,
    corpus: &Path,
    root: &CorpusRoot,
    counts: &mut ActionCounts,
    problems: &mut Vec<String>,
) {
    let dir = copy_root(corpus, root);
    let before = render(ytt, &dir);
    counts.renders += 1;
    let mut c = Client::start(&dir);
    let mut buffers = Buffers::default();
    buffers.open(&mut c, &first_file(&dir));
    c.run_end(|l| l.contains("linted"));
    let shown = c.shown();
    let mut texts = BTreeMap::new();
    for (u, found) in &shown {
        let Some(path) = u.strip_prefix("file://").map(PathBuf::from) else {
            continue;
        };
        counts.findings += found.as_array().map_or(0, Vec::len);
        if found.as_array().is_some_and(|f| !f.is_empty()) {
            if let Some(text) = buffers.open(&mut c, &path) {
                let rel = path.strip_prefix(&*dir).unwrap();
                texts.insert(rel.to_string_lossy().into_owned(), text);
            }
        }
    }
    let offered = offered(&mut c, &dir, &texts, &shown);
    let mut compared = Vec::new();
    for a in offered {
        a.count(&mut counts.actions);
        if !a.may_change_output() {
            compared.push(a);
        }
    }
    let each = std::env::var("YTTLINT_CORPUS_ACTIONS").is_ok_and(|v| v == "each");
    let groups = if each {
        compared.into_iter().map(|a| vec![a]).collect()
    } else {
        batches(compared)
    };
    for group in groups {
        let all: Vec<&Offered> = group.iter().collect();
        let written = apply_actions(&dir, &texts, &all);
        let after = render(ytt, &dir);
        counts.renders += 1;
        restore(&dir, &texts, &written);
        if after == before {
            continue;
        }
        let mut named = false;
        for a in &group {
            let written = apply_actions(&dir, &texts, &[a]);
            let alone = render(ytt, &dir);
            counts.renders += 1;
            restore(&dir, &texts, &written);
            if alone != before {
                named = true;
                problems.push(format!(
                    "{}: `{}` on {}:{} ({}) changed what ytt renders: {}",
                    root.id,
                    a.title,
                    a.rel,
                    a.diagnostic["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
                    a.diagnostic["code"].as_str().unwrap_or(""),
                    first_difference(&before, &alone)
                ));
            }
        }
        if !named {
            problems.push(format!(
                "{}: {} actions applied together changed what ytt renders, none alone: {}",
                root.id,
                group.len(),
                first_difference(&before, &after)
            ));
        }
    }
    assert_eq!(c.finish(), 0, "{}: the server's exit status", root.id);
    counts.roots += 1;
}

fn restore(dir: &Path, texts: &BTreeMap<String, String>, written: &[String]) {
    for rel in written {
        std::fs::write(dir.join(rel), &texts[rel]).unwrap();
    }
}

#[test]
#[ignore = "needs ytt and the corpus (../shared/corpus)"]
fn every_action_keeps_what_ytt_renders_on_the_corpus() {
    let (ytt, corpus) = (ytt(), corpus_dir());
    let mut counts = ActionCounts::default();
    let mut problems = Vec::new();
    for root in corpus_roots(&corpus) {
        actions_of_root(&ytt, &corpus, &root, &mut counts, &mut problems);
    }
    println!("corpus code actions: {counts:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let offered = counts.actions.safe_fixes + counts.actions.suppressions;
    assert!(offered > 0, "no action was offered: {counts:?}");
}
