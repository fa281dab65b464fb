//! Source positions: which file, line and column a node or error comes from.

use std::fmt;
use std::sync::Arc;

/// A position in a source file. Lines and columns start at 1; a line of 0 means the position is
/// unknown (a value built by code rather than read from a file).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// The file's name as ytt shows it (its path relative to the library, or as given).
    pub file: Option<Arc<str>>,
    pub line: u32,
    pub col: u32,
    /// Byte offset of the start in the file's source.
    pub offset: u32,
}

impl Pos {
    pub fn new(file: &Arc<str>, line: u32, col: u32, offset: u32) -> Pos {
        Pos {
            file: Some(file.clone()),
            line,
            col,
            offset,
        }
    }

    /// A position that points nowhere.
    pub fn unknown() -> Pos {
        Pos::default()
    }

    pub fn is_known(&self) -> bool {
        self.line > 0
    }

    /// `file:line`, as ytt prints positions in messages (`?` when unknown).
    pub fn as_compact(&self) -> String {
        match (&self.file, self.is_known()) {
            (Some(f), true) => format!("{}:{}", f, self.line),
            (Some(f), false) => format!("{}:?", f),
            (None, true) => self.line.to_string(),
            (None, false) => "?".to_string(),
        }
    }
}

impl Pos {
    /// `line file:line`, ytt's long form.
    pub fn as_line_string(&self) -> String {
        format!("line {}", self.as_compact())
    }

    /// The line number, or `?` when unknown.
    pub fn as_int_string(&self) -> String {
        if self.is_known() {
            self.line.to_string()
        } else {
            "?".to_string()
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_compact())
    }
}
