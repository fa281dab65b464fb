//! A trailing comma in a call that spreads (`f(*args,)`, `f(**kw,)`, `f(*a, x=1,)`): the
//! parser of ytt's Starlark (its starlark-go fork) takes a trailing comma only in a call with
//! neither `*` nor `**` and refuses the others with `got ')', want argument`, at the closing
//! parenthesis; the crate takes them all. The first such call of the code, by its `)`, is the
//! error ytt gives (a parse error: it comes before any resolver error of the file).

use super::named_after_star::{code_of, is_call, split_args};

/// ytt's words for a refused call.
pub const CALL: &str = "got ')', want argument";

/// ytt's words for a refused `def`.
pub const DEF: &str = "got ')', want parameter";

/// What a `(` opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opens {
    Call,
    Def,
    Other,
}

/// The byte offset of the `)` of the first call or `def` in `code` that spreads and ends with
/// a comma, and ytt's words for it.
pub fn refused(code: &str) -> Option<(usize, &'static str)> {
    if !code.contains('*') {
        return None;
    }
    for (start, end) in super::parens::closed(code) {
        if !spreads_with_trailing_comma(&code[start..end]) {
            continue;
        }
        match opens(&code[..start - 1]) {
            Opens::Call => return Some((end, CALL)),
            Opens::Def => return Some((end, DEF)),
            Opens::Other => {}
        }
    }
    None
}

/// What a `(` written after `before` opens.
fn opens(before: &str) -> Opens {
    if is_call(before) {
        return Opens::Call;
    }
    let t = before.trim_end();
    let name_start = t
        .bytes()
        .rposition(|c| !super::kwargs_splat::is_ident(c))
        .map_or(0, |p| p + 1);
    let head = t[..name_start].trim_end();
    let is_def = name_start < t.len()
        && head.ends_with("def")
        && !head[..head.len() - 3]
            .bytes()
            .last()
            .is_some_and(super::kwargs_splat::is_ident);
    if is_def {
        Opens::Def
    } else {
        Opens::Other
    }
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
            assert_eq!(at.map(|a| a.1), Some(CALL), "{code}");
            assert_eq!(code.as_bytes()[at.map_or(0, |a| a.0)], b')', "{code}");
        }
        assert_eq!(refused("g(f(*a,), h(*b,))"), Some((7, CALL)));
        assert_eq!(refused("def f(a, **k,):\n  pass"), Some((13, DEF)));
        assert_eq!(refused("def f(*a, b=1,\n):\n  pass"), Some((15, DEF)));
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
            "def f(a, b,):\n  pass",
            "undef(*a)",
            "s = \"f(*a,)\"",
            "f(2 * 3,)",
            "f([*a],)",
        ] {
            assert_eq!(refused(code), None, "{code}");
        }
    }
}
