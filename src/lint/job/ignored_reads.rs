//! A file the templates read (`data.read(".ssh/id_rsa")`, a `load()`) that is not in the
//! repository because its `.gitignore` hides it: it is made where the root is rendered (a
//! README step `ssh-keygen -f config/.ssh/id_rsa`, a build step), not committed, just as an
//! ignored `-f` input of a command is. The evaluation stops there, for want of a file the
//! linter cannot have: a `needs-input` note that names the file, not a failure of the root.
//! A file that nothing hides and nothing has is still a failure.

use std::path::Path;

use regex::Regex;

use crate::files::paths;
use crate::lint::discover::invocations::ignored::Ignored;
use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule};

/// The largest `.gitignore` read.
const MAX_GITIGNORE: usize = 1 << 20;

/// `found` with each failure to find a file that `.gitignore` hides turned into a
/// `needs-input` note.
pub fn settle(job: &Job, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    settle_missing(
        job,
        found,
        |path| ignored(&job.repo, path).then_some(()),
        |d, path, ()| note(d, path),
    )
}

/// `found` with each failure to find a file turned by `note` where `find` knows the file at
/// its path under one of the job's input directories (the first that it knows).
pub(super) fn settle_missing<T>(
    job: &Job,
    found: Vec<Diagnostic>,
    find: impl Fn(&str) -> Option<T>,
    note: impl Fn(Diagnostic, &str, T) -> Diagnostic,
) -> Vec<Diagnostic> {
    if !found.iter().any(|d| missing_file(d).is_some()) {
        return found;
    }
    let dirs = input_dirs(job);
    found
        .into_iter()
        .map(|d| {
            let known = missing_file(&d).and_then(|file| {
                dirs.iter().find_map(|dir| {
                    let path = paths::join(dir, file);
                    find(&path).map(|t| (path, t))
                })
            });
            match known {
                Some((path, t)) => note(d, &path, t),
                None => d,
            }
        })
        .collect()
}

/// The file an evaluation failure did not find (`data.read: Expected to find file 'x', but
/// did not`), as the template names it.
pub(super) fn missing_file(d: &Diagnostic) -> Option<&str> {
    static FILE: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"Expected to find file '([^']+)'").ok());
    if d.rule != Rule::TemplateError {
        return None;
    }
    let file = FILE.as_ref()?.captures(&d.message)?.get(1)?.as_str();
    // A path that climbs out of the library, or an absolute one, is no file of it.
    (!file.starts_with('/') && !file.split('/').any(|s| s == "..")).then_some(file)
}

/// The repository directories the job's `-f` inputs are read from: a directory itself, a
/// file's directory.
pub(super) fn input_dirs(job: &Job) -> Vec<String> {
    let Ok(flags) = &job.flags else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for a in &flags.files {
        let p = Path::new(crate::files::input::path_of(a));
        let Some(rel) = paths::relative(&job.repo, p) else {
            continue;
        };
        let dir = if p.is_dir() {
            rel
        } else {
            paths::parent(&rel).to_string()
        };
        if !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

/// Whether the `.gitignore` files of the repository at `repo` on the way to `path` hide it.
fn ignored(repo: &Path, path: &str) -> bool {
    let mut files = Vec::new();
    let mut dir = String::from(".");
    let mut rest = path.split('/').peekable();
    loop {
        let file = paths::join(&dir, ".gitignore");
        if let Some(text) =
            crate::lint::discover::invocations::scripts::read(repo, &file, MAX_GITIGNORE)
        {
            files.push((file, text));
        }
        let Some(seg) = rest.next() else { break };
        if rest.peek().is_none() {
            break;
        }
        dir = paths::join(&dir, seg);
    }
    !files.is_empty() && Ignored::new(files).is_ignored(path)
}

/// The note that replaces the failure `d` to find the ignored `path`.
fn note(d: Diagnostic, path: &str) -> Diagnostic {
    let mut n = Diagnostic::new(
        Rule::NeedsInput,
        format!(
            "this root reads {path}, which .gitignore hides: it is made where the root is \
             rendered, not committed, and the evaluation stops for want of it"
        ),
    )
    .with_help(
        "add a scenario to .yttlint.yaml whose args give a stand-in for the file, or commit \
         an example of it",
    );
    n.span = d.span;
    n.related = d.related;
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Span;

    #[test]
    fn the_file_a_failure_did_not_find() {
        let d = |m: &str| Diagnostic::new(Rule::TemplateError, m).at(Span::point("a.yml", 3, 1));
        let read =
            d("data.read: Expected to find file '.ssh/id_rsa', but did not: Did not find ''");
        assert_eq!(missing_file(&read), Some(".ssh/id_rsa"));
        assert_eq!(
            missing_file(&d("Expected to find file '../x' (hint: only files included via -f flag are available)")),
            None
        );
        assert_eq!(missing_file(&d("struct has no .x field or method")), None);
    }

    #[test]
    fn gitignore_files_on_the_way_decide() {
        let base =
            std::env::temp_dir().join(format!("yttlint-ignored-reads-{}", std::process::id()));
        let r = base.as_path();
        std::fs::create_dir_all(r.join("setup/access")).unwrap();
        std::fs::write(r.join(".gitignore"), "setup/access/.ssh/\n").unwrap();
        std::fs::write(r.join("setup/access/.gitignore"), "known_hosts\n").unwrap();
        assert!(ignored(r, "setup/access/.ssh/id_rsa"));
        assert!(ignored(r, "setup/access/known_hosts"));
        assert!(!ignored(r, "setup/access/token.txt"));
        assert!(!ignored(r, "other/.ssh/id_rsa"));
        std::fs::remove_dir_all(r).unwrap();
    }
}
