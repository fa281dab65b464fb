//! A copy a page tells its reader to make, in prose: "copy ```config-templates/values.yaml```
//! to ```.config/values.yaml```" (round fifteen's LR15A-2), "Copy `A` to `B`", or a `cp A B`
//! in inline code; or a rename: "Rename the `values/default.yaml.template` file to
//! `values/default.yaml`" (round sixteen's LR16A-1), "move `A` to `B`", a `mv A B` in inline
//! code. The reader's file B is a copy of A, as a shell `cp A B` in a code block of the page
//! says (see [`super::made`]): a command that reads B, which the repository does not hold, is
//! linted with A standing in for it, assuming `example-values` (a failure with it is a
//! warning that names the example, never an error). A rename leaves the reader the same text
//! under B's name, which the reader then fills in as they would a copy.
//!
//! Bounded: pages only (READMEs and docs), both paths repository paths written from the
//! page's directory or the repository's top (no `..`, no `$`, no `~`, not absolute), A a file
//! of the repository and B not in it.

use super::index::Index;
use super::outputs::Made;
use super::snippet::CALLER;
use super::tree_copy::{Source, TreeCopy};
use super::word::{Word, REPO};
use crate::files::paths;

/// The most copies read from one page.
const MAX_COPIES: usize = 100;

/// The copies the page at `page` tells its reader to make.
pub fn made(page: &str, text: &str, index: &Index) -> Vec<Made> {
    let dir = paths::parent(page);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if out.len() >= MAX_COPIES {
            break;
        }
        let Some((from, to)) = copy_in(line) else {
            continue;
        };
        if !path_like(&from) || !path_like(&to) {
            continue;
        }
        let Some(example) = [paths::join(dir, &from), from.clone()]
            .into_iter()
            .find(|p| index.is_file(p))
        else {
            continue;
        };
        if [paths::join(dir, &to), to.clone()]
            .iter()
            .any(|p| index.exists(p))
        {
            continue;
        }
        out.push(Made {
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            by: "a step of the page".to_string(),
            path: Word::lit(format!("{CALLER}/{to}")),
            from: Some(Word::lit(format!("{REPO}/{example}"))),
            text: None,
            rendered: None,
            stdout: None,
        });
    }
    out
}

/// The copies and renames the page's prose tells its reader to make, as steps that change a
/// later command's input tree (see [`super::moved_tree`]): "rename `_ytt_lib1` to
/// `_ytt_lib`" is `mv`, "copy `A` to `B`" a recursive `cp`, both paths from the reader's
/// directory. Whether the source exists is decided there.
pub fn steps(text: &str) -> Vec<TreeCopy> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if out.len() >= MAX_COPIES {
            break;
        }
        // A `cp A B` or `mv A B` in inline code is shell the page's snippets follow.
        let shell = code_spans(line)
            .iter()
            .any(|(_, _, c)| c.starts_with("cp ") || c.starts_with("mv "));
        let Some((from, to)) = copy_in(line).filter(|_| !shell) else {
            continue;
        };
        let (from, to) = (from.trim_end_matches('/'), to.trim_end_matches('/'));
        if !step_path(from) || !step_path(to) {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let by = if lower.contains("rename") || lower.contains("move") || lower.contains("mv ") {
            "mv"
        } else {
            "cp"
        };
        out.push(TreeCopy {
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            by: by.to_string(),
            dest: Word::lit(format!("{CALLER}/{to}")),
            dest_dir: false,
            no_target_dir: false,
            sources: vec![Source {
                path: Word::lit(format!("{CALLER}/{from}")),
                written: from.to_string(),
                slash: false,
                dot: false,
            }],
            recursive: true,
            excludes: Vec::new(),
            unmodelled: Vec::new(),
        });
    }
    out
}

/// Whether a word of a prose step is a repository path (a bare directory name too).
fn step_path(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with(['/', '~', '-'])
        && !p.contains(['$', '*', '?', '<', '>', '{', ' ', '\\', '='])
        && !p.contains("://")
        && !p.split('/').any(|s| s == ".." || s == "." || s.is_empty())
}

/// The verbs of a prose copy or rename, each a whole word before the source's code span.
const VERBS: [&str; 3] = ["copy", "rename", "move"];

/// The source and destination a line says to copy or rename: "copy `A` to `B`", "rename the
/// `A` file to `B`" (code spans of any number of backticks), or a code span `cp A B` or
/// `mv A B`.
fn copy_in(line: &str) -> Option<(String, String)> {
    let spans = code_spans(line);
    for (k, (start, end, code)) in spans.iter().enumerate() {
        let words: Vec<&str> = code.split_whitespace().collect();
        if let ["cp" | "mv", a, b] = words.as_slice() {
            return Some((clean(a), clean(b)));
        }
        // "copy `A` to `B`": the verb before the first span, "to" between the two.
        if !verb_before(&line[..*start]) {
            continue;
        }
        let Some((next_start, _, to)) = spans.get(k + 1) else {
            continue;
        };
        let between = line[*end..*next_start].trim().to_ascii_lowercase();
        let between = between
            .strip_prefix("file")
            .map_or(between.as_str(), str::trim_start);
        if between == "to" || between == "into" || between == "as" {
            return Some((clean(code), clean(to)));
        }
    }
    None
}

/// Whether the text before a code span ends with a verb of [`VERBS`] as a whole word,
/// followed at most by "the" and "file" ("Rename the", "copy the file"; not "remove").
fn verb_before(before: &str) -> bool {
    let mut rest = before.trim_end().to_ascii_lowercase();
    for filler in [" file", " the"] {
        if let Some(r) = rest.strip_suffix(filler) {
            rest = r.trim_end().to_string();
        }
    }
    VERBS.iter().any(|v| {
        rest.strip_suffix(v)
            .is_some_and(|head| !head.ends_with(|c: char| c.is_alphanumeric()))
    })
}

/// The code spans of a line: where each starts and ends (backticks included) and its text.
fn code_spans(line: &str) -> Vec<(usize, usize, String)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] == b'`' {
            i += 1;
        }
        let fence = &line[start..i];
        let Some(len) = line[i..].find(fence) else {
            break;
        };
        let text = line[i..i + len].trim().to_string();
        i += len + fence.len();
        out.push((start, i, text));
    }
    out
}

/// A path as written, without quotes or a leading `./`.
fn clean(p: &str) -> String {
    p.trim_matches(['"', '\''])
        .trim_start_matches("./")
        .to_string()
}

/// Whether a word is a repository path a page may name: relative, within the repository,
/// with nothing the shell or the reader fills in.
fn path_like(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.starts_with('~')
        && !p.contains(['$', '*', '?', '<', '>', '{', ' ', '\\'])
        && !p.contains("://")
        && !p.split('/').any(|s| s == "..")
        && p.contains(['.', '/'])
        && !p.ends_with('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prose_copy_makes_the_readers_file_from_the_example() {
        let index = Index::new(["config-templates/demo-values.yaml", "docs/setup.md"]);
        let page = "## Prepare\n- copy ```config-templates/demo-values.yaml``` to ```.config/demo-values.yaml```\n- Copy `config-templates/demo-values.yaml` into `local.yaml`\n- run `cp ./config-templates/demo-values.yaml .config/other.yaml`\n";
        let m = made("README.md", page, &index);
        let got: Vec<(u32, String)> = m.iter().map(|m| (m.line, m.path.to_string())).collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(
            m[0].path,
            Word::lit(format!("{CALLER}/.config/demo-values.yaml"))
        );
        assert_eq!(
            m[0].from,
            Some(Word::lit(format!(
                "{REPO}/config-templates/demo-values.yaml"
            )))
        );
        assert_eq!(m[1].path, Word::lit(format!("{CALLER}/local.yaml")));
        assert_eq!(m[2].line, 4);
        // A source the repository lacks, a destination it holds, a path outside it, a
        // placeholder, or no copy said: nothing.
        for line in [
            "copy `missing.yaml` to `x.yaml`",
            "remove `config-templates/demo-values.yaml` to `x.yaml`",
            "rename `config-templates/demo-values.yaml` and `x.yaml`",
            "copy `config-templates/demo-values.yaml` to `docs/setup.md`",
            "copy `config-templates/demo-values.yaml` to `../x.yaml`",
            "copy `config-templates/demo-values.yaml` to `$HOME/x.yaml`",
            "edit `config-templates/demo-values.yaml` to `x.yaml`",
            "copy `config-templates/demo-values.yaml` and `x.yaml`",
        ] {
            assert!(made("README.md", line, &index).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_prose_rename_makes_the_readers_file_from_the_template() {
        let index = Index::new(["values/default.yaml.template", "README.md"]);
        let page = "# Install\n- Rename the `values/default.yaml.template` file to `values/default.yaml` and fill in all the necessary values\n- move `values/default.yaml.template` to `values/other.yaml`\n- `mv values/default.yaml.template values/third.yaml`\n";
        let m = made("README.md", page, &index);
        let got: Vec<&Word> = m.iter().map(|m| &m.path).collect();
        let want: Vec<Word> = ["default", "other", "third"]
            .iter()
            .map(|n| Word::lit(format!("{CALLER}/values/{n}.yaml")))
            .collect();
        assert_eq!(got, want.iter().collect::<Vec<_>>());
        assert_eq!(
            m[0].from,
            Some(Word::lit(format!("{REPO}/values/default.yaml.template")))
        );
        assert!(verb_before("- Rename the "));
        assert!(verb_before("Copy the file"));
        assert!(!verb_before("Remove the"));
        assert!(!verb_before("copy the values of"));
    }
}
