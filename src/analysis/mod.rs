//! Static analysis: checks over the Starlark of every template and `.star` file of a library,
//! whether or not any scenario evaluates it. Each check is one file; each finding points at
//! the template line the author wrote.

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
pub mod walk;
pub mod ytt_modules;

use crate::library::Workspace;
use crate::pos::Pos;

/// One problem found without evaluating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub message: String,
    pub pos: Pos,
    /// Other places that explain the finding.
    pub related: Vec<(String, Pos)>,
    /// How many characters the finding covers from `pos` (0: a point).
    pub width: u32,
}

impl Finding {
    pub fn new(rule: &'static str, message: String, pos: Pos) -> Finding {
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

/// The rules of static analysis.
pub const RULES: [&str; 8] = [
    module_attr::RULE,
    load_names::RULE,
    call_args::RULE,
    crate_lints::UNUSED_LOAD,
    crate_lints::UNREACHABLE,
    unused_fn::RULE,
    data_values::UNKNOWN,
    data_values::UNUSED,
];

/// Whether `rule` is one of static analysis (found without evaluating).
pub fn is_static_rule(rule: &str) -> bool {
    RULES.contains(&rule)
}

/// Every static finding of the library rooted at `dir` of the workspace, in file order.
pub fn check(ws: &Workspace, dir: &str) -> Vec<Finding> {
    let index = index::Index::new(ws, dir);
    let mut found = Vec::new();
    found.extend(module_attr::check(&index));
    found.extend(load_names::check(&index));
    found.extend(call_args::check(&index));
    found.extend(crate_lints::check(&index));
    found.extend(unused_fn::check(&index));
    // Data values against the schema (a library without one is not checked).
    if let Ok(crate::schema::Schema { doc: Some(doc) }) = ws.data_values_schema() {
        found.extend(data_values::check(&index, &doc.ty));
    }
    found.sort_by(|a, b| (&a.pos, a.rule, &a.message).cmp(&(&b.pos, b.rule, &b.message)));
    found.dedup();
    found
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::files::InputFile;
    use crate::library::{EvalOpts, Workspace};

    /// The findings of one rule over a library made of `files`, as `file:line:col message`.
    pub fn findings(files: &[(&str, &str)], rule: &str) -> Vec<String> {
        findings_with(files, rule, EvalOpts::default())
    }

    /// [`findings`] evaluated with `opts` (schema extensions turned on, ...).
    pub fn findings_with(files: &[(&str, &str)], rule: &str, opts: EvalOpts) -> Vec<String> {
        let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
        let ws = Workspace::new(inputs, opts);
        super::check(&ws, "")
            .into_iter()
            .filter(|f| f.rule == rule)
            .map(|f| format!("{}:{} {}", f.pos.as_compact(), f.pos.col, f.message))
            .collect()
    }
}
