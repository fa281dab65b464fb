//! Reading one file of the repository under the linter's policy, checked on the open handle:
//! the file is opened once (never blocking, never becoming a controlling terminal), its type is
//! taken from the handle (`fstat`) and where it really is from the handle too (Linux's
//! `/proc/self/fd` link, macOS's `F_GETPATH`, Windows' final path: [`platform::fs::real_path`]),
//! so a symlink swapped between a check and the read cannot lead the read elsewhere. Where the
//! system can open a file beneath the repository's real path with no link followed on the way
//! (Linux's `openat2`, [`platform::fs::open_beneath`]), the file is where its path says and
//! only its type is checked on the handle. Special files (named pipes, devices, sockets, `/proc`, `/sys`, `/dev`) are
//! refused, a destination that is a device is refused before it is opened. Version control
//! directories (`.git`, `.hg`, `.svn`: `.git/config` holds CI credentials) are outside the
//! repository.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::Refusal;
use crate::platform;

/// Directories of version control systems: never read, as if outside the repository.
pub const VCS_DIRS: [&str; 3] = [".git", ".hg", ".svn"];

/// Whether `name` is a version control directory's name.
pub fn is_vcs_dir(name: &std::ffi::OsStr) -> bool {
    VCS_DIRS.iter().any(|v| name == *v)
}

/// Whether the real path `real` lies in the repository (`given` as named, `canonical` its real
/// path) and not in a version control directory of it.
pub fn inside(given: &Path, canonical: &Path, real: &Path) -> bool {
    let rest = match real.strip_prefix(canonical) {
        Ok(rest) => rest,
        Err(_) => match real.strip_prefix(given) {
            Ok(rest) => rest,
            Err(_) => return false,
        },
    };
    !rest.components().any(|c| is_vcs_dir(c.as_os_str()))
}

/// What a special file is (`a named pipe`, `a device`, `a socket`), `None` for the others.
pub fn special_kind(ft: std::fs::FileType) -> Option<&'static str> {
    platform::fs::special_kind(ft)
}

/// The refusal of a real path outside the repository: the kernel's own file systems are
/// special files, anything else is outside.
fn outside(real: &Path) -> Refusal {
    if ["/proc", "/sys", "/dev"]
        .iter()
        .any(|k| real.starts_with(k))
    {
        Refusal::NotRegular("a symlink to a special file")
    } else {
        Refusal::Outside
    }
}

/// The bytes of `p` when the linter may read it from the repository `(given, canonical)`, the
/// refusal when it may not, an I/O error (a missing file, a directory) when reading fails.
pub fn read_checked(
    p: &Path,
    given: &Path,
    canonical: &Path,
) -> std::io::Result<Result<Vec<u8>, Refusal>> {
    read_checked_max(p, given, canonical, u64::MAX)
}

/// [`read_checked`], failing (`FileTooLarge`) for a file of more than `max` bytes.
pub fn read_checked_max(
    p: &Path,
    given: &Path,
    canonical: &Path,
    max: u64,
) -> std::io::Result<Result<Vec<u8>, Refusal>> {
    let own = std::fs::symlink_metadata(p)?;
    read_checked_from(p, &own, given, canonical, max)
}

/// [`read_checked_max`] of `p` whose own metadata (`lstat`) the caller has: `own`.
pub fn read_checked_from(
    p: &Path,
    own: &std::fs::Metadata,
    given: &Path,
    canonical: &Path,
    max: u64,
) -> std::io::Result<Result<Vec<u8>, Refusal>> {
    read_opened(open_checked_from(p, own, given, canonical)?, max)
}

/// The bytes of a file opened and checked, at most `max` of them, or why it is not read.
fn read_opened(
    opened: Result<(File, u64), Refusal>,
    max: u64,
) -> std::io::Result<Result<Vec<u8>, Refusal>> {
    match opened {
        Ok((file, len)) => read_at_most(&file, len, max).map(Ok),
        Err(why) => Ok(Err(why)),
    }
}

/// The bytes `start..end` of `p` under the checks of [`read_checked_from`], only those read:
/// `None` in the result when the file is shorter. For a part of a large file (one document of
/// a bundle of CRDs), whose other bytes would be copied for nothing.
pub fn read_checked_range(
    p: &Path,
    own: &std::fs::Metadata,
    given: &Path,
    canonical: &Path,
    range: std::ops::Range<u64>,
) -> std::io::Result<Result<Option<Vec<u8>>, Refusal>> {
    let (file, len) = match open_checked_from(p, own, given, canonical)? {
        Ok(opened) => opened,
        Err(why) => return Ok(Err(why)),
    };
    if range.start > range.end || range.end > len {
        return Ok(Ok(None));
    }
    let mut bytes = vec![0; usize::try_from(range.end - range.start).unwrap_or(0)];
    let mut reader = &file;
    reader.seek(SeekFrom::Start(range.start))?;
    reader.read_exact(&mut bytes)?;
    Ok(Ok(Some(bytes)))
}

/// The open handle of `p` (`own` its `lstat`) and its length, after the checks of
/// [`read_checked_from`]; or why the linter does not read it.
fn open_checked_from(
    p: &Path,
    own: &std::fs::Metadata,
    given: &Path,
    canonical: &Path,
) -> std::io::Result<Result<(File, u64), Refusal>> {
    if let Some(kind) = special_kind(own.file_type()) {
        return Ok(Err(Refusal::NotRegular(kind)));
    }
    // The destination's type first: a device or pipe behind a symlink is never opened. What
    // is not a symlink is its own destination: it is opened without following a link, so
    // that a symlink put there since is not followed either.
    if !platform::fs::is_link(own) {
        if let Some(opened) = open_beneath(p, given, canonical) {
            return opened;
        }
    }
    let file = if platform::fs::is_link(own) {
        let dst = std::fs::metadata(p)?;
        if special_kind(dst.file_type()).is_some() {
            return Ok(Err(Refusal::NotRegular("a symlink to a special file")));
        }
        platform::fs::open_read(p)?
    } else {
        platform::fs::open_read_nofollow(p)?
    };
    Ok(checked_handle(p, &file, given, canonical)?.map(|len| (file, len)))
}

/// [`read_checked_max`] of `p`, which a directory listing gave as a regular file: opened at
/// once without following a link, with no `lstat` first (the handle's own checks decide, as
/// for any file that is not a link). When that open fails (the entry became a link, or went
/// away, since the listing) the file is read as one not listed is, with the same outcome.
pub fn read_checked_listed(
    p: &Path,
    given: &Path,
    canonical: &Path,
    max: u64,
) -> std::io::Result<Result<Vec<u8>, Refusal>> {
    let opened = match open_beneath(p, given, canonical) {
        Some(opened) => opened?,
        None => match platform::fs::open_read_nofollow(p) {
            Ok(file) => checked_handle(p, &file, given, canonical)?.map(|len| (file, len)),
            Err(_) => return read_checked_max(p, given, canonical, max),
        },
    };
    read_opened(opened, max)
}

/// `p` opened beneath the repository's real path with no link on the way
/// ([`platform::fs::open_beneath`]): the file is where its path in the repository says,
/// inside it, so only its type is checked on the handle (no asking the system where it is:
/// Linux's `readlink` of `/proc/self/fd/N` was a read's dearest call). `None` when it cannot
/// be opened so (a link on the way, a name in a version control directory, a missing file, no
/// `openat2`): the caller's checks decide, as before.
fn open_beneath(
    p: &Path,
    given: &Path,
    canonical: &Path,
) -> Option<std::io::Result<Result<(File, u64), Refusal>>> {
    let rel = p
        .strip_prefix(canonical)
        .or_else(|_| p.strip_prefix(given))
        .ok()?;
    if rel.components().any(|c| is_vcs_dir(c.as_os_str())) {
        return None;
    }
    let file = platform::fs::open_beneath(canonical, rel)?;
    Some(typed_handle(&file).map(|checked| checked.map(|len| (file, len))))
}

/// The checks on the open handle of a file known to be inside the repository (its type), and
/// its length.
fn typed_handle(file: &File) -> std::io::Result<Result<u64, Refusal>> {
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::from(std::io::ErrorKind::IsADirectory));
    }
    if !meta.is_file() {
        return Ok(Err(Refusal::NotRegular(
            special_kind(meta.file_type()).unwrap_or("a symlink to a special file"),
        )));
    }
    Ok(Ok(meta.len()))
}

/// The checks on the open handle of `p` (its type, where it really is), and its length.
fn checked_handle(
    p: &Path,
    file: &File,
    given: &Path,
    canonical: &Path,
) -> std::io::Result<Result<u64, Refusal>> {
    let meta = file.metadata()?;
    if !meta.is_file() && !meta.is_dir() {
        return Ok(Err(Refusal::NotRegular(
            special_kind(meta.file_type()).unwrap_or("a symlink to a special file"),
        )));
    }
    let real = match platform::fs::real_path(file) {
        Some(real) => real,
        None => std::fs::canonicalize(p)?,
    };
    if !inside(given, canonical, &real) {
        return Ok(Err(outside(&real)));
    }
    if meta.is_dir() {
        return Err(std::io::Error::from(std::io::ErrorKind::IsADirectory));
    }
    Ok(Ok(meta.len()))
}

/// The bytes of the open regular `file` (`len` by `fstat`), at most `max` of them.
fn read_at_most(file: &File, len: u64, max: u64) -> std::io::Result<Vec<u8>> {
    let too_large = || std::io::Error::from(std::io::ErrorKind::FileTooLarge);
    if len > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The bytes of `p`, a file the user named (a symlink is followed): an error unless it is a
/// regular file of at most `max` bytes. A named pipe or device is never read (nor opened when
/// it is one already before opening).
pub fn read_regular(p: &Path, max: u64) -> Result<Vec<u8>, String> {
    let not_regular = || "not a regular file".to_string();
    let meta = std::fs::metadata(p).map_err(|e| super::go_errno(&e))?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    let file = platform::fs::open_read(p).map_err(|e| super::go_errno(&e))?;
    let meta = file.metadata().map_err(|e| super::go_errno(&e))?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    read_at_most(&file, meta.len(), max).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => format!("larger than {} MiB", max >> 20),
        _ => super::go_errno(&e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_control_directories_are_not_inside() {
        let (given, real) = (Path::new("repo"), Path::new("/r/repo"));
        assert!(inside(given, real, Path::new("/r/repo/a/b.yml")));
        assert!(inside(given, real, Path::new("/r/repo/.github/x.yml")));
        assert!(!inside(given, real, Path::new("/r/repo/.git/config")));
        assert!(!inside(given, real, Path::new("/r/repo/sub/.hg/hgrc")));
        assert!(!inside(given, real, Path::new("/r/repo/.svn")));
        assert!(!inside(given, real, Path::new("/r/other/a.yml")));
    }

    #[test]
    #[cfg(unix)]
    fn reads_are_checked_on_the_handle() {
        let base = std::env::temp_dir().join(format!("yttlint-open-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let repo = base.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(repo.join(".git/config"), "token").unwrap();
        std::fs::write(repo.join("a.txt"), "a").unwrap();
        std::fs::write(base.join("out.txt"), "out").unwrap();
        let link = |to: &Path, name: &str| platform::fs::symlink(to, &repo.join(name)).unwrap();
        link(Path::new("/dev/stdin"), "in.txt");
        link(Path::new("/dev/null"), "null.txt");
        link(Path::new("/proc/self/environ"), "env.txt");
        link(&repo.join(".git/config"), "n.data");
        link(&base.join("out.txt"), "out.txt");
        link(&repo.join("a.txt"), "b.txt");
        let real = std::fs::canonicalize(&repo).unwrap();
        let checked = |name: &str| read_checked(&repo.join(name), &repo, &real);
        let read = |name: &str| checked(name).unwrap();
        assert_eq!(read("a.txt"), Ok(b"a".to_vec()));
        assert_eq!(read("b.txt"), Ok(b"a".to_vec()));
        assert_eq!(read("n.data"), Err(Refusal::Outside));
        assert_eq!(read(".git/config"), Err(Refusal::Outside));
        assert_eq!(read("out.txt"), Err(Refusal::Outside));
        for special in ["in.txt", "null.txt", "env.txt"] {
            // Refused, or missing (a test run without standard input): never read.
            let r = checked(special);
            assert!(
                matches!(r, Ok(Err(Refusal::NotRegular(_))) | Err(_)),
                "{special}: {r:?}"
            );
        }
        // A name a listing gave as a regular file, which became a link or a special file or
        // went away since, reads as the same name not listed does.
        let listed = |name: &str| read_checked_listed(&repo.join(name), &repo, &real, u64::MAX);
        for name in [
            "a.txt",
            "b.txt",
            "n.data",
            ".git/config",
            "out.txt",
            "in.txt",
            "null.txt",
            "env.txt",
            "gone.txt",
        ] {
            match (checked(name), listed(name)) {
                (Ok(want), Ok(got)) => assert_eq!(got, want, "{name}"),
                (Err(want), Err(got)) => assert_eq!(got.kind(), want.kind(), "{name}"),
                (want, got) => panic!("{name}: {got:?} instead of {want:?}"),
            }
        }
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn a_read_beneath_the_repository_is_the_checked_read() {
        let base = std::env::temp_dir().join(format!("yttlint-beneath-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let repo = base.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("d")).unwrap();
        std::fs::write(repo.join(".git/config"), "token").unwrap();
        std::fs::write(repo.join("d/a.txt"), "a").unwrap();
        std::fs::write(base.join("out.txt"), "out").unwrap();
        platform::fs::symlink(&base, &repo.join("up")).unwrap();
        platform::fs::symlink(Path::new("d"), &repo.join("in")).unwrap();
        platform::fs::symlink(Path::new("d/a.txt"), &repo.join("b.txt")).unwrap();
        let real = std::fs::canonicalize(&repo).unwrap();
        let read = |opened: std::io::Result<_>| opened.and_then(|o| read_opened(o, u64::MAX));
        let beneath = |p: &Path| open_beneath(p, &repo, &real).map(read);
        let handle = |p: &Path| {
            let file = platform::fs::open_read(p).unwrap();
            read(checked_handle(p, &file, &repo, &real).map(|c| c.map(|len| (file, len))))
        };
        // A plain file, and a directory: where it opens beneath, as the handle's checks say.
        for p in [repo.join("d/a.txt"), real.join("d/a.txt"), repo.join("d")] {
            if let Some(got) = beneath(&p) {
                match (got, handle(&p)) {
                    (Ok(got), Ok(want)) => assert_eq!(got, want, "{}", p.display()),
                    (Err(got), Err(want)) => assert_eq!(got.kind(), want.kind()),
                    (got, want) => panic!("{}: {got:?} instead of {want:?}", p.display()),
                }
            }
        }
        // Never through a link (out of the repository or not), into `.git`, up and back
        // down, or outside the repository's paths: the other checks decide those.
        for p in [
            repo.join("up/out.txt"),
            repo.join("in/a.txt"),
            repo.join("b.txt"),
            repo.join(".git/config"),
            repo.join("d/../d/a.txt"),
            base.join("out.txt"),
            repo.join("missing.txt"),
        ] {
            assert!(beneath(&p).is_none(), "{}", p.display());
        }
        assert_eq!(
            read_checked(&repo.join("up/out.txt"), &repo, &real).unwrap(),
            Err(Refusal::Outside)
        );
        assert_eq!(
            read_checked(&repo.join("in/a.txt"), &repo, &real).unwrap(),
            Ok(b"a".to_vec())
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn files_the_user_names_are_regular_and_bounded() {
        let base = std::env::temp_dir().join(format!("yttlint-regular-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("a"), "12345").unwrap();
        platform::fs::symlink(Path::new("/dev/zero"), &base.join("zero")).unwrap();
        assert_eq!(read_regular(&base.join("a"), 5).unwrap(), b"12345");
        assert_eq!(
            read_regular(&base.join("a"), 4).unwrap_err(),
            "larger than 0 MiB"
        );
        assert_eq!(
            read_regular(&base.join("zero"), 1 << 24).unwrap_err(),
            "not a regular file"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
