//! yttlint: evaluates Carvel ytt libraries exactly as ytt does and lints them.

pub mod analysis;
pub mod cli;
pub mod eval;
pub mod files;
pub mod fix;
pub mod fuzzing;
pub mod kubernetes;
pub mod kubevirt;
pub mod library;
pub mod lint;
pub mod malloc;
pub mod overlay;
pub mod pos;
pub mod report;
pub mod schema;
pub mod shared_cache;
pub mod stdlib;
pub mod template;
pub mod validate;
pub mod yaml;
pub mod ytt_flags;
