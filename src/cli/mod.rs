//! The command line: `yttlint template` (renders like `ytt`), `yttlint init` (writes a
//! configuration), `yttlint rule`, `yttlint completions`, `yttlint server` (the language server) and the linter entry point.

pub mod completions;
pub mod errfmt;
pub mod init;
pub mod lint;
pub mod lint_extra;
pub mod lint_fix;
pub mod lint_limits;
pub mod lint_output;
pub mod output_types;
pub mod rule;
pub mod server;
pub mod template;
