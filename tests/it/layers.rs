//! The crate's layers. Every top-level module of `src/` sits in one layer of [`LAYERS`], lowest
//! first, and a file may name (`crate::<module>`) only modules of the layers below its own
//! or of its own module; the linter's stages in `src/lint/` are ordered the same way
//! ([`LINT_STAGES`]). A layer reaches up only through an interface it owns (`eval::host::Host`
//! for the library evaluation, `validate::run::NodeType` for schema types, the `OnFile`
//! callback a job is given by whoever runs it). An import upwards would bring back a cycle,
//! and fails here; so does a module no layer lists. docs/ARCHITECTURE.md draws the same
//! picture.

use std::path::{Path, PathBuf};

use crate::util::{repo_root, TempDir};

/// The crate's top-level modules, lowest layer first; modules of one layer may not name each
/// other either.
const LAYERS: &[&[&str]] = &[
    &["platform"],
    &["pos", "shared_cache", "malloc"],
    &["yaml"],
    &["files"],
    &["fix"],
    &["report"],
    &["template"],
    &["overlay"],
    &["eval"],
    &["stdlib"],
    &["validate"],
    &["schema"],
    &["library"],
    &["ytt_flags"],
    &["kubevirt", "kubernetes"],
    &["policy"],
    &["analysis"],
    &["lint"],
    &["lsp"],
    &["cli", "fuzzing"],
];

/// What only `src/platform/` may name: the operating systems' own interfaces.
const OS_SPECIFIC: &[&str] = &[
    "std::os::unix",
    "std::os::fd",
    "std::os::windows",
    "libc::",
    "tikv_jemalloc",
];

/// `file: name` for every file outside `platform/` (under `src`) that names one of
/// [`OS_SPECIFIC`], tests and comments included (a doc comment may mention them).
fn os_specific_outside_platform(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap_or(&file);
        if rel.starts_with("platform") {
            continue;
        }
        let text = code(&std::fs::read_to_string(&file).unwrap());
        for name in OS_SPECIFIC {
            if text.contains(name) {
                let shown = rel.to_string_lossy().replace('\\', "/");
                found.push(format!("{shown}: {name}"));
            }
        }
    }
    found.sort();
    found
}

/// The stages of `src/lint/`, in pipeline order; `session.rs` runs them.
const LINT_STAGES: &[&str] = &[
    "config", "repo", "discover", "job", "plan", "run", "post", "output", "session", "projects",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of top-level module `name`: `src/name.rs` or everything under `src/name/`.
fn module_files(src: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let file = src.join(format!("{name}.rs"));
    if file.is_file() {
        files.push(file);
    }
    rust_files(&src.join(name), &mut files);
    files.sort();
    files
}

/// The first segment of every `crate::` path in `text` after `prefix` (`crate::a::b` and
/// `use crate::{a, b::c}` give `a` and `b` for the prefix `crate::`).
fn named(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(prefix) {
        if text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &text[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let head: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !head.is_empty() {
                    out.push(head);
                }
            }
        } else {
            let head: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !head.is_empty() {
                out.push(head);
            }
        }
    }
    out
}

/// Lines outside `//` comments (doc links may name any module).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `file -> module` for every file that names a module of its own layer or a higher one.
fn upward_imports(src: &Path, layers: &[&[&str]]) -> Vec<String> {
    let level = |m: &str| layers.iter().position(|l| l.contains(&m));
    let mut found = Vec::new();
    for (from_level, layer) in layers.iter().enumerate() {
        for from in *layer {
            for file in module_files(src, from) {
                let text = code(&std::fs::read_to_string(&file).unwrap());
                let rel = file
                    .strip_prefix(src)
                    .unwrap_or(&file)
                    .display()
                    .to_string()
                    .replace('\\', "/");
                for to in named(&text, "crate::") {
                    if to == *from {
                        continue;
                    }
                    if level(&to).is_some_and(|l| l >= from_level) {
                        found.push(format!("{rel} -> {to}"));
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// `file -> stage` for every file of a lint stage that names a later stage.
fn upward_stage_imports(src: &Path) -> Vec<String> {
    let lint = src.join("lint");
    let stages: Vec<&[&str]> = LINT_STAGES.iter().map(std::slice::from_ref).collect();
    let text_of = |f: &Path| code(&std::fs::read_to_string(f).unwrap());
    let mut found = Vec::new();
    for (from_level, from) in LINT_STAGES.iter().enumerate() {
        for file in module_files(&lint, from) {
            let text = text_of(&file);
            let rel = file
                .strip_prefix(src)
                .unwrap_or(&file)
                .display()
                .to_string();
            for to in named(&text, "crate::lint::") {
                let to_level = stages.iter().position(|s| s.contains(&to.as_str()));
                if to != *from && to_level.is_some_and(|l| l > from_level) {
                    found.push(format!("{rel} -> lint::{to}"));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Top-level modules of `dir` (files and folders) that no layer lists.
fn unlisted(dir: &Path, listed: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if module && !["lib", "main", "mod"].contains(&name.as_str()) && !listed.contains(&&*name) {
            out.push(name);
        }
    }
    out.sort();
    out
}

#[test]
fn every_module_has_a_layer() {
    let src = repo_root().join("src");
    let all: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    assert_eq!(
        unlisted(&src, &all),
        Vec::<String>::new(),
        "add them to LAYERS"
    );
    assert_eq!(
        unlisted(&src.join("lint"), LINT_STAGES),
        Vec::<String>::new(),
        "add them to LINT_STAGES"
    );
}

#[test]
fn layers_only_import_downwards() {
    let src = repo_root().join("src");
    let upward = upward_imports(&src, LAYERS);
    assert!(
        upward.is_empty(),
        "imports of a module in the same or a higher layer (go through an interface owned by \
         the lower layer instead): {upward:#?}"
    );
}

#[test]
fn lint_stages_only_import_earlier_stages() {
    let src = repo_root().join("src");
    let upward = upward_stage_imports(&src);
    assert!(
        upward.is_empty(),
        "a lint stage imports a later one: {upward:#?}"
    );
}

#[test]
fn operating_system_calls_are_in_the_platform_folder_alone() {
    let found = os_specific_outside_platform(&repo_root().join("src"));
    assert!(
        found.is_empty(),
        "operating-system interfaces outside src/platform (add a function there): {found:#?}"
    );
}

#[test]
fn an_operating_system_call_outside_the_platform_folder_is_caught() {
    let dir = TempDir::with_files(&[
        (
            "platform/fs.rs",
            "use std::os::unix::fs::symlink;\nlibc::ELOOP;\n",
        ),
        (
            "files/open.rs",
            "// std::os::unix in a comment\nuse crate::platform;\n",
        ),
    ]);
    assert!(os_specific_outside_platform(&dir).is_empty());
    dir.write("files/write.rs", "fn f() { let _ = libc::getrandom; }\n");
    dir.write("lint/run/worker.rs", "use std::os::fd::FromRawFd;\n");
    assert_eq!(
        os_specific_outside_platform(&dir),
        vec![
            "files/write.rs: libc::".to_string(),
            "lint/run/worker.rs: std::os::fd".to_string()
        ]
    );
}

#[test]
fn an_upward_import_is_caught() {
    let layers: &[&[&str]] = &[&["eval"], &["stdlib"], &["library"]];
    let dir = TempDir::with_files(&[
        ("stdlib/a.rs", "use crate::eval::run;\n"),
        ("eval/b.rs", "use crate::evaluation;\n// crate::library\n"),
        ("library/x.rs", "\n"),
    ]);
    assert!(upward_imports(&dir, layers).is_empty());
    dir.write("eval/c.rs", "use crate::{pos, library::exec::LibExec};\n");
    dir.write("stdlib/d.rs", "fn f() { crate::library::x(); }\n");
    assert_eq!(
        upward_imports(&dir, layers),
        vec![
            "eval/c.rs -> library".to_string(),
            "stdlib/d.rs -> library".to_string()
        ]
    );
}
