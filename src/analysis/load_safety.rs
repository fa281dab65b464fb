//! Whether the fix of `unused-load` is safe: removing a `load()`, or one name of it, must not
//! be able to change ytt's verdict or output. Loading a module runs its top level once, so
//! removing the only `load()` of a module removes that run: a `fail()`, an `assert.fail`, a
//! `print` or a division by zero at its top level, and the error of a name it cannot resolve,
//! go with it. A name that the module does not define fails the `load()` too.
//!
//! So a removal is proved harmless only when
//! - every name removed is defined by the module: the name of a `@ytt:` module, or a name that
//!   a `.star` file binds once at its top level (not starting with `_`);
//! - the local name is bound once in the loading file (a second binding of it is an error
//!   ytt reports, and the removal would take that error away);
//! - for a whole statement, the module is a `@ytt:` module, or a `.star` file whose top level
//!   is only definitions and constant assignments, whose every name resolves, and whose own
//!   `load()`s are harmless the same way (no cycle).
//!
//! "Definitions" are `def`s (their default values constants, no type annotations), and every
//! name their bodies read is a parameter, a local, a name of an enclosing function or
//! comprehension, a top-level name of the module, or one of ytt's builtins: the Starlark of
//! ytt resolves every name when it loads a module, so an unknown one in a body fails the
//! `load()` even when the function is never called. "Constants" are literals, `True`,
//! `False`, `None`, names bound earlier, a member of a `@ytt:` module (`data.values`), and lists, tuples and dictionaries of constants (a
//! dictionary's keys distinct string literals); a lambda is a definition. Anything else (a
//! call, an operator, an attribute, a YAML or text module, which the template compiler turns
//! into calls) is not proved, and the fix is unsafe. What is not proved harmless stays on
//! offer under `--unsafe-fixes`.

use std::collections::{HashMap, HashSet};

use starlark::syntax::ast::{
    AssignTargetP, AstExpr, AstLiteral, AstNoPayload, AstParameter, AstStmt, ClauseP, DefP, Expr,
    LoadArgP, LoadP, Stmt,
};

use super::index::{Index, Target};
use crate::files::FileType;

/// How deep an expression or statement may nest before the proof gives up (unsafe).
const MAX_DEPTH: usize = 200;

/// Whether removing the names `removed` of the statement `load` of unit `i` (every name of it
/// when `whole`) cannot change what ytt renders or whether it fails.
pub fn harmless(
    index: &Index<'_>,
    i: usize,
    load: &LoadP<AstNoPayload>,
    removed: &[&LoadArgP<AstNoPayload>],
    whole: bool,
) -> bool {
    if removed.is_empty() || !removed.iter().all(|a| index.bound_once(i, &a.local.ident)) {
        return false;
    }
    let names: Vec<&str> = removed.iter().map(|a| a.their.node.as_str()).collect();
    let mut visiting = Vec::new();
    match index.target(i, &load.module.node) {
        Target::Ytt(m) => names.iter().all(|n| *n == m),
        Target::File(t) => {
            defines(index, t, &names) && (!whole || pure_module(index, t, &mut visiting))
        }
        Target::Unknown => false,
    }
}

/// Whether the `.star` unit `t` binds each of `names` once at its top level (so `load()`
/// finds it), none of them private.
fn defines(index: &Index<'_>, t: usize, names: &[&str]) -> bool {
    let Some(unit) = index.all.get(t) else {
        return false;
    };
    if unit.file.file_type() != FileType::Starlark {
        return false;
    }
    let stmts = top_statements(unit.ast.statement());
    // Bound by a statement that always runs (`load()`ed names are the file's own, not
    // exported), and nowhere else.
    let direct: HashSet<&str> = stmts
        .iter()
        .filter(|s| matches!(s.node, Stmt::Def(_) | Stmt::Assign(_)))
        .flat_map(|s| bound_by(s))
        .collect();
    let all = top_level_names(stmts);
    names
        .iter()
        .all(|n| !n.starts_with('_') && direct.contains(n) && all.get(n) == Some(&1))
}

/// Whether loading unit `t` runs nothing that can fail, print or change state: its top level
/// is definitions, constant assignments, docstrings and harmless `load()`s.
fn pure_module(index: &Index<'_>, t: usize, visiting: &mut Vec<usize>) -> bool {
    if visiting.contains(&t) {
        // A load cycle: ytt fails on it.
        return false;
    }
    let Some(unit) = index.all.get(t) else {
        return false;
    };
    if unit.file.file_type() != FileType::Starlark {
        return false;
    }
    visiting.push(t);
    let stmts = top_statements(unit.ast.statement());
    let counts = top_level_names(stmts.clone());
    if counts.values().any(|&n| n != 1) {
        // A name bound twice at the top level: ytt's Starlark may refuse the reassignment.
        return false;
    }
    let mut top = Top {
        globals: counts.keys().copied().collect(),
        earlier: HashSet::new(),
        modules: HashMap::new(),
    };
    for s in stmts {
        let ok = match &s.node {
            Stmt::Pass => true,
            Stmt::Expression(e) => matches!(&e.node, Expr::Literal(AstLiteral::String(_))),
            Stmt::Assign(a) => {
                a.ty.is_none()
                    && matches!(&a.lhs.node, AssignTargetP::Identifier(_))
                    && top.constant(&a.rhs, 0)
            }
            Stmt::Def(d) => top.definition(d),
            Stmt::Load(l) => {
                let names: Vec<&str> = l.args.iter().map(|a| a.their.node.as_str()).collect();
                match target(index, t, &l.module.node) {
                    Target::Ytt(m) => {
                        for a in &l.args {
                            top.modules.insert(a.local.ident.as_str(), m);
                        }
                        names.iter().all(|n| *n == m)
                    }
                    Target::File(u) => defines(index, u, &names) && pure_module(index, u, visiting),
                    Target::Unknown => false,
                }
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        top.earlier.extend(bound_by(s));
    }
    visiting.pop();
    true
}

/// What `load(path)` of unit `t` names: the index resolved the loads of the library's own
/// files and of the private libraries' files they load; a `@ytt:` module is known wherever it
/// is loaded.
fn target(index: &Index<'_>, t: usize, path: &str) -> Target {
    match path.strip_prefix("@ytt:") {
        Some(name) => super::ytt_modules::name(name).map_or(Target::Unknown, Target::Ytt),
        None => index.target(t, path),
    }
}

/// The statements of a block, nested statement lists flattened (not `if` or `for` bodies).
fn top_statements(s: &AstStmt) -> Vec<&AstStmt> {
    match &s.node {
        Stmt::Statements(xs) => xs.iter().flat_map(top_statements).collect(),
        _ => vec![s],
    }
}

/// How many times each name is bound by the statements `stmts` themselves (`def`, assignment,
/// `load`), not by what they hold.
fn top_level_names(stmts: Vec<&AstStmt>) -> HashMap<&str, usize> {
    let mut out: HashMap<&str, usize> = HashMap::new();
    for s in stmts {
        for n in bound_by(s) {
            *out.entry(n).or_default() += 1;
        }
    }
    out
}

/// The names statement `s` binds in its own scope (a `for` or `if` at the top level: what
/// their bodies bind too; never what a `def` body binds).
fn bound_by(s: &AstStmt) -> Vec<&str> {
    let mut out = Vec::new();
    fn go<'a>(s: &'a AstStmt, out: &mut Vec<&'a str>) {
        match &s.node {
            Stmt::Assign(a) => a.lhs.visit_lvalue(|id| out.push(id.ident.as_str())),
            Stmt::AssignModify(lhs, _, _) => lhs.visit_lvalue(|id| out.push(id.ident.as_str())),
            Stmt::For(f) => {
                f.var.visit_lvalue(|id| out.push(id.ident.as_str()));
                go(&f.body, out);
            }
            Stmt::Def(d) => out.push(d.name.ident.as_str()),
            Stmt::Load(l) => out.extend(l.args.iter().map(|a| a.local.ident.as_str())),
            Stmt::Statements(xs) => xs.iter().for_each(|x| go(x, out)),
            Stmt::If(_, body) => go(body, out),
            Stmt::IfElse(_, branches) => {
                go(&branches.0, out);
                go(&branches.1, out);
            }
            _ => {}
        }
    }
    go(s, &mut out);
    out
}

/// Whether `name` is one of ytt's universe names (constants and builtin functions), or a
/// function the engine itself puts in the code it evaluates (the `while` helper of the
/// `end`-block rewriter; the lookups and operators of `eval::gocompat`, in the syntax tree an
/// evaluation kept; the `*` and `**` helpers of `template::kwargs_splat`).
fn universe(name: &str) -> bool {
    matches!(
        name,
        "True" | "False" | "None" | "__ytt_while" | "__ytt_attr"
    ) || name == crate::template::kwargs_splat::RUNTIME_FN
        || name == crate::template::kwargs_splat::ARGS_FN
        || crate::eval::gocompat::OPERATORS
            .iter()
            .any(|(_, f)| *f == name)
        || super::builtins::signature(name).is_some()
}

/// What the top level of a module has bound so far, and what it binds in all.
struct Top<'a> {
    /// Every name the top level binds.
    globals: HashSet<&'a str>,
    /// The names bound by the statements before the one at hand.
    earlier: HashSet<&'a str>,
    /// Local names of `@ytt:` modules (`load("@ytt:data", "data")`), and the module.
    modules: HashMap<&'a str, &'static str>,
}

impl<'a> Top<'a> {
    /// Whether `e` is a constant at the top level: evaluating it cannot fail or do anything.
    fn constant(&self, e: &'a AstExpr, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let c = |x: &'a AstExpr| self.constant(x, depth + 1);
        match &e.node {
            // `...` is not Starlark to ytt.
            Expr::Literal(l) => !matches!(l, AstLiteral::Ellipsis),
            Expr::Identifier(id) => {
                self.earlier.contains(id.ident.as_str())
                    || (universe(&id.ident) && !self.globals.contains(id.ident.as_str()))
            }
            // A member a `@ytt:` module has (`data.values`): reading it does nothing else.
            Expr::Dot(obj, attr) => match &obj.node {
                Expr::Identifier(id) if self.earlier.contains(id.ident.as_str()) => self
                    .modules
                    .get(id.ident.as_str())
                    .and_then(|m| super::ytt_modules::module(m))
                    .is_some_and(|m| m.members.contains(&attr.node)),
                _ => false,
            },
            Expr::Minus(x) | Expr::Plus(x) => matches!(
                &x.node,
                Expr::Literal(AstLiteral::Int(_) | AstLiteral::Float(_))
            ),
            Expr::List(xs) | Expr::Tuple(xs) => xs.iter().all(c),
            Expr::Dict(pairs) => {
                let mut keys = HashSet::new();
                pairs.iter().all(|(k, v)| match &k.node {
                    Expr::Literal(AstLiteral::String(s)) => keys.insert(s.node.as_str()) && c(v),
                    _ => false,
                })
            }
            Expr::Lambda(l) => {
                self.params_ok(&l.params)
                    && Scopes::new(&self.globals).within(params(&l.params), |s| s.expr(&l.body, 0))
            }
            _ => false,
        }
    }

    /// Whether a top-level `def` is harmless: default values constant, no annotations, every
    /// name of its body resolves.
    fn definition(&self, d: &'a DefP<AstNoPayload>) -> bool {
        d.return_type.is_none() && self.params_ok(&d.params) && Scopes::new(&self.globals).def(d, 0)
    }

    /// Whether parameters have no type and constant default values.
    fn params_ok(&self, ps: &'a [AstParameter]) -> bool {
        use starlark::syntax::ast::ParameterP;
        ps.iter().all(|p| match &p.node {
            ParameterP::Normal(_, ty, default) => {
                ty.is_none() && default.as_ref().is_none_or(|d| self.constant(d, 0))
            }
            ParameterP::Args(_, ty) | ParameterP::KwArgs(_, ty) => ty.is_none(),
            ParameterP::Slash | ParameterP::NoArgs => true,
        })
    }
}

/// The names parameters bind.
fn params(ps: &[AstParameter]) -> HashSet<&str> {
    ps.iter()
        .filter_map(|p| p.node.ident())
        .map(|id| id.ident.as_str())
        .collect()
}

/// The names a function body binds as locals: assignments, `for` targets, nested `def`s
/// (not what nested functions, lambdas or comprehensions bind).
fn locals(body: &AstStmt) -> HashSet<&str> {
    let mut out = HashSet::new();
    fn go<'a>(s: &'a AstStmt, out: &mut HashSet<&'a str>) {
        match &s.node {
            Stmt::Def(d) => {
                out.insert(d.name.ident.as_str());
            }
            Stmt::Assign(a) => a.lhs.visit_lvalue(|id| {
                out.insert(id.ident.as_str());
            }),
            Stmt::AssignModify(lhs, _, _) => lhs.visit_lvalue(|id| {
                out.insert(id.ident.as_str());
            }),
            Stmt::For(f) => {
                f.var.visit_lvalue(|id| {
                    out.insert(id.ident.as_str());
                });
                go(&f.body, out);
            }
            _ => s.visit_stmt(|c| go(c, out)),
        }
    }
    go(body, &mut out);
    out
}

/// The scopes a name of a function body is looked up in: the enclosing functions' and
/// comprehensions' names (innermost last), then the module's, then the universe.
struct Scopes<'a> {
    globals: &'a HashSet<&'a str>,
    frames: Vec<HashSet<&'a str>>,
}

impl<'a> Scopes<'a> {
    fn new(globals: &'a HashSet<&'a str>) -> Scopes<'a> {
        Scopes {
            globals,
            frames: Vec::new(),
        }
    }

    fn resolves(&self, name: &str) -> bool {
        self.frames.iter().any(|f| f.contains(name))
            || self.globals.contains(name)
            || universe(name)
    }

    fn within(&mut self, frame: HashSet<&'a str>, body: impl FnOnce(&mut Self) -> bool) -> bool {
        self.frames.push(frame);
        let ok = body(self);
        self.frames.pop();
        ok
    }

    /// A `def` (its default values read in the enclosing scope), then its body.
    fn def(&mut self, d: &'a DefP<AstNoPayload>, depth: usize) -> bool {
        let defaults_ok = d.params.iter().all(|p| {
            let mut ok = true;
            p.visit_expr(|e| ok = ok && self.expr(e, depth + 1));
            ok
        });
        let mut frame = params(&d.params);
        frame.extend(locals(&d.body));
        defaults_ok && self.within(frame, |s| s.stmt(&d.body, depth + 1))
    }

    fn stmt(&mut self, s: &'a AstStmt, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match &s.node {
            Stmt::Def(d) => self.def(d, depth),
            Stmt::Load(_) => false,
            Stmt::Assign(a) => {
                // The targets' own expressions (`x[i] = ...` reads `x` and `i`), then the value.
                let mut ok = true;
                a.lhs.visit_expr(|e| ok = ok && self.expr(e, depth + 1));
                ok && a.ty.is_none() && self.expr(&a.rhs, depth + 1)
            }
            Stmt::AssignModify(lhs, _, rhs) => {
                let mut ok = true;
                lhs.visit_expr(|e| ok = ok && self.expr(e, depth + 1));
                ok && self.expr(rhs, depth + 1)
            }
            Stmt::Break | Stmt::Continue | Stmt::Pass | Stmt::Return(None) => true,
            Stmt::Return(Some(e)) | Stmt::Expression(e) => self.expr(e, depth + 1),
            Stmt::Statements(xs) => xs.iter().all(|x| self.stmt(x, depth + 1)),
            Stmt::If(c, body) => self.expr(c, depth + 1) && self.stmt(body, depth + 1),
            Stmt::IfElse(c, branches) => {
                self.expr(c, depth + 1)
                    && self.stmt(&branches.0, depth + 1)
                    && self.stmt(&branches.1, depth + 1)
            }
            Stmt::For(f) => {
                let mut ok = true;
                f.var.visit_expr(|e| ok = ok && self.expr(e, depth + 1));
                ok && self.expr(&f.over, depth + 1) && self.stmt(&f.body, depth + 1)
            }
        }
    }

    fn expr(&mut self, e: &'a AstExpr, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match &e.node {
            Expr::Identifier(id) => self.resolves(&id.ident),
            Expr::Lambda(l) => {
                let defaults_ok = l.params.iter().all(|p| {
                    let mut ok = true;
                    p.visit_expr(|x| ok = ok && self.expr(x, depth + 1));
                    ok
                });
                defaults_ok && self.within(params(&l.params), |s| s.expr(&l.body, depth + 1))
            }
            Expr::ListComprehension(_, first, clauses)
            | Expr::DictComprehension(_, first, clauses) => {
                // The first iterable is read outside; the rest inside, with every variable.
                if !self.expr(&first.over, depth + 1) {
                    return false;
                }
                let mut frame = HashSet::new();
                first.var.visit_lvalue(|id| {
                    frame.insert(id.ident.as_str());
                });
                for c in clauses {
                    if let ClauseP::For(f) = c {
                        f.var.visit_lvalue(|id| {
                            frame.insert(id.ident.as_str());
                        });
                    }
                }
                self.within(frame, |s| {
                    let mut ok = true;
                    first.var.visit_expr(|x| ok = ok && s.expr(x, depth + 1));
                    for c in clauses {
                        match c {
                            ClauseP::For(f) => {
                                f.var.visit_expr(|x| ok = ok && s.expr(x, depth + 1));
                                ok = ok && s.expr(&f.over, depth + 1);
                            }
                            ClauseP::If(x) => ok = ok && s.expr(x, depth + 1),
                        }
                    }
                    match &e.node {
                        Expr::ListComprehension(r, _, _) => ok && s.expr(r, depth + 1),
                        Expr::DictComprehension(kv, _, _) => {
                            ok && s.expr(&kv.0, depth + 1) && s.expr(&kv.1, depth + 1)
                        }
                        _ => ok,
                    }
                })
            }
            _ => {
                let mut ok = true;
                e.visit_expr(|x| ok = ok && self.expr(x, depth + 1));
                ok
            }
        }
    }
}

#[cfg(test)]
#[path = "load_safety_tests.rs"]
mod tests;
