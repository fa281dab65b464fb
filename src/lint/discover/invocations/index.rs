//! What the repository holds, for deciding paths without touching the disk again: every
//! walked file and every directory above one. Paths with unknown parts or globs are matched
//! against it, the way the shell would find them when the script runs.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::word::{Piece, Word, REPO};
use crate::files::paths;

/// The repository's files and directories (repository-relative).
#[derive(Debug, Default)]
pub struct Index {
    files: BTreeSet<String>,
    dirs: BTreeSet<String>,
    /// Symbolic links to directories of the repository, committed in it, by their path:
    /// the directory each names (`app/templates` -> `shared`). A path through one is the
    /// shell's and ytt's way to the directory's files (see [`Index::through_links`]).
    links: BTreeMap<String, String>,
    /// Symbolic links that lead outside the repository, with their targets as written: not
    /// gone through.
    leaving: BTreeMap<String, String>,
    /// Path comparisons made by pattern matching so far: a repository full of commands with
    /// unknown paths must not take unbounded time (see [`MAX_COMPARISONS`]).
    compared: Cell<usize>,
}

/// The most paths pattern matching compares in one run.
pub const MAX_COMPARISONS: usize = 50_000_000;

/// The most symbolic links a path is followed through (Linux's limit for one lookup).
pub const MAX_LINKS: usize = 40;

/// Values for unknown parts of paths, by the name the script gives them (`$1`).
pub type Binding = BTreeMap<String, String>;

/// The most matches one path pattern may have before it is too vague to follow.
pub const MAX_MATCHES: usize = 256;

impl Index {
    pub fn new<'a>(files: impl IntoIterator<Item = &'a str>) -> Index {
        let mut index = Index::default();
        index.dirs.insert(".".to_string());
        for f in files {
            index.files.insert(f.to_string());
            let mut p = paths::parent(f);
            while p != "." && index.dirs.insert(p.to_string()) {
                p = paths::parent(p);
            }
        }
        index
    }

    /// The index, knowing the repository's symbolic links to its own directories
    /// (`(link, directory)` repository paths; see [`super::through_links::dir_links`]). A
    /// link to anything but a walked directory is not kept.
    pub fn with_links(mut self, links: impl IntoIterator<Item = (String, String)>) -> Index {
        for (link, dir) in links {
            if self.dirs.contains(&dir) && !self.dirs.contains(&link) {
                self.links.insert(link, dir);
            }
        }
        self
    }

    /// The index, knowing the repository's symbolic links that lead outside it
    /// (`(link, target)`; see [`super::through_links::leaving`]).
    pub fn with_leaving(mut self, links: impl IntoIterator<Item = (String, String)>) -> Index {
        self.leaving.extend(links);
        self
    }

    /// The link that leads outside the repository among the directories above `path` (on
    /// its way through the repository's own links), with its target as written (which a
    /// finding never shows).
    pub fn leaving_link_above(&self, path: &str) -> Option<(&str, &str)> {
        if self.leaving.is_empty() {
            return None;
        }
        let at = self.through_links(path).unwrap_or_else(|| path.to_string());
        let mut end = 0;
        while let Some(i) = at[end..].find('/') {
            if let Some((link, to)) = self.leaving.get_key_value(&at[..end + i]) {
                return Some((link.as_str(), to.as_str()));
            }
            end += i + 1;
        }
        None
    }

    pub fn is_file(&self, path: &str) -> bool {
        self.files.contains(path)
            || self
                .through_links(path)
                .is_some_and(|real| self.files.contains(&real))
    }

    pub fn is_dir(&self, path: &str) -> bool {
        self.dirs.contains(path)
            || self
                .through_links(path)
                .is_some_and(|real| self.dirs.contains(&real))
    }

    /// The path of the walked file or directory `path` reaches through the repository's
    /// symbolic links to its directories (`app/templates/config.yaml` is
    /// `shared/config.yaml` when `app/templates -> ../shared`), when a directory on its way
    /// is such a link. A link named as the path itself is not gone through (ytt refuses it
    /// without `--allow-symlink-destination`). Links are taken at most [`MAX_LINKS`] times:
    /// a link to a directory above it (`a/b -> ..`) makes endless paths, not endless work.
    pub fn through_links(&self, path: &str) -> Option<String> {
        if self.links.is_empty() {
            return None;
        }
        let mut at = path.to_string();
        let mut taken = 0;
        while let Some((link, dir)) = self.link_above(&at) {
            taken += 1;
            if taken > MAX_LINKS {
                return None;
            }
            at = paths::join(dir, &at[link.len() + 1..]);
        }
        (taken > 0).then_some(at)
    }

    /// The first link among the directories above `path` (not `path` itself).
    fn link_above(&self, path: &str) -> Option<(&str, &str)> {
        let mut end = 0;
        while let Some(i) = path[end..].find('/') {
            if let Some((link, real)) = self.links.get_key_value(&path[..end + i]) {
                return Some((link.as_str(), real.as_str()));
            }
            end += i + 1;
        }
        None
    }

    /// The files under directory `dir`, sorted.
    pub fn files_under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .iter()
            .map(String::as_str)
            .filter(move |f| paths::is_within(f, dir))
    }

    /// The files and directories directly in directory `dir`, sorted.
    pub fn entries_in<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .iter()
            .chain(self.dirs.iter())
            .map(String::as_str)
            .filter(move |p| *p != "." && paths::parent(p) == dir)
    }

    /// The files and directories under directory `dir` (every one for `.`).
    pub fn entries_under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .iter()
            .chain(self.dirs.iter())
            .map(String::as_str)
            .filter(move |p| *p != dir && *p != "." && (dir == "." || paths::is_within(p, dir)))
    }

    /// At most `limit` of the files and directories under directory `dir` (every one for
    /// `.`), read from `dir`'s place in the sorted sets: the cost is what is returned, not the
    /// size of the repository.
    pub fn entries_below(&self, dir: &str, limit: usize) -> Vec<&str> {
        let start = if dir == "." {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut out = below(&self.files, &start, limit);
        out.extend(below(&self.dirs, &start, limit));
        out.truncate(limit);
        out
    }

    /// Every directory, the repository itself (`.`) included, sorted.
    pub fn dirs(&self) -> impl Iterator<Item = &str> {
        self.dirs.iter().map(String::as_str)
    }

    pub fn exists(&self, path: &str) -> bool {
        self.is_file(path) || self.is_dir(path)
    }

    /// The one file or directory whose path ends with `suffix` (whole segments), if exactly
    /// one does.
    pub fn by_suffix(&self, suffix: &str) -> Option<String> {
        let tail = format!("/{suffix}");
        let mut found = self
            .files
            .iter()
            .chain(self.dirs.iter())
            .filter(|p| *p == suffix || p.ends_with(&tail));
        let first = found.next()?;
        found.next().is_none().then(|| first.clone())
    }

    /// Every file and directory (or only directory) whose path matches `re`, sorted (as the
    /// shell sorts a glob).
    fn matching(&self, re: &Regex, dirs_only: bool) -> Vec<&str> {
        let spent = self.compared.get() + self.files.len() + self.dirs.len();
        self.compared.set(spent);
        if spent > MAX_COMPARISONS {
            return Vec::new();
        }
        let files = self.files.iter().filter(|_| !dirs_only);
        let mut out: Vec<&str> = files
            .chain(self.dirs.iter())
            .map(String::as_str)
            .filter(|p| re.is_match(p))
            .collect();
        out.sort_unstable();
        out
    }

    /// The values of the unknown parts of a repository path word for which the path exists
    /// (as a directory when `dirs_only`). `None` when the word is not a repository path, or
    /// when an unknown part comes before any named directory (it would match anything).
    pub fn bindings(&self, word: &Word, dirs_only: bool) -> Option<Vec<Binding>> {
        let (re, names) = pattern(word, true)?;
        if self.compared.get() > MAX_COMPARISONS {
            return None;
        }
        let mut out: Vec<Binding> = Vec::new();
        for path in self.matching(&re, dirs_only) {
            let Some(caps) = re.captures(path) else {
                continue;
            };
            let mut b = Binding::new();
            let mut consistent = true;
            for (i, name) in names.iter().enumerate() {
                let value = caps.get(i + 1).map_or("", |m| m.as_str()).to_string();
                match b.get(name) {
                    Some(v) if *v != value => consistent = false,
                    _ => {
                        b.insert(name.clone(), value);
                    }
                }
            }
            if consistent && !out.contains(&b) {
                out.push(b);
            }
            if out.len() > MAX_MATCHES {
                return None;
            }
        }
        Some(out)
    }

    /// The repository paths a literal word with glob characters names, sorted.
    pub fn glob(&self, word: &Word) -> Vec<String> {
        match pattern(word, false) {
            Some((re, _)) => self
                .matching(&re, false)
                .into_iter()
                .map(str::to_string)
                .collect(),
            None => Vec::new(),
        }
    }
}

/// At most `limit` of the paths of `set` that start with `start`, read from its place on.
fn below<'s>(set: &'s BTreeSet<String>, start: &str, limit: usize) -> Vec<&'s str> {
    set.range(start.to_string()..)
        .map(String::as_str)
        .take_while(|p| p.starts_with(start))
        .filter(|p| *p != ".")
        .take(limit)
        .collect()
}

/// A regular expression for a normalized repository path word: globs of unquoted text and
/// unknown parts (captured: one path segment at the end, up to three between directories)
/// become patterns.
fn pattern(word: &Word, capture: bool) -> Option<(Regex, Vec<String>)> {
    let word = word.normalized().strip_prefix(REPO)?;
    let word = word.strip_prefix("/").unwrap_or(word);
    let mut pieces = word.0.iter().peekable();
    let rest = match pieces.peek() {
        Some(Piece::Lit { text, glob: false }) => {
            pieces.next();
            text.as_str()
        }
        _ => "",
    };
    let mut re = String::from("^");
    let mut names = Vec::new();
    let mut named_dir = false;
    let push_lit = |re: &mut String, text: &str, glob: bool, named: &mut bool| {
        if text.contains('/') {
            *named = true;
        }
        if glob {
            re.push_str(&glob_regex(text));
        } else {
            re.push_str(&regex::escape(text));
        }
    };
    push_lit(&mut re, rest, false, &mut named_dir);
    while let Some(p) = pieces.next() {
        match p {
            Piece::Lit { text, glob } => push_lit(&mut re, text, *glob, &mut named_dir),
            Piece::Unknown(name) => {
                // A loop over a glob stands for exactly the paths the glob matches, from
                // whatever directory (`for f in *.yml`).
                if let Some(globbed) = super::glob_loop::regex(name).filter(|_| capture) {
                    re.push_str(&format!("({globbed})"));
                    names.push(name.clone());
                    continue;
                }
                if !capture || !named_dir {
                    return None;
                }
                // A listing of directories stands for exactly the paths it prints.
                if let Some(listed) = super::listing::listing_regex(name) {
                    re.push_str(&format!("({listed})"));
                    names.push(name.clone());
                    continue;
                }
                // Between directories, a value may name a nested directory (`$1` of
                // `src/packages/$1/bundle` is `cert-manager/1.4.0`); at the end, one entry.
                let inner =
                    matches!(pieces.peek(), Some(Piece::Lit { text, .. }) if text.starts_with('/'));
                re.push_str(if inner {
                    "([^/]+(?:/[^/]+){0,2})"
                } else {
                    "([^/]+)"
                });
                names.push(name.clone());
            }
        }
    }
    re.push('$');
    super::compiled::regex(&re).map(|r| (r, names))
}

/// A shell glob (`*`, `?`, `[...]`) as a regular expression over one path's segments.
pub fn glob_regex(glob: &str) -> String {
    let mut out = String::new();
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => {
                let mut class = String::from("[");
                if chars.peek() == Some(&'!') {
                    chars.next();
                    class.push('^');
                }
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == ']' {
                        closed = true;
                        break;
                    }
                    if d == '\\' || d == '[' {
                        class.push('\\');
                    }
                    class.push(d);
                }
                if closed {
                    class.push(']');
                    out.push_str(&class);
                } else {
                    out.push_str(&regex::escape("["));
                }
            }
            c => out.push_str(&regex::escape(&c.to_string())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        Index::new([
            "addons/packages/a/1.0/bundle/config/values.star",
            "addons/packages/a/1.0/sample-values/x.yaml",
            "addons/packages/b/2.0/bundle/config/t.yaml",
            "config/a.yml",
        ])
    }

    #[test]
    fn an_unknown_part_between_directories_may_name_a_nested_one() {
        let mut w = Word::lit(format!("{REPO}/addons/packages/"));
        w.0.push(Piece::Unknown("$1".into()));
        w.push_lit("/bundle/config", false);
        let b = index().bindings(&w, true).unwrap();
        let values: Vec<&str> = b.iter().map(|b| b["$1"].as_str()).collect();
        assert_eq!(values, ["a/1.0", "b/2.0"]);
        // At the end of a path, one entry.
        let mut w = Word::lit(format!("{REPO}/addons/packages/"));
        w.0.push(Piece::Unknown("$1".into()));
        let b = index().bindings(&w, true).unwrap();
        let values: Vec<&str> = b.iter().map(|b| b["$1"].as_str()).collect();
        assert_eq!(values, ["a", "b"]);
    }

    #[test]
    fn unknown_segments_bind_to_what_exists() {
        let mut w = Word::lit(format!("{REPO}/addons/packages/"));
        w.0.push(Piece::Unknown("$1".into()));
        w.push_lit("/", false);
        w.0.push(Piece::Unknown("$2".into()));
        w.push_lit("/bundle/config", false);
        let b = index().bindings(&w, true).unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(b[0]["$1"], "a");
        assert_eq!(b[1]["$2"], "2.0");
    }

    #[test]
    fn an_unknown_first_segment_is_too_vague() {
        let mut w = Word::lit(format!("{REPO}/"));
        w.0.push(Piece::Unknown("$CF_VALUES".into()));
        assert!(index().bindings(&w, false).is_none());
    }

    #[test]
    fn a_path_through_a_linked_directory_is_its_target_s() {
        let links = [
            ("app/templates".to_string(), "shared".to_string()),
            ("a/b".to_string(), "a".to_string()),
            ("app/out".to_string(), "nowhere".to_string()),
        ];
        let i = Index::new(["shared/config.yaml", "a/x.yaml", "app/run.sh"]).with_links(links);
        assert!(i.is_file("app/templates/config.yaml"));
        assert_eq!(
            i.through_links("app/templates/config.yaml").as_deref(),
            Some("shared/config.yaml")
        );
        // The link itself is not gone through, and a link to nothing walked is not kept.
        assert!(!i.is_dir("app/templates"));
        assert!(i.through_links("app/out/x").is_none());
        // A link to the directory above it: each step is taken, up to the limit.
        assert_eq!(i.through_links("a/b/b/x.yaml").as_deref(), Some("a/x.yaml"));
        let deep = format!("a/{}x.yaml", "b/".repeat(MAX_LINKS + 1));
        assert!(i.through_links(&deep).is_none());
        assert!(!i.is_file(&deep));
    }

    #[test]
    fn globs_expand_sorted() {
        let mut w = Word::lit(format!("{REPO}/addons/packages/a/1.0/sample-values/"));
        w.push_lit("*.yaml", true);
        assert_eq!(
            index().glob(&w),
            vec!["addons/packages/a/1.0/sample-values/x.yaml"]
        );
        assert!(index().is_dir("addons/packages"));
        assert!(index().is_file("config/a.yml"));
    }
}
