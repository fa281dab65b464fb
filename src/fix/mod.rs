//! Fixes: what a finding can change in the files to go away. A [`Fix`] is a short title, how
//! sure it is ([`Applicability`]) and the [`Edit`]s it makes (byte ranges of repository files
//! and their replacement text). Findings carry their fix (`report::Diagnostic::fix`), so that
//! `yttlint --fix`, `--diff` and an editor's code actions read the same data.
//!
//! `apply` chooses the fixes that do not overlap and applies them to a file's text; `diff`
//! shows the change as a unified diff; `write` writes a fixed file back into the repository.

pub mod apply;
pub mod diff;
pub mod edit;
pub mod write;

use serde::{Deserialize, Serialize};

pub use edit::Edit;

/// How sure a fix is to keep what the files mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// The rendered output of every root stays byte for byte the same: `--fix` applies it.
    Safe,
    /// The fix changes what ytt renders (on purpose: an annotation starts to apply, a data
    /// value is read under another name), or may: only `--fix --unsafe-fixes` applies it.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// A change that makes a finding go away.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Fix {
    /// What it does, in a few words (`Replace with `#@overlay/append``).
    pub title: String,
    pub applicability: Applicability,
    /// The edits, all applied or none; never empty.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A fix of one edit that `--fix` applies.
    pub fn safe(title: impl Into<String>, edit: Edit) -> Fix {
        Fix {
            title: title.into(),
            applicability: Applicability::Safe,
            edits: vec![edit],
        }
    }

    /// A fix of one edit that only `--fix --unsafe-fixes` applies.
    pub fn unsafe_(title: impl Into<String>, edit: Edit) -> Fix {
        Fix {
            title: title.into(),
            applicability: Applicability::Unsafe,
            edits: vec![edit],
        }
    }

    /// Whether the fix is applied when unsafe fixes are (`unsafe_fixes`) or are not allowed.
    pub fn allowed(&self, unsafe_fixes: bool) -> bool {
        self.applicability == Applicability::Safe || unsafe_fixes
    }

    /// The fix with the file of every edit passed through `place` (a workspace path made a
    /// repository path); `None` when `place` has no answer for one of them.
    pub fn placed(mut self, place: &dyn Fn(&str) -> Option<String>) -> Option<Fix> {
        for e in &mut self.edits {
            e.file = place(&e.file)?;
        }
        Some(self)
    }
}
