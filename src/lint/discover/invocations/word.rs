//! Shell words as the linter knows them without running anything: literal text (with or
//! without glob meaning) and values it cannot know (an environment variable, a positional
//! parameter, a command's output). Paths are words too: a path of the repository starts with
//! [`REPO`], so `cd`, `$(dirname "$0")` and `..` can be followed lexically, and an unknown part
//! of a path can later be matched against what the repository holds.

use std::fmt;

use super::snippet::CALLER;

/// The first segment of a path inside the repository (the repository root itself).
pub const REPO: &str = "\u{1}";

/// How a path in the user's home directory starts (`~` as the expansion leaves it).
const HOME: [&str; 3] = ["~", "$HOME", "${HOME}"];

/// One part of a word.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// Literal text; `glob` when it was not quoted, so `*`, `?` and `[` are patterns.
    Lit { text: String, glob: bool },
    /// A value the linter cannot know, named as the source spells it (`$1`, `$(git describe)`).
    Unknown(String),
}

/// A shell word: its pieces in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Word(pub Vec<Piece>);

impl Word {
    /// A quoted literal.
    pub fn lit(text: impl Into<String>) -> Word {
        let mut w = Word::default();
        w.push_lit(&text.into(), false);
        w
    }

    /// A value nobody can know here.
    pub fn unknown(what: impl Into<String>) -> Word {
        Word(vec![Piece::Unknown(what.into())])
    }

    /// Appends literal text, joining it to a literal piece of the same kind before it.
    pub fn push_lit(&mut self, text: &str, glob: bool) {
        if text.is_empty() {
            return;
        }
        if let Some(Piece::Lit { text: t, glob: g }) = self.0.last_mut() {
            if *g == glob {
                t.push_str(text);
                return;
            }
        }
        self.0.push(Piece::Lit {
            text: text.to_string(),
            glob,
        });
    }

    /// Appends every piece of `other`.
    pub fn extend(&mut self, other: &Word) {
        for p in &other.0 {
            match p {
                Piece::Lit { text, glob } => self.push_lit(text, *glob),
                Piece::Unknown(u) => self.0.push(Piece::Unknown(u.clone())),
            }
        }
    }

    /// The text, when every piece is literal.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Piece::Lit { text, .. } => out.push_str(text),
                Piece::Unknown(_) => return None,
            }
        }
        Some(out)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The unknown values the word holds.
    pub fn unknowns(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|p| match p {
            Piece::Unknown(u) => Some(u.as_str()),
            Piece::Lit { .. } => None,
        })
    }

    /// Whether an unquoted part holds a glob character.
    pub fn has_glob(&self) -> bool {
        self.0.iter().any(|p| match p {
            Piece::Lit { text, glob } => *glob && text.contains(['*', '?', '[']),
            Piece::Unknown(_) => false,
        })
    }

    /// The literal text the word starts with (empty when it starts with an unknown).
    pub fn literal_prefix(&self) -> &str {
        match self.0.first() {
            Some(Piece::Lit { text, .. }) => text,
            _ => "",
        }
    }

    /// Splits at the first `sep` found in a literal piece: `key=value`, `name=path`.
    pub fn split_once(&self, sep: char) -> Option<(Word, Word)> {
        let mut left = Word::default();
        for (i, p) in self.0.iter().enumerate() {
            if let Piece::Lit { text, glob } = p {
                if let Some(at) = text.find(sep) {
                    left.push_lit(&text[..at], *glob);
                    let mut right = Word::default();
                    right.push_lit(&text[at + sep.len_utf8()..], *glob);
                    right.extend(&Word(self.0[i + 1..].to_vec()));
                    return Some((left, right));
                }
            }
            left.extend(&Word(vec![p.clone()]));
        }
        None
    }

    /// Removes a literal prefix.
    pub fn strip_prefix(&self, prefix: &str) -> Option<Word> {
        let Some(Piece::Lit { text, glob }) = self.0.first() else {
            return None;
        };
        let rest = text.strip_prefix(prefix)?;
        let mut out = Word::default();
        out.push_lit(rest, *glob);
        out.extend(&Word(self.0[1..].to_vec()));
        Some(out)
    }

    /// Field splitting of an unquoted expansion: the word cut at whitespace in its literal
    /// pieces (an unknown piece stays one field with what surrounds it).
    pub fn split_fields(&self) -> Vec<Word> {
        let mut fields = Vec::new();
        let mut current = Word::default();
        for p in &self.0 {
            match p {
                Piece::Lit { text, glob } => {
                    let mut parts = text.split(char::is_whitespace).peekable();
                    while let Some(part) = parts.next() {
                        current.push_lit(part, *glob);
                        if parts.peek().is_some() && !current.is_empty() {
                            fields.push(std::mem::take(&mut current));
                        }
                    }
                }
                Piece::Unknown(_) => current.0.push(p.clone()),
            }
        }
        if !current.is_empty() {
            fields.push(current);
        }
        fields
    }

    /// Whether the word names a path from a fixed place (absolute, repository-absolute, the
    /// caller's directory, the home directory), not from the working directory.
    pub fn anchored(&self) -> bool {
        let prefix = self.literal_prefix();
        prefix.starts_with('/')
            || prefix.starts_with(REPO)
            || prefix.starts_with(CALLER)
            || self.in_home()
    }

    /// `dir/self`, unless the word is already absolute (or repository-absolute).
    pub fn relative_to(&self, dir: &Word) -> Word {
        if self.anchored() {
            return self.normalized();
        }
        let mut out = dir.clone();
        out.push_lit("/", false);
        out.extend(self);
        out.normalized()
    }

    /// Whether the word names a path the linter can match: some of it is literal text
    /// (`$DIR/values.yml`, `${dir}/tanzu-sync/`, `/tmp/backup_$(date +%s)`). A word that is
    /// only values known at run time (`$1`, `"$DEST"`, `$(pwd)/$(basename "$f")`) may be any
    /// file, so it names none.
    pub fn names_file(&self) -> bool {
        // The markers of the repository's and the caller's directories name no file either
        // (`$(cd "$(dirname "$1")" && pwd)/$(basename "$1")`).
        let named = |text: &str| {
            text.replace(REPO, "")
                .replace(CALLER, "")
                .chars()
                .any(|c| c != '/' && c != '.')
        };
        self.0
            .iter()
            .any(|p| matches!(p, Piece::Lit { text, .. } if named(text)))
    }

    /// The directory part (`dirname`), lexically.
    pub fn dirname(&self) -> Word {
        let mut segs = self.normalized().segments();
        if segs.len() > 1 {
            segs.pop();
        }
        Word::from_segments(&segs)
    }

    /// The word cut at literal `/`.
    pub fn segments(&self) -> Vec<Word> {
        let mut out = vec![Word::default()];
        for p in &self.0 {
            match p {
                Piece::Lit { text, glob } => {
                    let mut parts = text.split('/');
                    if let (Some(first), Some(last)) = (parts.next(), out.last_mut()) {
                        last.push_lit(first, *glob);
                    }
                    for part in parts {
                        let mut w = Word::default();
                        w.push_lit(part, *glob);
                        out.push(w);
                    }
                }
                Piece::Unknown(_) => {
                    if let Some(last) = out.last_mut() {
                        last.0.push(p.clone());
                    }
                }
            }
        }
        out
    }

    fn from_segments(segs: &[Word]) -> Word {
        let mut out = Word::default();
        for (i, s) in segs.iter().enumerate() {
            if i > 0 {
                out.push_lit("/", false);
            }
            out.extend(s);
        }
        out
    }

    /// Whether the word starts in the user's home directory (`~/...`, `$HOME/...`): a path
    /// outside the repository, whatever the working directory.
    pub fn in_home(&self) -> bool {
        matches!(self.0.first(), Some(Piece::Unknown(u)) if HOME.contains(&u.as_str()))
    }

    /// `.` segments and empty segments dropped, `x/..` removed (lexically, as the linter
    /// never looks at symlinks here).
    pub fn normalized(&self) -> Word {
        let mut out: Vec<Word> = Vec::new();
        for (i, s) in self.segments().into_iter().enumerate() {
            if i == 0 {
                out.push(s);
                continue;
            }
            match s.literal().as_deref() {
                Some("") | Some(".") => {}
                Some("..") => {
                    // A named (or unknown) segment is undone; the root, an empty first segment
                    // and `..` itself stay, so a path above the repository stays visibly so.
                    let undo = out.last().is_some_and(|last| {
                        !matches!(
                            last.literal().as_deref(),
                            Some("" | REPO | CALLER | ".." | ".")
                        )
                    });
                    if undo {
                        out.pop();
                    } else {
                        out.push(s);
                    }
                }
                _ => out.push(s),
            }
        }
        if out.first().and_then(Word::literal).as_deref() == Some(".") && out.len() > 1 {
            out.remove(0);
        }
        if out.is_empty()
            || (out.len() == 1 && out[0].is_empty()) && !self.literal_prefix().starts_with('/')
        {
            return Word::lit(".");
        }
        Word::from_segments(&out)
    }

    /// The repository-relative path the word names, when it is literal and inside.
    pub fn repo_path(&self) -> Option<String> {
        let text = self.normalized().literal()?;
        let rest = text.strip_prefix(REPO)?;
        let rest = rest.trim_start_matches('/');
        if rest.split('/').any(|s| s == "..") {
            return None;
        }
        Some(if rest.is_empty() {
            ".".into()
        } else {
            rest.into()
        })
    }
}

impl fmt::Display for Word {
    /// The word as a user would write it: unknown values as `${...}` or the text that gave
    /// them, the repository root as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Literal pieces that differ only in glob meaning (`$DIR/x` unquoted) read as one.
        let shown = |text: &str| {
            text.replace(&format!("{REPO}/"), "")
                .replace(&format!("{CALLER}/"), "")
                .replace(REPO, ".")
                .replace(CALLER, ".")
        };
        let mut lit = String::new();
        for p in &self.0 {
            match p {
                Piece::Lit { text, .. } => lit.push_str(text),
                Piece::Unknown(u) => {
                    f.write_str(&shown(&std::mem::take(&mut lit)))?;
                    f.write_str(u)?;
                }
            }
        }
        f.write_str(&shown(&lit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(path: &str) -> Word {
        Word::lit(format!("{REPO}/{path}"))
    }

    #[test]
    fn a_path_reads_the_same_whatever_its_pieces_mean_to_globs() {
        let mut unquoted = Word::default();
        unquoted.push_lit(REPO, true);
        unquoted.push_lit("/", false);
        unquoted.push_lit("harbor/chart.yaml", true);
        assert_eq!(unquoted.to_string(), "harbor/chart.yaml");
        assert_eq!(unquoted.to_string(), repo("harbor/chart.yaml").to_string());
    }

    #[test]
    fn paths_join_and_normalize() {
        let dir = repo("addons/packages/x/bundle/config");
        let p = Word::lit("../../sample-values").relative_to(&dir);
        assert_eq!(
            p.repo_path().as_deref(),
            Some("addons/packages/x/sample-values")
        );
        assert_eq!(
            Word::lit(".").relative_to(&dir).repo_path().as_deref(),
            Some("addons/packages/x/bundle/config")
        );
        assert_eq!(Word::lit("/etc/passwd").relative_to(&dir).repo_path(), None);
        assert_eq!(
            Word::lit("../../../../../..").relative_to(&dir).repo_path(),
            None
        );
        assert_eq!(
            repo("hack/build.sh").dirname().repo_path().as_deref(),
            Some("hack")
        );
        assert_eq!(Word::lit(REPO).repo_path().as_deref(), Some("."));
    }

    #[test]
    fn a_path_in_the_home_directory_is_absolute() {
        let mut w = Word::unknown("$HOME");
        w.push_lit("/certs/ca.crt", false);
        let p = w.relative_to(&repo("docs"));
        assert!(p.in_home());
        assert_eq!(p.to_string(), "$HOME/certs/ca.crt");
        assert_eq!(p.repo_path(), None);
        assert!(!Word::unknown("$DIR").in_home());
    }

    #[test]
    fn unknown_parts_survive_joining() {
        let mut w = repo("addons/packages/");
        w.0.push(Piece::Unknown("$1".into()));
        w.push_lit("/bundle/config", false);
        let p = Word::lit("..").relative_to(&w);
        assert_eq!(p.to_string(), "addons/packages/$1/bundle");
        assert_eq!(p.unknowns().collect::<Vec<_>>(), vec!["$1"]);
    }

    #[test]
    fn fields_split_on_whitespace_in_literals() {
        let mut w = Word::default();
        w.push_lit("ytt -f . -f ", true);
        w.0.push(Piece::Unknown("$X".into()));
        w.push_lit("/v.yml", true);
        let fields: Vec<String> = w.split_fields().iter().map(|f| f.to_string()).collect();
        assert_eq!(fields, vec!["ytt", "-f", ".", "-f", "$X/v.yml"]);
    }

    #[test]
    fn key_value_splits_at_the_first_equals() {
        let mut w = Word::lit("dev.version=");
        w.0.push(Piece::Unknown("$(git describe)".into()));
        let (k, v) = w.split_once('=').unwrap();
        assert_eq!(k.literal().as_deref(), Some("dev.version"));
        assert_eq!(v.literal(), None);
        assert!(Word::lit("abc").split_once('=').is_none());
    }
}
