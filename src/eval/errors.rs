//! Formats Starlark errors as ytt does: `- message`, then for each frame from the innermost
//! out `in <function>` and the template line (`file:line | source`), generated code mapped back
//! to the template.

use starlark::codemap::FileSpan;
use starlark::ErrorKind;

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
    super::messages::to_ytt_wording(&raw)
}

fn frame_line(span: &FileSpan, env: &LibEnv) -> (String, Option<Pos>) {
    let file = span.filename().to_string();
    let line = span.resolve_span().begin.line + 1;
    let map = env.line_maps.borrow().get(&file).cloned();
    match map {
        Some(map) => match map.lines.get(line - 1).cloned().flatten() {
            Some(pos) => {
                let src = env
                    .source_line(pos.file.as_deref().unwrap_or(&file), pos.line)
                    .unwrap_or_default();
                (format!("{} | {}", pos.as_compact(), src), Some(pos))
            }
            None => {
                let code = map.code.get(line - 1).cloned().unwrap_or_default();
                (format!("{file}:? | {} (generated)", code.trim()), None)
            }
        },
        None => {
            let src = env.source_line(&file, line as u32).unwrap_or_default();
            let pos = Pos {
                file: Some(file.as_str().into()),
                line: line as u32,
                col: 1,
                offset: 0,
            };
            (format!("{} | {}", pos.as_compact(), src), Some(pos))
        }
    }
}

/// Formats an error from parsing or evaluating generated code.
pub fn format_error(err: &starlark::Error, env: &LibEnv) -> EvalError {
    let msg = plain_message(err);
    let mut out = vec![format!(
        "- {}{}",
        first_line(&msg),
        super::messages::hint(&msg)
    )];
    let mut first_pos = None;
    let frames = &err.call_stack().frames;
    // Each frame's location is where that frame called the next one; the error's own span is
    // where the innermost frame failed.
    let mut spans: Vec<(String, Option<FileSpan>)> = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        let loc = if i + 1 < frames.len() {
            frames[i + 1].location.clone()
        } else {
            err.span().cloned()
        };
        spans.push((f.name.clone(), loc));
    }
    if frames.is_empty() {
        if let Some(span) = err.span() {
            let (line, pos) = frame_line(span, env);
            first_pos = pos;
            out.push(format!("    {line}"));
        }
    }
    for (name, loc) in spans.iter().rev() {
        let Some(loc) = loc else { continue };
        let (line, pos) = frame_line(loc, env);
        if first_pos.is_none() {
            first_pos = pos;
        }
        let name = if name.is_empty() || name == "<module>" {
            "<toplevel>"
        } else {
            name
        };
        out.push(format!("    in {name}"));
        out.push(format!("      {line}"));
    }
    let rest: Vec<&str> = msg.lines().skip(1).collect();
    if !rest.is_empty() {
        out.push(String::new());
        out.push("    reason:".to_string());
        for l in rest {
            out.push(format!("     {l}"));
        }
    }
    EvalError {
        message: format!("\n{}", out.join("\n")),
        pos: first_pos,
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
