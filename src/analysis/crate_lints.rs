//! `unused-load` (a `load()`ed name nothing reads; warning) and `unreachable-code` (statements
//! after `return`, `fail()`, `break` or `continue`; info). The starlark crate's linter has both
//! (`AstModuleLint::lint`), but runs a dozen other passes with them, which doubled the cost of
//! static analysis on large repositories; these are the same two checks on their own.

use crate::report::Rule;
use starlark::codemap::Span;
use starlark::syntax::ast::{AstNoPayload, AstStmt, Expr, LoadArgP, Stmt};

use super::index::Index;
use super::units::Unit;
use super::{walk, Finding};

pub const UNUSED_LOAD: Rule = Rule::UnusedLoad;
pub const UNREACHABLE: Rule = Rule::UnreachableCode;

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for (i, unit) in index.all.iter().enumerate().take(index.own) {
        let stmts = walk::stmts(&unit.ast);
        let locals: Vec<&str> = stmts
            .iter()
            .filter_map(|s| match &s.node {
                Stmt::Load(load) => Some(load.args.iter().map(|a| a.local.ident.as_str())),
                _ => None,
            })
            .flatten()
            .collect();
        let read = walk::read_among(&unit.ast, &locals);
        for stmt in stmts {
            let Stmt::Load(load) = &stmt.node else {
                continue;
            };
            let unused = |arg: &&LoadArgP<AstNoPayload>| {
                let local = walk::original(&arg.local.ident);
                !local.starts_with('_') && !read.contains(arg.local.ident.as_str())
            };
            let whole = load.args.iter().all(|a| unused(&a));
            let line = unit.lines_of(stmt.span).map(|(first, _)| first);
            let all: Vec<&LoadArgP<AstNoPayload>> = load.args.iter().collect();
            for arg in load.args.iter().filter(unused) {
                let local = walk::original(&arg.local.ident);
                let needle = if arg.local.ident == arg.their.node {
                    format!("\"{local}\"")
                } else {
                    local.to_string()
                };
                if let Some(pos) = unit.pos(arg.local.span, &needle) {
                    let width = unit.width(&pos, &needle);
                    let message = format!("{local} is loaded but never used");
                    // Safe only when the removal is proved harmless (`load_safety`).
                    let removed = if whole {
                        all.as_slice()
                    } else {
                        std::slice::from_ref(&arg)
                    };
                    let safe = super::load_safety::harmless(index, i, load, removed, whole);
                    let fix =
                        line.and_then(|l| super::load_fix::fix(unit, l, load, local, whole, safe));
                    found.push(
                        Finding::new(UNUSED_LOAD, message, pos)
                            .wide(width)
                            .fixed(fix),
                    );
                }
            }
        }
        let mut spans = Vec::new();
        aborts(unit.ast.statement(), &mut spans);
        for span in spans {
            // Code the template compiler adds (the closing `return` of a function, a `pass`
            // for an empty block) is not the author's.
            let code = unit.ast.file_span(span).source_span().trim().to_string();
            if code.contains("__ytt_") || code == "pass" {
                continue;
            }
            found.extend(unreachable(unit, span));
        }
    }
    found
}

fn unreachable(unit: &Unit<'_>, span: Span) -> Option<Finding> {
    let pos = unit.pos(span, "")?;
    let message = "this code never runs: it follows a return or fail()".to_string();
    Some(Finding::new(UNREACHABLE, message, pos))
}

/// Whether `s` always ends its block early; the first statement after such a statement in a
/// block goes to `out`.
fn aborts(s: &AstStmt, out: &mut Vec<Span>) -> bool {
    match &s.node {
        Stmt::Break | Stmt::Continue | Stmt::Return(_) => true,
        Stmt::Expression(e) => matches!(&e.node, Expr::Call(f, _)
            if matches!(&f.node, Expr::Identifier(id) if id.ident == "fail")),
        Stmt::Statements(xs) => {
            for (k, x) in xs.iter().enumerate() {
                if aborts(x, out) {
                    if let Some(next) = xs.get(k + 1) {
                        out.push(next.span);
                    }
                    return true;
                }
            }
            false
        }
        Stmt::IfElse(_, branches) => {
            let a = aborts(&branches.0, out);
            let b = aborts(&branches.1, out);
            a && b
        }
        _ => {
            s.visit_stmt(|c| {
                aborts(c, out);
            });
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    #[test]
    fn unused_loads_are_found() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n\
                   #@ load(\"@ytt:overlay\", \"overlay\")\n\
                   #@overlay/match by=overlay.all\n---\na: #@ data.values.a\n";
        let found = findings(&[("t.yml", tpl)], super::UNUSED_LOAD);
        assert_eq!(found, ["t.yml:2:22 yaml is loaded but never used"]);
    }

    #[test]
    fn code_after_return_or_fail_is_found() {
        let star =
            "def f(x):\n  return x\n  print(x)\nend\ndef g():\n  fail(\"no\")\n  return 1\nend\n\
                    def h(x):\n  if x:\n    return 1\n  end\n  return 2\nend\n";
        let found = findings(&[("f.star", star)], super::UNREACHABLE);
        assert_eq!(
            found,
            [
                "f.star:3:3 this code never runs: it follows a return or fail()",
                "f.star:7:3 this code never runs: it follows a return or fail()",
            ]
        );
        let tpl = "#@ def f(x):\n#@   return x\n#@ end\na: #@ f(1)\n\
                   #@ def g(x):\n#@   if x:\n#@     return 1\n#@   else:\n#@     return 2\n#@   end\n#@ end\nb: #@ g(1)\n";
        assert!(findings(&[("t.yml", tpl)], super::UNREACHABLE).is_empty());
    }
}
