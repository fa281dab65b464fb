//! Data values tested as conditions: `if data.values.x:`, `not v.y`, the operands of `and` and
//! `or`, the condition of `a if c else b`. A string there is true whenever it is not empty, so a
//! value written `"false"` (a quoted boolean, or a `-v x=false` flag, which gives a string) is
//! true: the job compares these paths with the final data values (`boolean-string`). `x or d`
//! outside a condition is a default, not a test: it is not one of them. A comparison with
//! `True` or `False` (`v.x == False`) is a test as well.

use starlark::codemap::Span;
use starlark::syntax::ast::{AstExpr, BinOp, Expr, Stmt};

use super::index::Index;
use super::value_refs::Seg;
use super::walk;
use crate::pos::Pos;

/// A data value tested as a condition: its keys below `data.values`, and where the test is.
#[derive(Clone, Debug, PartialEq)]
pub struct Tested {
    pub path: Vec<String>,
    pub pos: Pos,
    /// Every use of the value in the library is a test like this one: nothing reads what it
    /// says beyond true or false (no output, no comparison, no call, no map above it used whole).
    pub only: bool,
}

/// Every data value of a static path that the library's own files test as a condition: the
/// operands of an `if` (through `not`, `and`, `or`), of `not`, and the condition of
/// `a if c else b`. A test that guards a use of the same value (`#@ if/end v.x:` over
/// `key: #@ v.x`, `v.x if v.x else d`) asks whether the value is there, not what it says: it is
/// left out.
pub fn tested(index: &Index<'_>) -> Vec<Tested> {
    let all = index.value_refs();
    let mut out: Vec<Tested> = Vec::new();
    // The references that are operands of a test, by unit.
    let mut tests: Vec<(usize, Span)> = Vec::new();
    for i in 0..index.own {
        let unit = &index.all[i];
        let mine: Vec<_> = all.iter().filter(|r| r.unit == i && !r.probe).collect();
        // Each tested operand, with the code it guards.
        let mut checks: Vec<(Span, Vec<Span>)> = Vec::new();
        for s in walk::stmts(&unit.ast) {
            match &s.node {
                Stmt::If(c, body) => operands(c, &mut |op| checks.push((op, vec![body.span]))),
                Stmt::IfElse(c, arms) => operands(c, &mut |op| {
                    checks.push((op, vec![arms.0.span, arms.1.span]))
                }),
                _ => {}
            }
        }
        walk::each_expr(&unit.ast, &mut |e| match &e.node {
            Expr::Not(x) => operands(x, &mut |op| checks.push((op, Vec::new()))),
            // `v.x == True`, `v.x != False`: a comparison with a boolean is a test too.
            Expr::Op(l, BinOp::Equal | BinOp::NotEqual, r) => {
                if is_bool(r) {
                    checks.push((l.span, Vec::new()));
                } else if is_bool(l) {
                    checks.push((r.span, Vec::new()));
                }
            }
            Expr::If(triple) => operands(&triple.0, &mut |op| {
                checks.push((op, vec![triple.1.span, triple.2.span]))
            }),
            _ => {}
        });
        tests.extend(checks.iter().map(|(op, _)| (i, *op)));
        for (op, guarded) in checks {
            for r in mine.iter().filter(|r| r.span == op) {
                let used_inside = guarded.iter().any(|g| {
                    mine.iter().any(|u| {
                        u.segs == r.segs && g.begin() <= u.span.begin() && u.span.end() <= g.end()
                    })
                });
                let keys: Option<Vec<String>> = r
                    .segs
                    .iter()
                    .map(|s| match s {
                        Seg::Key(k) => Some(k.clone()),
                        Seg::Dynamic => None,
                    })
                    .collect();
                let (false, Some(path), Some(pos)) =
                    (used_inside, keys, unit.pos_within(r.span, ""))
                else {
                    continue;
                };
                let t = Tested {
                    path,
                    pos,
                    only: false,
                };
                if !t.path.is_empty() && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    // A use that is not a test: a reference elsewhere, to the value, a map above it (used
    // whole), or through a computed key.
    let other_uses: Vec<&Vec<Seg>> = all
        .iter()
        .filter(|r| !r.probe && !tests.contains(&(r.unit, r.span)))
        .map(|r| &r.segs)
        .collect();
    for t in &mut out {
        t.only = !other_uses.iter().any(|segs| {
            segs.len() <= t.path.len()
                && segs.iter().zip(&t.path).all(|(s, k)| match s {
                    Seg::Key(name) => name == k,
                    Seg::Dynamic => true,
                })
        });
    }
    out.sort_by(|a, b| a.pos.cmp(&b.pos));
    out
}

/// Whether `e` is the literal `True` or `False`.
fn is_bool(e: &AstExpr) -> bool {
    matches!(&e.node, Expr::Identifier(id) if id.ident == "True" || id.ident == "False")
}

/// Calls `f` on each operand that `e` tests for truth: `e` itself, or through `not`, `and`
/// and `or`.
fn operands(e: &AstExpr, f: &mut dyn FnMut(Span)) {
    match &e.node {
        Expr::Not(x) => operands(x, f),
        Expr::Op(l, BinOp::And | BinOp::Or, r) => {
            operands(l, f);
            operands(r, f);
        }
        _ => f(e.span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::InputFile;
    use crate::library::{EvalOpts, Workspace};

    #[test]
    fn conditions_over_data_values_are_found() {
        let star = "load(\"@ytt:data\", \"data\")\nv = data.values.app\ndef f():\n  if data.values.lb.enable:\n    return 1\n  end\n  return 2 if not v.debug else 3\nend\nx = data.values.a or data.values.b.c\nif data.values.a and data.values.b.c:\n  y = data.values.name if data.values.name else \"n\"\nend\nif data.values.port:\n  z = str(data.values.port)\nend\n";
        let ws = Workspace::new(vec![InputFile::new("f.star", star)], EvalOpts::default());
        let index = Index::new(&ws, "");
        let found: Vec<(String, u32, bool)> = tested(&index)
            .into_iter()
            .map(|t| (t.path.join("."), t.pos.line, t.only))
            .collect();
        // `a` and `b.c` are also defaults of `x` (a use of their value), the others only tests.
        assert_eq!(
            found,
            vec![
                ("lb.enable".to_string(), 4, true),
                ("app.debug".to_string(), 7, true),
                ("a".to_string(), 10, false),
                ("b.c".to_string(), 10, false),
            ]
        );
    }

    #[test]
    fn a_value_also_compared_passed_or_used_whole_is_not_only_tested() {
        let star = "load(\"@ytt:data\", \"data\")\nif data.values.mode:\n  x = 1\nend\nif data.values.mode == \"a\":\n  x = 2\nend\nif data.values.s.on:\n  x = 3\nend\ny = str(data.values.s)\nif data.values.k[\"flag\"]:\n  x = 4\nend\nif data.values.e:\n  x = 5\nend\nif data.values.lb.on == False:\n  x = 6\nend\n";
        let ws = Workspace::new(vec![InputFile::new("f.star", star)], EvalOpts::default());
        let index = Index::new(&ws, "");
        let only: Vec<(String, bool)> = tested(&index)
            .into_iter()
            .map(|t| (t.path.join("."), t.only))
            .collect();
        assert_eq!(
            only,
            vec![
                ("mode".to_string(), false),
                ("s.on".to_string(), false),
                ("k.flag".to_string(), true),
                ("e".to_string(), true),
                ("lb.on".to_string(), true),
            ]
        );
    }
}
