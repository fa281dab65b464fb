//! Formats Starlark errors as ytt does: `- message`, then for each frame from the innermost
//! out `in <function>` and the template line (`file:line | source`), generated code mapped back
//! to the template.

use starlark::codemap::FileSpan;
use starlark::ErrorKind;

use super::run::ErrorKind as Kind;
use super::run::{EvalError, LibEnv};
use crate::pos::Pos;

/// The message of an error without position or call stack, worded as starlark-go words it
/// where the crate's wording differs.
pub fn plain_message(err: &starlark::Error) -> String {
    let raw = match err.kind() {
        ErrorKind::Fail(e) => format!("fail:{}", e),
        ErrorKind::StackOverflow(_) => {
            "limit exceeded: call stack too deep (ytt templates may recurse at most the configured depth)".to_string()
        }
        ErrorKind::Value(e)
        | ErrorKind::Function(e)
        | ErrorKind::Scope(e)
        | ErrorKind::Parser(e)
        | ErrorKind::Freeze(e)
        | ErrorKind::Internal(e)
        | ErrorKind::Native(e)
        | ErrorKind::Other(e) => format!("{:#}", e),
        _ => err.without_diagnostic().to_string(),
    };
    let raw = crate::template::keywords::as_written_in(raw);
    if let Some(ty) = raw
        .strip_prefix("Operation `(iter)` not supported on type `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return super::messages::not_iterable(failing_builtin(err), ty);
    }
    if let Some(go) = super::arg_messages::reword(failing_builtin(err), &raw) {
        return go;
    }
    // `list.index` names itself before a fragment's own error (`index:
    // yamlfragment.CompareSameType: Not implemented`); `sorted` and the others do not.
    let method = failing_builtin(err).map(|b| b.rsplit('.').next().unwrap_or(b));
    if method == Some("index") && raw.starts_with("yamlfragment.") {
        return format!("index: {raw}");
    }
    super::messages::to_ytt_wording(&raw)
}

/// The name of the builtin an error was raised in, if it was: the innermost frame, called
/// where the error is.
fn failing_builtin(err: &starlark::Error) -> Option<&str> {
    let f = err.call_stack().frames.last()?;
    let at = err.span();
    (f.location.is_some() && f.location.as_ref() == at).then_some(f.name.as_str())
}

/// Starlark's message for an evaluation stopped by its cancellation check.
const CANCELLED: &str = "Evaluation cancelled";

/// The lines ytt shows for one position of generated code, and the template position they
/// stand for: `file:line | source` for a line compiled from the template; for a line the
/// compiler added (the `end` of a node, say), as ytt does, the closest template lines before
/// and after it around `file:? | code (generated)`, standing for the line before (where an
/// unclosed expression, such as one cut short by a `#` comment, was written).
fn frame_lines(span: &FileSpan, env: &LibEnv) -> (Vec<String>, Option<Pos>) {
    let file = span.filename().to_string();
    let line = span.resolve_span().begin.line + 1;
    let map = env.line_maps.borrow().get(&file).cloned();
    let Some(map) = map else {
        let src = env.source_line(&file, line as u32).unwrap_or_default();
        let pos = Pos {
            file: Some(file.as_str().into()),
            line: line as u32,
            col: 1,
            offset: 0,
        };
        return (vec![format!("{} | {}", pos.as_compact(), src)], Some(pos));
    };
    let shown = |pos: &Pos| {
        let src = env
            .source_line(pos.file.as_deref().unwrap_or(&file), pos.line)
            .unwrap_or_default();
        let at = if map.bare_lines {
            pos.line.to_string()
        } else {
            pos.as_compact()
        };
        format!("{at} | {src}")
    };
    let index = line - 1;
    if let Some(mut pos) = map.lines.get(index).cloned().flatten() {
        if map.bare_lines {
            // A `.star` module: the column of the failing expression on its own line.
            let written = env.source_line(pos.file.as_deref().unwrap_or(&file), pos.line);
            let ran = span.file.source_line(index);
            let col = span.resolve_span().begin.column;
            if let Some(c) = written.and_then(|w| super::star_column::written_column(ran, &w, col))
            {
                pos.col = c;
            }
        }
        return (vec![shown(&pos)], Some(pos));
    }
    let before = map
        .lines
        .get(..index)
        .and_then(|l| l.iter().rev().find_map(Clone::clone));
    let after = map
        .lines
        .get(index + 1..)
        .and_then(|l| l.iter().find_map(Clone::clone));
    let code = map.code.get(index).cloned().unwrap_or_default();
    let code = env.shown_names(&file, &code);
    let mut lines: Vec<String> = before.iter().map(shown).collect();
    lines.push(format!("{file}:? | {} (generated)", code.trim()));
    lines.extend(after.iter().map(shown));
    (lines, before.or(after))
}

/// Where a shown frame is: a span of generated code, or ytt's own code, which ytt shows as
/// `<source>:1 | (unavailable)`.
enum FrameAt {
    Span(Option<FileSpan>),
    Internal(String),
}

/// The frame-name prefix of builtins that stand for ytt's own Starlark lambdas (an
/// assertion's `check`): `lambda@assert.max` is shown as `in lambda` at `assert.max:1`.
pub const INTERNAL_LAMBDA: &str = "lambda@";

/// The frames ytt shows for an error, outermost first, each with the line it was executing:
/// `<toplevel>`, then each Starlark function. The crate records each frame with the place it
/// was called from, so a frame's own line is where it called the next frame (the error's span
/// for the innermost one). Builtins are not shown, as in ytt: a builtin that failed is the
/// innermost frame and failed where it was called; a builtin that called back into Starlark
/// has a callee without a call site. Errors found before running (syntax, undefined names)
/// have no frames.
fn starlark_frames(err: &starlark::Error) -> Vec<(String, FrameAt)> {
    let frames = &err.call_stack().frames;
    let span = err.span().cloned();
    if frames.is_empty() && matches!(err.kind(), ErrorKind::Parser(_) | ErrorKind::Scope(_)) {
        return Vec::new();
    }
    let top = frames.first().map_or(span.clone(), |f| f.location.clone());
    let mut out = vec![("<toplevel>".to_string(), FrameAt::Span(top))];
    for (i, f) in frames.iter().enumerate() {
        let (current, builtin) = match frames.get(i + 1) {
            Some(next) => (next.location.clone(), next.location.is_none()),
            None => (span.clone(), f.location.is_some() && f.location == span),
        };
        if let Some(source) = f.name.strip_prefix(INTERNAL_LAMBDA) {
            out.push(("lambda".to_string(), FrameAt::Internal(source.to_string())));
        } else if !builtin {
            out.push((f.name.clone(), FrameAt::Span(current)));
        }
    }
    out
}

/// Formats an error from parsing or evaluating generated code.
pub fn format_error(err: &starlark::Error, env: &LibEnv) -> EvalError {
    let mut msg = plain_message(err);
    let mut kind = Kind::of_starlark(err);
    if msg == CANCELLED {
        // Stopped by the library's limits (time, heap, steps): say which.
        if let Some(limit) = env.limits.exceeded() {
            msg = limit.message();
        }
        kind = Kind::Limit;
    } else if hit_a_limit(err, &msg) {
        kind = Kind::Limit;
    }
    if let Some(refused) = refused_arguments(err, &msg, env) {
        return refused;
    }
    let mut out = vec![format!(
        "- {}{}",
        first_line(&msg),
        super::messages::hint(&msg)
    )];
    let mut first_pos = None;
    let frames = starlark_frames(err);
    if frames.is_empty() {
        if let Some(span) = err.span() {
            let (lines, pos) = frame_lines(span, env);
            first_pos = pos;
            out.extend(lines.iter().map(|l| format!("    {l}")));
        }
    }
    for (name, at) in frames.iter().rev() {
        let lines = match at {
            FrameAt::Span(None) => continue,
            FrameAt::Span(Some(loc)) => {
                let (lines, pos) = frame_lines(loc, env);
                if first_pos.is_none() {
                    first_pos = pos;
                }
                lines
            }
            FrameAt::Internal(source) => vec![format!("{source}:1 | (unavailable)")],
        };
        out.push(format!("    in {name}"));
        out.extend(lines.iter().map(|l| format!("      {l}")));
    }
    if let Some(pos) = unclosed_at(err, &msg, env) {
        first_pos = Some(pos);
    }
    // Split as ytt splits (a message ending in a line break shows an empty last line).
    let rest: Vec<&str> = msg.split('\n').skip(1).collect();
    if !rest.is_empty() {
        out.push(String::new());
        out.push("    reason:".to_string());
        for l in rest {
            out.push(format!("     {l}"));
        }
    }
    EvalError::new(kind, format!("\n{}", out.join("\n")), first_pos)
}

/// A parse error of the crate about a call's arguments, as ytt gives it: each argument of the
/// file that starlark-go's resolver refuses, in its words, at its line
/// (`template::call_refusals`).
fn refused_arguments(err: &starlark::Error, msg: &str, env: &LibEnv) -> Option<EvalError> {
    use crate::template::call_refusals::{refusals, CRATE_MESSAGES};
    if !matches!(err.kind(), ErrorKind::Parser(_)) || !CRATE_MESSAGES.contains(&msg) {
        return None;
    }
    let span = err.span()?;
    // A spread with a trailing comma is a parse error in ytt: it comes before the resolver's.
    let refused = match crate::template::spread_comma::refused(span.file.source()) {
        Some((at, words)) => vec![(at, words.to_string())],
        None => refusals(span.file.source()),
    };
    let mut out = Vec::new();
    let mut first_pos = None;
    for (at, words) in &refused {
        let at = starlark::codemap::Pos::new(u32::try_from(*at).ok()?);
        let there = FileSpan {
            file: span.file.clone(),
            span: starlark::codemap::Span::new(at, at),
        };
        let (lines, pos) = frame_lines(&there, env);
        first_pos = first_pos.or(pos);
        out.push(format!("- {words}"));
        out.extend(lines.iter().map(|l| format!("    {l}")));
    }
    (!out.is_empty()).then(|| {
        EvalError::new(
            Kind::of_starlark(err),
            format!("\n{}", out.join("\n")),
            first_pos,
        )
    })
}

/// Whether the Starlark crate stopped the evaluation at one of its own limits: the call
/// depth, or the heap size and step count the job's limits set (the crate's error type for
/// the last two is private, so its fixed wording tells them).
fn hit_a_limit(err: &starlark::Error, msg: &str) -> bool {
    matches!(err.kind(), ErrorKind::StackOverflow(_))
        || msg.starts_with("Heap memory limit of")
        || msg.starts_with("Execution duration limit of")
}

/// For a parse error that wanted a closing bracket, the template position of the bracket left
/// open: where the linter points. ytt names the line the parser stopped at, which for an
/// expression cut short by a `#` comment (`key: #@ data.values.x # note`) is the next node's
/// line, or a generated one; the text of the error stays ytt's.
fn unclosed_at(err: &starlark::Error, msg: &str, env: &LibEnv) -> Option<Pos> {
    let wants_close = ["want ')'", "want ']'", "want '}'"]
        .iter()
        .any(|w| msg.ends_with(w));
    if !wants_close || !matches!(err.kind(), ErrorKind::Parser(_)) {
        return None;
    }
    let span = err.span()?;
    let begin = usize::try_from(span.span.begin().get()).ok()?;
    let open = crate::template::rewrite::unclosed_bracket(span.file.source(), begin)?;
    let line = span
        .file
        .find_line(starlark::codemap::Pos::new(u32::try_from(open).ok()?));
    let file = span.filename();
    match env.line_maps.borrow().get(file) {
        Some(map) => map.lines.get(line).cloned().flatten(),
        None => Some(Pos {
            file: Some(file.into()),
            line: u32::try_from(line + 1).ok()?,
            col: 1,
            offset: 0,
        }),
    }
}

fn first_line(s: &str) -> &str {
    s.split('\n').next().unwrap_or("")
}
