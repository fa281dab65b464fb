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

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

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
    arms: Vec<(ArmKind, Option<Stmt0>)>,
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
        walk(ast.statement(), true, &mut shape);

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
            for p in &m.points {
                let Some((file, line)) = place(p.at) else {
                    continue;
                };
                let hits = count(p.at);
                let mut arms = Vec::new();
                for (kind, first) in &p.arms {
                    let arm = match (kind, first) {
                        (ArmKind::Skip, _) => {
                            let then: u64 = arms.iter().map(|a: &Arm| a.hits).sum();
                            Arm {
                                kind: ArmKind::Skip,
                                line,
                                hits: hits.saturating_sub(then),
                            }
                        }
                        (kind, Some(at)) => match place(*at) {
                            Some((_, arm_line)) => Arm {
                                kind: *kind,
                                line: arm_line,
                                hits: count(*at),
                            },
                            None => break,
                        },
                        (_, None) => break,
                    };
                    arms.push(arm);
                }
                if arms.len() != p.arms.len() {
                    // An arm without code: which way execution went is not known.
                    continue;
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
/// when `s` is top-level code.
fn walk(s: &AstStmt, once: bool, out: &mut Shape) {
    let at = Stmt0 {
        at: s.span.begin().get(),
        once,
    };
    let first = |body: &AstStmt, once: bool| first(body).map(|at| Stmt0 { at, once });
    match &s.node {
        Stmt::Statements(list) => list.iter().for_each(|c| walk(c, once, out)),
        Stmt::Pass | Stmt::Load(_) => {}
        Stmt::Expression(e) if is_literal(e) => {}
        Stmt::If(_, body) => {
            out.stmts.push(at);
            out.points.push(PointShape {
                at,
                arms: vec![(ArmKind::Then, first(body, once)), (ArmKind::Skip, None)],
            });
            walk(body, once, out);
        }
        Stmt::IfElse(_, both) => {
            let (then, other) = &**both;
            out.stmts.push(at);
            out.points.push(PointShape {
                at,
                arms: vec![
                    (ArmKind::Then, first(then, once)),
                    (ArmKind::Else, first(other, once)),
                ],
            });
            walk(then, once, out);
            walk(other, once, out);
        }
        Stmt::For(f) => {
            out.stmts.push(at);
            out.points.push(PointShape {
                at,
                arms: vec![(ArmKind::Body, first(&f.body, false))],
            });
            walk(&f.body, false, out);
        }
        Stmt::Def(d) => {
            out.stmts.push(at);
            walk(&d.body, false, out);
        }
        _ => out.stmts.push(at),
    }
}

/// Where the first statement that runs when `s` is entered starts (`None` when `s` holds no
/// executable statement, or starts with an `if` the compiler may fold away).
fn first(s: &AstStmt) -> Option<u32> {
    match &s.node {
        Stmt::Statements(list) => list.iter().find_map(first),
        Stmt::Pass | Stmt::Load(_) => None,
        Stmt::Expression(e) if is_literal(e) => None,
        Stmt::If(c, _) | Stmt::IfElse(c, _) if is_literal(c) => None,
        _ => Some(s.span.begin().get()),
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
