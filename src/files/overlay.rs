//! Unsaved editor buffers standing in for files on disk (the language server's open
//! documents). The file is still read under the repository's policy first: a buffer only
//! replaces the bytes of a file the linter may read, so the overlay never widens what is read.
//! The command line installs one only for `--diff`, whose later passes lint the fixed texts
//! without writing them (the pool sends the buffers to its worker processes with each job);
//! otherwise reads cost one atomic load more.
//!
//! This is process-wide state, on purpose and in one place: the jobs of a run read files deep
//! in the pipeline (inputs, sources, the repository walk), and threading the buffers through
//! every stage and the worker protocol would touch them all for one caller.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// Absolute, lexically normal path → the buffer's bytes.
pub type Buffers = HashMap<PathBuf, Arc<[u8]>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);
static BUFFERS: RwLock<Option<Arc<Buffers>>> = RwLock::new(None);

/// Replaces the buffers (an empty map turns the overlay off).
pub fn set(buffers: Buffers) {
    let on = !buffers.is_empty();
    if let Ok(mut b) = BUFFERS.write() {
        *b = on.then(|| Arc::new(buffers));
        ACTIVE.store(on, Ordering::SeqCst);
    }
}

/// The buffers in place, if any.
pub fn current() -> Option<Arc<Buffers>> {
    if !ACTIVE.load(Ordering::SeqCst) {
        return None;
    }
    BUFFERS.read().ok()?.clone()
}

/// The buffer that stands for the file at `path`, if any.
pub fn get(path: &Path) -> Option<Arc<[u8]>> {
    if !ACTIVE.load(Ordering::SeqCst) {
        return None;
    }
    let key = if path.is_absolute() {
        super::lexical_absolute(Path::new("/"), path)
    } else {
        let cwd = std::env::current_dir().ok()?;
        super::lexical_absolute(&cwd, path)
    };
    let buffers = BUFFERS.read().ok()?.clone()?;
    buffers.get(&key).cloned()
}

/// `bytes` read from `path`, or the buffer that stands for it.
pub fn substitute(path: &Path, bytes: Vec<u8>) -> Vec<u8> {
    match get(path) {
        Some(b) => b.to_vec(),
        None => bytes,
    }
}

/// The bytes of `path`: its buffer, or the disk (the repository walk's read, whose policy
/// the walker applies).
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let bytes = std::fs::read(path)?;
    Ok(substitute(path, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_replace_files_that_exist() {
        let dir = std::env::temp_dir().join(format!("yttlint-overlay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.yml");
        std::fs::write(&file, "disk").unwrap();
        assert_eq!(read(&file).unwrap(), b"disk");
        set(HashMap::from([(file.clone(), Arc::from(&b"buffer"[..]))]));
        assert_eq!(read(&dir.join("./a.yml")).unwrap(), b"buffer");
        // A buffer never creates a file.
        set(HashMap::from([(dir.join("b.yml"), Arc::from(&b"x"[..]))]));
        assert!(read(&dir.join("b.yml")).is_err());
        set(HashMap::new());
        assert_eq!(read(&file).unwrap(), b"disk");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
