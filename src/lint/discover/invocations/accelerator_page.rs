//! A page's command that runs in the project an App Accelerator generates. An accelerator
//! (`accelerator.yaml` with an `engine:`) copies the files its `Include` patterns select
//! (`type: Include` with `patterns: ['resources/**']`, or a node's `include:`) into a new
//! project and rewrites them; its README then shows the generated project's command, "from
//! the root of the generated project": `ytt -f app.yaml -f values.yaml` (round sixteen's
//! R16A-2). The repository holds those inputs in the included folder, not beside the page:
//! when a page's command is not found from the page's directory or the top, and every input
//! of it exists from exactly one folder the accelerator includes, the command runs from that
//! folder, assuming it (`working-directory`, naming the
//! accelerator and its pattern), so what rests on it is a warning. The folder's placeholders
//! (`BRANCH_PLACEHOLDER`, which the accelerator's `ReplaceText` replaces) are settled after
//! the jobs (`post::accelerated`).
//!
//! Bounded: at most [`MAX_ACCELERATORS`] accelerators, [`MAX_FOLDERS`] folders each, the
//! engine walked [`MAX_DEPTH`] deep; a folder is a pattern's literal leading directories
//! (no glob character, no `..`), below the accelerator's directory.

use super::index::Index;
use super::resolve::Outcome;
use crate::files::paths;
use crate::lint::repo::yaml_doc::{documents, get, items, string};
use crate::report::{Assumption, AssumptionKind};
use crate::yaml::Value;

/// An accelerator's file name.
pub const FILE_NAME: &str = "accelerator.yaml";
/// Accelerators read at most.
pub const MAX_ACCELERATORS: usize = 32;
/// Folders kept at most per accelerator.
const MAX_FOLDERS: usize = 32;
/// Nesting of the engine followed at most.
const MAX_DEPTH: usize = 16;
/// Included folders a page's command is tried in at most.
pub const MAX_TRIED: usize = 8;

/// A folder an accelerator includes in the project it generates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Included {
    /// The accelerator's repository path (`accelerator.yaml`).
    pub accelerator: String,
    /// The pattern as written (`resources/**`).
    pub pattern: String,
    /// The folder, a repository path (`resources`).
    pub folder: String,
}

/// Whether a repository path is an accelerator's file.
pub fn is_accelerator(path: &str) -> bool {
    path == FILE_NAME || path.ends_with(&format!("/{FILE_NAME}"))
}

/// The folders the accelerator at repository path `path`, whose text is `text`, includes
/// (none without an engine, or where its patterns select no folder below it).
pub fn included(path: &str, text: &str, index: &Index) -> Vec<Included> {
    let dir = paths::parent(path);
    let mut out: Vec<Included> = Vec::new();
    for doc in documents(path, text).iter().take(4) {
        let Some(engine) = get(&doc.value, "engine") else {
            continue;
        };
        let mut patterns = Vec::new();
        walk(engine, 0, &mut patterns);
        for p in patterns {
            if out.len() >= MAX_FOLDERS {
                break;
            }
            let Some(rel) = folder_of(&p) else {
                continue;
            };
            let folder = paths::join(dir, &rel);
            if index.is_dir(&folder) && !out.iter().any(|i| i.folder == folder) {
                out.push(Included {
                    accelerator: path.to_string(),
                    pattern: p,
                    folder,
                });
            }
        }
    }
    out
}

/// Collects the patterns of the `Include` transforms and `include:` filters under `v`.
fn walk(v: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH || out.len() >= MAX_FOLDERS {
        return;
    }
    match v {
        Value::Array(_) => {
            for item in items(Some(v)) {
                walk(item, depth + 1, out);
            }
        }
        Value::Map(_) => {
            let mut words = |w: Option<&Value>| match w {
                Some(Value::Array(_)) => out.extend(
                    items(w)
                        .into_iter()
                        .filter_map(Value::as_str)
                        .take(MAX_FOLDERS)
                        .map(str::to_string),
                ),
                Some(s) => out.extend(s.as_str().map(str::to_string)),
                None => {}
            };
            words(get(v, "include"));
            if string(get(v, "type")) == Some("Include") {
                words(get(v, "patterns"));
            }
            for key in ["merge", "chain", "transformations", "sources"] {
                if let Some(inner) = get(v, key) {
                    walk(inner, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}

/// The folder a pattern selects whole: its literal leading directories, when the rest is
/// `**` (`resources/**`, `config/**/*.yaml`), relative to the accelerator.
fn folder_of(pattern: &str) -> Option<String> {
    let p = pattern.trim().trim_start_matches("./");
    if p.len() > 512 {
        return None;
    }
    let segments: Vec<&str> = p.split('/').collect();
    let glob = |s: &str| s.contains(['*', '?', '[', '{']);
    let literal: Vec<&str> = segments.iter().copied().take_while(|s| !glob(s)).collect();
    let rest = &segments[literal.len()..];
    if literal.is_empty()
        || rest.first() != Some(&"**")
        || literal
            .iter()
            .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return None;
    }
    Some(literal.join("/"))
}

/// The folders, of the accelerators whose directory holds the page at `page`, that its
/// command may run from (at most [`MAX_TRIED`]).
pub fn candidates<'i>(page: &str, accelerated: &'i [Included]) -> Vec<&'i Included> {
    accelerated
        .iter()
        .filter(|i| paths::is_within(page, paths::parent(&i.accelerator)))
        .take(MAX_TRIED)
        .collect()
}

/// The command's outcomes from the included folder, each invocation assuming it runs there.
pub fn placed(out: Vec<Outcome>, page_line: &str, inc: &Included) -> Vec<Outcome> {
    let why = format!(
        "{page_line} runs its command in the project that the App Accelerator {} generates: \
         run from {}, the folder it includes (`{}`), which holds the command's inputs",
        inc.accelerator, inc.folder, inc.pattern
    );
    let assumed = Assumption::new(AssumptionKind::WorkingDirectory, why);
    out.into_iter().map(|o| o.assuming(&assumed)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCELERATOR: &str = "accelerator:\n  displayName: demo\nengine:\n  type: Merge\n  sources:\n  - type: Chain\n    transformations:\n    - type: Include\n      patterns: [ 'resources/**' ]\n    - type: ReplaceText\n      substitutions:\n      - text: NAME_PLACEHOLDER\n        with: \"#name\"\n  - include: [ 'docs/**/*.md', '*.md', 'missing/**' ]\n";

    #[test]
    fn the_folders_an_accelerator_includes() {
        let index = Index::new(["resources/app.yaml", "resources/values.yaml", "docs/a.md"]);
        let got = included("accelerator.yaml", ACCELERATOR, &index);
        let folders: Vec<&str> = got.iter().map(|i| i.folder.as_str()).collect();
        assert_eq!(folders, ["resources", "docs"]);
        assert_eq!(got[0].pattern, "resources/**");
        // No engine: nothing.
        assert!(included("accelerator.yaml", "accelerator: {}\n", &index).is_empty());
        assert_eq!(folder_of("config/**/*.yaml").as_deref(), Some("config"));
        assert_eq!(folder_of("**"), None);
        assert_eq!(folder_of("config/*.yaml"), None);
        assert_eq!(folder_of("../up/**"), None);
    }

    #[test]
    fn a_page_s_command_is_tried_in_the_folders_of_the_accelerators_holding_it() {
        let index = Index::new(["resources/app.yaml", "resources/values.yaml", "docs/a.md"]);
        let acc = included("accelerator.yaml", ACCELERATOR, &index);
        let got: Vec<&str> = candidates("README.md", &acc)
            .iter()
            .map(|i| i.folder.as_str())
            .collect();
        assert_eq!(got, ["resources", "docs"]);
        // A page outside the accelerator's directory: none.
        let nested = included(
            "tmpl/accelerator.yaml",
            "engine: {include: ['r/**']}\n",
            &Index::new(["tmpl/r/app.yaml"]),
        );
        assert_eq!(nested.len(), 1);
        assert!(candidates("README.md", &nested).is_empty());
        assert_eq!(candidates("tmpl/README.md", &nested).len(), 1);
    }
}
