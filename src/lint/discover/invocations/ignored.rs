//! Which paths the repository's `.gitignore` files hide: a path a command reads that is
//! ignored is made at run time (a build directory, the user's own values file), never missing.
//! Only `.gitignore` files the repository walk found are read (not `.git/info/exclude`, nor the
//! user's global excludes: the linted repository is all the linter reads).

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::files::paths;

/// A virtual root the matchers are built under (paths are repository-relative).
const ROOT: &str = "/r";

/// The repository's `.gitignore` rules, by the directory of their file.
#[derive(Default)]
pub struct Ignored {
    rules: Vec<(String, Gitignore)>,
}

impl Ignored {
    /// The rules of `files`: (repository path of a `.gitignore`, its text).
    pub fn new(files: impl IntoIterator<Item = (String, String)>) -> Ignored {
        let mut rules = Vec::new();
        for (path, text) in files {
            let dir = paths::parent(&path).to_string();
            let mut b = GitignoreBuilder::new(virtual_path(&dir));
            for line in text.lines() {
                // A line the matcher cannot read is skipped, as git skips it.
                let _ = b.add_line(None, line);
            }
            if let Ok(g) = b.build() {
                rules.push((dir, g));
            }
        }
        // The deepest file decides last (git's precedence).
        rules.sort_by_key(|(d, _)| d.matches('/').count() + usize::from(d != "."));
        Ignored { rules }
    }

    /// Whether a repository path (a file or a directory, or anything below one) is ignored.
    pub fn is_ignored(&self, path: &str) -> bool {
        let path = path.trim_end_matches('/');
        let mut verdict = false;
        for (dir, g) in &self.rules {
            if !paths::is_within(path, dir) || path == dir {
                continue;
            }
            let m = g.matched_path_or_any_parents(virtual_path(path), false);
            let m = if m.is_none() {
                g.matched_path_or_any_parents(virtual_path(path), true)
            } else {
                m
            };
            if m.is_ignore() {
                verdict = true;
            } else if m.is_whitelist() {
                verdict = false;
            }
        }
        verdict
    }
}

fn virtual_path(p: &str) -> PathBuf {
    if p == "." {
        PathBuf::from(ROOT)
    } else {
        Path::new(ROOT).join(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_files_hide_their_paths() {
        let i = Ignored::new([
            (
                ".gitignore".to_string(),
                "/build\nvalues.yaml\n*.tmp\n".to_string(),
            ),
            (
                "app/.gitignore".to_string(),
                "out/\n!keep.tmp\n".to_string(),
            ),
        ]);
        assert!(i.is_ignored("build/x.yml"));
        assert!(i.is_ignored("values.yaml"));
        assert!(i.is_ignored("app/config/values.yaml"));
        assert!(i.is_ignored("app/out/a.yml"));
        assert!(!i.is_ignored("app/keep.tmp"));
        assert!(!i.is_ignored("config/a.yml"));
        assert!(!i.is_ignored("sub/build/x.yml"));
    }
}
