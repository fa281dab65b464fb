//! The parentheses of Starlark code, outside strings and comments: for each `(` … `)` pair,
//! where its text starts and where it closes, in the order they close. The call checks that
//! speak ytt's words (`call_refusals`, `spread_comma`) walk calls this way.

use super::kwargs_splat::verbatim_len;

/// Each `(` … `)` pair of `code` as the byte offset after its `(` and that of its `)`, in the
/// order the pairs close. A `]` or `}` closes whatever bracket is open, as a parser that
/// stops at the mismatch would see it.
pub fn closed(code: &str) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    // For each open bracket: where its text starts, and whether it is a parenthesis.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(n) = verbatim_len(code, i) {
            i += n.max(1);
            continue;
        }
        match b[i] {
            b'(' => open.push((i + 1, true)),
            b'[' | b'{' => open.push((i + 1, false)),
            b')' => {
                if let Some((start, true)) = open.pop() {
                    out.push((start, i));
                }
            }
            b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_close_inner_first_and_strings_are_skipped() {
        let code = "f(g(1), \")\", [h(2)])";
        let got: Vec<&str> = closed(code).into_iter().map(|(s, e)| &code[s..e]).collect();
        assert_eq!(got, vec!["1", "2", "g(1), \")\", [h(2)]"]);
        // A `]` closes the open parenthesis: it is not a pair.
        assert!(closed("f(1]").is_empty());
    }
}
