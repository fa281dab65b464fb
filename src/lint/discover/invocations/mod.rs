//! How the repository runs ytt: every `ytt` command in its shell scripts, Makefiles, GitHub
//! workflows, GitLab CI files, Taskfiles, kuttl tests and Concourse tasks, followed without
//! running anything (see [`shell`]) and resolved into what the linter can evaluate (see
//! [`resolve`]), or skipped with a reason.

pub mod ci;
pub mod concourse;
pub mod env;
pub mod expand;
pub mod flow;
pub mod index;
pub mod instance;
pub mod kuttl;
pub mod make;
pub mod resolve;
pub mod scripts;
pub mod shell;
pub mod snippet;
pub mod taskfile;
pub mod word;
pub mod ytt_args;

use std::path::Path;

use self::index::Index;
use self::resolve::{Invocation, Outcome, Repo, Skipped};
use self::snippet::Snippet;
use super::vendir::Target;
use crate::lint::repo::walk::{Kind, RepoFile};

/// What the repository's own ways of running ytt give.
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub invocations: Vec<Invocation>,
    pub skipped: Vec<Skipped>,
    /// Files that hold at least one `ytt` command.
    pub sources: Vec<String>,
}

/// Files outside the walk (hidden directories) that hold CI definitions.
fn hidden_ci_files(repo: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for dir in [".github/workflows", ".gitlab/ci"] {
        // Not through a symlink: nothing outside the repository is read.
        let real_dir = [".github", ".gitlab", dir]
            .iter()
            .filter(|d| dir.starts_with(**d))
            .all(|d| std::fs::symlink_metadata(repo.join(d)).is_ok_and(|m| m.is_dir()));
        let Ok(entries) = std::fs::read_dir(repo.join(dir)) else {
            continue;
        };
        if !real_dir {
            continue;
        }
        for e in entries.flatten() {
            let regular = e.file_type().is_ok_and(|t| t.is_file());
            if let (true, Some(name)) = (regular, e.file_name().to_str()) {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    let top = repo.join(".gitlab-ci.yml");
    if std::fs::symlink_metadata(&top).is_ok_and(|m| m.is_file()) {
        out.push(".gitlab-ci.yml".to_string());
    }
    out.sort();
    out
}

/// The snippets of one file, by what it is.
fn snippets_of(path: &str, kind: Option<Kind>, text: &str) -> Vec<Snippet> {
    if !text.contains("ytt") {
        return Vec::new();
    }
    if ci::is_workflow(path) {
        return ci::workflow(path, text);
    }
    if ci::is_gitlab(path) {
        return ci::gitlab(path, text);
    }
    if make::candidate(path) {
        return make::snippets(path, text);
    }
    if taskfile::candidate(path) {
        return taskfile::snippets(path, text);
    }
    if matches!(kind, Some(Kind::PlainYaml)) {
        let mut out = Vec::new();
        if kuttl::candidate(text) {
            out.extend(kuttl::snippets(path, text));
        }
        if concourse::candidate(text) {
            out.extend(concourse::snippets(path, text));
        }
        return out;
    }
    scripts::snippet(path, text).into_iter().collect()
}

/// Whether a walked file may hold ytt commands.
fn worth_reading(f: &RepoFile) -> bool {
    match f.kind {
        Kind::PlainYaml => true,
        Kind::Other => scripts::candidate(&f.path) || make::candidate(&f.path),
        _ => false,
    }
}

/// Every `ytt` command of the repository at `repo`, resolved.
pub fn find(repo: &Path, files: &[RepoFile], index: &Index, vendir: &[Target]) -> Found {
    let name = repo
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    let ctx = Repo {
        index,
        vendir,
        name: &name,
    };
    let mut found = Found::default();
    let mut candidates: Vec<(String, Option<Kind>)> = files
        .iter()
        .filter(|f| worth_reading(f))
        .map(|f| (f.path.clone(), Some(f.kind)))
        .collect();
    candidates.extend(hidden_ci_files(repo).into_iter().map(|p| (p, None)));
    for (path, kind) in candidates {
        let Some(text) = scripts::read(repo, &path, shell::MAX_SCRIPT) else {
            continue;
        };
        let mut any = false;
        for snippet in snippets_of(&path, kind, &text) {
            let script = word::Word::lit(format!("{}/{}", word::REPO, snippet.file));
            let sctx = shell::Context {
                script,
                line_offset: snippet.line_offset,
            };
            let Ok(calls) = shell::calls(&snippet.text, &sctx, snippet.env()) else {
                continue;
            };
            for call in &calls {
                any = true;
                for outcome in resolve::resolve(call, &snippet, &ctx) {
                    match outcome {
                        Outcome::Found(inv) => found.invocations.push(inv),
                        Outcome::Skipped(s) => found.skipped.push(s),
                        Outcome::Ignored => {}
                    }
                }
            }
        }
        if any {
            found.sources.push(path);
        }
    }
    found.invocations.dedup();
    found.skipped.dedup();
    found
}
