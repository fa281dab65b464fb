//! The command line: `yttlint template` (renders like `ytt`) and the linter entry point.

pub mod data_values;
pub mod errfmt;
pub mod lint;
pub mod template;
