//! Stale code: findings of static analysis that no render can fail on. An unknown data value, a
//! module member a `@ytt:` module lacks, a call with the wrong arguments or a `load()` of a
//! name the file lacks fails in ytt only when its line runs. Every file of the root runs:
//! ytt evaluates its templates, and its `.star` and `*.lib.yml` files too, for their globals,
//! whether anything loads them or not (`LibraryExecution.eval`; round fifty's N50-1: an
//! undefined name in a `.star` file was called stale "which nothing loads" beside ytt's own
//! failure there). A file of another library runs when code that runs loads it; a top-level
//! function runs when code that runs reads its name (calls it, or hands it on). A finding
//! anywhere else is real but stale: [`mark`] says so in its message, and the job reports it
//! as a warning.
//!
//! ```text
//! def cloud_enabled():                          # nothing calls it
//!   return data.values.deploy.mode == "cloud"   # <- stale data-value-unknown-reference
//! end
//! ```
//!
//! Only a library whose every caller is in sight is judged (a root: a private library's
//! functions may be exported to its parent, a supplementing folder's files loaded elsewhere).
//! A file that two roots share is judged by each; the finding of a root that runs the code
//! wins (`lint/post/stale.rs`).

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use starlark::syntax::ast::{AstExpr, Expr, Stmt};

use super::index::{Index, Target};
use super::{walk, Finding};
use crate::report::Rule;

/// The rules whose findings in code nothing runs are stale.
pub const RULES: [Rule; 4] = [
    Rule::DataValueUnknownReference,
    Rule::UnknownModuleAttribute,
    Rule::WrongArguments,
    Rule::LoadUnknownName,
];

/// A top-level function of a unit: its name, the template lines it covers and the names its
/// body reads.
struct Def<'a> {
    name: &'a str,
    lines: Option<(u32, u32)>,
    reads: HashMap<&'a str, usize>,
}

/// What runs in a library: which units and which of their functions.
struct Liveness<'a> {
    defs: Vec<Vec<Def<'a>>>,
    units: Vec<bool>,
    functions: HashSet<(usize, &'a str)>,
}

/// Marks the findings of [`RULES`] in `found` that sit in a function nothing in the library
/// calls: `stale` set, the message naming the function. (An undefined name is not among
/// them: ytt resolves the whole file before it runs any of it, so it fails wherever it is.)
pub fn mark(index: &Index<'_>, found: &mut [Finding]) {
    let live = Liveness::of(index);
    for f in found.iter_mut().filter(|f| RULES.contains(&f.rule)) {
        let Some(i) = (0..index.own)
            .find(|&i| Some(index.all[i].file.rel_path.as_str()) == f.pos.file.as_deref())
        else {
            continue;
        };
        let within = live.defs[i].iter().find(|d| {
            d.lines
                .is_some_and(|(first, last)| (first..=last).contains(&f.pos.line))
        });
        let Some(d) = within.filter(|d| !live.functions.contains(&(i, d.name))) else {
            continue;
        };
        f.message = format!(
            "{}, in function `{}`, which nothing calls",
            f.message,
            walk::original(d.name)
        );
        f.stale = true;
    }
}

impl<'a> Liveness<'a> {
    /// Templates run; then, until nothing changes, a file loaded by a file that runs, and a
    /// function whose name runs (read at the top of a file that runs, in a function that
    /// runs, or loaded from its file by a name that is).
    fn of(index: &'a Index<'a>) -> Liveness<'a> {
        let n = index.all.len();
        let mut totals: Vec<HashMap<&'a str, usize>> = Vec::with_capacity(n);
        let mut defs: Vec<Vec<Def<'a>>> = Vec::with_capacity(n);
        for unit in &index.all {
            let mut total = HashMap::new();
            unit.ast
                .statement()
                .visit_expr(|e| count_names(e, &mut total));
            totals.push(total);
            defs.push(top_defs(unit));
        }
        // The names read at the top of each unit: every read but those in function bodies.
        let top: Vec<HashSet<&'a str>> = totals
            .iter()
            .zip(&defs)
            .map(|(total, ds)| {
                total
                    .iter()
                    .filter(|(name, count)| {
                        let inside: usize = ds.iter().filter_map(|d| d.reads.get(*name)).sum();
                        **count > inside
                    })
                    .map(|(name, _)| *name)
                    .collect()
            })
            .collect();
        let loads: Vec<Vec<(usize, &'a str, &'a str)>> = (0..n)
            .map(|i| {
                let mut out = Vec::new();
                for l in walk::loads(&index.all[i].ast) {
                    if let Target::File(t) = index.target(i, &l.module.node) {
                        for a in &l.args {
                            out.push((t, a.their.node.as_str(), a.local.ident.as_str()));
                        }
                    }
                }
                out
            })
            .collect();
        let mut live = Liveness {
            units: (0..n)
                .map(|i| i < index.own || !index.all[i].loadable())
                .collect(),
            defs,
            functions: HashSet::new(),
        };
        // Each unit is looked at again when it starts to run or one of its functions does.
        let mut todo: Vec<usize> = (0..n).filter(|&i| live.units[i]).collect();
        while let Some(i) = todo.pop() {
            let mut reads: HashSet<&'a str> = top[i].clone();
            for d in &live.defs[i] {
                if live.functions.contains(&(i, d.name)) {
                    reads.extend(d.reads.keys());
                }
            }
            let called: Vec<&'a str> = live.defs[i]
                .iter()
                .filter(|d| reads.contains(d.name))
                .map(|d| d.name)
                .collect();
            for name in called {
                if live.functions.insert((i, name)) {
                    todo.push(i);
                }
            }
            for &(t, their, local) in &loads[i] {
                let started = !live.units[t];
                live.units[t] = true;
                let called = reads.contains(local) && live.functions.insert((t, their));
                if started || called {
                    todo.push(t);
                }
            }
        }
        live
    }
}

/// The top-level functions of a unit.
fn top_defs<'a>(unit: &'a super::units::Unit<'a>) -> Vec<Def<'a>> {
    walk::top_level(&unit.ast)
        .into_iter()
        .filter_map(|s| match &s.node {
            Stmt::Def(d) => {
                let mut reads = HashMap::new();
                d.body.visit_expr(|e| count_names(e, &mut reads));
                Some(Def {
                    name: d.name.ident.as_str(),
                    lines: unit.lines_of(s.span),
                    reads,
                })
            }
            _ => None,
        })
        .collect()
}

/// Counts each name `e` reads, with the expressions inside it.
fn count_names<'a>(e: &'a AstExpr, out: &mut HashMap<&'a str, usize>) {
    if let Expr::Identifier(id) = &e.node {
        *out.entry(id.ident.as_str()).or_default() += 1;
    }
    e.visit_expr(|c| count_names(c, out));
}

#[cfg(test)]
mod tests {
    use crate::files::InputFile;
    use crate::library::{EvalOpts, Workspace};

    /// The findings of a root made of `files`, stale ones marked.
    fn marked(files: &[(&str, &str)]) -> Vec<String> {
        let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
        let ws = Workspace::new(inputs, EvalOpts::default());
        let outside = crate::analysis::Outside::Known(Vec::new());
        crate::analysis::analyse(&ws, "", &outside, true)
            .findings
            .into_iter()
            .filter(|f| super::RULES.contains(&f.rule))
            .map(|f| {
                format!(
                    "{}:{} {} {}",
                    f.pos.as_compact(),
                    f.pos.col,
                    f.stale,
                    f.message
                )
            })
            .collect()
    }

    const SCHEMA: &str = "#@data/values-schema\n---\nmode: dev\n";

    #[test]
    fn findings_in_functions_nothing_calls_are_stale() {
        let star = "load(\"@ytt:data\", \"data\")\n\
                    def cloud():\n  return data.values.deploy\nend\n\
                    def helper():\n  return data.values.other\nend\n\
                    def used():\n  return helper() + data.values.typo\nend\n\
                    def only_itself():\n  return only_itself() or data.values.again\nend\n";
        let tpl = "#@ load(\"h.star\", \"used\", \"cloud\")\n---\na: #@ used()\n";
        let found = marked(&[("schema.yml", SCHEMA), ("h.star", star), ("t.yml", tpl)]);
        assert_eq!(
            found,
            [
                "h.star:3:22 true data.values.deploy: the schema declares no deploy at the top, in function `cloud`, which nothing calls",
                "h.star:6:22 false data.values.other: the schema declares no other at the top",
                "h.star:9:33 false data.values.typo: the schema declares no typo at the top",
                "h.star:12:39 true data.values.again: the schema declares no again at the top, in function `only_itself`, which nothing calls",
            ]
        );
    }

    #[test]
    fn a_file_nothing_loads_runs_its_top_but_not_its_uncalled_functions() {
        // ytt evaluates every `.star` file of the root for its globals, loaded or not.
        let star = "load(\"@ytt:data\", \"data\")\nx = str(data.values.deploy)\n\
                    def f():\n  return data.values.other\nend\n";
        let lib = "load(\"unused.star\", \"f\")\n";
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.mode\n";
        let found = marked(&[
            ("schema.yml", SCHEMA),
            ("unused.star", star),
            ("loader.star", lib),
            ("t.yml", tpl),
        ]);
        assert_eq!(
            found,
            [
                "unused.star:2:21 false data.values.deploy: the schema declares no deploy at the top",
                "unused.star:4:22 true data.values.other: the schema declares no other at the top, in function `f`, which nothing calls",
            ]
        );
        // Loaded by a template: its top runs, its function only when something calls it.
        let tpl = "#@ load(\"unused.star\", \"f\")\n---\na: 1\n";
        let found = marked(&[
            ("schema.yml", SCHEMA),
            ("unused.star", star),
            ("t.yml", tpl),
        ]);
        assert_eq!(found.len(), 2);
        assert!(found[0].contains(" false "), "{found:?}");
        assert!(found[1].ends_with("in function `f`, which nothing calls"));
    }

    #[test]
    fn functions_of_templates_run_when_an_annotation_names_them() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n\
                   #@ def match(i, l, r):\n#@   return data.values.kind == l\n#@ end\n\
                   #@overlay/match by=match\n---\na: 1\n";
        let found = marked(&[("schema.yml", SCHEMA), ("t.yml", tpl)]);
        assert_eq!(found.len(), 1);
        assert!(found[0].contains(" false "), "{found:?}");
    }
}
