//! Writing the files a user asked for (reports, `--write-baseline`, `init`) and the files
//! `--fix` changes, without following a link a repository may have committed: the target's
//! directory is opened once and held ([`platform::dir::Dir`]); the text goes into a new
//! temporary file with a random name created in that directory (`openat` with
//! `O_CREAT|O_EXCL|O_NOFOLLOW`), which is then renamed over the target in the same directory
//! (`renameat`). No path is looked up twice: a directory swapped for a link after it was
//! opened (and, for a fix, checked to be inside the repository) cannot lead the write
//! elsewhere. A target that is itself a link is refused.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::Path;

use crate::platform;
use crate::platform::dir::{Dir, Entry};

/// An error when `path` is a symbolic link: the linter writes no file through one.
pub fn refuse_symlink(path: &Path, what: &str) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if platform::fs::is_link(&m) => Err(linked(path, what)),
        _ => Ok(()),
    }
}

fn linked(path: &Path, what: &str) -> String {
    format!(
        "the {what} {} is a symbolic link; yttlint writes no file through one (remove it or name another path)",
        path.display()
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The directory of `path`, opened, and the name of `path` in it.
fn open_parent(path: &Path) -> std::io::Result<(Dir, OsString)> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = Dir::open(parent.unwrap_or(Path::new(".")))?;
    Ok((dir, name.to_os_string()))
}

/// Writes `bytes` to `name` of `dir` whole: a new temporary file of `dir` (permissions `mode`
/// less the umask), renamed over `name`.
fn write_in(dir: &Dir, name: &OsStr, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let shown = name.to_string_lossy();
    let mut last = None;
    for _ in 0..8 {
        let temp = OsString::from(format!(
            ".{shown}.{}.tmp",
            hex(&platform::random::bytes::<12>())
        ));
        let mut file = match dir.create_new(&temp, mode) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                last = Some(e);
                continue;
            }
            Err(e) => return Err(e),
        };
        let written = file
            .write_all(bytes)
            .and_then(|()| file.flush())
            .and_then(|()| {
                drop(file);
                dir.rename(&temp, name)
            });
        if written.is_err() {
            let _ = dir.remove_file(&temp);
        }
        return written;
    }
    Err(last.unwrap_or_else(|| std::io::Error::from(std::io::ErrorKind::AlreadyExists)))
}

/// Writes `bytes` to `path` whole (a temporary file renamed over it); `what` names it in
/// errors (`report`, `baseline`).
pub fn write_file(path: &Path, bytes: &[u8], what: &str) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write the {what} {}: {e}", path.display());
    let (dir, name) = open_parent(path).map_err(cannot)?;
    match dir.entry(&name).map_err(cannot)? {
        Entry::Link => Err(linked(path, what)),
        _ => write_in(&dir, &name, bytes, 0o644).map_err(cannot),
    }
}

/// Writes `bytes` over the existing regular file `path` as [`write_file`] does, keeping its
/// permissions (a fixed template stays executable or private as it was), when `allowed` says
/// yes to where its directory really is (read from the directory's handle).
pub fn replace_file(
    path: &Path,
    bytes: &[u8],
    what: &str,
    allowed: &dyn Fn(&Path) -> bool,
) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write the {what} {}: {e}", path.display());
    let (dir, name) = open_parent(path).map_err(cannot)?;
    let real = match dir.real_path() {
        Some(real) => real,
        // A system that does not name a handle: the directory's path, resolved now.
        None => std::fs::canonicalize(path.parent().unwrap_or(Path::new("."))).map_err(cannot)?,
    };
    if !allowed(&real) {
        return Err(format!(
            "the {what} {} is in a directory outside the repository; yttlint does not write it",
            path.display()
        ));
    }
    match dir.entry(&name).map_err(cannot)? {
        Entry::Link => Err(linked(path, what)),
        Entry::File { mode } => write_in(&dir, &name, bytes, mode).map_err(cannot),
        Entry::Missing => Err(cannot(std::io::Error::from(std::io::ErrorKind::NotFound))),
        Entry::Other => Err(format!(
            "the {what} {} is not a regular file; yttlint does not write it",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_the_target_and_never_follow_a_link() {
        let base = std::env::temp_dir().join(format!("yttlint-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("d")).unwrap();
        let target = base.join("d/r.sarif");
        write_file(&target, b"one", "report").unwrap();
        write_file(&target, b"two", "report").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(base.join("d")).unwrap().count(), 1);
        std::fs::write(base.join("victim"), "safe").unwrap();
        let link = base.join("d/link.sarif");
        // Where links can be made and are seen as links (not Wine's).
        let made = platform::fs::symlink(Path::new("../victim"), &link).is_ok()
            && std::fs::symlink_metadata(&link).is_ok_and(|m| platform::fs::is_link(&m));
        if made {
            let err = write_file(&base.join("d/link.sarif"), b"x", "report").unwrap_err();
            assert!(err.contains("symbolic link"), "{err}");
            assert_eq!(std::fs::read(base.join("victim")).unwrap(), b"safe");
            let anywhere = |_: &Path| true;
            let err =
                replace_file(&base.join("d/link.sarif"), b"x", "file", &anywhere).unwrap_err();
            assert!(err.contains("symbolic link"), "{err}");
            assert_eq!(std::fs::read(base.join("victim")).unwrap(), b"safe");
        }
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        let base = std::env::temp_dir().join(format!("yttlint-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let target = base.join("t.yml");
        std::fs::write(&target, "a: 1\n").unwrap();
        platform::fs::set_mode(&target, 0o600).unwrap();
        let anywhere = |_: &Path| true;
        replace_file(&target, b"a: 2\n", "file", &anywhere).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"a: 2\n");
        let mode = platform::fs::mode(&std::fs::metadata(&target).unwrap());
        assert_eq!(mode & 0o777, if cfg!(unix) { 0o600 } else { 0o644 });
        assert!(replace_file(&base.join("missing.yml"), b"x", "file", &anywhere).is_err());
        let nowhere = |_: &Path| false;
        let err = replace_file(&target, b"x", "file", &nowhere).unwrap_err();
        assert!(err.contains("outside"), "{err}");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
