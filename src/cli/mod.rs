//! The command line: `yttlint template` (renders like `ytt`), `yttlint init` (writes a
//! configuration) and the linter entry point.

pub mod data_values;
pub mod errfmt;
pub mod init;
pub mod lint;
pub mod template;
