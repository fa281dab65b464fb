//! A page or script that clones this repository and runs ytt from the clone's parent:
//! `git clone https://github.com/ORG/NAME`, `cp ./NAME/values-tmpl.yml values.yml`, then
//! `ytt -f ./NAME -f values.yml` (round thirteen's LR13A-2). The clone is this repository
//! (the URL names it as `remote.rs` decides: its `NAME` is the checkout's name, or `ORG+NAME`,
//! or the `go.mod` module), so `./NAME/rest` is the repository's `rest`, and a command that
//! `cd`s into the clone runs in the repository. Only where the repository holds no `NAME` of
//! its own, and where the rest's first directory exists in it.

use super::made::MadeAt;
use super::shell::Call;
use super::snippet::Snippet;
use super::word::{Piece, Word, REPO};
use crate::lint::discover::invocations::index::Index;

/// At most this many clones are read from one file.
const MAX_CLONES: usize = 16;

/// What decides that a URL names this repository.
#[derive(Clone, Copy)]
pub struct This<'a> {
    pub name: &'a str,
    pub module: Option<&'a str>,
    pub index: &'a Index,
}

/// The clones of this repository that each of `texts` (path, kind, text) makes.
pub fn all<K>(
    texts: &[(String, K, String)],
    this: This<'_>,
) -> std::collections::BTreeMap<String, Vec<String>> {
    texts
        .iter()
        .filter(|(_, _, t)| t.contains("git clone"))
        .map(|(p, _, t)| (p.clone(), clone_dirs(t, this)))
        .filter(|(_, d)| !d.is_empty())
        .collect()
}

/// The directories (as written, relative to where the command runs) that the `git clone`
/// commands of `text` clone this repository into.
pub fn clone_dirs(text: &str, this: This<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().take(100_000) {
        let tokens: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|t| !t.is_empty())
            .collect();
        let mut rest = tokens.as_slice();
        while let Some(at) = rest.windows(2).position(|w| w == ["git", "clone"]) {
            rest = &rest[at + 2..];
            if let Some(dir) = clone_of_this(rest, this) {
                if !out.contains(&dir) && out.len() < MAX_CLONES {
                    out.push(dir);
                }
            }
        }
    }
    out
}

/// The directory `git clone ARGS` makes when its URL names this repository.
fn clone_of_this(args: &[&str], this: This<'_>) -> Option<String> {
    const VALUED: [&str; 6] = ["-b", "--branch", "-o", "--origin", "--depth", "-c"];
    let mut positional: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if matches!(*a, "&&" | "||" | "|" | "&" | ">" | "2>&1") {
            break;
        }
        if a.starts_with('-') {
            if VALUED.contains(a) {
                it.next();
            }
            continue;
        }
        positional.push(a.trim_matches(['"', '\'']).to_string());
    }
    let url = positional.first()?;
    let trimmed = url.trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(".git").unwrap_or(trimmed);
    let mut segs = trimmed.rsplit(['/', ':']);
    let (Some(name), Some(org)) = (segs.next(), segs.next()) else {
        return None;
    };
    if !super::remote::names_repository(org, name, this.name, this.module) {
        return None;
    }
    let dir = positional
        .get(1)
        .cloned()
        .unwrap_or_else(|| name.to_string());
    let dir = dir
        .trim_start_matches("./")
        .trim_end_matches('/')
        .to_string();
    // A destination of run-time values, one with `..`, or a directory the repository holds
    // itself is no clone the linter can place.
    let plain = !dir.is_empty()
        && !dir.contains(['$', '`', '/'])
        && dir != "."
        && dir != ".."
        && !this.index.exists(&dir);
    plain.then_some(dir)
}

/// ytt's flags whose value is no path of the clone: data values, file marks, the output
/// type.
const VALUE_FLAGS: [&str; 9] = [
    "-v",
    "--data-value",
    "--data-value-yaml",
    "--data-values-env",
    "--data-values-env-yaml",
    "--file-mark",
    "-o",
    "--output",
    "--data-value-file",
];

/// `word` (relative to `cwd`) as a repository path when it is under the clone `dir` made in
/// `base`, and the rest's first directory exists in the repository.
fn mapped_word(word: &Word, cwd: &Word, base: &Word, dir: &str, index: &Index) -> Option<Word> {
    let abs = word.relative_to(cwd);
    let mut clone = base.clone();
    clone.push_lit("/", false);
    clone.push_lit(dir, false);
    let clone = clone.normalized().literal()?;
    // The literal text the word starts with, across its pieces, and what follows it.
    let lead = abs
        .0
        .iter()
        .take_while(|p| matches!(p, Piece::Lit { .. }))
        .count();
    let text: String = abs.0[..lead]
        .iter()
        .map(|p| match p {
            Piece::Lit { text, .. } => text.as_str(),
            Piece::Unknown(_) => "",
        })
        .collect();
    let rest_text = text.strip_prefix(&clone)?;
    if !(rest_text.is_empty() || rest_text.starts_with('/')) {
        return None;
    }
    let first = rest_text.split('/').find(|s| !s.is_empty()).unwrap_or(".");
    let whole = lead == abs.0.len();
    if first != "."
        && (whole || rest_text.trim_start_matches('/').contains('/'))
        && !index.exists(first)
    {
        return None;
    }
    let mut w = Word::lit(REPO);
    w.push_lit("/", false);
    w.push_lit(rest_text, abs.has_glob());
    w.0.extend(abs.0[lead..].iter().cloned());
    Some(w.normalized())
}

/// `call` of `snippet` with its arguments and working directory under a clone of this
/// repository (`dirs`, made where the snippet starts) made repository paths.
pub fn mapped(call: &Call, snippet: &Snippet, dirs: &[String], index: &Index) -> Call {
    if dirs.is_empty() {
        return call.clone();
    }
    let base = snippet.cwd.normalized();
    let cwd = call.cwd.clone().unwrap_or_else(|| base.clone());
    let mut out = call.clone();
    for dir in dirs {
        let mut after_value_flag = false;
        for a in &mut out.args {
            let text = a.literal_prefix();
            if text.starts_with('-') {
                // A data value or a file mark is no path (`-v key=$X`, run from the clone,
                // names no file of it).
                after_value_flag = VALUE_FLAGS.contains(&text);
                continue;
            }
            if std::mem::take(&mut after_value_flag) {
                continue;
            }
            if let Some(w) = mapped_word(a, &cwd, &base, dir, index) {
                *a = w;
            }
        }
        if let Some(w) = out
            .cwd
            .as_ref()
            .and_then(|c| mapped_word(c, &base, &base, dir, index))
        {
            out.cwd = Some(w);
        }
    }
    out
}

/// The paths `made` records for the file `file` (a copy from the clone, `cp ./NAME/values-
/// tmpl.yml values.yml`) with the clone's paths made repository paths.
pub fn map_made(made: &mut [MadeAt], file: &str, cwd: &Word, dirs: &[String], index: &Index) {
    let base = cwd.normalized();
    for m in made.iter_mut().filter(|m| m.file == file) {
        for dir in dirs {
            if let Some(w) = mapped_word(&m.made.path, &base, &base, dir, index) {
                m.made.path = w;
            }
            if let Some(from) = &m.made.from {
                if let Some(w) = mapped_word(from, &base, &base, dir, index) {
                    m.made.from = Some(w);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::snippet::CALLER;

    #[test]
    fn a_clone_of_this_repository_is_its_root() {
        let index = Index::new(["values-tmpl.yml", "config/a.yml"]);
        let this = This {
            name: "org+cluster-tpl",
            module: None,
            index: &index,
        };
        let page = "git clone https://github.com/org/cluster-tpl\n\
                    git clone --depth 1 git@github.com:org/cluster-tpl.git mine && cd mine\n\
                    git clone https://github.com/org/other\n";
        assert_eq!(clone_dirs(page, this), vec!["cluster-tpl", "mine"]);
        let snippet = Snippet::new("README.md", 0, String::new(), Word::lit(CALLER));
        let call = Call {
            args: vec![
                Word::lit("-f"),
                Word::lit("./cluster-tpl"),
                Word::lit("-f"),
                Word::lit("cluster-tpl/config/a.yml"),
                Word::lit("-f"),
                Word::lit("values.yml"),
                Word::lit("-f"),
                Word::lit("cluster-tpl/gone/a.yml"),
            ],
            ..Call::new(3, Vec::new(), Some(Word::lit(CALLER)))
        };
        let dirs = clone_dirs(page, this);
        let out = mapped(&call, &snippet, &dirs, &index);
        let paths: Vec<Option<String>> = out.args.iter().map(Word::repo_path).collect();
        assert_eq!(paths[1].as_deref(), Some("."));
        assert_eq!(paths[3].as_deref(), Some("config/a.yml"));
        // The parent's own file, and a path the repository does not hold, stay as written.
        assert_eq!(out.args[5], Word::lit("values.yml"));
        assert_eq!(out.args[7], Word::lit("cluster-tpl/gone/a.yml"));
        // Run inside the clone.
        let inside = Call {
            cwd: Some(Word::lit(format!("{CALLER}/mine"))),
            ..call.clone()
        };
        let out = mapped(&inside, &snippet, &dirs, &index);
        assert_eq!(out.cwd.and_then(|c| c.repo_path()).as_deref(), Some("."));
        // Inside the clone, a data value is no path of it.
        let valued = Call {
            cwd: Some(Word::lit(format!("{CALLER}/mine"))),
            args: vec![
                Word::lit("-f"),
                Word::lit("config/a.yml"),
                Word::lit("-v"),
                Word::lit("config=x"),
                Word::lit("--data-value-yaml"),
                Word::lit("config"),
            ],
            ..call.clone()
        };
        let out = mapped(&valued, &snippet, &dirs, &index);
        assert_eq!(out.args[3], Word::lit("config=x"));
        assert_eq!(out.args[5], Word::lit("config"));
        // A repository that holds a directory of the clone's name keeps it.
        let holding = Index::new(["cluster-tpl/a.yml"]);
        let this = This {
            index: &holding,
            ..this
        };
        assert_eq!(clone_dirs(page, this), vec!["mine"]);
        // Another repository's clone is not this one.
        let other = This {
            name: "checkout",
            ..this
        };
        assert!(clone_dirs(page, other).is_empty());
    }
}
