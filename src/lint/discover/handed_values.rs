//! The private libraries that a committed `.star` or template file of the repository hands
//! data values whole (`library.get("registry").with_data_values(parent, plain=True)`, the
//! object's keys not written there: round sixteen's R16A-1), whether or not any root gives
//! that file. In GrahamDumpleton/fat-controller a Go bridge runs the `.star` file: no ytt
//! command of the repository names it, so no job sees the call, and the library's schema
//! keys that exist to accept the whole object (`apiVersion`, `kind`, `status`) would be
//! reported unused. The library is named by the call as the analysis reads it
//! ([`crate::analysis::value_reads::handed_over`]); `post/unused_values.rs` reports nothing
//! of a library named here.
//!
//! Bounded: files of at most 1 MiB, at most [`MAX_FILES`] of them read (only those whose
//! text calls `with_data_values`, which the walk saw: `RepoFile::hands_values`), each parsed
//! alone.

use std::path::Path;

use super::invocations::scripts;
use crate::analysis::value_reads::handed_over;
use crate::files::InputFile;
use crate::library::{EvalOpts, Workspace};
use crate::lint::repo::walk::{Kind, RepoFile, HANDS_VALUES_CALL};

/// The largest file read.
const MAX: usize = 1 << 20;
/// The most files parsed.
const MAX_FILES: usize = 500;

/// The private libraries (repository paths: `dir/_ytt_lib/name`, or `dir/_ytt_lib` when the
/// name is not written) the repository's ytt files hand data values whole.
pub fn of(repo: &Path, files: &[RepoFile]) -> Vec<String> {
    let mut out = Vec::new();
    let mut parsed = 0usize;
    for f in files
        .iter()
        .filter(|f| f.hands_values && matches!(f.kind, Kind::Starlark | Kind::YttYaml))
    {
        if parsed >= MAX_FILES {
            break;
        }
        let Some(text) = scripts::read(repo, &f.path, MAX) else {
            continue;
        };
        if !text.contains(HANDS_VALUES_CALL) {
            continue;
        }
        parsed += 1;
        let ws = Workspace::new(vec![InputFile::new(&f.path, &text)], EvalOpts::default());
        out.extend(handed_over(&crate::analysis::index::Index::new(&ws, "")));
    }
    out.sort();
    out.dedup();
    out
}
