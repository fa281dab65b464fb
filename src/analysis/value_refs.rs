//! Where a library's templates read its data values: every `data.values...` chain of attribute
//! and index accesses (`data.values.app.port`, `data.values["app"]`), also through a name bound
//! once to such a chain (`v = data.values.app`, then `v.port`, in the file or `load()`ed from
//! another one). Each reference is the longest chain at its place: what follows it is not a
//! data value access (a call, an operator, an argument), so the reference uses its value whole.
//! A probe of a key (`hasattr(v, "k")`, `getattr(v, "k", d)`, `"k" in v`, `"k" in dir(v)`) is
//! a reference of its own: it reads `v.k` only, and the key may be absent.

use std::collections::HashMap;

use starlark::codemap::Span;
use starlark::syntax::ast::{ArgumentP, AssignTarget, AstExpr, AstLiteral, BinOp, Expr, Stmt};

use super::index::{Index, Target};
use super::walk;

/// One step of a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// `.name` or `["name"]`.
    Key(String),
    /// `[expr]` with anything but a string literal.
    Dynamic,
}

/// A read of data values: the chain after `data.values`, in unit `unit`, at `span`.
#[derive(Clone, Debug)]
pub struct Ref {
    pub unit: usize,
    pub span: Span,
    pub segs: Vec<Seg>,
    /// A probe: asks whether the last key is there (a missing key is no error).
    pub probe: bool,
}

/// Every reference to data values in the library's own files, then in the files of private
/// libraries they load (`load("@lib:file")`), which read the same data values (`Ref::unit`
/// at or past [`Index::own`]).
pub fn refs(index: &Index<'_>) -> Vec<Ref> {
    let aliases = aliases(index);
    let mut out = Vec::new();
    for (i, own) in aliases.iter().enumerate() {
        let unit = &index.all[i];
        let defs: Vec<Span> = alias_definitions(index, i, own);
        // The objects of probes, which are not whole uses.
        let mut probed: Vec<Span> = Vec::new();
        let mut visit = |e: &AstExpr, extended: bool| {
            if extended || defs.contains(&e.span) || probed.contains(&e.span) {
                return;
            }
            if let Some((obj, key)) = probe(index, i, e) {
                if let Some(mut segs) = chain(index, i, own, obj) {
                    segs.push(key);
                    probed.push(obj.span);
                    out.push(Ref {
                        unit: i,
                        span: e.span,
                        segs,
                        probe: true,
                    });
                    return;
                }
            }
            if let Some(segs) = chain(index, i, own, e) {
                out.push(Ref {
                    unit: i,
                    span: e.span,
                    segs,
                    probe: false,
                });
            }
        };
        unit.ast
            .statement()
            .visit_expr(|e| outermost(e, false, &mut visit));
    }
    out
}

/// Visits `e` and what it contains, saying for each whether it is the object of an access
/// (`x` in `x.y` or `x[i]`).
fn outermost<'a>(e: &'a AstExpr, extended: bool, f: &mut dyn FnMut(&'a AstExpr, bool)) {
    f(e, extended);
    match &e.node {
        Expr::Dot(obj, _) => outermost(obj, true, f),
        Expr::Index(pair) => {
            outermost(&pair.0, true, f);
            outermost(&pair.1, false, f);
        }
        _ => e.visit_expr(|c| outermost(c, false, f)),
    }
}

/// The object and key that `e` probes: `hasattr(obj, key)`, `getattr(obj, key, ...)` (the
/// builtins, not shadowed), `key in obj`, `key not in obj`.
fn probe<'a>(index: &Index<'_>, i: usize, e: &'a AstExpr) -> Option<(&'a AstExpr, Seg)> {
    let (obj, key) = match &e.node {
        Expr::Call(f, args) => {
            let Expr::Identifier(id) = &f.node else {
                return None;
            };
            let name = id.ident.as_str();
            if !matches!(name, "hasattr" | "getattr") || index.bindings[i].contains_key(name) {
                return None;
            }
            let mut positional = args.args.iter().map(|a| match &a.node {
                ArgumentP::Positional(x) => Some(x),
                _ => None,
            });
            (positional.next()??, positional.next()??)
        }
        Expr::Op(key, BinOp::In | BinOp::NotIn, obj) => {
            (dir_of(index, i, obj).unwrap_or(obj), &**key)
        }
        _ => return None,
    };
    let key = match &key.node {
        Expr::Literal(AstLiteral::String(s)) => Seg::Key(s.node.clone()),
        _ => Seg::Dynamic,
    };
    Some((obj, key))
}

/// `x` of `dir(x)` (the builtin, not shadowed).
fn dir_of<'a>(index: &Index<'_>, i: usize, e: &'a AstExpr) -> Option<&'a AstExpr> {
    let Expr::Call(f, args) = &e.node else {
        return None;
    };
    let Expr::Identifier(id) = &f.node else {
        return None;
    };
    if id.ident != "dir" || index.bindings[i].contains_key("dir") {
        return None;
    }
    match args.args.as_slice() {
        [a] => match &a.node {
            ArgumentP::Positional(x) => Some(x),
            _ => None,
        },
        _ => None,
    }
}

/// The chain `e` reads, if it reads data values.
fn chain(
    index: &Index<'_>,
    i: usize,
    aliases: &HashMap<String, Vec<Seg>>,
    e: &AstExpr,
) -> Option<Vec<Seg>> {
    match &e.node {
        Expr::Dot(obj, name) => {
            if let Expr::Identifier(id) = &obj.node {
                if name.node == "values" && index.ytt_alias(i, &id.ident) == Some("data") {
                    return Some(Vec::new());
                }
            }
            let mut segs = chain(index, i, aliases, obj)?;
            segs.push(Seg::Key(super::walk::original(&name.node).to_string()));
            Some(segs)
        }
        Expr::Index(pair) => {
            let mut segs = chain(index, i, aliases, &pair.0)?;
            segs.push(match &pair.1.node {
                Expr::Literal(AstLiteral::String(s)) => Seg::Key(s.node.clone()),
                _ => Seg::Dynamic,
            });
            Some(segs)
        }
        Expr::Identifier(id) => aliases.get(&id.ident).cloned(),
        _ => None,
    }
}

/// Per unit: the names bound once to a data values chain, their own or loaded.
fn aliases(index: &Index<'_>) -> Vec<HashMap<String, Vec<Seg>>> {
    let mut all: Vec<HashMap<String, Vec<Seg>>> = vec![HashMap::new(); index.all.len()];
    // Two rounds: an alias of an alias, an alias loaded from a file that loads one.
    for _ in 0..2 {
        for i in 0..index.all.len() {
            let mut found = all[i].clone();
            for l in walk::loads(&index.all[i].ast) {
                let Target::File(t) = index.target(i, &l.module.node) else {
                    continue;
                };
                for a in &l.args {
                    if let Some(segs) = all[t].get(&a.their.node) {
                        if index.bound_once(i, &a.local.ident) && index.bound_once(t, &a.their.node)
                        {
                            found.insert(a.local.ident.clone(), segs.clone());
                        }
                    }
                }
            }
            for s in walk::stmts(&index.all[i].ast) {
                let Stmt::Assign(a) = &s.node else { continue };
                let AssignTarget::Identifier(id) = &a.lhs.node else {
                    continue;
                };
                if !index.bound_once(i, &id.ident) {
                    continue;
                }
                if let Some(segs) = chain(index, i, &found, &a.rhs) {
                    found.insert(id.ident.clone(), segs);
                }
            }
            all[i] = found;
        }
    }
    all
}

/// The right-hand sides that define aliases of unit `i` (their reads count through the alias).
fn alias_definitions(
    index: &Index<'_>,
    i: usize,
    aliases: &HashMap<String, Vec<Seg>>,
) -> Vec<Span> {
    walk::stmts(&index.all[i].ast)
        .into_iter()
        .filter_map(|s| match &s.node {
            Stmt::Assign(a) => match &a.lhs.node {
                AssignTarget::Identifier(id) if aliases.contains_key(&id.ident) => Some(a.rhs.span),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
