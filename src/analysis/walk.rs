//! Walks over a parsed module: every statement, every expression, the names each scope binds.

use foldhash::{HashMap, HashMapExt};

use starlark::syntax::ast::{AstExpr, AstNoPayload, AstStmt, ClauseP, DefP, Expr, LoadP, Stmt};
use starlark::syntax::AstModule;

/// Every statement of the module, outermost first.
pub fn stmts(ast: &AstModule) -> Vec<&AstStmt> {
    fn go<'a>(s: &'a AstStmt, out: &mut Vec<&'a AstStmt>) {
        out.push(s);
        s.visit_stmt(|c| go(c, out));
    }
    let mut out = Vec::new();
    go(ast.statement(), &mut out);
    out
}

/// Every expression of the module, outer expressions before the ones inside them.
pub fn exprs(ast: &AstModule) -> Vec<&AstExpr> {
    let mut out = Vec::new();
    each_expr(ast, &mut |e| out.push(e));
    out
}

/// Calls `f` on every expression of the module, in the order of [`exprs`] (without building
/// the list).
pub fn each_expr<'a>(ast: &'a AstModule, f: &mut dyn FnMut(&'a AstExpr)) {
    fn go<'a>(e: &'a AstExpr, f: &mut dyn FnMut(&'a AstExpr)) {
        f(e);
        e.visit_expr(|c| go(c, f));
    }
    ast.statement().visit_expr(|e| go(e, f));
}

/// How many times each name is bound anywhere in the module (assignments, `for` targets,
/// `def` names and parameters, `load` names, lambda parameters, comprehension variables).
pub fn bindings(ast: &AstModule) -> HashMap<String, usize> {
    let mut count: HashMap<String, usize> = HashMap::new();
    let mut add = |name: &str| *count.entry(name.to_string()).or_default() += 1;
    let params = |ps: &[starlark::syntax::ast::AstParameter], add: &mut dyn FnMut(&str)| {
        for p in ps {
            if let Some(id) = p.node.ident() {
                add(&id.ident);
            }
        }
    };
    for s in stmts(ast) {
        match &s.node {
            Stmt::Assign(a) => a.lhs.visit_lvalue(|id| add(&id.ident)),
            Stmt::AssignModify(lhs, _, _) => lhs.visit_lvalue(|id| add(&id.ident)),
            Stmt::For(f) => f.var.visit_lvalue(|id| add(&id.ident)),
            Stmt::Def(d) => {
                add(&d.name.ident);
                params(&d.params, &mut add);
            }
            Stmt::Load(l) => l.args.iter().for_each(|a| add(&a.local.ident)),
            _ => {}
        }
    }
    each_expr(ast, &mut |e| match &e.node {
        Expr::Lambda(l) => params(&l.params, &mut add),
        Expr::ListComprehension(_, first, clauses) | Expr::DictComprehension(_, first, clauses) => {
            first.var.visit_lvalue(|id| add(&id.ident));
            for c in clauses {
                if let ClauseP::For(f) = c {
                    f.var.visit_lvalue(|id| add(&id.ident));
                }
            }
        }
        _ => {}
    });
    count
}

/// The module's top-level statements (blocks of `if` and `for` at the top level included:
/// what they bind is global too), without descending into `def`s.
pub fn top_level(ast: &AstModule) -> Vec<&AstStmt> {
    fn go<'a>(s: &'a AstStmt, out: &mut Vec<&'a AstStmt>) {
        out.push(s);
        if !matches!(s.node, Stmt::Def(_)) {
            s.visit_stmt(|c| go(c, out));
        }
    }
    let mut out = Vec::new();
    go(ast.statement(), &mut out);
    out
}

/// The names the module defines at the top level (what `load()` can import from it).
pub fn globals(ast: &AstModule) -> Vec<String> {
    let mut out = Vec::new();
    for s in top_level(ast) {
        match &s.node {
            Stmt::Assign(a) => a.lhs.visit_lvalue(|id| out.push(id.ident.clone())),
            Stmt::AssignModify(lhs, _, _) => lhs.visit_lvalue(|id| out.push(id.ident.clone())),
            Stmt::For(f) => f.var.visit_lvalue(|id| out.push(id.ident.clone())),
            Stmt::Def(d) => out.push(d.name.ident.clone()),
            _ => {}
        }
    }
    out
}

/// The top-level `def`s.
pub fn defs(ast: &AstModule) -> Vec<&DefP<AstNoPayload>> {
    top_level(ast)
        .into_iter()
        .filter_map(|s| match &s.node {
            Stmt::Def(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// The `load()` statements.
pub fn loads(ast: &AstModule) -> Vec<&LoadP<AstNoPayload>> {
    stmts(ast)
        .into_iter()
        .filter_map(|s| match &s.node {
            Stmt::Load(l) => Some(l),
            _ => None,
        })
        .collect()
}

/// Which of `names` the module reads anywhere. The checks ask about a few names (their loads,
/// their functions): a set of every name read, built for every template, was a noticeable
/// part of the static analysis.
pub fn read_among<'n>(ast: &AstModule, names: &[&'n str]) -> std::collections::HashSet<&'n str> {
    let mut found = std::collections::HashSet::new();
    if names.is_empty() {
        return found;
    }
    each_expr(ast, &mut |e| {
        if let Expr::Identifier(id) = &e.node {
            let read = id.ident.as_str();
            if let Some(name) = names.iter().find(|n| **n == read) {
                found.insert(*name);
            }
        }
    });
    found
}

/// A name as the author wrote it (the engine renames identifiers the crate reserves, such as
/// `assert`).
pub fn original(name: &str) -> &str {
    crate::template::keywords::original(name)
}
