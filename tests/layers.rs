//! The engine's layers: which of `src/eval`, `src/library`, `src/schema`, `src/stdlib` and
//! `src/validate` import which (`crate::<layer>` in a file of another layer). The edges that
//! exist today, a cycle among them included, are listed in `tests/data/layer-edges.txt`; a new
//! edge fails this test, and an edge that is gone must be removed from the list (a ratchet
//! towards one layer per folder).

use std::collections::BTreeSet;
use std::path::Path;

const LAYERS: [&str; 5] = ["eval", "library", "schema", "stdlib", "validate"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `from -> to` for every layer whose files name `crate::to`.
fn edges() -> BTreeSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = BTreeSet::new();
    for from in LAYERS {
        let mut files = Vec::new();
        rust_files(&src.join(from), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for to in LAYERS.iter().filter(|t| **t != from) {
                let needle = format!("crate::{to}");
                let named = text.match_indices(&needle).any(|(i, _)| {
                    let next = text[i + needle.len()..].chars().next();
                    !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if named {
                    found.insert(format!("{from} -> {to}"));
                }
            }
        }
    }
    found
}

#[test]
fn no_new_imports_between_engine_layers() {
    let listed_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/layer-edges.txt");
    let listed: BTreeSet<String> = std::fs::read_to_string(&listed_path)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let now = edges();
    let new: Vec<&String> = now.difference(&listed).collect();
    let gone: Vec<&String> = listed.difference(&now).collect();
    assert!(
        new.is_empty(),
        "new imports between engine layers (invert them through a host interface): {new:?}"
    );
    assert!(
        gone.is_empty(),
        "these imports are gone: remove them from tests/data/layer-edges.txt: {gone:?}"
    );
}
