//! Files a script concatenates into ytt's standard input. `{ cat resources.yml; echo jobs:;
//! cat jobs/*.yml; } | ytt -f -` (or a shell function whose body prints those files, piped
//! into `ytt -f -`) renders one template made of their texts in order: a later file may use
//! what an earlier one defines (`#@ script_b64 = …`). Rendered alone, as the layout's
//! inferred command does, it fails with `undefined: script_b64` (round eleven's FW11-B3).
//!
//! The rule: an undefined name in a root whose command is only inferred from the layout (see
//! [`super::preamble`]), in a file that a script of the repository prints with `cat` into
//! `ytt -f -`, where another file the same pipe prints defines the name (`#@ NAME =`, `#@ def
//! NAME(`), rests on the assumption that the file is rendered alone: the finding names the
//! script's line and the defining file, and is a note, as for a fragment a script appends
//! (see [`super::appended`]). The linter does not evaluate the concatenation itself (the
//! loop's filters, `echo`ed lines); without a definition in the pipe's other files the error
//! stays.

use std::collections::BTreeMap;
use std::path::Path;

use regex::Regex;

use crate::files::paths::parent;
use crate::lint::job::Job;
use crate::lint::repo::walk::RepoFile;
use crate::report::Diagnostic;

use super::appended::{inferred_roots, read_small, scripted};
use super::preamble::{assume_prepended, candidate_files};

/// The files one pipe into `ytt -f -` prints, and where it is (`repipe.sh:11`).
struct Pipe {
    at: String,
    files: Vec<String>,
}

/// `found` with each undefined name that another file of a pipe into `ytt -f -` defines
/// marked as resting on the file being rendered alone.
pub fn settle(
    repo: &Path,
    files: &[RepoFile],
    jobs: &[Job],
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let inferred = inferred_roots(jobs);
    let wanted = candidate_files(&found, &inferred);
    if wanted.is_empty() {
        return found;
    }
    let pipes = pipes(repo, files);
    let mut texts: BTreeMap<String, Option<String>> = BTreeMap::new();
    assume_prepended(&mut found, &inferred, |d, name| {
        let file = &d.span.as_ref()?.file;
        let mut defines = |g: &str| {
            let text = texts
                .entry(g.to_string())
                .or_insert_with(|| read_small(repo, g));
            text.as_deref().is_some_and(|t| defines(t, name))
        };
        let (at, g) = pipes.iter().find_map(|pipe| {
            if !pipe.files.contains(file) {
                return None;
            }
            let g = pipe.files.iter().find(|g| *g != file && defines(g))?;
            Some((&pipe.at, g))
        })?;
        Some(format!(
            "the file is rendered alone, as committed; {at} prints it with {g} into ytt's \
             standard input (`cat … | ytt -f -`), one template in which {g} defines `{name}`"
        ))
    });
    found
}

/// Whether a template's text defines `name` at its top level (`#@ name = …`, `#@ def name(`).
fn defines(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        let Some(code) = l.trim_start().strip_prefix("#@") else {
            return false;
        };
        let code = code.trim_start();
        let assigned = code
            .strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with('=') && !r.trim_start().starts_with("=="));
        let def = code
            .strip_prefix("def ")
            .and_then(|r| r.trim_start().strip_prefix(name))
            .is_some_and(|r| r.starts_with('('));
        assigned || def
    })
}

/// Every pipe into `ytt -f -` of the repository's scripts, with the files its `cat`s print.
fn pipes(repo: &Path, files: &[RepoFile]) -> Vec<Pipe> {
    let yaml: Vec<&str> = files
        .iter()
        .map(|f| f.path.as_str())
        .filter(|p| p.ends_with(".yml") || p.ends_with(".yaml"))
        .collect();
    let mut out = Vec::new();
    for f in files.iter().filter(|f| scripted(f)) {
        let Some(text) = read_small(repo, &f.path) else {
            continue;
        };
        let dir = parent(&f.path);
        for (i, line) in logical_lines(&text) {
            let Some(producer) = producer(&line) else {
                continue;
            };
            let sources = match function_body(&text, producer) {
                Some(body) => printed(&body),
                None => printed(producer),
            };
            let matched: Vec<String> = yaml
                .iter()
                .filter(|y| sources.iter().any(|s| names(s, dir, y)))
                .map(|y| y.to_string())
                .collect();
            if matched.len() > 1 {
                out.push(Pipe {
                    at: format!("{}:{}", f.path, i + 1),
                    files: matched,
                });
            }
        }
    }
    out
}

/// The text's lines with their continuations (`\` at the end) joined, each with the index of
/// its first line.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let (body, continues) = match line.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (line, false),
        };
        match out.last_mut() {
            Some((_, l)) if open => {
                l.push(' ');
                l.push_str(body.trim_start());
            }
            _ => out.push((i, body.to_string())),
        }
        open = continues;
    }
    out
}

/// What a line pipes into `ytt -f -` (`build`, `{ cat a; cat b; }`), if it does.
fn producer(line: &str) -> Option<&str> {
    let at = line.find("| ytt ").or_else(|| line.find("|ytt "))?;
    let rest = &line[at..];
    let stdin = [" -f - ", " -f -\n", " --file - ", " -f-"]
        .iter()
        .any(|f| format!("{rest}\n").contains(f));
    let before = line[..at].trim();
    (stdin && !before.is_empty()).then_some(before)
}

/// The body of the shell function `name` the text defines (`name() {` … `}`), if any.
fn function_body(text: &str, name: &str) -> Option<String> {
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let mut lines = text.lines();
    lines.find(|l| {
        let l = l.trim();
        let l = l.strip_prefix("function ").unwrap_or(l).trim_start();
        l.strip_prefix(name).is_some_and(|r| {
            let r = r.trim_start();
            r.starts_with("()") || r.starts_with('{')
        })
    })?;
    let body: Vec<&str> = lines.take_while(|l| l.trim() != "}").collect();
    Some(body.join("\n"))
}

/// The paths `cat` prints in shell text, as written; a loop variable (`cat "$f"` in `for f in
/// "$DIR"/jobs/*.yml`) stands for its glob.
fn printed(text: &str) -> Vec<String> {
    let mut globs: BTreeMap<String, String> = BTreeMap::new();
    let mut out = Vec::new();
    for piece in text.split(['\n', ';', '&', '|', '(', ')']) {
        let words: Vec<&str> = piece.split_whitespace().collect();
        if let ["for", var, "in", glob, ..] = words.as_slice() {
            let glob = glob.replace(['"', '\''], "");
            globs.insert(format!("${var}"), glob.clone());
            globs.insert(format!("${{{var}}}"), glob);
        }
        let Some(cat) = words.iter().position(|w| *w == "cat") else {
            continue;
        };
        for w in words[cat + 1..].iter().take_while(|w| !w.starts_with('>')) {
            let w = w.replace(['"', '\''], "");
            if w.starts_with('-') || w.is_empty() {
                continue;
            }
            out.push(globs.get(&w).cloned().unwrap_or(w));
        }
    }
    out
}

/// Whether `source` (a path `cat` prints, maybe a glob, written in a script of directory
/// `dir`) names the repository file `file`: from the script's directory or the top, or, when
/// a variable leads it (`"$DIR"/jobs/*.yml`), below the script's directory.
fn names(source: &str, dir: &str, file: &str) -> bool {
    let (led, rest) = match source.strip_prefix('$') {
        Some(r) => match r.split_once('/') {
            Some((_, tail)) => (true, tail),
            None => return false,
        },
        None => (false, source.trim_start_matches("./")),
    };
    if rest.contains(['$', '`']) || rest.split('/').any(|s| s == "..") {
        return false;
    }
    let glob = crate::lint::discover::invocations::index::glob_regex(rest);
    let Ok(re) = Regex::new(&format!("(?:^|/){glob}$")) else {
        return false;
    };
    let below = dir == "." || crate::files::paths::is_within(file, dir);
    if led {
        return below && re.is_match(file);
    }
    let exact = |base: &str| {
        let full = crate::files::paths::join(base, rest);
        Regex::new(&format!(
            "^{}$",
            crate::lint::discover::invocations::index::glob_regex(&full)
        ))
        .is_ok_and(|r| r.is_match(file))
    };
    exact(dir) || exact(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_piped_into_ytt_prints_its_cat_files() {
        let script = "#!/bin/bash\nDIR=x\nbuild() {\n  cat \"$DIR/jobs/resources.yml\"\n  \
                      echo \"jobs:\"\n  for f in \"$DIR\"/jobs/*.yml; do\n    \
                      [[ \"$(basename \"$f\")\" != resources.yml ]] && cat \"$f\"\n  done\n}\n\
                      build | ytt -f - --data-value-file s=a.sh | fly -c /dev/stdin\n";
        let line = script.lines().last().unwrap();
        let p = producer(line).unwrap();
        assert_eq!(p, "build");
        let body = function_body(script, p).unwrap();
        let printed = printed(&body);
        assert_eq!(printed, ["$DIR/jobs/resources.yml", "$DIR/jobs/*.yml"]);
        assert!(names(&printed[1], ".", "jobs/deploy.yml"));
        assert!(names(&printed[0], ".", "jobs/resources.yml"));
        assert!(!names(&printed[0], ".", "jobs/deploy.yml"));
        assert_eq!(
            printed_of("{ cat a.yml; echo x; cat b/*.yml; } | ytt -f -"),
            ["a.yml", "b/*.yml"]
        );
        assert!(producer("cat a.yml | ytt -f config").is_none());
        let joined = logical_lines("a \\\n  -f - \\\n  -v x=1\nb\n");
        assert_eq!(
            joined,
            [(0, "a  -f -  -v x=1".to_string()), (3, "b".to_string())]
        );
    }

    fn printed_of(line: &str) -> Vec<String> {
        printed(producer(line).unwrap_or(""))
    }

    #[test]
    fn a_definition_is_an_assignment_or_a_def() {
        assert!(defines("#@ x = 1\n", "x"));
        assert!(defines("  #@ def x(a):\n", "x"));
        assert!(!defines("#@ xy = 1\n", "x"));
        assert!(!defines("#@ if x == 1:\n", "x"));
        assert!(!defines("x: 1\n", "x"));
    }
}
