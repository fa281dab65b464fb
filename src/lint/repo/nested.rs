//! The sub-projects of a repository: directories below it with their own `.yttlint.yaml` (or
//! `.yttlint.yml`), found by a walk that lists directories and reads no file, honouring what
//! the repository walk honours (`.gitignore`, `.ignore`, the configuration's `exclude` globs,
//! version control's directories and the result cache). Only the outermost are found: each
//! sub-project finds its own. A search of the whole repository takes them from the repository's
//! listing (`tree.rs`), which the repository walk then uses too.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use globset::GlobSet;
use ignore::WalkBuilder;

use crate::files::paths;

/// The directories under `from` (a directory of the repository `repo`, or `repo` itself) that
/// have their own configuration, outermost only, in path order; `from` itself is not one.
pub fn find(repo: &Path, from: &Path, exclude: &GlobSet) -> Vec<PathBuf> {
    let found = Arc::new(Mutex::new(Vec::new()));
    let seen = found.clone();
    let base = repo.to_path_buf();
    let start = from.to_path_buf();
    let excluded = exclude.clone();
    // Ignore files read as the repository walk reads them (`ignores`).
    let ignores = super::ignores::Ignores::new(repo);
    let walker = WalkBuilder::new(from)
        .standard_filters(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |e| {
            if e.path() == start {
                return true;
            }
            // Only directories are entered; files are never read.
            if !e.file_type().is_some_and(|t| t.is_dir()) {
                return false;
            }
            let Some(rel) = paths::relative(&base, e.path()) else {
                return false;
            };
            if super::walk::never_walked(e)
                || excluded.is_match(&rel)
                || ignores.ignored(e.path(), true)
            {
                return false;
            }
            if crate::lint::config::file_in(e.path()).is_some() {
                if let Ok(mut seen) = seen.lock() {
                    seen.push(e.path().to_path_buf());
                }
                return false;
            }
            true
        })
        .build();
    // Walking is all that is needed: the filter records where it stops.
    walker.for_each(drop);
    let mut dirs = found.lock().map(|f| f.clone()).unwrap_or_default();
    dirs.sort();
    dirs
}

/// The sub-projects [`find`] finds under the whole repository, from its listing: `None` when
/// `from` is not the listing's top, or when the listing set aside a directory whose name is not
/// UTF-8 (which [`find`] enters, and the repository walk does not).
pub fn in_tree(tree: &super::tree::Tree, from: &Path) -> Option<Vec<PathBuf>> {
    if from != tree.base || tree.not_utf8.iter().any(|n| n.dir) {
        return None;
    }
    let mut dirs: Vec<PathBuf> = tree.nested.iter().map(|d| tree.base.join(d)).collect();
    dirs.sort();
    Some(dirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outermost_configured_directories_not_ignored_or_excluded() {
        let base = std::env::temp_dir().join(format!("yttlint-nested-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        for dir in ["a/b", "a/b/c", "d", "ignored", "skipped", "e/.git/x", "f"] {
            std::fs::create_dir_all(base.join(dir)).unwrap();
        }
        for dir in ["a/b", "a/b/c", "d", "ignored", "skipped", "e/.git/x"] {
            std::fs::write(base.join(dir).join(".yttlint.yaml"), "").unwrap();
        }
        std::fs::write(base.join("f/.yttlint.yml"), "").unwrap();
        std::fs::write(base.join(".ignore"), "ignored/\n").unwrap();
        std::fs::write(base.join(".yttlint.yaml"), "").unwrap();
        let exclude = crate::lint::repo::walk::exclude_set(&["skipped".to_string()]).unwrap();
        let rel = |dirs: Vec<PathBuf>| -> Vec<String> {
            dirs.iter()
                .filter_map(|d| paths::relative(&base, d))
                .collect()
        };
        assert_eq!(rel(find(&base, &base, &exclude)), ["a/b", "d", "f"]);
        // The listing of the whole repository finds the same.
        let tree = crate::lint::repo::tree::list(&base, &[], &exclude);
        assert_eq!(rel(in_tree(&tree, &base).unwrap()), ["a/b", "d", "f"]);
        assert_eq!(in_tree(&tree, &base.join("a")), None);
        assert_eq!(rel(find(&base, &base.join("a"), &exclude)), ["a/b"]);
        assert_eq!(rel(find(&base, &base.join("a/b"), &exclude)), ["a/b/c"]);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
