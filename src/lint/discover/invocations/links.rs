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

    #[test]
    fn the_listing_s_links_are_the_links_of_the_directories_listed_again() {
        let base = std::env::temp_dir().join(format!("yttlint-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        for d in ["app", "lib", "empty/deeper"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        std::fs::write(base.join("lib/Makefile"), "all:\n\tytt -f .\n").unwrap();
        std::fs::write(base.join("app/values.yml"), "a: 1\n").unwrap();
        std::fs::write(base.join("empty/deeper/t.yml"), "a: 1\n").unwrap();
        // Ignored or not, a link in a listed directory counts; one in a directory without
        // walked files, or leaving the repository, does not.
        std::fs::write(base.join(".ignore"), "app/run.sh\n").unwrap();
        let link = |to: &str, at: &str| crate::platform::fs::symlink(Path::new(to), &base.join(at));
        link("../lib/Makefile", "app/Makefile").unwrap();
        link("../lib/Makefile", "app/run.sh").unwrap();
        link("../lib/Makefile", "empty/Makefile").unwrap();
        link("../../outside/Makefile", "app/build.sh").unwrap();
        link("lib/Makefile", "Makefile").unwrap();
        let exclude = crate::lint::repo::walk::exclude_set(&[]).unwrap();
        let tree = crate::lint::repo::tree::list(&base, &[], &exclude);
        let walked =
            crate::lint::repo::walk::walk_tree(&tree, &crate::lint::repo::walk::never_kept);
        let index = Index::new(walked.files.iter().map(|f| f.path.as_str()));
        let listed = linked_in(&walked.links, &walked.files, &index);
        let expected = [
            ("Makefile", "lib/Makefile"),
            ("app/Makefile", "lib/Makefile"),
            ("app/run.sh", "lib/Makefile"),
        ];
        let pairs: Vec<(&str, &str)> = listed
            .iter()
            .map(|(l, t)| (l.as_str(), t.as_str()))
            .collect();
        assert_eq!(pairs, expected);
        assert_eq!(listed, linked_commands(&base, &walked.files, &index));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
