//! A trailing comma in a call that spreads (`f(*args,)`, `f(**kw,)`, `f(*a, x=1,)`): the
//! parser of ytt's Starlark (its starlark-go fork) takes a trailing comma only in a call with
//! neither `*` nor `**` and refuses the others with `got ')', want argument`, at the closing
//! parenthesis; the crate takes them all. The first such call of the code, by its `)`, is the
//! error ytt gives (a parse error: it comes before any resolver error of the file).

use super::kwargs_splat::verbatim_len;
use super::named_after_star::{code_of, is_call, split_args};

/// ytt's words for the refused call.
pub const MESSAGE: &str = "got ')', want argument";

/// The byte offset of the `)` of the first call in `code` that spreads and ends with a comma.
pub fn refused(code: &str) -> Option<usize> {
    if !code.contains('*') {
        return None;
    }
    let b = code.as_bytes();
    // For each open bracket: where its text starts, and whether it is a call's.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(n) = verbatim_len(code, i) {
            i += n.max(1);
            continue;
        }
        match b[i] {
            b'(' => open.push((i + 1, is_call(&code[..i]))),
            b'[' | b'{' => open.push((i + 1, false)),
            b')' => {
                if let Some((start, true)) = open.pop() {
                    if spreads_with_trailing_comma(&code[start..i]) {
                        return Some(i);
                    }
                }
            }
            b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether a call's arguments `args` spread (`*` or `**`) and end with a comma.
fn spreads_with_trailing_comma(args: &str) -> bool {
    args.contains('*')
        && code_of(args).ends_with(',')
        && split_args(args).iter().any(|p| code_of(p).starts_with('*'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_and_a_trailing_comma_are_refused_at_the_parenthesis() {
        for code in [
            "f(*a,)",
            "f(**k,)",
            "f(*a, x=1,)",
            "f(1, **k, # why\n)",
            "v = [g(1), f(*a,\n  )]",
        ] {
            let at = refused(code);
            assert!(at.is_some(), "{code}");
            assert_eq!(code.as_bytes()[at.unwrap_or(0)], b')', "{code}");
        }
        assert_eq!(refused("g(f(*a,), h(*b,))"), Some(7));
    }

    #[test]
    fn what_ytt_takes_is_not_refused() {
        for code in [
            "f(*a)",
            "f(1, 2,)",
            "f(x=1,)",
            "f(*a, x=1)",
            "f(*a,**__ytt_named(\n  x=1))",
            "x = a * b,",
            "def f(*a, **k,):\n  pass",
            "s = \"f(*a,)\"",
            "f(2 * 3,)",
            "f([*a],)",
        ] {
            assert_eq!(refused(code), None, "{code}");
        }
    }
}
