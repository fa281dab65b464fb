//! Earthfiles and Dockerfiles: the shell of their `RUN` lines (`RUN ytt --data-value
//! version=${VERSION} -f config -f hack/set-version.yaml | kbld -f -`, round thirty-eight's
//! N38-1 and N38-4), each a command of the repository at `Earthfile:LINE` or
//! `Dockerfile:LINE`. A `RUN` runs in the image, not in the checkout: its relative paths are the
//! repository's only where the file says so plainly, each path its inputs name copied from the
//! file's own directory to the same relative path (`COPY config ./config`, `COPY hack/x.yaml
//! hack/x.yaml`) in the working directory the `RUN` uses (no `WORKDIR` after the copy). Then the
//! `RUN` runs from the file's directory. Otherwise (a path no `COPY` gives, a copy under another
//! name, an artifact of another target or stage) the `RUN`'s working directory is the image's,
//! unknown, and so are its inputs: nothing is guessed.
//!
//! A target (`name:` at the start of an Earthfile's line) or a stage (`FROM`) starts with nothing
//! copied.

use super::snippet::Snippet;
use super::word::{Word, REPO};
use crate::files::paths;

/// The most `RUN` lines read from one file.
const MAX_RUNS: usize = 256;

/// Flags of ytt whose value is a path (or `NAME=path`, `KEY=path`).
const PATH_FLAGS: [&str; 4] = ["-f", "--file", "--data-values-file", "--data-value-file"];

/// Whether a repository file is an Earthfile or a Dockerfile.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "Earthfile"
        || name == "Dockerfile"
        || name.starts_with("Dockerfile.")
        || name.ends_with(".Dockerfile")
        || name.ends_with(".dockerfile")
}

/// What a target or stage has copied: image path (relative to its working directory) and
/// the repository path it holds, relative to the file's directory.
#[derive(Default)]
struct Copied {
    paths: Vec<String>,
}

impl Copied {
    /// Whether the relative path `p` of the image is the repository's at the same path.
    fn holds(&self, p: &str) -> bool {
        let p = clean(p);
        self.paths
            .iter()
            .any(|c| p == *c || p.starts_with(&format!("{c}/")))
    }
}

/// A path without its leading `./` and trailing `/`.
fn clean(p: &str) -> String {
    let p = p.trim_end_matches('/');
    let p = p.strip_prefix("./").unwrap_or(p);
    p.to_string()
}

/// The instruction lines of the file: the line (from 0) each starts on, and its physical
/// lines (a `\` at a line's end continues it).
pub(super) fn instructions(text: &str) -> Vec<(usize, Vec<&str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let mut body = vec![lines[i]];
        while body.last().is_some_and(|l| l.trim_end().ends_with('\\')) && i + 1 < lines.len() {
            i += 1;
            body.push(lines[i]);
        }
        out.push((start, body));
        i += 1;
    }
    out
}

/// The snippets of the Earthfile or Dockerfile at repository-relative `path`: one per `RUN`
/// line whose text `wanted` accepts.
pub fn snippets(path: &str, text: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let dir = paths::parent(path);
    let here = if dir.is_empty() {
        REPO.to_string()
    } else {
        format!("{REPO}/{dir}")
    };
    let mut out = Vec::new();
    let mut copied = Copied::default();
    for (start, body) in instructions(text) {
        let first = body[0];
        // An Earthfile's target: `name:` at the start of the line.
        if !first.starts_with([' ', '\t', '#'])
            && first.trim_end().ends_with(':')
            && !first.contains(' ')
        {
            copied = Copied::default();
            continue;
        }
        let trimmed = first.trim_start();
        let (word, rest) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        match word.to_ascii_uppercase().as_str() {
            "FROM" => copied = Copied::default(),
            "WORKDIR" => copied = Copied::default(),
            "COPY" | "ADD" => copy(&mut copied, rest),
            "RUN" if out.len() < MAX_RUNS => {
                let mut lines: Vec<String> = body.iter().map(|l| l.to_string()).collect();
                lines[0] = run_text(rest);
                let shell = lines.join("\n") + "\n";
                if !wanted(&shell) {
                    continue;
                }
                let cwd = if every_input_copied(&shell, &copied) {
                    Word::lit(here.clone())
                } else {
                    Word::unknown("the image's working directory")
                };
                let offset = u32::try_from(start).unwrap_or(u32::MAX);
                out.push(Snippet::new(path, offset, shell, cwd));
            }
            _ => {}
        }
    }
    out
}

/// The shell of a `RUN`'s first line: its flags (`--mount=…`, `--push`) left out, an exec
/// form (`["ytt", "-f", "x"]`) as words.
fn run_text(rest: &str) -> String {
    let mut rest = rest.trim_start();
    while rest.starts_with("--") {
        rest = rest
            .split_once(char::is_whitespace)
            .map_or("", |(_, r)| r)
            .trim_start();
    }
    if let Some(array) = rest.strip_prefix('[') {
        if let Ok(serde_json::Value::Array(items)) =
            serde_json::from_str::<serde_json::Value>(&format!("[{array}"))
        {
            let words: Vec<String> = items
                .iter()
                .filter_map(|v| v.as_str())
                .map(|s| format!("'{}'", s.replace('\'', "'\\''")))
                .collect();
            return words.join(" ");
        }
    }
    rest.to_string()
}

/// Records what a `COPY`/`ADD` gives: each source of the file's directory copied to the same
/// relative path. A copy from another stage or target (`--from`, `+target/…`), under another
/// name, or to an absolute path gives nothing the linter maps.
fn copy(copied: &mut Copied, rest: &str) {
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.iter().any(|w| w.starts_with("--from")) || rest.trim_start().starts_with('[') {
        return;
    }
    let args: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with("--"))
        .collect();
    let Some((dest, sources)) = args.split_last() else {
        return;
    };
    if dest.starts_with('/') || dest.contains('$') {
        return;
    }
    let dest = clean(dest);
    for s in sources {
        if s.starts_with('+') || s.contains('$') || s.contains("..") || s.starts_with('/') {
            continue;
        }
        let s = clean(s);
        if s.is_empty() || s.contains(['*', '?', '[']) {
            continue;
        }
        // `COPY config ./config`, `COPY hack/x.yaml hack/x.yaml`.
        if s == dest && !copied.paths.contains(&s) {
            copied.paths.push(s);
        }
    }
}

/// Whether every path the ytt command of a `RUN` reads (`-f`, `--data-values-file`,
/// `--data-value-file`) is relative and copied to the same path.
fn every_input_copied(shell: &str, copied: &Copied) -> bool {
    let words: Vec<String> = shell
        .split_whitespace()
        .filter(|w| *w != "\\")
        .map(|w| w.trim_matches(|c| c == '"' || c == '\'').to_string())
        .collect();
    let mut inputs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if PATH_FLAGS.contains(&w.as_str()) {
            if let Some(v) = words.get(i + 1) {
                inputs.push(v.clone());
            }
            i += 2;
            continue;
        }
        if let Some((flag, v)) = w.split_once('=') {
            if PATH_FLAGS.contains(&flag) && flag.starts_with("--") {
                inputs.push(v.to_string());
            }
        }
        i += 1;
    }
    !inputs.is_empty()
        && inputs.iter().all(|v| {
            // `NAME=path` of `-f`, `KEY=path` of `--data-value-file`.
            let p = v.rsplit_once('=').map_or(v.as_str(), |(_, p)| p);
            p == "-" || (!p.starts_with('/') && !p.contains('$') && copied.holds(p))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: &str) -> bool {
        true
    }

    #[test]
    fn a_run_whose_inputs_are_copied_as_they_are_runs_from_the_file_s_folder() {
        let text = "VERSION 0.7\nbundle:\n  FROM alpine\n  COPY config ./config\n  COPY hack ./hack\n  RUN ytt --data-value version=1 -f config \\\n    -f hack/set-tag.yaml > out.yaml\n";
        let s = snippets("ops/Earthfile", text, &all);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].line_offset, 5);
        assert_eq!(
            s[0].text,
            "ytt --data-value version=1 -f config \\\n    -f hack/set-tag.yaml > out.yaml\n"
        );
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/ops")));
    }

    #[test]
    fn a_run_whose_inputs_the_file_does_not_map_has_an_unknown_directory() {
        for text in [
            // Not copied.
            "FROM alpine\nRUN ytt -f config\n",
            // Copied under another name.
            "FROM alpine\nCOPY config ./templates\nRUN ytt -f config\n",
            // Copied, then another working directory.
            "FROM alpine\nCOPY config ./config\nWORKDIR /app\nRUN ytt -f config\n",
            // Another stage's files.
            "FROM alpine AS a\nCOPY config ./config\nFROM alpine\nCOPY --from=a /config ./config\nRUN ytt -f config\n",
            // Another target's.
            "a:\n  COPY config ./config\nb:\n  RUN ytt -f config\n",
        ] {
            let s = snippets("Dockerfile", text, &all);
            assert_eq!(s.len(), 1, "{text}");
            assert!(s[0].cwd.literal().is_none(), "{text}: {:?}", s[0].cwd);
        }
    }

    #[test]
    fn run_flags_and_the_exec_form() {
        assert_eq!(
            run_text("--mount=type=cache,target=/x ytt -f a"),
            "ytt -f a"
        );
        assert_eq!(run_text("[\"ytt\", \"-f\", \"a b\"]"), "'ytt' '-f' 'a b'");
        assert!(candidate("build/Dockerfile.ci"));
        assert!(candidate("Earthfile"));
        assert!(!candidate("Dockerfile.md/x"));
    }
}
