//! Static analysis: checks over the Starlark of every template and `.star` file of a library,
//! whether or not any scenario evaluates it. Each check is one file; each finding points at
//! the template line the author wrote.

pub mod builtins;
pub mod call_args;
pub mod conditions;
pub mod crate_lints;
pub mod data_values;
pub mod fixes;
pub mod index;
pub mod load_fix;
pub mod load_names;
pub mod load_safety;
pub mod module_attr;
pub mod signature;
pub mod stale;
pub mod undefined;
pub mod units;
pub mod unused_fn;
pub mod value_reads;
pub mod value_refs;
pub mod value_shape;
pub mod values_docs;
pub mod walk;
pub mod ytt_modules;

use crate::library::Workspace;
use crate::pos::Pos;
use crate::report::Rule;

/// One problem found without evaluating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub message: String,
    pub pos: Pos,
    /// Other places that explain the finding.
    pub related: Vec<(String, Pos)>,
    /// How many characters the finding covers from `pos` (0: a point).
    pub width: u32,
    /// In code nothing runs (see [`stale`]): real, but no render can fail on it.
    pub stale: bool,
    /// The change that makes it go away (edits name workspace files).
    pub fix: Option<crate::fix::Fix>,
    /// It rests on the data values the command gives, not on the text or a schema (a
    /// reference to a value no values file sets, in a library without a schema).
    pub on_inputs: bool,
}

impl Finding {
    pub fn new(rule: Rule, message: String, pos: Pos) -> Finding {
        Finding {
            rule,
            message,
            pos,
            related: Vec::new(),
            width: 0,
            stale: false,
            fix: None,
            on_inputs: false,
        }
    }

    /// The finding with `fix`.
    pub fn fixed(mut self, fix: Option<crate::fix::Fix>) -> Finding {
        self.fix = fix;
        self
    }

    /// The finding covering `width` characters.
    pub fn wide(mut self, width: u32) -> Finding {
        self.width = width;
        self
    }
}

/// The candidate closest to a misspelled `word`: ytt's rule, or else a candidate that differs
/// by two swapped neighbouring characters (`teir` for `tier`).
pub fn suggest(word: &str, candidates: &[String]) -> Option<String> {
    crate::schema::spell::nearest(word, candidates).or_else(|| {
        let w: Vec<char> = word.chars().collect();
        candidates
            .iter()
            .find(|c| {
                let c: Vec<char> = c.chars().collect();
                c.len() == w.len() && {
                    let diff: Vec<usize> = (0..w.len()).filter(|&i| w[i] != c[i]).collect();
                    diff.len() == 2
                        && diff[1] == diff[0] + 1
                        && w[diff[0]] == c[diff[1]]
                        && w[diff[1]] == c[diff[0]]
                }
            })
            .cloned()
    })
}

/// The data values a library gets from outside its own files.
#[derive(Clone, Debug, Default)]
pub enum Outside {
    /// Exactly these documents (every scenario's values given to the library; often none).
    Known(Vec<crate::yaml::Value>),
    /// Not known: given at run time, or by a caller (`with_data_values`, `@library/ref`).
    #[default]
    Unknown,
}

/// What static analysis finds in a library, and what the findings that need every root
/// (`lint/post/`) learn from it.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Every finding, in file order.
    pub findings: Vec<Finding>,
    /// The path of each `data-value-unused` value, at the finding's position.
    pub unused: Vec<(Vec<String>, Pos)>,
    /// Every read of data values (see [`value_reads`]).
    pub reads: Vec<value_reads::ReadPath>,
    /// The files that declare data values (workspace paths).
    pub declares: Vec<String>,
    /// Private libraries handed data values whole (workspace directories).
    pub handed_over: Vec<String>,
    /// Data values tested as conditions (see [`conditions`]).
    pub tested: Vec<conditions::Tested>,
}

/// Every static finding of the library rooted at `dir` of the workspace, in file order.
/// `outside`: the data values given to it from outside, which matter when it has no schema.
#[cfg(test)]
pub fn check(ws: &Workspace, dir: &str, outside: &Outside) -> Vec<Finding> {
    analyse(ws, dir, outside, false).findings
}

/// [`check`], with what the library reads and declares. `closed`: every caller of the
/// library's code is in sight (a root), so findings in code nothing runs are marked stale.
pub fn analyse(ws: &Workspace, dir: &str, outside: &Outside, closed: bool) -> Analysis {
    let index = index::Index::new(ws, dir);
    // Data values against the schema; without one, against the data values documents (and
    // only when every value given from outside is known).
    let shape = match ws.data_values_schema() {
        Ok(crate::schema::Schema { doc: Some(doc) }) => {
            Some((value_shape::of_schema(&doc.ty), value_shape::Source::Schema))
        }
        Ok(crate::schema::Schema { doc: None }) => {
            values_docs::shape(ws, dir, outside).map(|shape| (shape, value_shape::Source::Values))
        }
        Err(_) => None,
    };
    // The checks read the index alone: about half of them may run on another thread of the
    // job pool (the language server's runs, see [`crate::eval::spread`]), the findings kept in
    // the order they are always made.
    let side = || {
        (
            call_args::check(&index),
            value_reads::reads(&index),
            value_reads::handed_over(&index),
            conditions::tested(&index),
        )
    };
    let main = || {
        let first = [module_attr::check(&index), load_names::check(&index)];
        let last = [
            crate_lints::check(&index),
            unused_fn::check(&index),
            undefined::check(&index),
        ];
        let values = shape.map(|(shape, source)| data_values::check(&index, shape, source));
        (first, last, values)
    };
    let ((call_args, reads, handed_over, tested), (first, last, values)) =
        crate::eval::spread::both(side, main);
    let mut found: Vec<Finding> = first.into_iter().flatten().collect();
    found.extend(call_args);
    found.extend(last.into_iter().flatten());
    let mut unused = Vec::new();
    if let Some((values_found, values_unused)) = values {
        found.extend(values_found);
        unused = values_unused;
    }
    if closed {
        stale::mark(&index, &mut found);
    }
    found.sort_by(|a, b| (&a.pos, a.rule, &a.message).cmp(&(&b.pos, b.rule, &b.message)));
    found.dedup();
    Analysis {
        findings: found,
        unused,
        reads,
        declares: value_reads::declaring_files(ws, dir),
        handed_over,
        tested,
    }
}

/// Every read of data values of the library rooted at `dir` (see [`value_reads`]).
pub fn reads_of(ws: &Workspace, dir: &str) -> Vec<value_reads::ReadPath> {
    value_reads::reads(&index::Index::new(ws, dir))
}

/// [`reads_of`], and the data values the library tests as conditions (see [`conditions`]),
/// from one parse of its files.
pub fn reads_and_tested(
    ws: &Workspace,
    dir: &str,
) -> (Vec<value_reads::ReadPath>, Vec<conditions::Tested>) {
    let index = index::Index::new(ws, dir);
    (value_reads::reads(&index), conditions::tested(&index))
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::files::InputFile;
    use crate::library::{EvalOpts, Workspace};
    use crate::report::Rule;

    /// The findings of one rule over a library made of `files`, as `file:line:col message`
    /// (nothing given from outside).
    pub fn findings(files: &[(&str, &str)], rule: Rule) -> Vec<String> {
        findings_with(files, rule, EvalOpts::default())
    }

    /// [`findings`] evaluated with `opts` (schema extensions turned on, ...).
    pub fn findings_with(files: &[(&str, &str)], rule: Rule, opts: EvalOpts) -> Vec<String> {
        findings_outside(files, rule, opts, &super::Outside::Known(Vec::new()))
    }

    /// The text of the first of `files` with the fixes of every finding of `rule` applied (the
    /// first of overlapping ones).
    pub fn fixed(files: &[(&str, &str)], rule: Rule) -> String {
        let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
        let ws = Workspace::new(inputs, EvalOpts::default());
        let found = super::check(&ws, "", &super::Outside::Known(Vec::new()));
        let fixes: Vec<&crate::fix::Fix> = found
            .iter()
            .filter(|f| f.rule == rule)
            .filter_map(|f| f.fix.as_ref())
            .collect();
        let chosen = crate::fix::apply::choose(&fixes);
        let edits = chosen.edits.get(files[0].0).cloned().unwrap_or_default();
        crate::fix::apply::apply(files[0].1, &edits).unwrap()
    }

    /// [`findings_with`] with data values given from `outside`.
    pub fn findings_outside(
        files: &[(&str, &str)],
        rule: Rule,
        opts: EvalOpts,
        outside: &super::Outside,
    ) -> Vec<String> {
        let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
        let ws = Workspace::new(inputs, opts);
        super::check(&ws, "", outside)
            .into_iter()
            .filter(|f| f.rule == rule)
            .map(|f| format!("{}:{} {}", f.pos.as_compact(), f.pos.col, f.message))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::InputFile;
    use crate::library::EvalOpts;

    const SCHEMA: &str = "#@data/values-schema\n---\nname: app\nreplicas: 1\n";
    const TEMPLATE: &str = "\
#@ load(\"@ytt:data\", \"data\")
#@ load(\"@ytt:struct\", \"struct\")
#@ def unused(x):
#@   return x
#@ end
#@ def used(a, b):
#@   return a
#@ end
---
name: #@ used(data.values.name)
count: #@ data.values.replica
#@ if data.values.replicas:
on: #@ struct.encodee({})
#@ end
";

    /// Everything the analysis says, as text.
    fn analysed() -> String {
        let files = vec![
            InputFile::new("schema.yml", SCHEMA),
            InputFile::new("tpl.yml", TEMPLATE),
        ];
        let ws = Workspace::new(files, EvalOpts::default());
        format!("{:?}", analyse(&ws, "", &Outside::Known(Vec::new()), true))
    }

    #[test]
    fn the_analysis_spread_over_two_threads_says_what_it_says_on_one() {
        let alone = analysed();
        // Findings of both halves, and what the side half reads and finds tested.
        let said = [
            "WrongArguments",
            "UnusedFunction",
            "UnknownModuleAttribute",
            "DataValueUnknownReference",
            "reads: [[Some(\"name\")]",
            "tested: [Tested {",
        ];
        for part in said {
            assert!(alone.contains(part), "no {part} in {alone}");
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for _ in 0..20 {
            let spread = pool.install(|| crate::eval::spread::within(true, analysed));
            assert_eq!(spread, alone);
        }
    }
}
