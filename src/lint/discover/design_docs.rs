//! Design documents: a directory named `proposals`, `rfcs` or `enhancements` (or `proposal`,
//! `rfc`, `keps`) holds write-ups of features, whose YAML files illustrate a ytt that may not
//! exist yet (carvel-dev/carvel's `proposals/ytt/` uses annotations ytt never had). Nobody
//! runs them, so discovery makes no root of them on its own: a repository command that runs
//! one, or a root in `.yttlint.yaml`, still does.

use std::collections::BTreeSet;

use crate::lint::repo::walk::RepoFile;

/// Directory names that hold design documents (compared in lower case).
const NAMES: [&str; 6] = [
    "proposals",
    "proposal",
    "rfcs",
    "rfc",
    "enhancements",
    "keps",
];

/// The design directory a repository-relative path lies in (the path up to it), if any.
pub fn dir_of(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let at = parts
        .iter()
        .position(|c| NAMES.contains(&c.to_ascii_lowercase().as_str()))?;
    // The last component of a file's path is its name, not a directory.
    (at + 1 < parts.len()).then(|| parts[..=at].join("/"))
}

/// `files` without the ytt files of design directories, and the notes that say which
/// directories were left out.
pub fn set_aside(files: &[RepoFile]) -> (Vec<RepoFile>, Vec<String>) {
    let mut dirs = BTreeSet::new();
    let kept = files
        .iter()
        .filter(|f| match (f.kind.is_ytt(), dir_of(&f.path)) {
            (true, Some(dir)) => {
                dirs.insert(dir);
                false
            }
            _ => true,
        })
        .cloned()
        .collect();
    let notes = dirs
        .into_iter()
        .map(|d| {
            format!(
                "{d}: design documents, not linted unless a repository command runs them (list a directory under roots in .yttlint.yaml to lint it)"
            )
        })
        .collect();
    (kept, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_directories_are_found_by_name() {
        assert_eq!(
            dir_of("proposals/ytt/001-schemas/example.yaml"),
            Some("proposals".to_string())
        );
        assert_eq!(
            dir_of("docs/RFCs/0002/values.yml"),
            Some("docs/RFCs".to_string())
        );
        assert_eq!(dir_of("config/proposals.yml"), None);
        assert_eq!(dir_of("config/app.yml"), None);
    }
}
