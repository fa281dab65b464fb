//! The repository as the linter sees it: the walk (ignore files, excluded globs, what a file
//! is), which YAML files are ytt templates, which only supplement others, repository-relative
//! paths, a cheap fingerprint of everything a run can read, and the sub-projects with their
//! own configuration (`nested.rs`).

pub mod crds;
pub mod embedded;
pub mod embedded_heredoc;
pub mod embedded_step;
pub mod filetest;
pub mod git_index;
pub mod ignores;
pub mod listing;
pub mod marker;
pub mod nested;
pub mod stray_marker;
pub mod supplementary;
pub mod tree;
pub mod walk;
pub mod walk_errors;
pub mod xrds;
pub mod yaml_doc;

/// Whether `text` holds `word`: memchr's search (AVX2 where there is one), several times
/// faster than `str::contains` on the whole repository's text, which every walk reads.
pub(crate) fn holds(text: &str, word: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), word.as_bytes()).is_some()
}
