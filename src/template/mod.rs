//! Template compilation: YAML and text templates become ytt-dialect Starlark with a map back
//! to template lines; the `end`-block dialect is rewritten into indented Starlark.

pub mod call_refusals;
pub mod compile;
pub mod keywords;
pub mod kwargs_splat;
pub mod named_after_star;
pub mod nested_load;
pub mod nodes;
pub mod parens;
pub mod rewrite;
pub mod spread_comma;
pub mod text;
pub mod text_lines;
