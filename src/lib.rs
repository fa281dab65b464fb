//! yttlint: evaluates Carvel ytt libraries exactly as ytt does and lints them.

pub(crate) mod analysis;
pub mod cli;
pub(crate) mod eval;
pub mod files;
pub mod fix;
pub mod fuzzing;
pub mod kubernetes;
pub mod kubevirt;
pub mod library;
pub mod lint;
pub mod lsp;
pub mod malloc;
pub(crate) mod overlay;
pub mod platform;
pub mod policy;
pub mod pos;
pub mod report;
pub(crate) mod schema;
pub(crate) mod shared_cache;
pub mod stdlib;
pub mod template;
pub(crate) mod validate;
pub mod yaml;
pub mod ytt_flags;
