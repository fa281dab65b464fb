//! The directory a page's command runs from, as the page's prose says it. A page's command
//! runs from wherever its reader is: the linter tries the page's own directory and the
//! repository's top (see [`super::resolve`]). The text around the command often says more:
//!
//! - **Stated.** The section holding the command (from the heading above it) says to run it
//!   "from the root directory of this repo" (the repository root, the top of the repository,
//!   its root folder): the command runs from the repository's top, as the page says, and
//!   nothing is assumed (a page in `kpack/` that runs `./install-kpack.sh` "from the root
//!   directory of this repo" runs the top's script there, with the top's paths). Only the
//!   prose after the heading or code block above the command counts: "there is a Dockerfile
//!   in the root directory of this repo" before another block says nothing of this one.
//! - **Implied.** The command renders the reader's directory (`ytt -f .`), the page does not
//!   say which directory that is, and the section names exactly one directory of the
//!   repository below the page's that holds YAML or Starlark files ("the kpack folder",
//!   `kpack/kpack_values.yaml`): the command runs from that directory, and every command of
//!   the block assumes it (`working-directory`), so what rests on the command is a warning
//!   that names the directory. Rendering the page's whole tree instead merges the schemas of
//!   unrelated directories, which nobody does.
//!
//! Without either, the command runs from where the reader may be, as before.

use super::fence::{self, Fence};
use super::index::Index;
use super::snippet::{Snippet, CALLER};
use super::word::{Word, REPO};
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// Phrases that place the reader at the repository's top.
const AT_TOP: [&str; 8] = [
    "root directory of this repo",
    "root directory of the repo",
    "root of this repo",
    "root of the repo",
    "repository root",
    "repo root",
    "root folder of this repo",
    "top of this repo",
];

/// Words after which a name is a directory ("the kpack folder").
const DIR_WORDS: [&str; 4] = ["folder", "directory", "dir", "subdirectory"];

/// Sets the working directory of each snippet of the page `text` that its prose places.
pub fn place(snippets: &mut [Snippet], text: &str, index: &Index) {
    let lines: Vec<&str> = text.lines().collect();
    for s in snippets.iter_mut() {
        if s.cwd.literal().as_deref() != Some(CALLER) {
            continue;
        }
        let at = usize::try_from(s.line_offset).unwrap_or(usize::MAX);
        let prose = section(&lines, at);
        let lower = prose.to_ascii_lowercase();
        if AT_TOP.iter().any(|p| lower.contains(p)) {
            s.cwd = Word::lit(REPO);
            continue;
        }
        if !renders_dot(&s.text) {
            continue;
        }
        let page_dir = paths::parent(&s.file);
        if let [dir] = named_dirs(&prose, page_dir, index).as_slice() {
            s.assumed.push(Assumption::new(
                AssumptionKind::WorkingDirectory,
                format!(
                    "{}:{} renders the reader's directory (`-f .`) and does not say which: \
                     run from {dir}, the directory its section names",
                    s.file,
                    s.line_offset + 1
                ),
            ));
            s.cwd = Word::lit(format!("{REPO}/{dir}"));
        }
    }
}

/// The prose of the section that holds line `at` (from 0): the lines from the heading or the
/// code block above it, whichever is nearer, up to `at`.
fn section(lines: &[&str], at: usize) -> String {
    let mut end = at.min(lines.len());
    // The command's own opening fence is no code before it.
    if end > 0 && Fence::opening(lines[end - 1]).is_some() {
        end -= 1;
    }
    let before = &lines[..end];
    let mut out = String::new();
    for (l, kind) in before.iter().zip(fence::kinds(before)) {
        match kind {
            // The prose of a command is what follows the code before it.
            Some(true) => {
                out.clear();
                continue;
            }
            Some(false) => continue,
            None => {}
        }
        if l.trim_start().starts_with('#') {
            out.clear();
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Whether a block gives ytt the reader's directory: `-f .`, `-f ./`, `--file .`, `-f=.`.
fn renders_dot(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let dot = |w: &str| matches!(w, "." | "./");
    words
        .windows(2)
        .any(|w| matches!(w[0], "-f" | "--file") && dot(w[1]))
        || words.iter().any(|w| {
            w.strip_prefix("-f=")
                .or_else(|| w.strip_prefix("--file="))
                .is_some_and(dot)
        })
}

/// The directories below `page_dir` holding YAML or Starlark files that `prose` names, by a
/// path (`kpack/kpack_values.yaml`, `kpack/`) or as "the NAME folder", distinct and sorted.
fn named_dirs(prose: &str, page_dir: &str, index: &Index) -> Vec<String> {
    let words: Vec<&str> = prose
        .split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | ','))
        .map(|w| w.trim_end_matches(['.', ':', ';', '!', '?']))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut add = |rel: &str| {
        let rel = rel.trim_start_matches("./").trim_end_matches('/');
        if rel.is_empty() || rel.starts_with(['/', '~', '$', '.']) || rel.contains("://") {
            return;
        }
        let full = paths::join(page_dir, rel);
        let dir = if index.is_dir(&full) {
            full
        } else if index.is_file(&full) && rel.contains('/') {
            paths::parent(&full).to_string()
        } else {
            return;
        };
        let ytt = index.files_under(&dir).any(|f| {
            let l = f.to_ascii_lowercase();
            l.ends_with(".yml") || l.ends_with(".yaml") || l.ends_with(".star")
        });
        if ytt && dir != page_dir && !out.contains(&dir) {
            out.push(dir);
        }
    };
    for (i, w) in words.iter().enumerate() {
        if w.contains('/') {
            add(w);
        }
        let next = words.get(i + 1).map(|n| n.to_ascii_lowercase());
        if next.is_some_and(|n| DIR_WORDS.contains(&n.as_str())) {
            add(w);
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        Index::new([
            "README.md",
            "kpack/kpack.yaml",
            "kpack/kpack_values.yaml",
            "repository/v1/schema.yaml",
            "docs/guide.md",
        ])
    }

    fn snippet(text: &str, offset: u32) -> Snippet {
        Snippet::new("README.md", offset, text.to_string(), Word::lit(CALLER))
    }

    #[test]
    fn a_section_naming_one_directory_places_a_dot_command_there() {
        let page = "# Demo\n### Configure kpack\nEdit `kpack/kpack_values.yaml`; the kpack folder holds it.\n```\nytt -f . | kapp deploy -a k -f-\n```\n";
        let mut s = [snippet("ytt -f . | kapp deploy -a k -f-\n", 4)];
        place(&mut s, page, &index());
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/kpack")));
        assert_eq!(s[0].assumed.len(), 1);
        assert_eq!(s[0].assumed[0].kind, AssumptionKind::WorkingDirectory);
    }

    #[test]
    fn two_directories_no_dot_or_another_section_leave_the_reader_where_they_are() {
        let two = "## Setup\nSee kpack/ and repository/v1/schema.yaml.\n```\nytt -f .\n```\n";
        let mut s = [snippet("ytt -f .\n", 3)];
        place(&mut s, two, &index());
        assert_eq!(s[0].cwd, Word::lit(CALLER));
        let no_dot = "## kpack\nThe kpack folder.\n```\nytt -f kpack\n```\n";
        let mut s = [snippet("ytt -f kpack\n", 3)];
        place(&mut s, no_dot, &index());
        assert_eq!(s[0].cwd, Word::lit(CALLER));
        let earlier = "## kpack\nThe kpack folder.\n```\nls\n```\nRender:\n```\nytt -f .\n```\n";
        let mut s = [snippet("ytt -f .\n", 6)];
        place(&mut s, earlier, &index());
        assert_eq!(s[0].cwd, Word::lit(CALLER));
        let earlier = "## kpack\nThe kpack folder.\n## Render\n```\nytt -f .\n```\n";
        let mut s = [snippet("ytt -f .\n", 4)];
        place(&mut s, earlier, &index());
        assert_eq!(s[0].cwd, Word::lit(CALLER));
        assert!(s[0].assumed.is_empty());
    }

    #[test]
    fn a_page_that_says_run_from_the_root_runs_from_the_top() {
        let page = "# Install kpack\nRun the installer script from the root directory of this repo:\n```\n./install-kpack.sh\n```\n";
        let mut s = [Snippet::new(
            "kpack/2-kpack.md",
            3,
            "./install-kpack.sh\n".into(),
            Word::lit(CALLER),
        )];
        place(&mut s, page, &index());
        assert_eq!(s[0].cwd, Word::lit(REPO));
        assert!(s[0].assumed.is_empty());
    }

    #[test]
    fn dot_commands() {
        assert!(renders_dot("ytt --data-values-env X -f . | kapp deploy"));
        assert!(renders_dot("ytt --file ./"));
        assert!(renders_dot("ytt -f=."));
        assert!(!renders_dot("ytt -f ./config"));
    }
}
