//! The documents open in the editor: their text and version, by path. Every change is
//! mirrored into the file overlay ([`crate::files::overlay`]) so that a run of the linter reads
//! the buffers instead of the files on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::Uri;

/// One open document.
#[derive(Clone, Debug)]
pub struct Document {
    pub uri: Uri,
    pub text: Arc<str>,
    pub version: i32,
}

/// The open documents, by absolute path.
#[derive(Clone, Debug, Default)]
pub struct Documents {
    open: HashMap<PathBuf, Document>,
    /// Bumped by every change: what was computed from the documents at one generation is
    /// stale at the next.
    pub generation: u64,
}

impl Documents {
    /// Opens or replaces the document at `path`. What the job threads keep for the text it
    /// replaces is released (see [`crate::shared_cache::release`]): one version of each
    /// buffer is kept, not every version typed.
    pub fn set(&mut self, path: PathBuf, doc: Document) {
        crate::shared_cache::wanted(&doc.text);
        if let Some(old) = self.open.insert(path, doc.clone()) {
            if old.text != doc.text {
                crate::shared_cache::release(&old.text);
            }
        }
        self.changed();
    }

    /// Closes the document at `path` (the file on disk, `disk`, counts again); what was kept
    /// for its text is released unless the file holds the same text.
    pub fn close(&mut self, path: &Path, disk: Option<&[u8]>) {
        if let Some(old) = self.open.remove(path) {
            if disk != Some(old.text.as_bytes()) {
                crate::shared_cache::release(&old.text);
            }
        }
        self.changed();
    }

    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.open.get(path)
    }

    /// The paths of the open documents.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.open.keys().cloned().collect()
    }

    /// The version of each open document.
    pub fn versions(&self) -> HashMap<PathBuf, i32> {
        self.open
            .iter()
            .map(|(p, d)| (p.clone(), d.version))
            .collect()
    }

    /// The text of `path`: the buffer when it is open, else the file (read under the
    /// repository's policy `policy`).
    pub fn text(&self, path: &Path, policy: &crate::files::ReadPolicy) -> Option<Arc<str>> {
        if let Some(d) = self.open.get(path) {
            return Some(d.text.clone());
        }
        let bytes = crate::files::read_allowed(path, policy)?;
        String::from_utf8(bytes).ok().map(Arc::from)
    }

    fn changed(&mut self) {
        self.generation += 1;
        let buffers = self
            .open
            .iter()
            .map(|(p, d)| (p.clone(), Arc::from(d.text.as_bytes())))
            .collect();
        crate::files::overlay::set(buffers);
    }
}
