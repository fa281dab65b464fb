//! Augmented assignments (`x |= y`, `x *= y`, `x %= y`, `x <<= y`) as starlark-go runs them:
//! the binary operator, then the assignment. starlark-go compiles `x op= y` to `x = x op y`
//! (only `list += iterable` extends in place, which the crate does too), but the crate has
//! its own in-place operators: `d |= other` merged two dicts, where starlark-go's `|` refuses
//! them, and `x |= y` of `None` made a type union. `eval::gocompat` turns the binary
//! operators into calls of `stdlib::goops`; this turns the augmented ones into the same calls,
//! `x |= y` into `x = __ytt_bitor(x, (y))`.
//!
//! The target is written twice, so it is rewritten only when reading it again has no effect
//! and reads the same: names, literals, `.field` and `[index]` of those (no call, no
//! operator, no lookup `gocompat` rewrites). Any other target is left to the crate's
//! operator (`d[f()] |= x`; docs/starlark-departures.md). No line break is added or removed.

use starlark::syntax::ast::{AssignOp, AssignTarget, AstExpr, AstStmt, Expr, Stmt};
use starlark::syntax::AstModule;

use super::gocompat::{Edit, METHODS};

/// The function of `stdlib::goops` an augmented operator becomes, and its token.
fn function(op: AssignOp) -> Option<(&'static str, &'static str)> {
    match op {
        AssignOp::BitOr => Some(("|=", "__ytt_bitor")),
        AssignOp::Multiply => Some(("*=", "__ytt_mul")),
        AssignOp::Percent => Some(("%=", "__ytt_percent")),
        AssignOp::LeftShift => Some(("<<=", "__ytt_shl")),
        _ => None,
    }
}

/// The edits turning each augmented assignment the crate would run otherwise into the
/// assignment of starlark-go's binary operator.
pub(super) fn edits(ast: &AstModule, code: &str) -> Vec<Edit> {
    let mut edits = Vec::new();
    walk(ast.statement(), code, &mut edits);
    edits
}

fn walk(stmt: &AstStmt, code: &str, edits: &mut Vec<Edit>) {
    if let Stmt::AssignModify(lhs, op, rhs) = &stmt.node {
        if let Some((token, func)) = function(*op) {
            rewrite(lhs, token, func, rhs, code, edits);
        }
    }
    stmt.visit_stmt(|s| walk(s, code, edits));
}

fn rewrite(
    lhs: &starlark::syntax::ast::AstAssignTarget,
    token: &str,
    func: &str,
    rhs: &AstExpr,
    code: &str,
    edits: &mut Vec<Edit>,
) {
    let pure = match &lhs.node {
        AssignTarget::Identifier(_) => true,
        AssignTarget::Dot(obj, name) => pure(obj) && !METHODS.contains(&name.node.as_str()),
        AssignTarget::Index(b) => pure(&b.0) && pure(&b.1),
        AssignTarget::Tuple(_) => false,
    };
    let (l_start, l_end) = (
        lhs.span.begin().get() as usize,
        lhs.span.end().get() as usize,
    );
    let (r_start, r_end) = (
        rhs.span.begin().get() as usize,
        rhs.span.end().get() as usize,
    );
    let Some(target) = code.get(l_start..l_end) else {
        return;
    };
    if !pure || target.contains(['\n', '\r', '#', '\\']) {
        return;
    }
    // The operator's token: the first thing after the target, blanks and continued lines
    // aside.
    let after = code.get(l_end..r_start).unwrap_or("");
    let skipped = after.len()
        - after
            .trim_start_matches([' ', '\t', '\\', '\r', '\n'])
            .len();
    if !after[skipped..].starts_with(token) {
        return;
    }
    // A tuple is one argument only in its own parentheses (`x %= (a, b)`, `(1,)`), which its
    // span leaves out: the call closes after them.
    let r_end = match rhs.node {
        Expr::Tuple(_) => match enclosing_parens(code, r_start, r_end) {
            Some(close) => close + 1,
            None => return,
        },
        _ => r_end,
    };
    // A trailing comma (`x |= 1,` is a tuple): left to the crate.
    let rest = code.get(r_end..).unwrap_or("");
    if rest.trim_start_matches([' ', '\t']).starts_with(',') {
        return;
    }
    let op_start = l_end + skipped;
    edits.push(Edit {
        start: op_start,
        end: op_start + token.len(),
        text: format!("= {func}({target}, ("),
        outer: 0,
    });
    edits.push(Edit {
        start: r_end,
        end: r_end,
        text: "))".to_string(),
        outer: 0,
    });
}

/// The `)` of the parentheses right around `code[start..end]` (blanks and a trailing comma
/// aside).
fn enclosing_parens(code: &str, start: usize, end: usize) -> Option<usize> {
    let before = code
        .get(..start)?
        .trim_end_matches([' ', '\t', '\r', '\n', '\\']);
    let open = before.len().checked_sub(1)?;
    if !before.ends_with('(') {
        return None;
    }
    let pairs = crate::template::rewrite::paren_pairs(code);
    let close = pairs
        .binary_search_by_key(&open, |p| p.0)
        .ok()
        .map(|i| pairs[i].1)?;
    let inside = code
        .get(end..close)?
        .trim_matches([' ', '\t', '\r', '\n', '\\']);
    matches!(inside, "" | ",").then_some(close)
}

/// Whether reading `e` twice has no effect and gives the same value.
fn pure(e: &AstExpr) -> bool {
    match &e.node {
        Expr::Identifier(_) | Expr::Literal(_) => true,
        Expr::Dot(obj, name) => pure(obj) && !METHODS.contains(&name.node.as_str()),
        Expr::Index(b) => pure(&b.0) && pure(&b.1),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use starlark::syntax::Dialect;

    use super::*;

    fn rewritten(code: &str) -> String {
        let ast = AstModule::parse("t.star", code.to_string(), &Dialect::Extended).unwrap();
        super::super::gocompat::apply(code, edits(&ast, code))
    }

    #[test]
    fn an_augmented_operator_becomes_the_binary_one() {
        assert_eq!(rewritten("d |= e"), "d = __ytt_bitor(d, ( e))");
        assert_eq!(rewritten("x *= 2"), "x = __ytt_mul(x, ( 2))");
        assert_eq!(rewritten("s %= (a, b)"), "s = __ytt_percent(s, ( (a, b)))");
        assert_eq!(rewritten("n <<= 3"), "n = __ytt_shl(n, ( 3))");
        assert_eq!(rewritten("t |= (1,)"), "t = __ytt_bitor(t, ( (1,)))");
        assert_eq!(
            rewritten("t |= ( 1, 2 )"),
            "t = __ytt_bitor(t, ( ( 1, 2 )))"
        );
        assert_eq!(
            rewritten("d[\"k\"].m |= e"),
            "d[\"k\"].m = __ytt_bitor(d[\"k\"].m, ( e))"
        );
        assert_eq!(
            rewritten("def f(d):\n    d |= (\n      e)\n"),
            "def f(d):\n    d = __ytt_bitor(d, ( (\n      e)))\n"
        );
    }

    #[test]
    fn others_are_left_to_the_crate() {
        for code in [
            "l += x",
            "x -= 1",
            "d[f()] |= e",
            "x |= 1, 2",
            "d[a + b] |= e",
        ] {
            assert_eq!(rewritten(code), code);
        }
    }
}
