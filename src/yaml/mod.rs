//! Position-aware YAML: the node tree, the parser with ytt's comment attachment, YAML 1.1
//! scalar resolution, and an emitter that prints exactly as ytt does.

pub mod bom;
pub mod breaks;
pub(crate) mod chunked;
pub mod comments;
pub mod compose;
pub mod decode;
pub mod emit;
pub mod emit_resolve;
pub mod emit_scalar;
#[cfg(test)]
pub mod emit_testutil;
pub mod gaps;
pub mod go_float;
pub mod gotags;
pub mod json;
pub mod node;
pub mod parse;
pub mod pos_print;
pub mod renamed;
pub mod scalar;
pub mod shared;
pub mod utf8;

pub use node::*;
