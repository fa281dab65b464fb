//! What the integration tests share: the built binary and how to run it (`bin`), temporary
//! directories (`temp`), reading its JSON reports (`json`), golden files (`golden`) and a
//! repository written for one test and linted (`repo`). Each
//! test module takes these from here instead of keeping its own copy.

pub mod bin;
pub mod golden;
pub mod json;
pub mod repo;
pub mod temp;

use std::path::{Path, PathBuf};

pub use bin::{command, template, ytt, yttlint, yttlint_env, Run};
pub use temp::TempDir;

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
    COPY.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("yttlint-it-fixtures-{}", std::process::id()));
        remove_stale_copies();
        let _ = std::fs::remove_dir_all(&dir);
        temp::copy_tree(&repo_root().join("fixtures"), &dir);
        dir
    })
    .join(name)
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
