//! Temporary directories for one test each: a fresh name per directory (the tests of this
//! binary run in parallel in one process), files written from `(path, text)` pairs or copied
//! from a fixture, and everything removed when the value is dropped, failed test or not.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use super::fixtures::copy_tree;
use super::fixtures::fixture;

/// Directories made so far by this process: the counter that keeps their names apart.
static MADE: AtomicUsize = AtomicUsize::new(0);

/// A directory under the system's temporary directory, removed on drop. It derefs to its
/// path.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// A new empty directory, named after the test that asked for it (its thread's name).
    pub fn new() -> TempDir {
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let thread = std::thread::current();
        let test: String = thread
            .name()
            .unwrap_or("test")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(60)
            .collect();
        let path =
            std::env::temp_dir().join(format!("yttlint-it-{}-{n}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir { path }
    }

    /// A new directory holding `files` (`(path, text)`, parents created).
    pub fn with_files(files: &[(&str, &str)]) -> TempDir {
        let dir = TempDir::new();
        for (path, text) in files {
            dir.write(path, text);
        }
        dir
    }

    /// A new directory holding a copy of `fixtures/<name>`, without the result cache a run in
    /// the fixture may have left there.
    pub fn copy_of(name: &str) -> TempDir {
        let dir = TempDir::new();
        copy_tree(&fixture(name), &dir);
        super::fixtures::as_clone(&dir);
        dir
    }

    /// Writes `path` (relative to the directory), creating its parents; returns its full path.
    pub fn write(&self, path: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let full = self.path.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
        }
        std::fs::write(&full, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", full.display()));
        full
    }
}

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(unix)]
/// Makes a named pipe at `path` (mkfifo(3), so that no test needs the `mkfifo` program).
pub fn make_fifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c_path` is a NUL-terminated string that outlives the call.
    let status = unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) };
    assert_eq!(
        status,
        0,
        "mkfifo {}: {}",
        path.display(),
        std::io::Error::last_os_error()
    );
}
