//! Makefiles and scripts that are symbolic links to another file of the repository (a
//! project's `Makefile -> vendor/lib/snippets/Makefile`). `make` and a shell run such a file
//! from the link's directory, so its commands are read as the link's: the target's text at the
//! link's place. Links are never followed to read: the text is that of the target the walk
//! found inside the repository, and a link that leaves the repository, or points to anything
//! but a walked file, is ignored. The links are those the repository's listing recorded
//! (`repo::tree`), or, without one, those of the directories listed again.

use std::collections::BTreeSet;
use std::path::Path;

use super::index::Index;
use super::{make, scripts};
use crate::files::paths;
use crate::lint::repo::walk::{Link, RepoFile};

/// `(link, target)` repository paths of the links to walked files that are Makefiles or
/// scripts, in the directories that hold walked files.
pub fn linked_commands(repo: &Path, files: &[RepoFile], index: &Index) -> Vec<(String, String)> {
    let mut dirs: BTreeSet<&str> = BTreeSet::from(["."]);
    dirs.extend(files.iter().map(|f| paths::parent(&f.path)));
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(repo.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            if !entry.file_type().is_ok_and(|t| t.is_symlink()) {
                continue;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let link = paths::join(dir, &name);
            if !(make::candidate(&link) || scripts::candidate(&link)) {
                continue;
            }
            let Ok(to) = std::fs::read_link(entry.path()) else {
                continue;
            };
            out.extend(linked(dir, link, &to, index));
        }
    }
    out.sort();
    out
}

/// [`linked_commands`] from the links the repository's listing recorded (`listed`).
pub fn linked_in(listed: &[Link], files: &[RepoFile], index: &Index) -> Vec<(String, String)> {
    let mut dirs: BTreeSet<&str> = BTreeSet::from(["."]);
    dirs.extend(files.iter().map(|f| paths::parent(&f.path)));
    let mut out = Vec::new();
    for l in listed {
        let dir = paths::parent(&l.path);
        if !dirs.contains(dir) || !(make::candidate(&l.path) || scripts::candidate(&l.path)) {
            continue;
        }
        let Some(to) = &l.to else {
            continue;
        };
        out.extend(linked(dir, l.path.clone(), to, index));
    }
    out.sort();
    out
}

/// `(link, target)` when the link in `dir` names a walked file of the repository.
fn linked(dir: &str, link: String, to: &Path, index: &Index) -> Option<(String, String)> {
    let target = to.to_str().and_then(|t| inside(dir, t))?;
    index.is_file(&target).then_some((link, target))
}

/// The repository path a relative link in `dir` names, `None` when it is absolute or leaves
/// the repository.
fn inside(dir: &str, to: &str) -> Option<String> {
    if to.starts_with('/') || to.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = dir
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    for part in to.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_stay_inside_the_repository() {
        assert_eq!(
            inside(".", "vendor/lib/Makefile").as_deref(),
            Some("vendor/lib/Makefile")
        );
        assert_eq!(inside("a/b", "../c/run.sh").as_deref(), Some("a/c/run.sh"));
        assert_eq!(inside(".", "../outside/Makefile"), None);
        assert_eq!(inside("a", "../../x"), None);
        assert_eq!(inside(".", "/etc/passwd"), None);
    }
}
