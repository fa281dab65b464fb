//! Static analysis: checks over the Starlark of every template and `.star` file of a library,
//! whether or not any scenario evaluates it. Each check is one file; each finding points at
//! the template line the author wrote.

pub mod builtins;
pub mod call_args;
pub mod crate_lints;
pub mod data_values;
pub mod index;
pub mod load_names;
pub mod module_attr;
pub mod signature;
pub mod units;
pub mod unused_fn;
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
}

impl Finding {
    pub fn new(rule: Rule, message: String, pos: Pos) -> Finding {
        Finding {
            rule,
            message,
            pos,
            related: Vec::new(),
            width: 0,
        }
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

/// Every static finding of the library rooted at `dir` of the workspace, in file order.
/// `outside`: the data values given to it from outside, which matter when it has no schema.
pub fn check(ws: &Workspace, dir: &str, outside: &Outside) -> Vec<Finding> {
    let index = index::Index::new(ws, dir);
    let mut found = Vec::new();
    found.extend(module_attr::check(&index));
    found.extend(load_names::check(&index));
    found.extend(call_args::check(&index));
    found.extend(crate_lints::check(&index));
    found.extend(unused_fn::check(&index));
    // Data values against the schema; without one, against the data values documents (and
    // only when every value given from outside is known).
    match ws.data_values_schema() {
        Ok(crate::schema::Schema { doc: Some(doc) }) => {
            let shape = value_shape::of_schema(&doc.ty);
            found.extend(data_values::check(
                &index,
                shape,
                value_shape::Source::Schema,
            ));
        }
        Ok(crate::schema::Schema { doc: None }) => {
            if let Some(shape) = values_docs::shape(ws, dir, outside) {
                found.extend(data_values::check(
                    &index,
                    shape,
                    value_shape::Source::Values,
                ));
            }
        }
        Err(_) => {}
    }
    found.sort_by(|a, b| (&a.pos, a.rule, &a.message).cmp(&(&b.pos, b.rule, &b.message)));
    found.dedup();
    found
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
