//! `f(**value)` with a struct or a YAML map fragment. ytt's Starlark accepts any mapping after
//! `**`; the crate accepts only dicts. Every `**expr` in a call is rewritten to
//! `**__ytt_kwargs(expr)` (a runtime function turning structs and map fragments into dicts);
//! `**name` in `def` and `lambda` parameters is left alone. Likewise every `*expr` in a call
//! becomes `*__ytt_args(expr)`, which refuses what starlark-go cannot spread in its words
//! (`argument after * must be iterable, not string`). Lines are never added or removed.

/// Name of the runtime conversion function.
pub const RUNTIME_FN: &str = "__ytt_kwargs";

/// Name of the runtime check of a `*` argument.
pub const ARGS_FN: &str = "__ytt_args";

/// Length of the string literal starting at `i` (quotes included), or 1 if unterminated.
pub(super) fn string_len(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let triple = b.len() >= i + 3 && b[i + 1] == q && b[i + 2] == q;
    let open = if triple { 3 } else { 1 };
    let mut j = i + open;
    while j < b.len() {
        if b[j] == b'\\' {
            j += 2;
            continue;
        }
        if b[j] == q && (!triple || (j + 2 < b.len() && b[j + 1] == q && b[j + 2] == q)) {
            return j + open - i;
        }
        if !triple && b[j] == b'\n' {
            break;
        }
        j += 1;
    }
    (j - i).min(b.len() - i)
}

pub(super) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The length of the string literal or comment that starts at `i` in `code`, copied as it is
/// by the rewrites; `None` elsewhere.
pub(super) fn verbatim_len(code: &str, i: usize) -> Option<usize> {
    let b = code.as_bytes();
    match b.get(i)? {
        b'"' | b'\'' => Some(string_len(b, i)),
        b'#' => Some(code[i..].find('\n').unwrap_or(b.len() - i)),
        _ => None,
    }
}

/// Where the expression after `**` at `start` ends (at `,` `)` `]` `}` of its own depth).
fn expr_end(b: &[u8], start: usize) -> usize {
    let mut depth = 0i32;
    let mut j = start;
    while j < b.len() {
        match b[j] {
            b'"' | b'\'' => {
                j += string_len(b, j);
                continue;
            }
            b'#' => {
                while j < b.len() && b[j] != b'\n' {
                    j += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return j,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return j,
            _ => {}
        }
        j += 1;
    }
    j
}

/// Rewrites the `**expr` arguments of calls in `code`.
pub fn rewrite_kwargs_splats(code: &str) -> String {
    if !code.contains('*') {
        return code.to_string();
    }
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len() + 32);
    // For each open bracket: whether it holds `def` parameters, and the bracket.
    let mut parens: Vec<(bool, u8)> = Vec::new();
    let mut lambda_params = 0usize;
    let mut last_word = String::new();
    let mut prev_word = String::new();
    let mut last_sig = b'\n';
    let mut i = 0;
    // Splat expressions whose closing `)` is still to be written, by end offset.
    let mut closes: Vec<usize> = Vec::new();
    while i < b.len() {
        while closes.last() == Some(&i) {
            out.push(')');
            closes.pop();
        }
        let c = b[i];
        if let Some(n) = verbatim_len(code, i) {
            out.push_str(&code[i..i + n]);
            i += n;
            if c != b'#' {
                last_sig = b'"';
            }
            continue;
        }
        if is_ident(c) {
            let mut j = i;
            while j < b.len() && is_ident(b[j]) {
                j += 1;
            }
            let word = &code[i..j];
            if word == "lambda" {
                lambda_params += 1;
            }
            prev_word = std::mem::replace(&mut last_word, word.to_string());
            out.push_str(word);
            i = j;
            last_sig = b'a';
            continue;
        }
        match c {
            b'(' => {
                let def_params = last_sig == b'a' && prev_word == "def";
                parens.push((def_params, b'('));
            }
            b'[' | b'{' => parens.push((false, c)),
            b')' | b']' | b'}' => {
                parens.pop();
            }
            b':' if lambda_params > 0 => lambda_params -= 1,
            _ => {}
        }
        let in_params = parens.last().is_some_and(|p| p.0) || lambda_params > 0;
        let double = b.get(i + 1) == Some(&b'*');
        // A single `*` only in a call's parentheses (a list display cannot spread).
        let in_call = parens.last().is_some_and(|p| p.1 == b'(');
        let splat = c == b'*'
            && matches!(last_sig, b'(' | b',')
            && !in_params
            && (if double { !parens.is_empty() } else { in_call });
        if splat {
            let (stars, f) = if double {
                (2, RUNTIME_FN)
            } else {
                (1, ARGS_FN)
            };
            out.push_str(&code[i..i + stars]);
            out.push_str(f);
            out.push('(');
            closes.push(expr_end(b, i + stars));
            i += stars;
            last_sig = b'*';
            continue;
        }
        if !c.is_ascii_whitespace() {
            last_sig = c;
            if c != b'(' {
                last_word.clear();
            }
        }
        out.push(c as char);
        i += 1;
    }
    while closes.pop().is_some() {
        out.push(')');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_splats_are_wrapped() {
        assert_eq!(
            rewrite_kwargs_splats("st = dict(**storage[storage.type])"),
            "st = dict(**__ytt_kwargs(storage[storage.type]))"
        );
        assert_eq!(
            rewrite_kwargs_splats("f(a, *b, **c, d=1)"),
            "f(a, *__ytt_args(b), **__ytt_kwargs(c), d=1)"
        );
    }

    #[test]
    fn single_stars_are_wrapped_only_where_they_spread() {
        assert_eq!(
            rewrite_kwargs_splats("x = len(*v[1:]) * 2"),
            "x = len(*__ytt_args(v[1:])) * 2"
        );
        // Products, parameters and keyword-only markers stay as they are.
        let code = "def f(a, *args, b=g(*c)):\n  return [a * 2, (3 * a)]\nh = lambda *k: k";
        assert_eq!(
            rewrite_kwargs_splats(code),
            "def f(a, *args, b=g(*__ytt_args(c))):\n  return [a * 2, (3 * a)]\nh = lambda *k: k"
        );
        assert_eq!(rewrite_kwargs_splats("def f(*, a):"), "def f(*, a):");
    }

    #[test]
    fn parameters_and_strings_are_left_alone() {
        let code = "def f(a, **kw):\n  return g(\"**x\", **kw)\nh = lambda **k: k";
        assert_eq!(
            rewrite_kwargs_splats(code),
            "def f(a, **kw):\n  return g(\"**x\", **__ytt_kwargs(kw))\nh = lambda **k: k"
        );
    }
}
