//! The repository's one directory walk: the `ignore` walker configured once (`.gitignore`,
//! `.ignore` and the configuration's `exclude` globs honoured; hidden entries walked, version
//! control's directories and the result cache never; a fixed order), listing what the
//! repository walk classifies (`walk.rs`), the sub-projects it stops at (`nested.rs` takes them
//! from here when it searches the whole repository) and the symbolic links of every directory
//! it enters (ignored or not, never followed: discovery's linked Makefiles and scripts). One
//! listing serves all three, so a run lists each directory once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use globset::GlobSet;
use ignore::WalkBuilder;

use crate::files::paths;

/// A walked entry whose name is not UTF-8: not entered, not listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    /// Its repository path, with U+FFFD in the place of each invalid byte.
    pub path: String,
    pub dir: bool,
}

/// A symbolic link in a directory the walk entered, as listed: never followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Its repository path (its name is UTF-8).
    pub path: String,
    /// What the link says, as `readlink` gives it (`None`: it could not be read); relative to
    /// the link's directory unless absolute. Whether it names a file or a directory, inside
    /// the repository or not, is for the reader to decide.
    pub to: Option<PathBuf>,
}

/// One directory walk of a repository.
#[derive(Default)]
pub struct Tree {
    /// The repository's directory, and the `exclude` globs the walk honoured: a tree serves a
    /// configuration only when both are that configuration's.
    pub base: PathBuf,
    pub exclude: Vec<String>,
    /// Every regular file not ignored or excluded (absolute path, repository path), in walk
    /// order.
    pub files: Vec<(PathBuf, String)>,
    /// Entries that are neither directories nor regular files, not ignored or excluded, in
    /// walk order.
    pub others: Vec<String>,
    /// The entries the walker could not read, said in a sentence each (`walk_errors`).
    pub problems: Vec<String>,
    /// The directories with their own configuration (repository paths), in walk order: not
    /// entered.
    pub nested: Vec<String>,
    /// Entries whose name is not UTF-8, in walk order.
    pub not_utf8: Vec<NotUtf8>,
    /// The symbolic links of every directory entered (ignored and excluded ones too), with
    /// UTF-8 names, in walk order.
    pub links: Vec<Link>,
    /// The ignore files not read, and their lines not understood (`ignores`).
    pub ignore_notes: Vec<String>,
}

/// What the walk's filter records as it goes.
#[derive(Default)]
struct Seen {
    nested: Vec<String>,
    not_utf8: Vec<NotUtf8>,
    links: Vec<Link>,
}

/// Lists the repository at `base`, honouring the `exclude` globs (`globs`, compiled as
/// `exclude`).
pub fn list(base: &Path, globs: &[String], exclude: &GlobSet) -> Tree {
    let filter_base = base.to_path_buf();
    let excluded = exclude.clone();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let recorded = seen.clone();
    // Ignore files are read by the linter, under the repository's read policy (`ignores`).
    let ignores = Arc::new(super::ignores::Ignores::new(base));
    let ignores_seen = ignores.clone();
    let walker = WalkBuilder::new(base)
        .standard_filters(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |e| {
            let Some(rel) = paths::relative(&filter_base, e.path()) else {
                return true;
            };
            if rel == "." {
                return true;
            }
            // Every link of the directory, whatever decides below (`links`).
            if e.file_type().is_some_and(|t| t.is_symlink()) && e.file_name().to_str().is_some() {
                let to = std::fs::read_link(e.path()).ok();
                if let Ok(mut seen) = recorded.lock() {
                    seen.links.push(Link {
                        path: rel.clone(),
                        to,
                    });
                }
            }
            if super::walk::never_walked(e) || excluded.is_match(&rel) {
                return false;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            if ignores_seen.ignored(e.path(), is_dir) {
                return false;
            }
            if e.file_name().to_str().is_none() {
                if let Ok(mut seen) = recorded.lock() {
                    seen.not_utf8.push(NotUtf8 {
                        path: rel,
                        dir: is_dir,
                    });
                }
                return false;
            }
            if is_dir && crate::lint::config::file_in(e.path()).is_some() {
                if let Ok(mut seen) = recorded.lock() {
                    seen.nested.push(rel);
                }
                return false;
            }
            true
        })
        .build();
    let mut tree = Tree {
        base: base.to_path_buf(),
        exclude: globs.to_vec(),
        ..Tree::default()
    };
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => {
                if let Some(rel) = paths::relative(base, e.path()) {
                    tree.files.push((e.into_path(), rel));
                }
            }
            Ok(e) if !e.file_type().is_some_and(|t| t.is_dir()) => {
                tree.others.extend(paths::relative(base, e.path()));
            }
            Ok(_) => {}
            Err(err) => tree.problems.push(super::walk_errors::describe(base, &err)),
        }
    }
    tree.ignore_notes = ignores.notes();
    if let Ok(mut seen) = seen.lock() {
        let seen = std::mem::take(&mut *seen);
        tree.nested = seen.nested;
        tree.not_utf8 = seen.not_utf8;
        tree.links = seen.links;
    }
    tree
}

impl std::fmt::Debug for Tree {
    /// Its top and size: a run's settings and projects carry it, and print it so.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tree({}, {} files, {} sub-projects)",
            self.base.display(),
            self.files.len(),
            self.nested.len()
        )
    }
}

impl Tree {
    /// Whether this listing is the walk of the repository at `base` with the `exclude` globs.
    pub fn serves(&self, base: &Path, exclude: &[String]) -> bool {
        self.base == base && self.exclude == exclude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_listing_holds_the_files_the_sub_projects_and_every_link() {
        let base = std::env::temp_dir().join(format!("yttlint-tree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        for d in ["a", "ignored", "sub", ".git"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        std::fs::write(base.join(".ignore"), "ignored/\na/hidden.sh\n").unwrap();
        std::fs::write(base.join("a/run.sh"), "ytt -f .\n").unwrap();
        std::fs::write(base.join("ignored/t.yml"), "a: 1\n").unwrap();
        std::fs::write(base.join("sub/.yttlint.yaml"), "").unwrap();
        std::fs::write(base.join(".git/t.yml"), "a: 1\n").unwrap();
        crate::platform::fs::symlink(Path::new("run.sh"), &base.join("a/link.sh")).unwrap();
        crate::platform::fs::symlink(Path::new("run.sh"), &base.join("a/hidden.sh")).unwrap();
        let globs = vec!["nothing/**".to_string()];
        let exclude = super::super::walk::exclude_set(&globs).unwrap();
        let tree = list(&base, &globs, &exclude);
        let files: Vec<&str> = tree.files.iter().map(|(_, r)| r.as_str()).collect();
        assert_eq!(files, [".ignore", "a/run.sh"]);
        assert_eq!(tree.nested, ["sub"]);
        // The ignored link is listed among the links, not among the walk's other entries.
        assert_eq!(tree.others, ["a/link.sh"]);
        let links: Vec<(&str, Option<&Path>)> = tree
            .links
            .iter()
            .map(|l| (l.path.as_str(), l.to.as_deref()))
            .collect();
        assert_eq!(
            links,
            [
                ("a/hidden.sh", Some(Path::new("run.sh"))),
                ("a/link.sh", Some(Path::new("run.sh")))
            ]
        );
        assert!(tree.serves(&base, &globs));
        assert!(!tree.serves(&base, &[]));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
