//! The text shown for a position in messages ([`crate::library::Workspace::line_at`]): the line
//! of a file of the workspace or of a data values file, or the flag (`key=value`) that gave a
//! value. [`Lines`] holds them apart from the workspace, for a thread that places findings
//! while the workspace goes on being used elsewhere.

use std::collections::HashMap;
use std::sync::Arc;

use crate::pos::Pos;

/// The lines positions are shown with, copied out of a workspace.
#[derive(Debug, Default)]
pub struct Lines {
    pub(super) flags: HashMap<Pos, String>,
    pub(super) sources: HashMap<String, Arc<str>>,
}

impl Lines {
    /// The source text shown for `pos` (empty when unknown).
    pub fn line_at(&self, pos: &Pos) -> String {
        line_at(&self.flags, &self.sources, pos)
    }

    /// The source text of the file positions name `file`.
    pub fn source_of(&self, file: &str) -> Option<Arc<str>> {
        self.sources.get(file).cloned()
    }
}

/// The text of `pos`: its flag's, else its line of its file's source.
pub(super) fn line_at(
    flags: &HashMap<Pos, String>,
    sources: &HashMap<String, Arc<str>>,
    pos: &Pos,
) -> String {
    if let Some(line) = flags.get(pos) {
        return line.clone();
    }
    match (&pos.file, pos.is_known()) {
        (Some(f), true) => sources
            .get(f.as_ref())
            .and_then(|src| crate::eval::run::line_of(src, pos.line))
            .unwrap_or_default(),
        _ => String::new(),
    }
}
