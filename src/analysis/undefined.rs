//! `template-error` at every use of a name nothing defines. ytt compiles a template or Starlark
//! file with starlark-go's resolver, which rejects the whole file when it reads a name that is
//! not defined and lists the uses (`undefined: foo (did you mean food?)`); the evaluation
//! stops at the first. The names resolve as starlark-go resolves them: a function's
//! parameters and the names its body binds anywhere, those of the functions and
//! comprehensions around it, a comprehension's variables (its first iterable is read outside
//! it), the file's `load()`s and its top-level bindings (wherever at the top they are: a use
//! before the binding fails otherwise, at run time), then the universe of builtins. Like
//! starlark-go, each use at the top of the file is reported, and inside a function or
//! comprehension only the first use of a name the block and those inside it read (it
//! remembers the failed lookup there).
//!
//! ```text
//! #@ def labels():
//! app: #@ nmae          # <- undefined: nmae, though nothing calls labels()
//! #@ end
//! kind: #@ knd          # <- undefined: knd
//! ```
//!
//! The finding rests on the file's text alone, and is never stale: ytt resolves every file
//! of the root (its `.star` and `*.lib.yml` files too, loaded or not) before it runs any of
//! it (see [`super::stale`]).

use foldhash::{HashMap, HashMapExt};

use starlark::syntax::ast::{
    AstAssignTarget, AstExpr, AstNoPayload, AstParameter, AstStmt, ClauseP, Expr, ForClause, Stmt,
};

use super::index::Index;
use super::units::Unit;
use super::{walk, Finding};
use crate::report::Rule;

pub const RULE: Rule = Rule::TemplateError;

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    index
        .all
        .iter()
        .take(index.own)
        .flat_map(check_unit)
        .collect()
}

/// The undefined names of one file.
pub fn check_unit(unit: &Unit<'_>) -> Vec<Finding> {
    let mut file = Block::new(None, true);
    for s in walk::top_level(&unit.ast) {
        bound_here(s, &mut file);
    }
    let mut r = Resolver {
        unit,
        blocks: vec![file],
        env: 0,
        found: Vec::new(),
    };
    r.stmt(unit.ast.statement());
    r.nonlocal(0);
    r.found
}

/// Whether `name` is predeclared: the universe, or a name the template compiler and the engine
/// define (`__ytt_tpl1_set_node`, `__ytt_attr`); a reserved word the engine renamed
/// (`ytt_kw__assert` is the author's `assert`) is not one of them.
fn predeclared(name: &str) -> bool {
    crate::stdlib::gobuiltins::UNIVERSE.contains(&name) || internal(name)
}

fn internal(name: &str) -> bool {
    name.starts_with("__ytt_")
}

/// A block of starlark-go's resolver: the file, a function (or lambda), a comprehension.
struct Block<'a> {
    parent: Option<usize>,
    /// A function's or the file's: the uses of names inside it (its comprehensions
    /// included) are resolved when it is left.
    container: bool,
    /// The names bound here; a name looked up in vain is remembered as `false`.
    bound: HashMap<&'a str, bool>,
    children: Vec<usize>,
    uses: Vec<(&'a str, usize, &'a AstExpr)>,
}

impl<'a> Block<'a> {
    fn new(parent: Option<usize>, container: bool) -> Block<'a> {
        Block {
            parent,
            container,
            bound: HashMap::new(),
            children: Vec::new(),
            uses: Vec::new(),
        }
    }

    fn bind(&mut self, name: &'a str) {
        self.bound.insert(name, true);
    }
}

/// Adds the names statement `s` itself binds (not those of the blocks inside it).
fn bound_here<'a>(s: &'a AstStmt, out: &mut Block<'a>) {
    match &s.node {
        Stmt::Assign(a) => a.lhs.visit_lvalue(|id| out.bind(&id.ident)),
        Stmt::AssignModify(lhs, _, _) => lhs.visit_lvalue(|id| out.bind(&id.ident)),
        Stmt::For(f) => f.var.visit_lvalue(|id| out.bind(&id.ident)),
        Stmt::Def(d) => out.bind(&d.name.ident),
        Stmt::Load(l) => l.args.iter().for_each(|a| out.bind(&a.local.ident)),
        _ => {}
    }
}

/// Adds the names a function body binds anywhere in it (its locals), not inside the functions
/// it defines.
fn locals<'a>(body: &'a AstStmt, out: &mut Block<'a>) {
    bound_here(body, out);
    if !matches!(body.node, Stmt::Def(_)) {
        body.visit_stmt(|s| locals(s, out));
    }
}

fn params<'a>(ps: &'a [AstParameter], out: &mut Block<'a>) {
    for p in ps {
        if let Some(id) = p.node.ident() {
            out.bind(&id.ident);
        }
    }
}

struct Resolver<'a, 'u> {
    unit: &'u Unit<'u>,
    blocks: Vec<Block<'a>>,
    /// The block of the code being read.
    env: usize,
    found: Vec<Finding>,
}

impl<'a> Resolver<'a, '_> {
    fn stmt(&mut self, s: &'a AstStmt) {
        match &s.node {
            Stmt::Def(d) => {
                // Default values are read where the function is defined.
                for p in &d.params {
                    p.node.visit_expr(|e| self.expr(e));
                }
                let mut block = Block::new(Some(self.env), true);
                params(&d.params, &mut block);
                locals(&d.body, &mut block);
                let outer = self.enter(block);
                self.stmt(&d.body);
                self.env = outer;
            }
            Stmt::Assign(a) => {
                self.target(&a.lhs);
                self.expr(&a.rhs);
            }
            Stmt::AssignModify(lhs, _, rhs) => {
                self.target(lhs);
                self.expr(rhs);
            }
            Stmt::For(f) => {
                self.target(&f.var);
                self.expr(&f.over);
                self.stmt(&f.body);
            }
            Stmt::Statements(body) => body.iter().for_each(|c| self.stmt(c)),
            Stmt::If(cond, then) => {
                self.expr(cond);
                self.stmt(then);
            }
            Stmt::IfElse(cond, arms) => {
                self.expr(cond);
                self.stmt(&arms.0);
                self.stmt(&arms.1);
            }
            Stmt::Expression(e) | Stmt::Return(Some(e)) => self.expr(e),
            Stmt::Return(None) | Stmt::Break | Stmt::Continue | Stmt::Pass | Stmt::Load(_) => {}
        }
    }

    /// Makes `block` the current one, a child of the current one; returns the one it was.
    fn enter(&mut self, block: Block<'a>) -> usize {
        let id = self.blocks.len();
        self.blocks.push(block);
        if let Some(parent) = self.blocks.get_mut(self.env) {
            parent.children.push(id);
        }
        std::mem::replace(&mut self.env, id)
    }

    /// The expressions an assignment target reads (`x[i] = v` reads `x` and `i`).
    fn target(&mut self, t: &'a AstAssignTarget) {
        t.visit_expr(|e| self.expr(e));
    }

    fn expr(&mut self, e: &'a AstExpr) {
        match &e.node {
            Expr::Identifier(id) => self.use_name(&id.ident, e),
            Expr::Lambda(l) => {
                for p in &l.params {
                    p.node.visit_expr(|e| self.expr(e));
                }
                let mut block = Block::new(Some(self.env), true);
                params(&l.params, &mut block);
                let outer = self.enter(block);
                self.expr(&l.body);
                self.env = outer;
            }
            Expr::ListComprehension(body, first, clauses) => {
                self.comprehension(first, clauses, &[body]);
            }
            Expr::DictComprehension(kv, first, clauses) => {
                self.comprehension(first, clauses, &[&kv.0, &kv.1]);
            }
            _ => e.visit_expr(|c| self.expr(c)),
        }
    }

    /// A comprehension: its first iterable is read outside it, the rest inside, where every
    /// variable of its clauses is bound.
    fn comprehension(
        &mut self,
        first: &'a ForClause,
        clauses: &'a [ClauseP<AstNoPayload>],
        bodies: &[&'a AstExpr],
    ) {
        self.expr(&first.over);
        let mut block = Block::new(Some(self.env), false);
        first.var.visit_lvalue(|id| block.bind(&id.ident));
        for c in clauses {
            if let ClauseP::For(f) = c {
                f.var.visit_lvalue(|id| block.bind(&id.ident));
            }
        }
        let outer = self.enter(block);
        self.target(&first.var);
        for c in clauses {
            match c {
                ClauseP::For(f) => {
                    self.target(&f.var);
                    self.expr(&f.over);
                }
                ClauseP::If(cond) => self.expr(cond),
            }
        }
        for b in bodies {
            self.expr(b);
        }
        self.env = outer;
    }

    /// A use of `name`: at the top of the file resolved at once, else when its function (or
    /// the file, for a comprehension at the top) has been read.
    fn use_name(&mut self, name: &'a str, e: &'a AstExpr) {
        if self.env == 0 {
            self.toplevel(name, 0, e);
            return;
        }
        let mut c = self.env;
        while let Some(parent) = self.blocks[c].parent.filter(|_| !self.blocks[c].container) {
            c = parent;
        }
        let env = self.env;
        self.blocks[c].uses.push((name, env, e));
    }

    /// Resolves the uses left in `b` and the blocks inside it, inner blocks first.
    fn nonlocal(&mut self, b: usize) {
        let children = self.blocks[b].children.clone();
        for c in children {
            self.nonlocal(c);
        }
        let uses = std::mem::take(&mut self.blocks[b].uses);
        for (name, env, e) in uses {
            self.lookup(name, env, env, e);
        }
    }

    /// Whether `name` is defined seen from block `b` (the use being in block `env`),
    /// remembering the answer in each block on the way.
    fn lookup(&mut self, name: &'a str, b: usize, env: usize, e: &'a AstExpr) -> bool {
        if b == 0 {
            return self.toplevel(name, env, e);
        }
        if let Some(&known) = self.blocks[b].bound.get(name) {
            return known;
        }
        let parent = self.blocks[b].parent.unwrap_or(0);
        let defined = self.lookup(name, parent, env, e);
        self.blocks[b].bound.insert(name, defined);
        defined
    }

    fn toplevel(&mut self, name: &'a str, env: usize, e: &'a AstExpr) -> bool {
        if self.blocks[0].bound.get(name) == Some(&true) || predeclared(name) {
            return true;
        }
        self.report(name, env, e);
        false
    }

    /// `undefined: NAME`, with starlark-go's hint: the nearest of the names bound in the
    /// blocks around the use and at the top of the file.
    fn report(&mut self, name: &str, env: usize, e: &AstExpr) {
        let mut names: Vec<&str> = Vec::new();
        let mut b = Some(env);
        while let Some(i) = b {
            names.extend(
                self.blocks[i]
                    .bound
                    .keys()
                    .copied()
                    .filter(|n| !internal(n)),
            );
            b = self.blocks[i].parent;
        }
        let mut names: Vec<&str> = names.into_iter().map(walk::original).collect();
        names.sort_unstable();
        let name = walk::original(name);
        let hint = crate::eval::spell::nearest(name, &names)
            .map(|n| format!(" (did you mean {n}?)"))
            .unwrap_or_default();
        let Some(pos) = self.unit.pos_of_word(e.span, name) else {
            return;
        };
        let width = self.unit.width(&pos, name);
        let message = format!("undefined: {name}{hint}");
        self.found
            .push(Finding::new(RULE, message, pos).wide(width));
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;
    use crate::report::Rule;

    fn undefined(files: &[(&str, &str)]) -> Vec<String> {
        findings(files, Rule::TemplateError)
    }

    #[test]
    fn every_use_of_an_undefined_name_is_reported() {
        let t = "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ foo\nb: #@ bar\nc: #@ data.values.x\nd: #@ foo\n";
        assert_eq!(
            undefined(&[("t.yml", t)]),
            [
                "t.yml:3:7 undefined: foo",
                "t.yml:4:7 undefined: bar",
                "t.yml:6:7 undefined: foo"
            ]
        );
    }

    #[test]
    fn scopes_as_starlark_go_resolves_them() {
        // Each line checked against ytt 0.48 (`ytt -f v.yml` lists the same names).
        let t = "\
#@ def f(a, b=zz):
#@   c = [y for y in a if y != w] + [lambda q: q + ww + c]
#@   for i in a:
#@     d = i
#@   end
#@   return d + later
#@ end
#@ later = 1
#@ def g():
#@   return c
#@ end
---
a: #@ [x for x in range(3)] + x
b: #@ [k for k, v in {}.items() for j in v if j] + [j]
#@ for i in range(2):
g: #@ i
#@ end
h: #@ i
e: #@ assert
n: #@ None if True else len(f([1]))
";
        assert_eq!(
            undefined(&[("v.yml", t)]),
            [
                "v.yml:1:15 undefined: zz",
                "v.yml:2:32 undefined: w",
                "v.yml:2:52 undefined: ww",
                "v.yml:10:13 undefined: c",
                "v.yml:13:31 undefined: x",
                "v.yml:14:53 undefined: j",
                "v.yml:19:7 undefined: assert"
            ]
        );
    }

    #[test]
    fn a_function_reports_a_name_once_and_hints_are_starlark_go_s() {
        // ytt 0.48: nmes (did you mean names?) at 7, dta (did you mean data?) at 8, valuse
        // (did you mean values?) and nmes (did you mean names?) at 4, once.
        let t = "\
#@ load(\"@ytt:data\", \"data\")
#@ names = 1
#@ def f(values):
#@   return valuse + nmes + nmes + [nmes for _ in values][0]
#@ end
---
a: #@ nmes
b: #@ dta
";
        assert_eq!(
            undefined(&[("s.yml", t)]),
            [
                "s.yml:4:13 undefined: valuse (did you mean values?)",
                "s.yml:4:22 undefined: nmes (did you mean names?)",
                "s.yml:7:7 undefined: nmes (did you mean names?)",
                "s.yml:8:7 undefined: dta (did you mean data?)"
            ]
        );
    }

    #[test]
    fn loads_and_starlark_files_define_names() {
        let star = "load(\"@ytt:assert\", \"assert\")\ndef check(x):\n  return x or assert.fail(\"no\") or missing\nend\n";
        let t = "#@ load(\"helpers.star\", \"check\")\n---\na: #@ check(1)\n";
        assert_eq!(
            undefined(&[("helpers.star", star), ("t.yml", t)]),
            ["helpers.star:3:36 undefined: missing"]
        );
    }
}
