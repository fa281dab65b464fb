//! Stale findings only where no root runs the code. A job marks its static findings in code
//! its own library never runs (see `analysis/stale.rs`); a file that two roots share may hold
//! a function one root calls and the other does not. The finding of the root that runs the
//! code (an error) stands, and the other root's stale warning about the same place goes.

use std::collections::HashSet;

use crate::lint::job::usage::Usage;
use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule};

/// A finding's rule and place (file, line, column), under a root or not.
type Key = (Rule, String, u32, u32);

/// `found` without stale findings about a place where another root's finding is not stale.
pub fn settle(jobs: &[Job], usage: &[Option<Usage>], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut stale: HashSet<(&str, Key)> = HashSet::new();
    for (job, u) in jobs.iter().zip(usage) {
        for (rule, s) in u.iter().flat_map(|u| &u.stale) {
            stale.insert((&job.root, (*rule, s.file.clone(), s.line, s.column)));
        }
    }
    if stale.is_empty() {
        return found;
    }
    let key = |d: &Diagnostic| {
        d.span
            .as_ref()
            .map(|s| (d.rule, s.file.clone(), s.line, s.column))
    };
    let is_stale = |d: &Diagnostic| {
        key(d).is_some_and(|k| stale.contains(&(d.root.as_deref().unwrap_or_default(), k)))
    };
    let live: HashSet<Key> = found
        .iter()
        .filter(|d| crate::analysis::stale::RULES.contains(&d.rule) && !is_stale(d))
        .filter_map(key)
        .collect();
    found
        .into_iter()
        .filter(|d| !is_stale(d) || key(d).is_none_or(|k| !live.contains(&k)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::config::Config;
    use crate::report::Span;

    #[test]
    fn the_finding_of_a_root_that_runs_the_code_stands() {
        let config = Config::default_for(std::path::Path::new("/repo"));
        let jobs: Vec<Job> = ["a", "b", "c"]
            .iter()
            .map(|r| Job::new(&config, r, Ok(Default::default())))
            .collect();
        let span = |line| Span::point("lib/h.star", line, 3);
        let finding = |root: &str, line| {
            let mut d = Diagnostic::new(Rule::WrongArguments, root).at(span(line));
            d.root = Some(root.to_string());
            d
        };
        let stale = |lines: &[u32]| Usage {
            stale: lines
                .iter()
                .map(|l| (Rule::WrongArguments, span(*l)))
                .collect(),
            ..Usage::default()
        };
        // Root a calls nothing; b calls the function at line 2; c includes only line 9.
        let found = vec![
            finding("a", 2),
            finding("a", 5),
            finding("b", 2),
            finding("b", 5),
            finding("c", 9),
        ];
        let usage = vec![Some(stale(&[2, 5])), Some(stale(&[5])), Some(stale(&[9]))];
        let kept: Vec<(String, u32)> = settle(&jobs, &usage, found)
            .iter()
            .map(|d| (d.message.clone(), d.span.as_ref().unwrap().line))
            .collect();
        assert_eq!(
            kept,
            [
                ("a".to_string(), 5),
                ("b".to_string(), 2),
                ("b".to_string(), 5),
                ("c".to_string(), 9)
            ]
        );
    }
}
