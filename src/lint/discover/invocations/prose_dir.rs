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
        let page_dir = paths::parent(&s.file);
        if !renders_dot(&s.text) {
            if let Some(dir) = heading_home(&prose, &s.text, page_dir, index) {
                s.assumed.push(Assumption::new(
                    AssumptionKind::WorkingDirectory,
                    format!(
                        "{}:{} names files that only {dir}, the folder its section's heading \
                         names, holds: run from there",
                        s.file,
                        s.line_offset + 1
                    ),
                ));
                s.cwd = Word::lit(format!("{REPO}/{dir}"));
            }
            continue;
        }
        if let [dir] = named_dirs(&prose, page_dir, index).as_slice() {
            // The block's own `cd` into the folder its section names is the same folder, not
            // a second step into it (round forty-one's N41-2).
            if enters(&s.text, page_dir, dir) {
                continue;
            }
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

/// Whether a block's `cd` leads from the page's directory into `dir`.
fn enters(text: &str, page_dir: &str, dir: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        let l = l.strip_prefix("$ ").unwrap_or(l);
        l.strip_prefix("cd ")
            .map(|t| t.split([';', '&', '|']).next().unwrap_or("").trim())
            .map(|t| t.trim_matches(['"', '\'']).trim_start_matches("./"))
            .is_some_and(|t| paths::join(page_dir, t.trim_end_matches('/')) == dir)
    })
}

/// The files a block gives ytt by relative paths (`-f x.yaml`, `--file=x.yaml`,
/// `--data-values-file v.yml`), when it has no `cd` and every path is plain text.
fn plain_inputs(text: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.contains(&"cd") || words.contains(&"pushd") {
        return None;
    }
    let flags = ["-f", "--file", "--data-values-file"];
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let value = if flags.contains(w) {
            words.get(i + 1).copied()
        } else {
            w.split_once('=')
                .filter(|(f, _)| f.starts_with("--") && flags.contains(f))
                .map(|(_, v)| v)
        };
        let Some(v) = value else { continue };
        if v == "-" {
            continue;
        }
        if v.starts_with(['/', '~', '$', '<', '.']) || v.contains(['$', '<', '*', '=', '`']) {
            return None;
        }
        out.push(v.trim_end_matches('/').to_string());
    }
    (!out.is_empty()).then_some(out)
}

/// The folder below `page_dir` that the heading starting `prose` names (`## Pkg_Overlays`,
/// `### ytt/`) when it alone holds every file the block `text` gives by a plain relative
/// path and neither the page's directory nor the repository's top holds any (round
/// thirty-seven's R37-5): the block runs from there.
fn heading_home(prose: &str, text: &str, page_dir: &str, index: &Index) -> Option<String> {
    let heading = prose.lines().next()?.trim_start();
    if !heading.starts_with('#') {
        return None;
    }
    let inputs = plain_inputs(text)?;
    if inputs
        .iter()
        .any(|f| index.exists(&paths::join(page_dir, f)) || index.exists(f))
    {
        return None;
    }
    let mut homes: Vec<String> = heading
        .trim_start_matches('#')
        .split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | ','))
        .map(|w| {
            w.trim_end_matches(['.', ':', ';', '!', '?'])
                .trim_end_matches('/')
        })
        .filter(|w| !w.is_empty() && !w.starts_with(['.', '/', '~', '$']) && !w.contains(".."))
        .map(|w| paths::join(page_dir, w))
        .filter(|d| index.is_dir(d))
        .filter(|d| inputs.iter().all(|f| index.exists(&paths::join(d, f))))
        .collect();
    homes.sort();
    homes.dedup();
    match homes.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
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
    fn a_block_that_enters_the_folder_its_heading_names_is_placed_by_its_cd() {
        let page = "# Demo\n### kpack/\nThe variant.\n```bash\ncd kpack\nytt -f . -v x=2\n```\n";
        let mut s = [snippet("cd kpack\nytt -f . -v x=2\n", 4)];
        place(&mut s, page, &index());
        assert_eq!(s[0].cwd, Word::lit(CALLER));
        assert!(s[0].assumed.is_empty());
        // Without the `cd`, the heading places it.
        let mut s = [snippet("ytt -f . -v x=2\n", 4)];
        place(&mut s, page, &index());
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/kpack")));
    }

    #[test]
    fn a_heading_names_the_folder_that_alone_holds_the_block_s_files() {
        let page = "# Demo\n## kpack\nApply it:\n```\nkubectl get x -o yaml | ytt -f kpack_values.yaml --file - | kubectl apply -f -\n```\n";
        let text =
            "kubectl get x -o yaml | ytt -f kpack_values.yaml --file - | kubectl apply -f -\n";
        let mut s = [snippet(text, 4)];
        place(&mut s, page, &index());
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/kpack")));
        assert_eq!(s[0].assumed.len(), 1);
        assert_eq!(s[0].assumed[0].kind, AssumptionKind::WorkingDirectory);
        // A file the top holds too, a heading naming another folder, or a `cd`: not placed.
        for (page, text) in [
            (
                "# Demo\n## kpack\n```\nytt -f README.md\n```\n",
                "ytt -f README.md\n",
            ),
            (
                "# Demo\n## repository\n```\nytt -f kpack_values.yaml\n```\n",
                "ytt -f kpack_values.yaml\n",
            ),
            (
                "# Demo\n## kpack\n```\ncd x\nytt -f kpack_values.yaml\n```\n",
                "cd x\nytt -f kpack_values.yaml\n",
            ),
        ] {
            let mut s = [snippet(text, 3)];
            place(&mut s, page, &index());
            assert_eq!(s[0].cwd, Word::lit(CALLER), "{page}");
        }
    }

    #[test]
    fn dot_commands() {
        assert!(renders_dot("ytt --data-values-env X -f . | kapp deploy"));
        assert!(renders_dot("ytt --file ./"));
        assert!(renders_dot("ytt -f=."));
        assert!(!renders_dot("ytt -f ./config"));
    }
}
