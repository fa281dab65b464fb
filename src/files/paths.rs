//! Paths of the linted repository: absolute paths made without touching the disk (a deleted
//! file passed by pre-commit must still be placed), and the repository-relative, `/`-separated
//! form every report uses (`.` for the repository root itself).

use std::path::{Path, PathBuf};

/// What a path on this machine outside the repository is shown as in findings and notes
/// (never the path itself: see `lint::post::machine_paths`).
pub const OUTSIDE: &str = "<outside the repository>";

/// `path` made absolute against `cwd`, with `.` and `..` resolved lexically.
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    crate::files::lexical_absolute(cwd, path)
}

/// `path` relative to `base` with `/` separators; `.` for `base` itself; `None` outside it.
pub fn relative(base: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(base).ok()?;
    let parts: Vec<String> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        Some(".".to_string())
    } else {
        Some(parts.join("/"))
    }
}

/// The directories whose presence marks the top of a version-control work tree: git's (a
/// directory, or a file in a linked work tree or a submodule), Mercurial's and Subversion's.
const VCS_MARKERS: [&str; 3] = [".git", ".hg", ".svn"];

/// The version-control work tree that holds `dir` (absolute): the nearest of `dir` and its
/// ancestors with a [`VCS_MARKERS`] entry. Only the entry's presence is looked at, never its
/// content.
pub fn work_tree(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| {
            VCS_MARKERS
                .iter()
                .any(|m| std::fs::symlink_metadata(d.join(m)).is_ok())
        })
        .map(Path::to_path_buf)
}

/// Whether the repository-relative `path` is `dir` or lies below it (`.` contains everything).
pub fn is_within(path: &str, dir: &str) -> bool {
    dir == "."
        || path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The directory of a repository-relative path (`.` for a top-level file).
pub fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..i],
        None => ".",
    }
}

/// `dir/name` for repository-relative paths, where `dir` may be `.`.
pub fn join(dir: &str, name: &str) -> String {
    if dir == "." || dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The relative path from the repository directory `from` to the repository path `to`
/// (`../values/prod.yml`).
pub fn between(from: &str, to: &str) -> String {
    let split = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (split(from), split(to));
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(b[common..].iter().cloned());
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_resolves_dots_without_the_disk() {
        let cwd = Path::new("/repo/sub");
        assert_eq!(
            absolute(cwd, Path::new("../a/./b.yml")),
            PathBuf::from("/repo/a/b.yml")
        );
        assert_eq!(absolute(cwd, Path::new("/x/y")), PathBuf::from("/x/y"));
    }

    #[test]
    fn relative_paths_use_slashes_and_dot_for_the_base() {
        let base = Path::new("/repo");
        assert_eq!(relative(base, Path::new("/repo")).as_deref(), Some("."));
        assert_eq!(
            relative(base, Path::new("/repo/a/b.yml")).as_deref(),
            Some("a/b.yml")
        );
        assert_eq!(relative(base, Path::new("/other")), None);
    }

    #[test]
    fn containment_respects_path_components() {
        assert!(is_within("config/app.yml", "config"));
        assert!(is_within("config", "config"));
        assert!(!is_within("config2/app.yml", "config"));
        assert!(is_within("anything", "."));
        assert_eq!(parent("a/b/c.yml"), "a/b");
        assert_eq!(parent("c.yml"), ".");
        assert_eq!(join(".", "a"), "a");
        assert_eq!(between("config/app", "config/values.yml"), "../values.yml");
        assert_eq!(between(".", "a/b"), "a/b");
        assert_eq!(between("a", "a"), ".");
    }

    #[test]
    fn the_work_tree_is_the_nearest_directory_with_a_vcs_marker() {
        let base = std::env::temp_dir().join(format!("yttlint-wt-{}", std::process::id()));
        let deep = base.join("checkout/team/app");
        std::fs::create_dir_all(&deep).unwrap();
        // Nothing between `deep` and `base` marks a work tree yet.
        assert_eq!(work_tree(&deep), work_tree(&base));
        std::fs::write(base.join("checkout/.git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(work_tree(&deep), Some(base.join("checkout")));
        std::fs::create_dir_all(base.join("checkout/team/.hg")).unwrap();
        assert_eq!(work_tree(&deep), Some(base.join("checkout/team")));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
