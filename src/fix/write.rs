//! Reading a repository file to fix and writing it back. Only a file the linter may read (a
//! regular file inside the repository, outside `.git`, named by a plain relative path) is
//! read, and only such a file is written: through a temporary file renamed over it
//! ([`crate::files::write::replace_file`]), never through a symbolic link, never in a directory
//! that resolves outside the repository, keeping its permissions.

use std::path::{Component, Path, PathBuf};

use crate::files::open::inside;

/// The path of the repository file `rel` of the repository `repo`, when `rel` is a plain
/// relative path (no `..`, not absolute) whose directory is inside the repository.
fn target(repo: &Path, rel: &str) -> Result<PathBuf, String> {
    let plain = Path::new(rel)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if rel.is_empty() || !plain {
        return Err(format!(
            "{rel}: not a path inside the repository; not fixed"
        ));
    }
    let path = repo.join(rel);
    let canonical = std::fs::canonicalize(repo)
        .map_err(|e| format!("cannot read the repository {}: {e}", repo.display()))?;
    let dir = path.parent().unwrap_or(repo);
    let real_dir = std::fs::canonicalize(dir).map_err(|e| format!("{rel}: {e}; not fixed"))?;
    if !inside(repo, &canonical, &real_dir) {
        return Err(format!(
            "{rel}: its directory is outside the repository; not fixed"
        ));
    }
    Ok(path)
}

/// The text of the repository file `rel`, read under the linter's policy.
pub fn read(repo: &Path, rel: &str) -> Result<String, String> {
    let path = target(repo, rel)?;
    let policy = crate::files::ReadPolicy::repository(repo);
    let bytes = crate::files::read_allowed(&path, &policy)
        .ok_or_else(|| format!("{rel}: not a file yttlint may read; not fixed"))?;
    String::from_utf8(bytes).map_err(|_| format!("{rel}: not UTF-8; not fixed"))
}

/// Writes `text` over the repository file `rel` (which must exist: only files read are fixed).
pub fn write(repo: &Path, rel: &str, text: &str) -> Result<(), String> {
    let path = target(repo, rel)?;
    crate::files::write::replace_file(&path, text.as_bytes(), "file")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_the_repository_are_read_and_written() {
        let base = std::env::temp_dir().join(format!("yttlint-fixwrite-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let repo = base.join("repo");
        std::fs::create_dir_all(repo.join("config")).unwrap();
        std::fs::create_dir_all(base.join("elsewhere")).unwrap();
        std::fs::write(repo.join("config/t.yml"), "a: 1\n").unwrap();
        std::fs::write(base.join("elsewhere/t.yml"), "b: 1\n").unwrap();
        std::os::unix::fs::symlink("../elsewhere", repo.join("out")).unwrap();
        std::os::unix::fs::symlink("t.yml", repo.join("config/link.yml")).unwrap();
        assert_eq!(read(&repo, "config/t.yml").unwrap(), "a: 1\n");
        write(&repo, "config/t.yml", "a: 2\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(repo.join("config/t.yml")).unwrap(),
            "a: 2\n"
        );
        assert!(read(&repo, "out/t.yml").is_err());
        assert!(write(&repo, "out/t.yml", "x")
            .unwrap_err()
            .contains("outside"));
        assert!(write(&repo, "../elsewhere/t.yml", "x").is_err());
        assert!(write(&repo, "/etc/passwd", "x").is_err());
        let err = write(&repo, "config/link.yml", "x").unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
        assert!(write(&repo, "config/new.yml", "x").is_err());
        assert_eq!(
            std::fs::read_to_string(base.join("elsewhere/t.yml")).unwrap(),
            "b: 1\n"
        );
        assert_eq!(
            std::fs::read_to_string(repo.join("config/t.yml")).unwrap(),
            "a: 2\n"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
