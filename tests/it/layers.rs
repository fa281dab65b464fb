//! The engine's layers: `src/eval`, `src/stdlib`, `src/validate`, `src/schema` and
//! `src/library` sit on one another in that order. A file may name (`crate::<layer>`) only the
//! layers below its own; the layer above reaches down through interfaces the lower one owns
//! (`eval::host::Host` for the library evaluation, `validate::run::NodeType` for schema types).
//! An import upwards would bring back the cycle the engine once had, and fails here.

use std::path::{Path, PathBuf};

use crate::util::{repo_root, TempDir};

/// Lowest first.
const LAYERS: [&str; 5] = ["eval", "stdlib", "validate", "schema", "library"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `text` names `crate::<layer>` as a path (not as the prefix of a longer name).
fn names(text: &str, layer: &str) -> bool {
    let needle = format!("crate::{layer}");
    text.match_indices(&needle).any(|(i, _)| {
        let next = text[i + needle.len()..].chars().next();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// `file -> layer` for every file that names a layer at or above its own.
fn upward_imports(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for (level, from) in LAYERS.iter().enumerate() {
        let mut files = Vec::new();
        rust_files(&src.join(from), &mut files);
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for to in &LAYERS[level + 1..] {
                if names(&text, to) {
                    let rel = file.strip_prefix(src).unwrap_or(&file);
                    found.push(format!("{} -> {to}", rel.display()));
                }
            }
        }
    }
    found
}

#[test]
fn engine_layers_only_import_downwards() {
    let src = repo_root().join("src");
    let upward = upward_imports(&src);
    assert!(
        upward.is_empty(),
        "imports from a lower engine layer into a higher one (go through a host interface \
         owned by the lower layer instead): {upward:#?}"
    );
}

#[test]
fn an_upward_import_is_caught() {
    let dir = TempDir::with_files(&[
        ("stdlib/a.rs", "use crate::eval::run;\n"),
        ("eval/b.rs", "use crate::evaluation;\n"),
    ]);
    for layer in LAYERS {
        std::fs::create_dir_all(dir.join(layer)).unwrap();
    }
    assert!(upward_imports(&dir).is_empty());
    dir.write("eval/c.rs", "use crate::library::exec::LibExec;\n");
    assert_eq!(
        upward_imports(&dir),
        vec!["eval/c.rs -> library".to_string()]
    );
}
