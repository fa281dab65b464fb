//! What the integration tests share: the built binary and how to run it (`bin`), temporary
//! directories (`temp`), reading its JSON reports (`json`) and golden files (`golden`). Each
//! test module takes these from here instead of keeping its own copy.

pub mod bin;
pub mod golden;
pub mod json;
pub mod temp;

use std::path::{Path, PathBuf};

pub use bin::{command, template, yttlint, yttlint_env, Run};
pub use temp::TempDir;

/// The repository's root (where `Cargo.toml` is).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `fixtures/<name>` of the repository.
pub fn fixture(name: &str) -> PathBuf {
    repo_root().join("fixtures").join(name)
}
