//! The command line: `yttlint template` (renders like `ytt`), `yttlint rule`, `yttlint
//! completions` and the linter entry point.

pub mod completions;
pub mod data_values;
pub mod errfmt;
pub mod lint;
pub mod lint_extra;
pub mod rule;
pub mod template;
