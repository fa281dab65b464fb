//! `f(*args, x=2)`: starlark-go (ytt's Starlark) takes a named argument after a `*args`
//! spread, and the crate's parser refuses it ("named argument after *args or **kwargs").
//! In a call whose arguments are on one line, the named arguments that follow the spread are
//! moved before it (`f(x=2, *args)`), which binds every argument the same way; only the order
//! in which the argument expressions run changes. In a call over several lines no text moves:
//! the named arguments after the spread (and a `**kwargs` after them) become one `**`
//! mapping, `f(*args,**__ytt_named(\n    x=2))`, opened right after the spread's comma and
//! closed after the last argument, so every line, and every column past the spread's line,
//! stays where it was written (and the arguments run in their written order). A positional
//! argument after the spread, a named one after `**kwargs`, or a trailing comma after either,
//! is left as written: ytt refuses those too.

use super::kwargs_splat::{is_ident, string_len};

/// The function whose `**` mapping holds the named arguments after a spread, over several
/// lines (the static analysis reads the names inside it as the call's own).
pub const NAMED_FN: &str = "__ytt_named";

/// `code` with the named arguments after a `*` spread moved before it, call by call.
pub fn reorder(code: &str) -> String {
    if !code.contains('*') {
        return code.to_string();
    }
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    // For each open bracket: where its text starts in `out`, and whether it is a call's.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(n) = super::kwargs_splat::verbatim_len(code, i) {
            out.push_str(&code[i..i + n]);
            i += n;
            continue;
        }
        match c {
            b'(' => open.push((out.len() + 1, is_call(&out))),
            b'[' | b'{' => open.push((out.len() + 1, false)),
            b')' => {
                if let Some((start, true)) = open.pop() {
                    if let Some(args) = reordered(&out[start..]) {
                        out.truncate(start);
                        out.push_str(&args);
                    }
                }
            }
            b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        out.push(c as char);
        i += 1;
    }
    out
}

/// Whether a `(` written after `before` opens a call's arguments (not a `def`'s parameters,
/// not a parenthesized expression).
pub(super) fn is_call(before: &str) -> bool {
    let t = before.trim_end();
    let Some(last) = t.bytes().last() else {
        return false;
    };
    if last == b')' || last == b']' {
        return true;
    }
    if !is_ident(last) {
        return false;
    }
    let word_start = t.bytes().rposition(|c| !is_ident(c)).map_or(0, |p| p + 1);
    let word = &t[word_start..];
    let keyword = matches!(
        word,
        "if" | "elif" | "in" | "not" | "and" | "or" | "return" | "for" | "while" | "lambda"
    );
    !keyword && !t[..word_start].trim_end().ends_with("def")
}

/// The arguments `args` (a call's text between its parentheses) with the named ones after a
/// `*` spread moved before it (or, over several lines, made one `**` mapping); `None` when
/// nothing changes.
fn reordered(args: &str) -> Option<String> {
    // A trailing comma after a spread is ytt's parse error (`template::spread_comma`): left
    // as written for it.
    if !args.contains('*') || code_of(args).ends_with(',') {
        return None;
    }
    let parts = split_args(args);
    let star = parts.iter().position(|p| {
        let t = code_of(p);
        t.starts_with('*') && !t.starts_with("**")
    })?;
    let after = &parts[star + 1..];
    let moved: Vec<&str> = after.iter().copied().filter(|p| named(p)).collect();
    if moved.is_empty() {
        return None;
    }
    // Only named arguments and then `**` may follow: anything else stays for ytt to refuse.
    let mut seen_kwargs = false;
    for p in after {
        let kwargs = code_of(p).starts_with("**");
        if (!named(p) && !kwargs) || (named(p) && seen_kwargs) {
            return None;
        }
        seen_kwargs |= kwargs;
    }
    if args.contains('\n') {
        return gathered(args, &parts, star);
    }
    let mut order: Vec<&str> = parts[..star].to_vec();
    order.extend(moved);
    order.push(parts[star]);
    order.extend(after.iter().copied().filter(|p| !named(p)));
    let joined: Vec<&str> = order.iter().map(|p| p.trim()).collect();
    let lead = &args[..args.len() - args.trim_start().len()];
    let trail = &args[args.trim_end().len()..];
    Some(format!("{lead}{}{trail}", joined.join(", ")))
}

/// Over several lines: `args` with the arguments after the spread `parts[star]` (named ones,
/// then perhaps `**kwargs`) inside `**__ytt_named(`…`)`, every other byte where it was. A
/// trailing comma after them is left for the error ytt gives (`got ')', want argument`).
fn gathered(args: &str, parts: &[&str], star: usize) -> Option<String> {
    let offset = |p: &str| p.as_ptr() as usize - args.as_ptr() as usize;
    let first = parts.get(star + 1)?;
    let last = parts.last()?;
    let open = offset(first);
    let code = code_of(last);
    let close = offset(code) + code.len();
    if !code_of(&args[close..]).is_empty() {
        return None;
    }
    let mut out = String::with_capacity(args.len() + 16);
    out.push_str(&args[..open]);
    out.push_str("**");
    out.push_str(NAMED_FN);
    out.push('(');
    out.push_str(&args[open..close]);
    out.push(')');
    out.push_str(&args[close..]);
    Some(out)
}

/// Whether an argument is a named one (`x=…`, not `x==…`).
pub(super) fn named(arg: &str) -> bool {
    let t = code_of(arg);
    let name_end = t.bytes().position(|c| !is_ident(c)).unwrap_or(t.len());
    if name_end == 0 || t.as_bytes()[0].is_ascii_digit() {
        return false;
    }
    let rest = t[name_end..].trim_start();
    rest.starts_with('=') && !rest.starts_with("==")
}

/// An argument's code: its text without the blanks and `#` comments around it.
pub(super) fn code_of(arg: &str) -> &str {
    let b = arg.as_bytes();
    let (mut start, mut end) = (None, 0);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                i = arg[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' | b'\\' => {}
            c => {
                let n = if c == b'"' || c == b'\'' {
                    string_len(b, i).max(1)
                } else {
                    1
                };
                start.get_or_insert(i);
                end = i + n;
                i += n;
                continue;
            }
        }
        i += 1;
    }
    match start {
        Some(s) => arg.get(s..end.min(b.len())).unwrap_or(""),
        None => "",
    }
}

/// The top-level arguments of a call's text, split at its commas (a trailing empty one
/// dropped).
pub(super) fn split_args(args: &str) -> Vec<&str> {
    let b = args.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i += string_len(b, i);
                continue;
            }
            b'#' => {
                i = args[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !args[start..].trim().is_empty() {
        out.push(&args[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_arguments_after_a_spread_move_before_it() {
        assert_eq!(reorder("v = f(*args, x=3)"), "v = f(x=3, *args)");
        assert_eq!(
            reorder("v = f(1, *__ytt_args(g(a, *b, y=1)), x=3, **__ytt_kwargs(kw))"),
            "v = f(1, x=3, *__ytt_args(g(a, y=1, *b)), **__ytt_kwargs(kw))"
        );
        assert_eq!(reorder("o.m(*a, k='x,y')[0]"), "o.m(k='x,y', *a)[0]");
    }

    #[test]
    fn over_several_lines_no_text_moves() {
        assert_eq!(
            reorder("v = f(*args,\n    x=3)"),
            "v = f(*args,**__ytt_named(\n    x=3))"
        );
        assert_eq!(
            reorder("v = f(1, *a,  # the rest\n  x=g(2),\n  **__ytt_kwargs(kw)  # more\n)"),
            "v = f(1, *a,**__ytt_named(  # the rest\n  x=g(2),\n  **__ytt_kwargs(kw))  # more\n)"
        );
        let code = "v = f(*a,\n  x=1,\n  y=[2,\n    3])\nw = 1";
        let out = reorder(code);
        assert_eq!(out.lines().count(), code.lines().count());
        // Text is only added, at the ends of lines: every column written stays.
        for (a, b) in code.lines().zip(out.lines()) {
            assert!(b.starts_with(a), "{b:?} does not start with {a:?}");
        }
    }

    #[test]
    fn what_ytt_refuses_or_does_not_spread_is_left_alone() {
        for code in [
            "f(*a, 2)",
            "f(**k, x=1)",
            "f(*a, **k, x=1)",
            "def f(*args, x=2):\n  pass",
            "x = a * b == c",
            "f(*a,\n  x=1,\n)",
            "f(*a, x=1,)",
            "f(*a, x=1, # why\n)",
            "f(*a,\n  1)",
            "f(**k,\n  x=1)",
            "s = \"f(*a, x=1)\"",
            "f(x=1, *a)",
            "f(*a, x==1)",
        ] {
            assert_eq!(reorder(code), code, "{code}");
        }
    }
}
