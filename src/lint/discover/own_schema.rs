//! A folder below a topmost directory that is a library of its own: it holds templates and a
//! `#@data/values-schema` of its own, and that schema cannot overlay the top's (or the top's
//! it) as `ytt -f TOP` would give them: a top-level key of the later one is not in the ones
//! before it, and neither says how to match (`#@overlay/...`). ytt fails on that merge for
//! certain, so the folder is not part of the top's library but a root of its own (round
//! twenty-six's R26-2: a demo's top-level schema and template pair beside `ytt/manifests/`
//! with its own schema and `ytt/values-*.yaml`). The data values files between the top and
//! such a folder are that library's, not the top's.

use std::collections::BTreeSet;
use std::path::Path;

use crate::files::paths::{self, is_within};

/// The folders among `dirs` strictly within `top` whose own schema files (of `schemas`, the
/// repository's schema-only files nothing else covers) conflict with the top's: the topmost
/// of them. `None` of either, or a schema the keys of which cannot be read, splits nothing.
pub fn libraries(repo: &Path, top: &str, dirs: &BTreeSet<String>, schemas: &[&str]) -> Vec<String> {
    let keys =
        |p: &str| crate::files::repo_text::read_repo_text(repo, p).and_then(|t| top_keys(&t));
    let inner: Vec<&String> = dirs
        .iter()
        .filter(|d| d.as_str() != top && is_within(d, top))
        .collect();
    let own = |f: &&&str| is_within(f, top) && !inner.iter().any(|d| is_within(f, d));
    let mut top_files: Vec<&str> = schemas.iter().filter(own).copied().collect();
    if top_files.is_empty() {
        return Vec::new();
    }
    top_files.sort_unstable_by(|a, b| order(a, b));
    let mut split = BTreeSet::new();
    for dir in &inner {
        let mut mine: Vec<&str> = schemas
            .iter()
            .filter(|f| is_within(f, dir))
            .copied()
            .collect();
        if mine.is_empty() {
            continue;
        }
        mine.sort_unstable_by(|a, b| order(a, b));
        if conflict(&top_files, &mine, &keys) {
            split.insert(dir.to_string());
        }
    }
    super::topmost::topmost(&split)
}

/// ytt's order of two files of one directory: by name, folder by folder.
fn order(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}

/// Whether overlaying the two sets of schema files in ytt's order (their paths' order) fails:
/// the first file of the set that comes later has a top-level key that no file before it has.
fn conflict(a: &[&str], b: &[&str], keys: &dyn Fn(&str) -> Option<BTreeSet<String>>) -> bool {
    let (Some(a0), Some(b0)) = (a.first(), b.first()) else {
        return false;
    };
    let (before, later) = match order(a0, b0) {
        std::cmp::Ordering::Less => (a, *b0),
        _ => (b, *a0),
    };
    let mut base = BTreeSet::new();
    for f in before.iter().filter(|f| order(f, later).is_lt()) {
        let Some(k) = keys(f) else { return false };
        base.extend(k);
    }
    let Some(added) = keys(later) else {
        return false;
    };
    !base.is_empty() && added.iter().any(|k| !base.contains(k))
}

/// The top-level keys of a schema file's block-map documents; `None` when a document is not
/// one or an annotation may change how it is matched (`#@overlay/...`).
pub fn top_keys(text: &str) -> Option<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#@") && trimmed.contains("overlay/") {
            return None;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') || line.starts_with([' ', '\t']) {
            continue;
        }
        if line == "---" || line.starts_with("--- #") {
            continue;
        }
        let (key, _) = line.split_once(':')?;
        let key = key.trim().trim_matches(['"', '\'']);
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
        if key.is_empty() || !key.chars().all(plain) {
            return None;
        }
        out.insert(key.to_string());
    }
    Some(out)
}

/// Whether `path` is a data values file lying between `top` and one of `libraries` (in a
/// folder that holds one of them, below the top): that library's, not the top's.
pub fn beside_library(path: &str, top: &str, libraries: &[String]) -> bool {
    let dir = paths::parent(path);
    dir != top && is_within(dir, top) && libraries.iter().any(|l| is_within(l, dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_keys_of_a_block_map_schema() {
        let keys = top_keys("#@data/values-schema\n---\napp:\n  image: x\n\"host\": h\n#! c\n");
        let want: BTreeSet<String> = ["app", "host"].iter().map(|s| s.to_string()).collect();
        assert_eq!(keys, Some(want));
        assert_eq!(
            top_keys("#@overlay/match-child-defaults missing_ok=True\n---\na: 1\n"),
            None
        );
        assert_eq!(top_keys("---\n- a\n"), None);
        assert_eq!(top_keys("---\n{a: 1}\n"), None);
    }

    #[test]
    fn a_later_schema_s_key_the_earlier_ones_lack_conflicts() {
        let keys = |p: &str| {
            let k: &[&str] = match p {
                "schema.yaml" => &["app"],
                "ytt/m/schema.yaml" => &["app", "host"],
                "a/schema.yaml" => &["app", "host"],
                _ => return None,
            };
            Some(k.iter().map(|s| s.to_string()).collect())
        };
        assert!(conflict(&["schema.yaml"], &["ytt/m/schema.yaml"], &keys));
        // The larger one first: the smaller one matches it.
        assert!(!conflict(&["schema.yaml"], &["a/schema.yaml"], &keys));
        assert!(!conflict(&["schema.yaml"], &["unread.yaml"], &keys));
    }

    #[test]
    fn a_values_file_between_the_top_and_a_library_is_the_library_s() {
        let libs = ["ytt/manifests".to_string()];
        assert!(beside_library("ytt/values-dev.yaml", ".", &libs));
        assert!(!beside_library("values.yaml", ".", &libs));
        assert!(!beside_library("other/values.yaml", ".", &libs));
    }
}
