//! The Starlark runtime of ytt templates: fragments and structs as values, the evaluation
//! contexts that rebuild YAML from compiled templates, conversions, limits and error mapping.

pub mod arg_messages;
pub mod augmented;
pub mod build;
pub mod bytestr;
pub mod cancel;
pub mod convert;
pub mod coverage;
pub mod errors;
pub mod fragment;
pub mod gocompat;
pub mod host;
pub mod index_retry;
pub mod instr;
pub mod limits;
pub mod map_key;
pub mod messages;
pub mod nesting;
pub mod overlay_host;
pub mod progress;
pub mod ready;
pub mod rewrite_kept;
pub mod run;
pub mod spell;
pub mod spread;
pub mod star_column;
pub mod state;
pub mod structs;
