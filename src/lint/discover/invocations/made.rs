//! The paths the repository's commands make, gathered from every command followed (see
//! [`super::outputs`]) and from the files a README shows as YAML to write ("create
//! `values.yml` with:" and a block), and which of them makes a path a `ytt` command reads. A
//! path made anywhere in the repository's commands counts as made: a script may need another
//! script or a README step to run first, and the linter does not know the order a user runs
//! them in.

use regex::Regex;

use super::outputs::{Made, Written};
use super::resolve::caller_bases;
use super::snippet::CALLER;
use super::word::{Piece, Word};
use crate::files::paths;

/// A path made by a command of the file `file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadeAt {
    pub file: String,
    pub made: Made,
}

impl MadeAt {
    /// Where the command is (`install.sh:8`).
    pub fn origin(&self) -> String {
        format!("{}:{}", self.file, self.made.line)
    }

    /// How a message names the command (`` `helm` (harbor/install.sh:8) ``).
    pub fn described(&self) -> String {
        format!("`{}` ({})", self.made.by, self.origin())
    }

    /// Whether the command is one a document shows (a README step).
    pub fn documented(&self) -> bool {
        crate::lint::discover::provenance::source_of(&self.file) == crate::report::Source::Document
    }

    /// The text it writes.
    pub fn text(&self) -> Option<&Written> {
        self.made.text.as_ref()
    }
}

/// How closely a made path matches a path read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fit {
    /// A directory above it is made (`mkdir -p out`, `git clone ... lib`).
    Within,
    /// The path itself.
    Exact,
}

/// The command that makes `target` (a normalized path word: a repository path, an absolute
/// path, a path in the home directory), the best fit first.
pub fn maker<'a>(made: &'a [MadeAt], target: &Word) -> Option<(&'a MadeAt, Fit)> {
    let target = target.normalized().to_string();
    let mut best: Option<(&MadeAt, Fit)> = None;
    for m in made {
        for place in places(m) {
            let Some(fit) = fits(&place, &target) else {
                continue;
            };
            if best.is_none_or(|(_, f)| fit > f) {
                best = Some((m, fit));
            }
        }
    }
    best
}

/// The paths a made path stands for: a path made from the caller's directory, from each
/// directory its script may run in.
fn places(m: &MadeAt) -> Vec<Word> {
    match m.made.path.strip_prefix(CALLER) {
        Some(rest) => caller_bases(paths::parent(&m.file))
            .into_iter()
            .map(|mut base| {
                base.extend(&rest);
                base.normalized()
            })
            .collect(),
        None => vec![m.made.path.normalized()],
    }
}

/// Whether the made path `place` is `target` or a directory above it. An unknown part of the
/// made path stands for one path segment.
fn fits(place: &Word, target: &str) -> Option<Fit> {
    let mut re = String::from("^");
    for p in &place.0 {
        match p {
            Piece::Lit { text, .. } => {
                let shown = Word::lit(text.clone()).to_string();
                re.push_str(&regex::escape(&shown));
            }
            Piece::Unknown(_) => re.push_str("[^/]+"),
        }
    }
    let base = re.trim_end_matches('/').to_string();
    if base == "^" || base == "^\\." {
        // The working directory itself (`mkdir -p .`): it makes nothing new.
        return None;
    }
    let exact = Regex::new(&format!("{base}/?$")).ok()?;
    if exact.is_match(target) {
        return Some(Fit::Exact);
    }
    let within = Regex::new(&format!("{base}/")).ok()?;
    within.is_match(target).then_some(Fit::Within)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::word::REPO;

    fn made(file: &str, path: Word, by: &str) -> MadeAt {
        MadeAt {
            file: file.into(),
            made: Made {
                line: 3,
                by: by.into(),
                path,
                from: None,
                text: None,
            },
        }
    }

    fn repo(p: &str) -> Word {
        Word::lit(format!("{REPO}/{p}"))
    }

    #[test]
    fn a_made_path_or_a_directory_above_it_makes_what_is_read() {
        let all = vec![
            made("hack/build.sh", repo("out/chart.yaml"), "helm"),
            made("hack/build.sh", repo("vendor"), "mkdir"),
            made(
                "README.md",
                Word::lit(format!("{CALLER}/values.yml")),
                "cat",
            ),
        ];
        let (m, fit) = maker(&all, &repo("out/chart.yaml")).unwrap();
        assert_eq!((m.made.by.as_str(), fit), ("helm", Fit::Exact));
        let (m, fit) = maker(&all, &repo("vendor/lib/x.yml")).unwrap();
        assert_eq!((m.made.by.as_str(), fit), ("mkdir", Fit::Within));
        assert!(maker(&all, &repo("vendored/x.yml")).is_none());
        assert!(maker(&all, &repo("values.yml")).is_some());
        assert!(maker(&all, &repo("ci/docs")).is_none());
    }

    #[test]
    fn an_unknown_part_stands_for_one_segment() {
        let mut p = repo("build/");
        p.0.push(Piece::Unknown("$NAME".into()));
        let all = vec![made("a.sh", p, "mkdir")];
        assert!(maker(&all, &repo("build/x/values.yml")).is_some());
        assert!(maker(&all, &repo("config/x")).is_none());
        let abs = vec![made("a.sh", Word::lit("/tmp/pkg"), "imgpkg")];
        assert!(maker(&abs, &Word::lit("/tmp/pkg/config/_ytt_lib/bundle/config")).is_some());
    }
}
