//! What the integration tests share: the built binary and how to run it (`bin`), where the
//! fixtures are (`fixtures`), temporary directories (`temp`), reading its JSON reports
//! (`json`), golden files (`golden`) and a repository written for one test and linted
//! (`repo`). Each test module takes these from here instead of keeping its own copy.

pub mod bin;
pub mod fixtures;
pub mod golden;
pub mod json;
pub mod repo;
pub mod temp;

pub use fixtures::{fixture, repo_root, standalone};

pub use bin::{command, template, ytt, yttlint, yttlint_env, Run};
pub use temp::TempDir;
