//! The evaluation's `undefined: NAME` said as static analysis says it. The engine stops at the
//! first name a file does not define, without starlark-go's hint and at the first column the
//! name has on its line; static analysis (`analysis::undefined`) reports every such use with
//! ytt's hint (`undefined: nmes (did you mean names?)`). The evaluation's error takes the
//! message and place of the static finding for the same use, so that the two are one finding
//! in the job that analyses the files and the same finding in every other scenario.

use crate::eval::run::EvalError;
use crate::library::Workspace;
use crate::lint::job::inputs::Names;
use crate::lint::job::span_at;
use crate::report::Diagnostic;

/// Gives `err`, the diagnostic of the evaluation's error `e`, the message and span of the
/// static finding about the same undefined name, when there is one.
pub fn align(ws: &Workspace, names: &Names, e: &EvalError, err: &mut Diagnostic) {
    let Some(name) = undefined_name(&err.message) else {
        return;
    };
    let Some(pos) = e.pos.as_ref().filter(|p| p.is_known()) else {
        return;
    };
    let Some(file) = pos.file.as_deref() else {
        return;
    };
    // Two inputs of one name (`-f base -f pr`): the engine's position is the one to trust.
    let mut same_name = ws.files.iter().filter(|f| f.rel_path == file);
    let (Some(f), None) = (same_name.next(), same_name.next()) else {
        return;
    };
    let Some(unit) = crate::analysis::units::unit(ws, f) else {
        return;
    };
    let found = crate::analysis::undefined::check_unit(&unit);
    let about = |m: &str| {
        m.strip_prefix("undefined: ")
            .and_then(|r| r.strip_prefix(name))
            .is_some_and(|r| r.is_empty() || r.starts_with(' '))
    };
    let on_line: Vec<_> = found
        .iter()
        .filter(|s| s.pos.line == pos.line && about(&s.message))
        .collect();
    let Some(chosen) = on_line
        .iter()
        .find(|s| s.pos.col == pos.col)
        .or_else(|| on_line.first())
    else {
        return;
    };
    if let Some(mut span) = span_at(names, &chosen.pos) {
        span.end_column = span.column + chosen.width;
        err.span = Some(span);
        err.message = chosen.message.clone();
    }
}

/// The name of an `undefined: NAME` message as the engine words it (possibly framed as
/// `- undefined: NAME` with trace lines after it, under the heading of a Starlark or text
/// file, `Evaluating starlark template:`: round fifty's N50-1 gave such a file's name twice).
fn undefined_name(message: &str) -> Option<&str> {
    let mut lines = message.trim_start().lines().map(str::trim);
    let mut first = lines.next()?;
    if first.starts_with("Evaluating ") && first.ends_with("template:") {
        first = lines.next()?;
    }
    let name = first
        .strip_prefix("- ")
        .unwrap_or(first)
        .strip_prefix("undefined: ")?;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    (!name.is_empty() && name.chars().all(ident)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_s_wording_gives_the_name() {
        assert_eq!(undefined_name("undefined: foo"), Some("foo"));
        assert_eq!(
            undefined_name("\n- undefined: foo\n    t.yml:3 | a: #@ foo"),
            Some("foo")
        );
        assert_eq!(
            undefined_name("Evaluating starlark template: \n- undefined: foo\n    2 |   foo(x)"),
            Some("foo")
        );
        assert_eq!(undefined_name("undefined: foo (did you mean fo?)"), None);
        assert_eq!(undefined_name("struct has no .x field or method"), None);
    }
}
