//! The linter: finds the ytt roots and private libraries of a repository, reads its
//! configuration, turns roots × scenarios into jobs, evaluates the jobs in parallel, and applies
//! severities, suppressions and the baseline to what they found.

pub mod affinity;
pub mod annotations;
pub mod baseline;
pub mod cache;
pub mod config;
pub mod config_parse;
pub mod copies;
pub mod coverage;
pub mod discover;
pub mod findings;
pub mod flags;
pub mod init;
pub mod inputs;
pub mod invocations;
pub mod job;
pub mod learned;
pub mod libcheck;
pub mod listing;
pub mod marker;
pub mod needs_input;
pub mod never_evaluated;
pub mod output;
pub mod package;
pub mod paths;
pub mod placeholder;
pub mod plan;
pub mod pool;
pub mod progress;
pub mod run;
pub mod run_cache;
pub mod select;
pub mod session;
pub mod shard;
pub mod supplementary;
pub mod suppress;
pub mod topmost;
pub mod untrusted;
pub mod vendir;
pub mod walk;
pub mod worker;
pub mod yaml_doc;
