//! A repository written for one test and linted as a new user lints it: `Repo::of(&files)`
//! (or `Repo::new().file(path, text)…`) writes the files into a temporary directory, and
//! `lint()` runs `yttlint --format json` there and returns a [`Lint`]: the exit status, the
//! report, and the helpers that pick its findings by rule, file and severity. A failed
//! assertion shows the whole report.

use std::fmt;
use std::ops::Deref;
use std::path::Path;

use serde_json::Value;

use super::json::{self, assumption_kinds, lint_json, str_of};
use super::temp::TempDir;

/// A temporary repository, removed on drop. It derefs to its path.
#[derive(Debug)]
pub struct Repo {
    dir: TempDir,
}

impl Repo {
    /// An empty repository.
    pub fn new() -> Repo {
        Repo {
            dir: TempDir::new(),
        }
    }

    /// A repository holding `files` (`(path, text)`, parents created).
    pub fn of(files: &[(&str, &str)]) -> Repo {
        Repo {
            dir: TempDir::with_files(files),
        }
    }

    /// A repository holding a copy of `fixtures/<name>`.
    pub fn copy_of(name: &str) -> Repo {
        Repo {
            dir: TempDir::copy_of(name),
        }
    }

    /// The repository with `path` written too.
    pub fn file(self, path: &str, text: impl AsRef<[u8]>) -> Repo {
        self.dir.write(path, text);
        self
    }

    /// Writes `path` into the repository (parents created); returns its full path.
    pub fn write(&self, path: &str, text: impl AsRef<[u8]>) -> std::path::PathBuf {
        self.dir.write(path, text)
    }

    /// `yttlint --format json` in the repository's root.
    pub fn lint(&self) -> Lint {
        self.lint_with(&[])
    }

    /// `yttlint --format json ARGS` in the repository's root.
    pub fn lint_with(&self, args: &[&str]) -> Lint {
        Lint::run(&self.dir, args)
    }

    /// `yttlint --format json` in the repository's folder `sub`.
    pub fn lint_in(&self, sub: &str) -> Lint {
        Lint::run(&self.dir.join(sub), &[])
    }

    /// What `yttlint --list-roots` prints in the repository's root.
    pub fn roots(&self) -> String {
        super::bin::yttlint(&self.dir, &["--list-roots"]).stdout
    }

    /// Asserts that what `yttlint --list-roots` prints holds `part`; the failure shows it.
    #[track_caller]
    pub fn assert_lists(&self, part: &str) {
        let roots = self.roots();
        assert!(roots.contains(part), "{roots}");
    }
}

impl Deref for Repo {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl AsRef<Path> for Repo {
    fn as_ref(&self) -> &Path {
        &self.dir
    }
}

/// One run's exit status and JSON report (durations zeroed). It displays as the report,
/// pretty-printed: the text a failed assertion shows.
#[derive(Debug)]
pub struct Lint {
    pub code: i32,
    pub report: Value,
}

impl Lint {
    /// `yttlint --format json ARGS` in `dir`.
    pub fn run(dir: &Path, args: &[&str]) -> Lint {
        let (code, report) = lint_json(dir, args);
        Lint { code, report }
    }

    /// Every finding.
    pub fn diagnostics(&self) -> &[Value] {
        json::diagnostics(&self.report)
    }

    /// The findings of `rule`.
    pub fn of(&self, rule: &str) -> Vec<&Value> {
        json::of(&self.report, rule)
    }

    /// The findings that are errors.
    pub fn errors(&self) -> Vec<&Value> {
        json::errors(&self.report)
    }

    /// The findings of `rule` in `file`.
    pub fn in_file(&self, rule: &str, file: &str) -> Vec<&Value> {
        self.of(rule)
            .into_iter()
            .filter(|d| str_of(d, "file") == file)
            .collect()
    }

    /// Every finding in `file`.
    pub fn all_in(&self, file: &str) -> Vec<&Value> {
        self.diagnostics()
            .iter()
            .filter(|d| str_of(d, "file") == file)
            .collect()
    }

    /// The findings of `rule`, each as its severity and the kinds of what it assumes.
    pub fn verdicts(&self, rule: &str) -> Vec<(&str, Vec<&str>)> {
        self.of(rule)
            .into_iter()
            .map(|d| (str_of(d, "severity"), assumption_kinds(d)))
            .collect()
    }

    /// Asserts that the findings of `rule` are `expected`: each its severity and the kinds of
    /// what it assumes, in the report's order.
    #[track_caller]
    pub fn assert_verdicts(&self, rule: &str, expected: &[(&str, &[&str])]) {
        let expected: Vec<(&str, Vec<&str>)> =
            expected.iter().map(|(s, k)| (*s, k.to_vec())).collect();
        assert_eq!(self.verdicts(rule), expected, "{self}");
    }

    /// The findings as `rule severity file:line` lines, for failure messages.
    pub fn summary(&self) -> String {
        json::summary(&self.report)
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.report)
    }
}
