//! No machine paths in findings. Jobs read files by absolute paths (the repository's place on
//! this machine joined with a repository path), and some messages quote them (`lstat
//! /home/runner/work/app/app/config/x: no such file or directory`); the run itself may name
//! its own files (the executable that starts workers). A report is published (a pull
//! request's annotations, a SARIF upload), so every text of a finding is scrubbed: the
//! repository's directory, as given or as the system resolves it, becomes the
//! repository-relative path that follows it (`.` for the directory itself), and a path on this
//! machine outside the repository (beside the repository, or the executable's) becomes
//! `<outside the repository>`. Only whole path components match: `/work/app2` is not inside
//! `/work/app`.

use std::path::Path;

use crate::files::paths::OUTSIDE;
use crate::report::{Diagnostic, Subject};

/// The machine's paths a run knows of: the repository's directory (each form) and the places
/// outside it that its messages may name.
pub struct MachinePaths {
    /// The repository's directory as given and as resolved, longest first.
    repo: Vec<String>,
    /// Directories and files outside the repository, longest first.
    outside: Vec<String>,
}

impl MachinePaths {
    /// The paths of a run on the repository `repo` (absolute).
    pub fn of(repo: &Path) -> MachinePaths {
        let mut dirs = vec![repo.to_path_buf()];
        dirs.extend(std::fs::canonicalize(repo).ok());
        let mut outside: Vec<String> = dirs
            .iter()
            .filter_map(|d| d.parent())
            .filter(|p| p.components().count() > 2)
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if let Ok(exe) = std::env::current_exe() {
            outside.extend(exe.parent().map(|p| p.to_string_lossy().into_owned()));
            outside.push(exe.to_string_lossy().into_owned());
        }
        let repo = dirs
            .iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        MachinePaths::new(repo, outside)
    }

    fn new(mut repo: Vec<String>, mut outside: Vec<String>) -> MachinePaths {
        for list in [&mut repo, &mut outside] {
            list.retain(|p| p.len() > 1);
            list.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            list.dedup();
        }
        MachinePaths { repo, outside }
    }

    /// `text` with every machine path made repository-relative or [`OUTSIDE`].
    pub fn scrub(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        'text: while at < text.len() {
            let rest = &text[at..];
            if starts_path(text, at) {
                for dir in &self.repo {
                    if let Some(end) = component_end(rest, dir) {
                        // `DIR/x` is `x`; `DIR` alone is `.`.
                        match rest[end..].chars().next() {
                            Some('/' | '\\') if path_char_after(&rest[end + 1..]) => {
                                at += end + 1;
                            }
                            _ => {
                                out.push('.');
                                at += end;
                            }
                        }
                        continue 'text;
                    }
                }
                for place in &self.outside {
                    if component_end(rest, place).is_some() {
                        out.push_str(OUTSIDE);
                        at += path_len(rest);
                        continue 'text;
                    }
                }
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            out.push(c);
            at += c.len_utf8();
        }
        out
    }

    /// Every text of `d` scrubbed.
    pub fn scrub_finding(&self, d: &mut Diagnostic) {
        let fix = |s: &mut String| {
            if self.mentioned(s) {
                *s = self.scrub(s);
            }
        };
        fix(&mut d.message);
        if let Some(help) = d.help.as_mut() {
            fix(help);
        }
        for r in &mut d.related {
            fix(&mut r.message);
        }
        if let Some(f) = d.fix.as_mut() {
            fix(&mut f.title);
        }
        if let Some(c) = d.certainty.as_mut() {
            for a in &mut c.assumed {
                fix(&mut a.message);
                match a.subject.as_mut() {
                    Some(Subject::StandIn { example, copy }) => {
                        fix(example);
                        fix(copy);
                    }
                    Some(Subject::Rewritten { file, .. } | Subject::Replaced { file }) => fix(file),
                    // The program of a pipe may be named by its path (`/opt/gen/bin/make`).
                    Some(Subject::Piped { input }) => fix(input),
                    _ => {}
                }
            }
        }
    }

    /// Whether `text` may hold one of the paths (a cheap test before scrubbing).
    fn mentioned(&self, text: &str) -> bool {
        self.repo
            .iter()
            .chain(&self.outside)
            .any(|p| text.contains(p.as_str()))
    }
}

/// Every text of every finding of `found` scrubbed of the machine paths of a run on `repo`.
pub fn settle(repo: &Path, found: &mut [Diagnostic]) {
    let paths = MachinePaths::of(repo);
    for d in found.iter_mut() {
        paths.scrub_finding(d);
    }
}

/// Whether a path may start at byte `at` of `text`: not in the middle of a word or path.
fn starts_path(text: &str, at: usize) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '\\'))
}

/// The length of `path` when `text` starts with it as whole components (what follows is a
/// separator or no path character).
fn component_end(text: &str, path: &str) -> Option<usize> {
    let rest = text.strip_prefix(path)?;
    let ends = match rest.chars().next() {
        None | Some('/' | '\\') => true,
        Some(c) => !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')),
    };
    ends.then_some(path.len())
}

/// Whether a path goes on at the start of `text` (after a separator).
fn path_char_after(text: &str) -> bool {
    text.chars().next().is_some_and(|c| !c.is_whitespace())
}

/// How long the path at the start of `text` is: up to white space, a quote, a bracket or
/// `:`, `,`, `;` (`lstat /x/y: no such file`).
fn path_len(text: &str) -> usize {
    text.find(|c: char| {
        c.is_whitespace() || matches!(c, '\'' | '"' | '`' | ':' | ',' | ';' | ')' | ']' | '}')
    })
    .unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> MachinePaths {
        MachinePaths::new(
            vec!["/work/app".into(), "/real/work/app".into()],
            vec!["/work".into(), "/usr/local/bin/yttlint".into()],
        )
    }

    #[test]
    fn the_repository_is_relative_and_the_rest_outside() {
        let p = paths();
        let cases = [
            (
                "lstat /work/app/config/x.yml: no such file or directory",
                "lstat config/x.yml: no such file or directory",
            ),
            ("open /real/work/app/a b.yml", "open a b.yml"),
            ("in /work/app", "in ."),
            ("in /work/app/", "in ./"),
            (
                "Checking file '/work/app2/x.yml': lstat /work/app2/x.yml: no such file",
                "Checking file '<outside the repository>': lstat <outside the repository>: no such file",
            ),
            (
                "cannot start /usr/local/bin/yttlint: permission denied",
                "cannot start <outside the repository>: permission denied",
            ),
            ("/work", "<outside the repository>"),
            ("x/work/app/y and /workshop", "x/work/app/y and /workshop"),
            (
                "C:\\work\\app\\a.yml stays, /work/app\\b.yml goes",
                "C:\\work\\app\\a.yml stays, b.yml goes",
            ),
            ("é /work/app/é", "é é"),
        ];
        for (text, want) in cases {
            assert_eq!(p.scrub(text), want, "{text}");
        }
    }

    #[test]
    fn every_text_of_a_finding_is_scrubbed() {
        use crate::report::{Related, Rule, Span};
        let mut d = Diagnostic::new(Rule::TemplateError, "open /work/app/a.yml")
            .with_help("see /work/other/b.yml");
        d.related.push(Related {
            message: "read /real/work/app/c.yml".into(),
            span: Span::point("c.yml", 1, 1),
        });
        paths().scrub_finding(&mut d);
        assert_eq!(d.message, "open a.yml");
        assert_eq!(d.help.as_deref(), Some("see <outside the repository>"));
        assert_eq!(d.related[0].message, "read c.yml");
    }
}
