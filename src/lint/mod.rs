//! The linter: finds the ytt roots and private libraries of a repository, reads its
//! configuration, turns roots × scenarios into jobs, evaluates the jobs in parallel, and applies
//! severities, suppressions and the baseline to what they found; a run of several
//! configurations (sub-projects with their own) lints each and merges them (`projects.rs`).

pub mod config;
pub mod discover;
pub mod job;
pub mod plan;
pub mod post;
pub mod projects;
pub mod repo;
pub mod run;
pub mod session;
