//! A `for` statement over a bare tuple (`for v in a, b:`). starlark-go, and so ytt, reads the
//! expressions after `in` as a tuple when a comma separates them, as Python does; the crate's
//! grammar takes one expression there and refuses the comma (`got ',', want ':'`). The
//! rewriter puts the list in parentheses, `for v in (a, b):`, on the same line, so lines and
//! what the loop runs stay as ytt has them (round thirty-six's R36-1).

use super::super::lex::{Kind, Tok};

/// The insertions that parenthesize the iterable of a `for` header whose tokens (between
/// `for` and its colon) are `header`, when it is a bare list with a comma and no trailing one;
/// none otherwise.
pub(super) fn parens(header: &[Tok], src: &str) -> Vec<(usize, String)> {
    let Some(base) = header.first().map(|t| t.depth) else {
        return Vec::new();
    };
    let is_in =
        |t: &Tok| t.kind == Kind::Ident && t.depth == base && src.get(t.start..t.end) == Some("in");
    let Some(at) = header.iter().position(is_in) else {
        return Vec::new();
    };
    let iterable = header.get(at + 1..).unwrap_or_default();
    let (Some(first), Some(last)) = (iterable.first(), iterable.last()) else {
        return Vec::new();
    };
    let bare = iterable
        .iter()
        .any(|t| t.kind == Kind::Comma && t.depth == base);
    // ytt refuses a trailing comma there ("unparenthesized tuple with trailing comma"): the
    // crate's own error stands for it.
    let trailing = last.kind == Kind::Comma && last.depth == base;
    if !bare || trailing {
        return Vec::new();
    }
    vec![(first.start, "(".to_string()), (last.end, ")".to_string())]
}
