//! The linter: finds the ytt roots and private libraries of a repository, reads its
//! configuration, turns roots × scenarios into jobs, evaluates the jobs in parallel, and applies
//! severities, suppressions and the baseline to what they found.

pub mod annotations;
pub mod baseline;
pub mod config;
pub mod config_parse;
pub mod discover;
pub mod findings;
pub mod flags;
pub mod inputs;
pub mod job;
pub mod libcheck;
pub mod output;
pub mod package;
pub mod paths;
pub mod plan;
pub mod progress;
pub mod run;
pub mod select;
pub mod session;
pub mod shard;
pub mod suppress;
pub mod walk;
