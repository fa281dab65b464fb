//! Reading a repository file to fix and writing it back. Only a file the linter may read (a
//! regular file inside the repository, outside `.git`, named by a plain relative path) is
//! read, and only such a file is written: its directory is opened once, checked on the open
//! handle to be inside the repository, and the new text goes into a temporary file of that
//! directory renamed over the file by name in it ([`crate::files::write::replace_file`]):
//! never through a symbolic link, never in a directory that resolves outside the repository
//! (even one swapped for a link while the fix runs), keeping the file's permissions.

use std::path::{Component, Path, PathBuf};

use crate::files::open::inside;

/// The path of the repository file `rel` of the repository `repo`, when `rel` is a plain
/// relative path (no `..`, not absolute), and the repository's real path.
fn target(repo: &Path, rel: &str) -> Result<(PathBuf, PathBuf), String> {
    let plain = Path::new(rel)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if rel.is_empty() || !plain {
        return Err(format!(
            "{rel}: not a path inside the repository; not fixed"
        ));
    }
    let canonical = std::fs::canonicalize(repo)
        .map_err(|e| format!("cannot read the repository {}: {e}", repo.display()))?;
    Ok((repo.join(rel), canonical))
}

/// The text of the repository file `rel`, read under the linter's policy.
pub fn read(repo: &Path, rel: &str) -> Result<String, String> {
    let (path, _) = target(repo, rel)?;
    let policy = crate::files::ReadPolicy::repository(repo);
    let bytes = crate::files::read_allowed(&path, &policy)
        .ok_or_else(|| format!("{rel}: not a file yttlint may read; not fixed"))?;
    String::from_utf8(bytes).map_err(|_| format!("{rel}: not UTF-8; not fixed"))
}

/// Writes `text` over the repository file `rel` (which must exist: only files read are fixed).
pub fn write(repo: &Path, rel: &str, text: &str) -> Result<(), String> {
    let (path, canonical) = target(repo, rel)?;
    let allowed = |real_dir: &Path| inside(repo, &canonical, real_dir);
    crate::files::write::replace_file(&path, text.as_bytes(), "file", &allowed).map_err(|e| {
        if e.contains("outside the repository") {
            format!("{rel}: its directory is outside the repository; not fixed")
        } else {
            e
        }
    })
}

// Symbolic links made without privilege, and the swap of a directory for one: Unix.
#[cfg(all(test, unix))]
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
        let link = |to: &str, at: &str| crate::platform::fs::symlink(Path::new(to), &repo.join(at));
        link("../elsewhere", "out").unwrap();
        link("t.yml", "config/link.yml").unwrap();
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

    /// Issue 40's probe 8: another process swaps `config/` for a link to a directory outside
    /// the repository, and back, while fixes are written. Before the directory was held, the
    /// outside file was overwritten about once in 3 000 writes.
    #[test]
    fn a_directory_swapped_for_a_link_never_leads_a_fix_outside() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let base = std::env::temp_dir().join(format!("yttlint-fixrace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let repo = base.join("repo");
        std::fs::create_dir_all(repo.join("real")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(repo.join("real/t.yml"), "a: 1\n").unwrap();
        std::fs::write(base.join("outside/t.yml"), "secret\n").unwrap();
        std::fs::rename(repo.join("real"), repo.join("config")).unwrap();
        crate::platform::fs::symlink(&base.join("outside"), &repo.join("link")).unwrap();
        let stop = AtomicBool::new(false);
        let mut written = 0;
        std::thread::scope(|s| {
            s.spawn(|| {
                // config/ is the real directory, then the link, then the real one again.
                while !stop.load(Ordering::Relaxed) {
                    let _ = std::fs::rename(repo.join("config"), repo.join("real"));
                    let _ = std::fs::rename(repo.join("link"), repo.join("config"));
                    let _ = std::fs::rename(repo.join("config"), repo.join("link"));
                    let _ = std::fs::rename(repo.join("real"), repo.join("config"));
                }
            });
            for i in 0..3000 {
                if write(&repo, "config/t.yml", &format!("a: {i}\n")).is_ok() {
                    written += 1;
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(
            std::fs::read_to_string(base.join("outside/t.yml")).unwrap(),
            "secret\n"
        );
        assert_eq!(std::fs::read_dir(base.join("outside")).unwrap().count(), 1);
        assert!(written > 0, "no write went through");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
