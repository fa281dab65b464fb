//! Statement coverage of one library evaluation. When it is on, every module evaluated
//! registers the shape of its code (its executable statements and its `if`/`for` statements,
//! from the parsed module), and every evaluator counts each statement it runs through the
//! crate's before-statement hook (`Evaluator::before_stmt_for_dap`: the crate's coverage
//! profile keeps sets of spans and times each statement; counts are what branch coverage
//! needs, and cost less). [`Recorder::resolve`] maps the counts back to template lines
//! through the line maps of the compiled templates.
//!
//! What the crate's compiler removes never runs, and so counts as not executed: statements
//! after a `return`, a `for` over an empty literal. `pass`, `load` and literal expressions
//! are not executable lines; an arm whose code is only those has no count and is left out.
//!
//! The compiler folds an `if` whose condition is constant when the module is compiled (it
//! reads only frozen values, such as `data.values` from `load("@ytt:data", "data")`): the
//! `if` leaves no mark and only the arm taken remains. Such an `if` counts as often as its
//! arms together and as the statements just before and after it in its block; an arm made of
//! such `if`s alone that shows no count is unknown (left out), never an arm not taken.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};

use starlark::codemap::{CodeMap, CodeMapId, FileSpanRef, Pos as CodePos};
use starlark::eval::{BeforeStmtFunc, Evaluator};
use starlark::syntax::ast::{AstExpr, AstStmt, Expr, Stmt};
use starlark::syntax::AstModule;
use starlark_map::StarlarkHasherBuilder;

use super::run::LineMap;
use crate::report::coverage::{Arm, ArmKind, BranchPoint, FileCoverage};

/// Counts of the statements evaluations ran, and the code they belong to.
#[derive(Default)]
pub struct Recorder {
    on: Cell<bool>,
    modules: RefCell<Vec<Shape>>,
    hits: RefCell<HashMap<(CodeMapId, u32), u64, StarlarkHasherBuilder>>,
}

/// The executable statements of one evaluated module (byte offsets into its code).
struct Shape {
    file: String,
    /// Kept so that the id stays this module's while the recorder lives.
    codemap: CodeMap,
    stmts: Vec<Stmt0>,
    points: Vec<PointShape>,
}

/// A statement: where it starts, and whether it is top-level code (outside every `for` and
/// `def`), which runs at most once per evaluation of the module. The crate marks top-level
/// statements twice (a garbage collection point before each has the statement's span), so
/// their counts are capped at one.
#[derive(Clone, Copy)]
struct Stmt0 {
    at: u32,
    once: bool,
}

/// An `if` or `for`: where it starts, and where each arm's first statement starts (`None`:
/// the arm has no executable statement).
struct PointShape {
    at: Stmt0,
    /// Each arm with the statements directly in it (`true`: an `if`), empty for the false way
    /// out of an `if` without `else`.
    arms: Vec<(ArmKind, Vec<(Stmt0, bool)>)>,
    /// The simple statement just before it in its block, which always runs on into it.
    prev: Option<Stmt0>,
    /// The statement just after it in its block (not an `if`), which runs only after it.
    next: Option<Stmt0>,
}

impl Recorder {
    /// Turns recording on for the evaluations that follow.
    pub fn enable(&self) {
        self.on.set(true);
    }

    pub fn is_on(&self) -> bool {
        self.on.get()
    }

    /// Registers a module about to be evaluated as `file` (the name its line map has).
    pub fn register(&self, file: &str, ast: &AstModule) {
        if !self.is_on() {
            return;
        }
        let mut shape = Shape {
            file: file.to_string(),
            codemap: ast.file_span(ast.statement().span).file,
            stmts: Vec::new(),
            points: Vec::new(),
        };
        let bound = bound_names(ast);
        block(ast.statement(), true, &bound, &mut shape);

        self.modules.borrow_mut().push(shape);
    }

    /// Counts a statement that is about to run.
    fn hit(&self, span: FileSpanRef) {
        let key = (span.file.id(), span.span.begin().get());

        *self.hits.borrow_mut().entry(key).or_default() += 1;
    }

    /// Sets the counting hook on `eval` when recording is on. `hook` must be [`Recorder::hook`]
    /// of this recorder, kept alive by the caller as long as the evaluator.
    pub fn attach<'a, 'e>(
        &self,
        eval: &mut Evaluator<'_, 'a, 'e>,
        hook: &'a dyn Fn(FileSpanRef, bool, &mut Evaluator<'_, '_, 'e>),
    ) {
        if self.is_on() {
            eval.before_stmt_for_dap(BeforeStmtFunc::Fn(hook));
        }
    }

    /// The function [`Recorder::attach`] sets: counts every statement entered (not the
    /// returns into a statement after a call).
    pub fn hook<'e>(&self) -> impl Fn(FileSpanRef, bool, &mut Evaluator<'_, '_, 'e>) + '_ {
        move |span, continued, _| {
            if !continued {
                self.hit(span);
            }
        }
    }

    /// What was executed, by the template file each line map points at (the names of
    /// positions), each file's evaluations merged.
    pub fn resolve(
        &self,
        line_maps: &HashMap<String, std::sync::Arc<LineMap>>,
    ) -> Vec<FileCoverage> {
        let hits = self.hits.borrow();
        let mut by_file: BTreeMap<String, FileCoverage> = BTreeMap::new();
        for m in self.modules.borrow().iter() {
            let Some(map) = line_maps.get(&m.file) else {
                continue;
            };
            let id = m.codemap.id();
            let count = |s: Stmt0| {
                let n = hits.get(&(id, s.at)).copied().unwrap_or(0);
                if s.once {
                    n.min(1)
                } else {
                    n
                }
            };
            let place = |s: Stmt0| {
                let line = m.codemap.find_line(CodePos::new(s.at));
                let pos = map.lines.get(line)?.as_ref()?;
                Some((pos.file.as_deref()?.to_string(), pos.line))
            };
            let mut files: BTreeMap<String, FileCoverage> = BTreeMap::new();
            for &s in &m.stmts {
                if let Some((file, line)) = place(s) {
                    let slot = entry(&mut files, &file).lines.entry(line).or_default();
                    *slot = (*slot).max(count(s));
                }
            }
            // The crate does not always mark an `if` itself (not when its condition starts
            // with a global such as `data`): an `if` ran as often as its arms together, and
            // at least as often as the simple statement before it. Inner statements first, so
            // that an `if` (or `elif`) that starts an arm counts as it should.
            let mut eff: HashMap<u32, u64> = HashMap::new();
            let mut inner_first: Vec<&PointShape> = m.points.iter().collect();
            inner_first.sort_by_key(|p| std::cmp::Reverse(p.at.at));
            for p in inner_first {
                if p.arms.iter().any(|(k, _)| *k == ArmKind::Body) {
                    continue;
                }
                let taken: u64 = p
                    .arms
                    .iter()
                    .map(|(_, direct)| {
                        direct
                            .iter()
                            .map(|(s, _)| eff.get(&s.at).copied().unwrap_or_else(|| count(*s)))
                            .max()
                            .unwrap_or(0)
                    })
                    .sum();
                let hits = count(p.at)
                    .max(taken)
                    .max(p.prev.map(count).unwrap_or(0))
                    .max(p.next.map(count).unwrap_or(0));
                eff.insert(p.at.at, hits);
            }
            let effective = |s: Stmt0| eff.get(&s.at).copied().unwrap_or_else(|| count(s));
            for p in &m.points {
                let Some((file, line)) = place(p.at) else {
                    continue;
                };
                let mut arms = Vec::new();
                for (kind, direct) in &p.arms {
                    if *kind == ArmKind::Skip {
                        arms.push(Arm {
                            kind: ArmKind::Skip,
                            line,
                            hits: 0,
                        });
                        continue;
                    }
                    let Some(arm_line) = direct.first().and_then(|(s, _)| place(*s)) else {
                        break;
                    };
                    let hits = direct.iter().map(|(s, _)| effective(*s)).max().unwrap_or(0);
                    // An arm of `if`s alone that shows no count: they may have been folded
                    // away (constant conditions), so whether it was entered is not known.
                    if hits == 0 && direct.iter().all(|(_, is_if)| *is_if) {
                        break;
                    }
                    arms.push(Arm {
                        kind: *kind,
                        line: arm_line.1,
                        hits,
                    });
                }
                if arms.len() != p.arms.len() {
                    // An arm without code: which way execution went is not known.
                    continue;
                }
                let taken: u64 = arms.iter().map(|a| a.hits).sum();
                let hits = effective(p.at);
                if let Some(skip) = arms.iter_mut().find(|a| a.kind == ArmKind::Skip) {
                    skip.hits = hits.saturating_sub(taken);
                }
                let f = entry(&mut files, &file);
                if let Some(slot) = f.lines.get_mut(&line) {
                    *slot = (*slot).max(hits);
                }
                let f = entry(&mut files, &file);
                let ord = f.branches.iter().filter(|b| b.line == line).count();
                f.branches.push(BranchPoint {
                    line,
                    ord: u32::try_from(ord).unwrap_or(u32::MAX),
                    hits,
                    arms,
                });
            }
            for (name, f) in files {
                match by_file.get_mut(&name) {
                    Some(mine) => mine.merge(&f),
                    None => {
                        by_file.insert(name, f);
                    }
                }
            }
        }
        by_file.into_values().collect()
    }
}

/// The coverage of `file` in `files`, added empty if it is not there.
fn entry<'m>(files: &'m mut BTreeMap<String, FileCoverage>, file: &str) -> &'m mut FileCoverage {
    files
        .entry(file.to_string())
        .or_insert_with(|| FileCoverage {
            file: file.to_string(),
            ..FileCoverage::default()
        })
}

/// Records the executable statements and branch points of `s` and what it holds; `once`
/// when `s` is top-level code; `prev` and `next` as [`PointShape`] has them.
fn walk(
    s: &AstStmt,
    once: bool,
    (prev, next): (Option<Stmt0>, Option<Stmt0>),
    bound: &HashSet<String>,
    out: &mut Shape,
) {
    let at = Stmt0 {
        at: s.span.begin().get(),
        once,
    };
    let arm = |body: &AstStmt, once: bool| -> Vec<(Stmt0, bool)> {
        direct(body)
            .into_iter()
            .map(|c| {
                let s = Stmt0 {
                    at: c.span.begin().get(),
                    once,
                };
                (s, is_if(c, bound))
            })
            .collect()
    };
    match &s.node {
        Stmt::Statements(_) => block(s, once, bound, out),
        Stmt::Pass | Stmt::Load(_) => {}
        Stmt::Expression(e) if is_literal(e) => {}
        Stmt::If(_, body) => {
            out.stmts.push(at);
            out.points.push(PointShape {
                at,
                arms: vec![
                    (ArmKind::Then, arm(body, once)),
                    (ArmKind::Skip, Vec::new()),
                ],
                prev,
                next,
            });
            block(body, once, bound, out);
        }
        Stmt::IfElse(_, both) => {
            let (then, other) = &**both;
            out.stmts.push(at);
            out.points.push(PointShape {
                at,
                arms: vec![
                    (ArmKind::Then, arm(then, once)),
                    (ArmKind::Else, arm(other, once)),
                ],
                prev,
                next,
            });
            block(then, once, bound, out);
            block(other, once, bound, out);
        }
        Stmt::For(f) => {
            out.stmts.push(at);
            out.points.push(PointShape {
                at,
                arms: vec![(ArmKind::Body, arm(&f.body, false))],
                prev,
                next,
            });
            block(&f.body, false, bound, out);
        }
        Stmt::Def(d) => {
            out.stmts.push(at);
            block(&d.body, false, bound, out);
        }
        _ => out.stmts.push(at),
    }
}

/// Walks the statements of a block, each with its neighbours.
fn block(s: &AstStmt, once: bool, bound: &HashSet<String>, out: &mut Shape) {
    let items = direct(s);
    for (i, c) in items.iter().enumerate() {
        let prev = i
            .checked_sub(1)
            .and_then(|j| items.get(j))
            .and_then(|p| simple(p))
            .map(|at| Stmt0 { at, once });
        let next = items
            .get(i + 1)
            .filter(|n| !is_if(n, bound))
            .map(|n| Stmt0 {
                at: n.span.begin().get(),
                once,
            });
        walk(c, once, (prev, next), bound, out);
    }
}

/// The executable statements directly in a block (nested statement lists flattened).
fn direct(s: &AstStmt) -> Vec<&AstStmt> {
    fn go<'a>(s: &'a AstStmt, out: &mut Vec<&'a AstStmt>) {
        match &s.node {
            Stmt::Statements(list) => list.iter().for_each(|c| go(c, out)),
            Stmt::Pass | Stmt::Load(_) => {}
            Stmt::Expression(e) if is_literal(e) => {}
            _ => out.push(s),
        }
    }
    let mut out = Vec::new();
    go(s, &mut out);
    out
}

/// Whether the crate may leave `s` unmarked: an `if` whose condition it may fold to a constant
/// (it reads only names the module never binds, such as `data` from `load()`: data values are
/// frozen when a module is compiled), keeping only the arm taken and no mark of the `if`.
fn is_if(s: &AstStmt, bound: &HashSet<String>) -> bool {
    let cond = match &s.node {
        Stmt::If(c, _) | Stmt::IfElse(c, _) => c,
        _ => return false,
    };
    fn reads_bound(e: &AstExpr, bound: &HashSet<String>) -> bool {
        if let Expr::Identifier(id) = &e.node {
            if bound.contains(&id.node.ident) {
                return true;
            }
        }
        let mut found = false;
        e.visit_expr(|c| found = found || reads_bound(c, bound));
        found
    }
    !reads_bound(cond, bound)
}

/// The names the module binds by assignment, `for`, `def` and parameters (not by `load()`).
fn bound_names(ast: &AstModule) -> HashSet<String> {
    fn go(s: &AstStmt, out: &mut HashSet<String>) {
        let mut add = |name: &str| {
            out.insert(name.to_string());
        };
        match &s.node {
            Stmt::Assign(a) => a.lhs.visit_lvalue(|id| add(&id.ident)),
            Stmt::AssignModify(lhs, _, _) => lhs.visit_lvalue(|id| add(&id.ident)),
            Stmt::For(f) => f.var.visit_lvalue(|id| add(&id.ident)),
            Stmt::Def(d) => {
                add(&d.name.ident);
                for p in &d.params {
                    if let Some(id) = p.node.ident() {
                        add(&id.ident);
                    }
                }
            }
            _ => {}
        }
        s.visit_stmt(|c| go(c, out));
    }
    let mut out = HashSet::new();
    go(ast.statement(), &mut out);
    out
}

/// Where `s` starts if it is a simple statement that always runs on into the next one: an
/// assignment, or an expression other than a call of `fail` (a failing call ends the whole
/// evaluation).
fn simple(s: &AstStmt) -> Option<u32> {
    let runs_on = match &s.node {
        Stmt::Assign(_) | Stmt::AssignModify(..) => true,
        Stmt::Expression(e) => !is_literal(e) && !calls_fail(e),
        _ => false,
    };
    runs_on.then(|| s.span.begin().get())
}

fn calls_fail(e: &AstExpr) -> bool {
    match &e.node {
        Expr::Call(f, _) => matches!(&f.node, Expr::Identifier(id) if id.node.ident == "fail"),
        _ => false,
    }
}

/// A constant the compiler drops when it stands alone, or folds when it is a condition.
fn is_literal(e: &AstExpr) -> bool {
    match &e.node {
        Expr::Literal(_) => true,
        Expr::Identifier(id) => matches!(id.node.ident.as_str(), "True" | "False" | "None"),
        _ => false,
    }
}
