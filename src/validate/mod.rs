//! Validations (spec 000, ytt's `@assert/validate` and `@schema/validation`): rules attached to
//! data values (by the schema or by data values documents) and, beyond ytt, to output
//! documents; checked after the last overlay, every violation collected.
//!
//! - [`parse`] reads a validation annotation into rules;
//! - [`run`] walks a document, finds each node's validations and checks them;
//! - [`strings`] distributes `@schema/validation-defaults-for-strings` before schema overlays;
//! - [`render`] prints violations as ytt does.

pub mod assert_module;
pub mod output;
pub mod parse;
pub mod render;
pub mod run;
pub mod strings;

use crate::pos::Pos;

/// `@assert/validate`: rules on data values and on template nodes.
pub const ASSERT_VALIDATE: &str = "assert/validate";
/// `@schema/validation`: rules on the type a schema declares.
pub const SCHEMA_VALIDATION: &str = "schema/validation";
/// `@schema/validation-defaults-for-strings`: rules for every string below (spec 000).
pub const STRING_DEFAULTS: &str = "schema/validation-defaults-for-strings";

/// How a value failed one rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Where the rule was written.
    pub rule_pos: Pos,
    /// What a valid value is.
    pub description: String,
    /// Why the value is not valid (the failure message; empty when the rule returned False).
    pub found: String,
    /// The named rule (`min_len`), or `None` for a custom rule.
    pub rule: Option<String>,
    /// Spec 000's message for the violation, formatted.
    pub message: String,
}

/// A value that failed one validation, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalidation {
    /// ytt's path of the value (`foo.bar[0]`, or `(document)`).
    pub path: String,
    /// Where the value came from.
    pub value_pos: Pos,
    /// The value is the schema's default: no input set it.
    pub from_default: bool,
    pub violations: Vec<Violation>,
}
