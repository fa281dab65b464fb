//! Files as each operating system has them: the kinds of special file (Unix's named pipes,
//! devices and sockets; Windows has none a path can name), links (Unix's symbolic links;
//! Windows' symbolic links and junctions, the reparse points that redirect a path, which the
//! standard library counts as symbolic links and the linter refuses as ytt refuses symbolic
//! links), opening a file without blocking or without following a link, where an open file
//! really is (Linux's `/proc/self/fd`, macOS's `F_GETPATH`, Windows'
//! `GetFinalPathNameByHandleW`), the stamp the run cache compares, and private directories.

use std::fs::{File, FileType, Metadata, OpenOptions};
use std::path::{Path, PathBuf};

/// How [`special_kind`] names a named pipe (ytt reads one it is given: `-f <(echo ---)`).
pub const NAMED_PIPE: &str = "a named pipe";

/// What a special file is (`a named pipe`, `a device`, `a socket`), `None` for the others.
#[cfg(unix)]
pub fn special_kind(ft: FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        Some(NAMED_PIPE)
    } else if ft.is_char_device() || ft.is_block_device() {
        Some("a device")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// What a special file is: on Windows a path names a file, a directory or a reparse point.
#[cfg(windows)]
pub fn special_kind(_ft: FileType) -> Option<&'static str> {
    None
}

/// Whether `meta`, taken without following links, is a link: a symbolic link, or on Windows a
/// junction too (a name-surrogate reparse point, which `is_symlink` covers).
pub fn is_link(meta: &Metadata) -> bool {
    meta.file_type().is_symlink()
}

/// Opens `p` for reading, following links, never blocking on a named pipe and never becoming
/// the process's controlling terminal. A directory opens too (its type is then read on the
/// handle).
pub fn open_read(p: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        options.custom_flags(windows_sys::Win32::Storage::FileSystem::FILE_FLAG_BACKUP_SEMANTICS);
    }
    options.open(p)
}

/// Opens `p` for reading unless it is a link (an error then), never blocking.
pub fn open_read_nofollow(p: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        use windows_sys::Win32::Storage::FileSystem as w;
        options.custom_flags(w::FILE_FLAG_OPEN_REPARSE_POINT | w::FILE_FLAG_BACKUP_SEMANTICS);
    }
    let file = options.open(p)?;
    // Windows opens the reparse point itself: refused here. On Unix `O_NOFOLLOW` already
    // refused a link (`ELOOP`), so no `fstat` is spent on every file read.
    #[cfg(windows)]
    if file.metadata()?.file_type().is_symlink() {
        return Err(std::io::Error::other("a symbolic link"));
    }
    Ok(file)
}

/// Opens `rel` beneath the directory `root` for reading, never blocking, with no link
/// followed anywhere on the way (Linux's `openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS`, from a handle on `root` each thread keeps): the file opened is then
/// `root/rel` itself, so nobody need ask where it really is. `root` must be an absolute path
/// with no link in it (a real path), `rel` plain names only (no `..`, `.` or root). `None`
/// when that cannot be done (a link on the way, a missing file, a system without `openat2`
/// or one refusing it, another system): the caller opens the file its other way, with the
/// same outcome.
pub fn open_beneath(root: &Path, rel: &Path) -> Option<File> {
    let plain = rel
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !plain || !root.is_absolute() || rel.as_os_str().is_empty() {
        return None;
    }
    beneath::open(root, rel)
}

#[cfg(target_os = "linux")]
mod beneath {
    use std::cell::RefCell;
    use std::fs::File;
    use std::os::fd::OwnedFd;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicBool, Ordering};

    use rustix::fs::{openat2, Mode, OFlags, ResolveFlags, CWD};
    use rustix::io::Errno;

    /// Cleared when the system says it has no `openat2` (older kernels, containers whose
    /// seccomp filter refuses it): every open then goes the other way.
    static AVAILABLE: AtomicBool = AtomicBool::new(true);

    thread_local! {
        /// The last root this thread opened beneath, and its handle (`None`: it would not
        /// open as a real directory).
        static ROOT: RefCell<Option<(PathBuf, Option<OwnedFd>)>> = const { RefCell::new(None) };
    }

    const RESOLVE: ResolveFlags = ResolveFlags::BENEATH.union(ResolveFlags::NO_SYMLINKS);

    pub fn open(root: &Path, rel: &Path) -> Option<File> {
        if !AVAILABLE.load(Ordering::Relaxed) {
            return None;
        }
        ROOT.with(|kept| {
            let mut kept = kept.borrow_mut();
            if kept.as_ref().is_none_or(|(r, _)| r != root) {
                // The root itself with no link on its way: it is then a real path.
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                let fd = match openat2(CWD, root, flags, Mode::empty(), ResolveFlags::NO_SYMLINKS) {
                    Ok(fd) => Some(fd),
                    Err(e) => {
                        unavailable(e);
                        None
                    }
                };
                *kept = Some((root.to_path_buf(), fd));
            }
            let dir = kept.as_ref()?.1.as_ref()?;
            let flags = OFlags::RDONLY
                | OFlags::NOFOLLOW
                | OFlags::NONBLOCK
                | OFlags::NOCTTY
                | OFlags::CLOEXEC;
            match openat2(dir, rel, flags, Mode::empty(), RESOLVE) {
                Ok(fd) => Some(File::from(fd)),
                Err(e) => {
                    unavailable(e);
                    None
                }
            }
        })
    }

    /// Remembers that `openat2` is not there when `e` says so.
    fn unavailable(e: Errno) {
        if [Errno::NOSYS, Errno::PERM, Errno::INVAL, Errno::TOOBIG].contains(&e) {
            AVAILABLE.store(false, Ordering::Relaxed);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod beneath {
    use std::fs::File;
    use std::path::Path;

    pub fn open(_root: &Path, _rel: &Path) -> Option<File> {
        None
    }
}

/// Creates the new file `p`, never over an existing entry and never through a link, with the
/// permissions `mode` (Unix; Windows files get their directory's).
pub fn create_new(p: &Path, mode: u32) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW).mode(mode);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        let _ = mode;
        options.custom_flags(windows_sys::Win32::Storage::FileSystem::FILE_FLAG_OPEN_REPARSE_POINT);
    }
    options.open(p)
}

/// Where the open `file` really is, as the system names it: Linux's `/proc/self/fd/N` link,
/// macOS's `F_GETPATH`, Windows' final path (`\\?\C:\...`, as `std::fs::canonicalize` gives).
/// `None` where the system does not say.
pub fn real_path(file: &File) -> Option<PathBuf> {
    let path = real_path_of(file)?;
    path.is_absolute().then_some(path)
}

#[cfg(target_os = "linux")]
fn real_path_of(file: &File) -> Option<PathBuf> {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
fn real_path_of(file: &File) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let path = rustix::fs::getpath(file).ok()?;
    Some(PathBuf::from(std::ffi::OsString::from_vec(
        path.into_bytes(),
    )))
}

#[cfg(all(
    unix,
    not(any(target_os = "linux", target_os = "macos", target_os = "ios"))
))]
fn real_path_of(_file: &File) -> Option<PathBuf> {
    None
}

#[cfg(windows)]
fn real_path_of(file: &File) -> Option<PathBuf> {
    use std::os::windows::ffi::OsStringExt;
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{
        GetFinalPathNameByHandleW, FILE_NAME_NORMALIZED,
    };
    let mut buf = vec![0u16; 512];
    loop {
        let cap = u32::try_from(buf.len()).ok()?;
        // SAFETY: the handle is open for the call; the buffer holds `cap` UTF-16 units.
        let n = unsafe {
            GetFinalPathNameByHandleW(
                file.as_raw_handle(),
                buf.as_mut_ptr(),
                cap,
                FILE_NAME_NORMALIZED,
            )
        };
        let n = usize::try_from(n).ok()?;
        if n == 0 {
            return None;
        }
        if n < buf.len() {
            buf.truncate(n);
            return Some(PathBuf::from(std::ffi::OsString::from_wide(&buf)));
        }
        // Too small: `n` is the size needed, with its terminating NUL.
        buf.resize(n + 1, 0);
    }
}

/// Whether `e` says a chain of links loops (Unix's `ELOOP`; Windows' "the name of the file
/// cannot be resolved by the system").
pub fn is_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    let code = libc::ELOOP;
    #[cfg(windows)]
    let code = windows_sys::Win32::Foundation::ERROR_CANT_RESOLVE_FILENAME as i32;
    e.raw_os_error() == Some(code)
}

/// What the run cache compares of a file besides its name, kind and length: its identity on
/// its device, its permissions, when its content and its entry last changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The inode (Unix); 0 on Windows, whose file index the standard library does not give.
    pub id: u64,
    /// The mode bits (Unix); the file attributes on Windows.
    pub mode: u32,
    /// The last change of the content, in nanoseconds since the system's epoch.
    pub modified_ns: u128,
    /// The last change of the entry (Unix's `ctime`: a rename, a new mode); Windows keeps no
    /// such time, and its creation time stands in.
    pub changed_ns: u128,
}

/// The [`Stamp`] of `meta`.
#[cfg(unix)]
pub fn stamp(meta: &Metadata) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    let ns = |s: i64, n: i64| (i128::from(s) * 1_000_000_000 + i128::from(n)).max(0) as u128;
    Stamp {
        id: meta.ino(),
        mode: meta.mode(),
        modified_ns: ns(meta.mtime(), meta.mtime_nsec()),
        changed_ns: ns(meta.ctime(), meta.ctime_nsec()),
    }
}

/// The [`Stamp`] of `meta`.
#[cfg(windows)]
pub fn stamp(meta: &Metadata) -> Stamp {
    use std::os::windows::fs::MetadataExt;
    Stamp {
        id: 0,
        mode: meta.file_attributes(),
        modified_ns: u128::from(meta.last_write_time()) * 100,
        changed_ns: u128::from(meta.creation_time()) * 100,
    }
}

/// The permission bits of a file: Unix's mode (with set-id and sticky bits); on Windows
/// `0o444` for a read-only file, else `0o644`.
pub fn mode(meta: &Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(windows)]
    {
        if meta.permissions().readonly() {
            0o444
        } else {
            0o644
        }
    }
}

/// Gives `path` the permission bits `mode` ([`mode`]'s reading of them on Windows).
pub fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(windows)]
    {
        let mut permissions = std::fs::metadata(path)?.permissions();
        permissions.set_readonly(mode & 0o222 == 0);
        std::fs::set_permissions(path, permissions)
    }
}

/// Creates `dir` and its missing parents, the new ones for their owner alone (0700 on Unix;
/// on Windows they inherit their parent's access list, a user profile's being private).
pub fn create_private_dir_all(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Makes `link` a symbolic link to `target` (tests and fixtures; on Windows a file or
/// directory link as `target` is one, which needs the privilege to create links).
pub fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(windows)]
    {
        let at = link.parent().unwrap_or(Path::new(".")).join(target);
        if at.is_dir() {
            std::os::windows::fs::symlink_dir(target, link)
        } else {
            std::os::windows::fs::symlink_file(target, link)
        }
    }
}

/// A file name from raw bytes, as Unix keeps names (they need not be UTF-8): for tests of
/// such names.
#[cfg(unix)]
pub fn name_from_bytes(bytes: &[u8]) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(bytes).to_os_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_file_says_where_it_is() {
        let base = std::env::temp_dir().join(format!("yttlint-realpath-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("a"), "a").unwrap();
        let file = open_read(&base.join("a")).unwrap();
        let want = std::fs::canonicalize(base.join("a")).unwrap();
        if cfg!(any(target_os = "linux", target_os = "macos", windows)) {
            assert_eq!(real_path(&file), Some(want));
        }
        drop(file);
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_file_opens_beneath_its_root_with_no_link_on_the_way() {
        let base = std::env::temp_dir().join(format!("yttlint-beneath-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("root/d")).unwrap();
        std::fs::write(base.join("root/d/a"), "a").unwrap();
        std::fs::write(base.join("out"), "out").unwrap();
        let root = std::fs::canonicalize(base.join("root")).unwrap();
        let made = symlink(Path::new("d"), &root.join("l")).is_ok()
            && symlink(&base.join("out"), &root.join("o")).is_ok();
        let read = |rel: &str| {
            open_beneath(&root, Path::new(rel)).map(|mut f| {
                let mut s = String::new();
                std::io::Read::read_to_string(&mut f, &mut s)
                    .map(|_| s)
                    .ok()
            })
        };
        if cfg!(target_os = "linux") && read("d/a").is_some() {
            assert_eq!(read("d/a"), Some(Some("a".to_string())));
        } else {
            // No `openat2` here: every file opens the other way.
            assert_eq!(read("d/a"), None);
        }
        // Never through a link, up, from a relative root or to a missing file.
        if made {
            assert_eq!(read("l/a"), None);
            assert_eq!(read("o"), None);
        }
        assert_eq!(read("d/../d/a"), None);
        assert_eq!(read("missing"), None);
        assert_eq!(read(""), None);
        assert!(open_beneath(Path::new("root"), Path::new("d/a")).is_none());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_link_is_never_opened_through() {
        let base = std::env::temp_dir().join(format!("yttlint-nofollow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("a"), "a").unwrap();
        // Where links can be made and are seen as links (Windows needs the privilege; Wine's
        // links are not reparse points).
        let made = symlink(Path::new("a"), &base.join("l")).is_ok()
            && std::fs::symlink_metadata(base.join("l")).is_ok_and(|m| is_link(&m));
        if made {
            assert!(open_read_nofollow(&base.join("l")).is_err());
            assert!(create_new(&base.join("l"), 0o600).is_err());
            assert!(is_link(&std::fs::symlink_metadata(base.join("l")).unwrap()));
        }
        assert!(open_read_nofollow(&base.join("a")).is_ok());
        assert!(create_new(&base.join("a"), 0o600).is_err());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
