//! Sample sets of editor support. A repository (or a directory of one) that is a VS Code
//! extension contributing a grammar or a language, or a tree-sitter grammar, holds YAML for
//! its own tests: text to highlight, fold and parse, written to exercise the editor, not to be
//! rendered. Its ytt files are such samples unless a command of the repository renders them
//! (`post::samples` decides that, per file).
//!
//! Recognised only by what makes the kind of project certain:
//!
//! - a VS Code extension: a `package.json` whose `engines.vscode` is a string and whose
//!   `contributes` gives `grammars` or `languages`;
//! - a tree-sitter grammar: a `grammar.js` beside a `tree-sitter.json`, or above the
//!   `src/grammar.json` or `src/parser.c` that `tree-sitter generate` writes.
//!
//! Nothing below a `node_modules` directory counts (a dependency's manifest says nothing of
//! the repository).

use std::collections::BTreeSet;
use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::repo::walk::RepoFile;

/// The most manifests (`package.json`, `grammar.js`) looked at, among those above ytt files.
const MAX_MANIFESTS: usize = 32;
/// The largest `package.json` read.
const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// A directory whose ytt files are an editor's samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleSet {
    /// The directory (repository-relative, `.` for the whole repository).
    pub dir: String,
    /// What the directory is, with the file that says so (`the VS Code extension of
    /// package.json (engines.vscode, contributes.grammars)`).
    pub what: String,
}

/// The sample sets of the walked `files` of the repository at `repo`.
pub fn find(repo: &Path, files: &[RepoFile]) -> Vec<SampleSet> {
    let present: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    // Every directory that holds a ytt file, at any depth.
    let mut above_ytt: BTreeSet<&str> = BTreeSet::new();
    for f in files.iter().filter(|f| f.kind.is_ytt()) {
        let mut dir = paths::parent(&f.path);
        while above_ytt.insert(dir) && dir != "." {
            dir = paths::parent(dir);
        }
    }
    let holds_ytt = |dir: &str| above_ytt.contains(dir);
    let mut out: Vec<SampleSet> = Vec::new();
    let candidates = files
        .iter()
        .filter(|f| matches!(name_of(&f.path), "grammar.js" | "package.json"))
        .filter(|f| !dependency(&f.path))
        .filter(|f| holds_ytt(paths::parent(&f.path)))
        .take(MAX_MANIFESTS);
    for f in candidates {
        let dir = paths::parent(&f.path);
        let what = if name_of(&f.path) == "grammar.js" {
            tree_sitter(&present, dir)
        } else {
            crate::lint::discover::invocations::scripts::read(repo, &f.path, MAX_MANIFEST_BYTES)
                .and_then(|text| vscode_extension(&f.path, &text))
        };
        if let Some(what) = what {
            if !out.iter().any(|s| s.dir == dir) {
                out.push(SampleSet {
                    dir: dir.to_string(),
                    what,
                });
            }
        }
    }
    out
}

/// The set of `sets` that holds the repository file `file` (the innermost, when sets nest).
pub fn holding<'a>(sets: &'a [SampleSet], file: &str) -> Option<&'a SampleSet> {
    sets.iter()
        .filter(|s| is_within(file, &s.dir))
        .max_by_key(|s| if s.dir == "." { 0 } else { s.dir.len() + 1 })
}

/// What the `grammar.js` in `dir` makes of it: a tree-sitter grammar when the files
/// tree-sitter's tools write are there too.
fn tree_sitter(present: &BTreeSet<&str>, dir: &str) -> Option<String> {
    let grammar = paths::join(dir, "grammar.js");
    ["tree-sitter.json", "src/grammar.json", "src/parser.c"]
        .iter()
        .map(|name| paths::join(dir, name))
        .find(|p| present.contains(p.as_str()))
        .map(|beside| format!("the tree-sitter grammar of {grammar} ({beside})"))
}

/// What the `package.json` at `path` with `text` says of its directory: a VS Code extension
/// that contributes a grammar or a language.
fn vscode_extension(path: &str, text: &str) -> Option<String> {
    let manifest: serde_json::Value = serde_json::from_str(text).ok()?;
    manifest.get("engines")?.get("vscode")?.as_str()?;
    let contributes = manifest.get("contributes")?;
    let gives = ["grammars", "languages"]
        .into_iter()
        .find(|k| contributes.get(k).is_some_and(serde_json::Value::is_array))?;
    Some(format!(
        "the VS Code extension of {path} (`engines.vscode`, `contributes.{gives}`)"
    ))
}

/// Whether `path` lies in a `node_modules` directory.
fn dependency(path: &str) -> bool {
    path.split('/').any(|part| part == "node_modules")
}

fn name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    const EXTENSION: &str = r#"{"name": "x", "engines": {"vscode": "^1.90.0"},
        "contributes": {"grammars": [{"scopeName": "x.injection", "path": "./x.json"}]}}"#;

    #[test]
    fn a_vscode_extension_contributing_a_grammar_is_a_sample_set() {
        assert_eq!(
            vscode_extension("ext/package.json", EXTENSION).as_deref(),
            Some(
                "the VS Code extension of ext/package.json (`engines.vscode`, \
                 `contributes.grammars`)"
            )
        );
        // A web application's manifest, an extension that contributes only commands, and
        // text that is no JSON are not.
        let app = r#"{"name": "web", "engines": {"node": ">=20"}, "scripts": {"build": "x"}}"#;
        assert_eq!(vscode_extension("package.json", app), None);
        let commands = r#"{"engines": {"vscode": "^1.90.0"}, "contributes": {"commands": []}}"#;
        assert_eq!(vscode_extension("package.json", commands), None);
        assert_eq!(vscode_extension("package.json", "{not json"), None);
    }

    #[test]
    fn a_grammar_js_is_tree_sitter_s_only_beside_its_generated_files() {
        let present: BTreeSet<&str> = ["grammar.js", "src/parser.c", "tools/grammar.js"]
            .into_iter()
            .collect();
        assert_eq!(
            tree_sitter(&present, ".").as_deref(),
            Some("the tree-sitter grammar of grammar.js (src/parser.c)")
        );
        assert_eq!(tree_sitter(&present, "tools"), None);
    }

    #[test]
    fn the_innermost_set_holds_a_file() {
        let sets = [
            SampleSet {
                dir: ".".into(),
                what: "top".into(),
            },
            SampleSet {
                dir: "editors/ts".into(),
                what: "inner".into(),
            },
        ];
        assert_eq!(
            holding(&sets, "editors/ts/test/a.yaml").map(|s| s.what.as_str()),
            Some("inner")
        );
        assert_eq!(
            holding(&sets, "deploy/a.yaml").map(|s| s.what.as_str()),
            Some("top")
        );
        assert_eq!(holding(&sets[1..], "deploy/a.yaml"), None);
    }

    #[test]
    fn a_dependency_s_manifest_and_a_tree_without_ytt_make_no_set() {
        let files = [
            RepoFile::for_test("node_modules/x/grammar.js", Kind::Other),
            RepoFile::for_test("node_modules/x/tree-sitter.json", Kind::Other),
            RepoFile::for_test("node_modules/x/t.yaml", Kind::YttYaml),
            RepoFile::for_test("ts/grammar.js", Kind::Other),
            RepoFile::for_test("ts/tree-sitter.json", Kind::Other),
        ];
        let repo = Path::new("/nonexistent/yttlint-samples");
        assert_eq!(find(repo, &files), Vec::new());
    }
}
