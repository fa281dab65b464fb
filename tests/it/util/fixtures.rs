//! Where the project's fixtures are (`fixtures/<name>` of the repository) and copies of them
//! outside the checkout: a fixture copied as a whole for this process (`standalone`), or any
//! tree copied into a test's directory (`copy_tree`). It uses no other helper, so that the
//! temporary directories (`temp`) can copy fixtures without the two using each other.

use std::path::{Path, PathBuf};

/// The repository's root (where `Cargo.toml` is).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `fixtures/<name>` of the repository: where its expected results and golden files are.
pub fn fixture(name: &str) -> PathBuf {
    repo_root().join("fixtures").join(name)
}

/// `fixtures/<name>` in this process's copy of `fixtures/`, outside this project's checkout:
/// what a test lints when the fixture stands for a repository of its own. Linted in place, a
/// fixture without a `.yttlint.yaml` belongs to the project's work tree, which would then be
/// the repository of the run; the copy also keeps the run's cache out of the project.
pub fn standalone(name: &str) -> PathBuf {
    static COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let copy = COPY
        .get_or_init(|| {
            let dir =
                std::env::temp_dir().join(format!("yttlint-it-fixtures-{}", std::process::id()));
            remove_stale_copies();
            let _ = std::fs::remove_dir_all(&dir);
            copy_tree(&repo_root().join("fixtures"), &dir);
            dir
        })
        .join(name);
    as_clone(&copy);
    copy
}

/// Makes the copy of a fixture that has a `.gitignore` a git work tree (an empty `.git`, no
/// index): the fixture stands for a clone, whose `.gitignore` applies to what git does not
/// track. A tree without `.git` is an export, where git's rules do not apply (README: the
/// walk's ignore rules).
pub fn as_clone(copy: &Path) {
    if copy.join(".gitignore").is_file() {
        let _ = std::fs::create_dir_all(copy.join(".git"));
    }
}

/// Removes the copies of `fixtures/` made by test processes that are gone.
fn remove_stale_copies() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix("yttlint-it-fixtures-") else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Copies the files and directories under `from` into `to` (created), leaving out
/// `.yttlint-cache`. Symbolic links are copied as the files they lead to.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("cannot create {}: {e}", to.display()));
    let entries =
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
    for entry in entries {
        let entry = entry.unwrap();
        if entry.file_name() == ".yttlint-cache" {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("cannot copy {}: {e}", entry.path().display()));
        }
    }
}
