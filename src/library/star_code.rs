//! A Starlark module (`.star`) as the code the interpreter runs: the identifiers the crate
//! reserves renamed, ytt's `end` blocks rewritten, nested loads deferred to run time, and a
//! line map back to the module's own lines. Evaluation (`loader.rs`) and the check of a
//! library without evaluating it (`lint/job/libcheck.rs`) both start here.

use std::sync::Arc;

use crate::eval::run::{ErrorKind, EvalError, LineMap};
use crate::pos::Pos;
use crate::template::rewrite::{rewrite, RewriteOpts};

/// The code of the module `file` with source `src`, and its line map; a rewrite error points
/// at the module's line.
pub(crate) fn star_code(src: &str, file: &Arc<str>) -> Result<(String, LineMap), EvalError> {
    let opts = RewriteOpts {
        while_iter: "__ytt_while".to_string(),
        tpl: None,
    };
    // starlark-go reads a CR that no LF follows as a line break (its lines, and the errors'
    // lines, count it); the crate and the `end` rewriter read LF only.
    // ytt trims the leading blank space of each line, which changes only strings spanning lines.
    let src = crate::template::keywords::rename_reserved(&crate::pos::lone_cr_as_lf(src));
    let src = crate::template::rewrite::trim_string_lines(&src);
    let out = rewrite(&src, &opts).map_err(|e| {
        EvalError::new(
            ErrorKind::Syntax,
            e.message.clone(),
            Some(Pos::new(file, e.line.max(1), e.col.max(1), 0)),
        )
    })?;
    let mut map = LineMap::default();
    for line in &out.line_map {
        map.lines.push(Some(Pos::new(file, *line, 1, 0)));
        map.code.push(String::new());
    }
    let code = crate::template::nested_load::rewrite_runtime(&out.code);
    Ok((code, map))
}
