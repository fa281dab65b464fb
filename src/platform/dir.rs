//! A directory held open, in which files are looked at, created, renamed and removed by name,
//! so that a directory swapped for a link after it was checked cannot lead a write elsewhere:
//! on Unix every call is relative to the directory's descriptor (`fstatat`, `openat` with
//! `O_CREAT|O_EXCL|O_NOFOLLOW`, `renameat`, `unlinkat`, `linkat`, through `rustix`). Windows has
//! no such calls in its documented API; there the directory is held open without sharing the
//! right to delete it, which keeps anyone from renaming or removing it (or, the file system
//! refusing to rename a directory with open handles under it, any directory above it) while it
//! is held, and the calls name files under its final path, read from the handle.

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};

/// What a name of the directory is, not following a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Nothing has the name.
    Missing,
    /// A symbolic link (or a Windows junction).
    Link,
    /// A regular file, with its permission bits ([`crate::platform::fs::mode`]).
    File { mode: u32 },
    /// A directory or a special file.
    Other,
}

/// A directory held open.
pub struct Dir {
    handle: File,
    /// Where it is (Windows, where calls name files by path).
    #[cfg(windows)]
    path: PathBuf,
}

impl Dir {
    /// Opens the directory `path` (a link in the path is followed: check where it really is
    /// with [`Dir::real_path`]).
    pub fn open(path: &Path) -> std::io::Result<Dir> {
        Dir::open_impl(path)
    }

    /// Where the directory really is (the system's name of the handle), `None` where the
    /// system does not say.
    pub fn real_path(&self) -> Option<PathBuf> {
        super::fs::real_path(&self.handle)
    }
}

#[cfg(unix)]
impl Dir {
    fn open_impl(path: &Path) -> std::io::Result<Dir> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rustix::fs::open(path, flags, Mode::empty())?;
        Ok(Dir {
            handle: File::from(fd),
        })
    }

    /// What `name` is in the directory, without following a link.
    // `st_mode` is a u32 on Linux, a u16 on macOS.
    #[allow(clippy::unnecessary_cast)]
    pub fn entry(&self, name: &OsStr) -> std::io::Result<Entry> {
        use rustix::fs::{AtFlags, FileType};
        match rustix::fs::statat(&self.handle, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(match FileType::from_raw_mode(st.st_mode as _) {
                FileType::Symlink => Entry::Link,
                FileType::RegularFile => Entry::File {
                    mode: (st.st_mode as u32) & 0o7777,
                },
                _ => Entry::Other,
            }),
            Err(rustix::io::Errno::NOENT) => Ok(Entry::Missing),
            Err(e) => Err(e.into()),
        }
    }

    /// Creates the new file `name` for writing (never over an existing entry, never through
    /// a link), with the permissions `mode` less the process's umask.
    pub fn create_new(&self, name: &OsStr, mode: u32) -> std::io::Result<File> {
        use rustix::fs::{Mode, OFlags};
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.handle, name, flags, Mode::from_raw_mode(mode as _))?;
        Ok(File::from(fd))
    }

    /// Renames `from` to `to` in the directory, replacing `to`.
    pub fn rename(&self, from: &OsStr, to: &OsStr) -> std::io::Result<()> {
        Ok(rustix::fs::renameat(&self.handle, from, &self.handle, to)?)
    }

    /// Links the new name `to` to the file `from`: fails when `to` exists.
    pub fn hard_link(&self, from: &OsStr, to: &OsStr) -> std::io::Result<()> {
        use rustix::fs::AtFlags;
        Ok(rustix::fs::linkat(
            &self.handle,
            from,
            &self.handle,
            to,
            AtFlags::empty(),
        )?)
    }

    /// Removes the file `name`.
    pub fn remove_file(&self, name: &OsStr) -> std::io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.handle,
            name,
            rustix::fs::AtFlags::empty(),
        )?)
    }
}

#[cfg(windows)]
impl Dir {
    fn open_impl(path: &Path) -> std::io::Result<Dir> {
        use std::os::windows::fs::OpenOptionsExt;
        use windows_sys::Win32::Storage::FileSystem as w;
        let handle = std::fs::OpenOptions::new()
            .read(true)
            .share_mode(w::FILE_SHARE_READ | w::FILE_SHARE_WRITE)
            .custom_flags(w::FILE_FLAG_BACKUP_SEMANTICS)
            .open(path)?;
        if !handle.metadata()?.is_dir() {
            return Err(std::io::Error::from(std::io::ErrorKind::NotADirectory));
        }
        let path = super::fs::real_path(&handle)
            .ok_or_else(|| std::io::Error::other("the directory's path cannot be read"))?;
        Ok(Dir { handle, path })
    }

    fn at(&self, name: &OsStr) -> std::io::Result<PathBuf> {
        let plain = Path::new(name).components().count() == 1
            && matches!(
                Path::new(name).components().next(),
                Some(std::path::Component::Normal(_))
            );
        if !plain {
            return Err(std::io::Error::from(std::io::ErrorKind::InvalidInput));
        }
        Ok(self.path.join(name))
    }

    /// What `name` is in the directory, without following a link.
    pub fn entry(&self, name: &OsStr) -> std::io::Result<Entry> {
        match std::fs::symlink_metadata(self.at(name)?) {
            Ok(m) if super::fs::is_link(&m) => Ok(Entry::Link),
            Ok(m) if m.is_file() => Ok(Entry::File {
                mode: super::fs::mode(&m),
            }),
            Ok(_) => Ok(Entry::Other),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Entry::Missing),
            Err(e) => Err(e),
        }
    }

    /// Creates the new file `name` for writing (never over an existing entry, never through
    /// a reparse point); `mode` only says whether it is read-only.
    pub fn create_new(&self, name: &OsStr, mode: u32) -> std::io::Result<File> {
        super::fs::create_new(&self.at(name)?, mode)
    }

    /// Renames `from` to `to` in the directory, replacing `to`.
    pub fn rename(&self, from: &OsStr, to: &OsStr) -> std::io::Result<()> {
        std::fs::rename(self.at(from)?, self.at(to)?)
    }

    /// Links the new name `to` to the file `from`: fails when `to` exists.
    pub fn hard_link(&self, from: &OsStr, to: &OsStr) -> std::io::Result<()> {
        std::fs::hard_link(self.at(from)?, self.at(to)?)
    }

    /// Removes the file `name`.
    pub fn remove_file(&self, name: &OsStr) -> std::io::Result<()> {
        std::fs::remove_file(self.at(name)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_made_and_renamed_by_name_in_the_held_directory() {
        let base = std::env::temp_dir().join(format!("yttlint-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("d")).unwrap();
        let dir = Dir::open(&base.join("d")).unwrap();
        let name = |s: &str| OsStr::new(s).to_os_string();
        assert_eq!(dir.entry(&name("t")).unwrap(), Entry::Missing);
        {
            use std::io::Write;
            let mut f = dir.create_new(&name("t.tmp"), 0o600).unwrap();
            f.write_all(b"x").unwrap();
        }
        assert!(dir.create_new(&name("t.tmp"), 0o600).is_err());
        dir.rename(&name("t.tmp"), &name("t")).unwrap();
        assert!(matches!(dir.entry(&name("t")).unwrap(), Entry::File { .. }));
        dir.hard_link(&name("t"), &name("u")).unwrap();
        assert!(dir.hard_link(&name("t"), &name("u")).is_err());
        dir.remove_file(&name("u")).unwrap();
        assert_eq!(std::fs::read(base.join("d/t")).unwrap(), b"x");
        assert_eq!(
            dir.real_path(),
            Some(std::fs::canonicalize(base.join("d")).unwrap())
        );
        // Windows: nobody renames the directory while it is held.
        if cfg!(windows) {
            assert!(std::fs::rename(base.join("d"), base.join("e")).is_err());
        }
        drop(dir);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
