//! Makefiles and scripts that are symbolic links to another file of the repository (a
//! project's `Makefile -> vendor/lib/snippets/Makefile`). `make` and a shell run such a file
//! from the link's directory, so its commands are read as the link's: the target's text at the
//! link's place. Links are never followed to read: the text is that of the target the walk
//! found inside the repository, and a link that leaves the repository, or points to anything
//! but a walked file, is ignored.

use std::collections::BTreeSet;
use std::path::Path;

use super::index::Index;
use super::{make, scripts};
use crate::files::paths;
use crate::lint::repo::walk::RepoFile;

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
            let Some(target) = to.to_str().and_then(|t| inside(dir, t)) else {
                continue;
            };
            if index.is_file(&target) {
                out.push((link, target));
            }
        }
    }
    out.sort();
    out
}

/// The repository path a relative link in `dir` names (`.` for the repository itself),
/// `None` when it is absolute or leaves the repository.
pub fn inside(dir: &str, to: &str) -> Option<String> {
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
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
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
        assert_eq!(inside("a", "..").as_deref(), Some("."));
        assert_eq!(inside("a", "../../x"), None);
        assert_eq!(inside(".", "/etc/passwd"), None);
    }
}
