//! Writing the files a user asked for (reports, `--write-baseline`, `init`) without following
//! a symlink a repository may have committed: the text goes into a new temporary file with a
//! random name in the target's directory, created with `O_CREAT|O_EXCL|O_NOFOLLOW`, then
//! renamed over the target. A target that is itself a symlink is refused.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// An error when `path` is a symbolic link: the linter writes no file through one.
pub fn refuse_symlink(path: &Path, what: &str) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "the {what} {} is a symbolic link; yttlint writes no file through one (remove it or name another path)",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// `n` random bytes from the kernel; the time and process id when it has none to give.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    // SAFETY: `buf` is valid for `N` bytes of writes.
    let got = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), N, 0) };
    if usize::try_from(got).ok() != Some(N) {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let seed = nanos ^ (u128::from(std::process::id()) << 64);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (seed >> ((i % 16) * 8)) as u8;
        }
    }
    buf
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates a new file beside `path` with a random name (never an existing entry, never
/// through a symlink): the file and its path.
fn create_temp(path: &Path, mode: u32) -> std::io::Result<(std::fs::File, PathBuf)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    let mut last = None;
    for _ in 0..8 {
        let temp = path.with_file_name(format!(".{name}.{}.tmp", hex(&random_bytes::<12>())));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(mode)
            .open(&temp)
        {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::from_raw_os_error(libc::EEXIST)))
}

/// Writes `bytes` to `path` whole (a temporary file renamed over it); `what` names it in
/// errors (`report`, `baseline`).
pub fn write_file(path: &Path, bytes: &[u8], what: &str) -> Result<(), String> {
    write_mode(path, bytes, what, 0o644)
}

/// Writes `bytes` over the existing regular file `path` as [`write_file`] does, keeping its
/// permissions (a fixed template stays executable or private as it was).
pub fn replace_file(path: &Path, bytes: &[u8], what: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    refuse_symlink(path, what)?;
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| format!("cannot write the {what} {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!(
            "the {what} {} is not a regular file; yttlint does not write it",
            path.display()
        ));
    }
    write_mode(path, bytes, what, meta.permissions().mode() & 0o7777)
}

fn write_mode(path: &Path, bytes: &[u8], what: &str, mode: u32) -> Result<(), String> {
    refuse_symlink(path, what)?;
    let cannot = |e: std::io::Error| format!("cannot write the {what} {}: {e}", path.display());
    let (mut file, temp) = create_temp(path, mode).map_err(cannot)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.flush())
        .and_then(|()| std::fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        cannot(e)
    })
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
        std::os::unix::fs::symlink("../victim", base.join("d/link.sarif")).unwrap();
        let err = write_file(&base.join("d/link.sarif"), b"x", "report").unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read(base.join("victim")).unwrap(), b"safe");
        let err = replace_file(&base.join("d/link.sarif"), b"x", "file").unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read(base.join("victim")).unwrap(), b"safe");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let base = std::env::temp_dir().join(format!("yttlint-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let target = base.join("t.yml");
        std::fs::write(&target, "a: 1\n").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        replace_file(&target, b"a: 2\n", "file").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"a: 2\n");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(replace_file(&base.join("missing.yml"), b"x", "file").is_err());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
