//! The repository's source files as reports need them: code frames in the terminal, the line
//! text that fingerprints hash. Files are read once, lazily, relative to the repository root.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Lazily read source files, keyed by repository-relative path.
#[derive(Debug)]
pub struct Sources {
    root: PathBuf,
    files: Mutex<HashMap<String, Option<Arc<str>>>>,
}

impl Sources {
    /// Sources read from the repository at `root`.
    pub fn new(root: impl Into<PathBuf>) -> Sources {
        Sources {
            root: root.into(),
            files: Mutex::new(HashMap::new()),
        }
    }

    /// Adds a file's text without reading the disk (tests; rendered or piped input).
    pub fn insert(&self, file: &str, text: &str) {
        if let Ok(mut files) = self.files.lock() {
            files.insert(file.to_string(), Some(Arc::from(text)));
        }
    }

    /// The whole text of `file`, or `None` when it cannot be read as UTF-8.
    pub fn text(&self, file: &str) -> Option<Arc<str>> {
        let mut files = self.files.lock().ok()?;
        files
            .entry(file.to_string())
            .or_insert_with(|| {
                std::fs::read_to_string(self.root.join(file))
                    .ok()
                    .map(Arc::from)
            })
            .clone()
    }

    /// Line `line` (from 1) of `file`, without its line ending.
    pub fn line(&self, file: &str, line: u32) -> Option<String> {
        let text = self.text(file)?;
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        text.lines()
            .nth(index)
            .map(|l| l.trim_end_matches('\r').to_string())
    }
}
