//! Findings that hold only when every scenario of their root agrees: an overlay that matched
//! nothing in one scenario may match in another (a value that names the object it selects),
//! so `overlay-matches-nothing` stays only when each of the root's jobs reported it.

use std::collections::HashMap;

use crate::lint::job::{Job, JobKind};
use crate::report::{Diagnostic, Rule, Span};

/// `found` without the findings of [`Rule::OverlayMatchesNothing`] that some job of their
/// root did not report.
pub fn settle(jobs: &[Job], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut scenarios: HashMap<&str, usize> = HashMap::new();
    for job in jobs.iter().filter(|j| j.kind == JobKind::Root) {
        *scenarios.entry(job.root.as_str()).or_default() += 1;
    }
    let mut reported: HashMap<(String, Option<Span>), usize> = HashMap::new();
    for d in found
        .iter()
        .filter(|d| d.rule == Rule::OverlayMatchesNothing)
    {
        *reported
            .entry((d.root.clone().unwrap_or_default(), d.span.clone()))
            .or_default() += 1;
    }
    found
        .into_iter()
        .filter(|d| {
            if d.rule != Rule::OverlayMatchesNothing {
                return true;
            }
            let root = d.root.clone().unwrap_or_default();
            let all = scenarios.get(root.as_str()).copied().unwrap_or(1);
            reported.get(&(root, d.span.clone())).copied().unwrap_or(0) >= all
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(root: &str, scenario: &str) -> Job {
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let mut j = Job::new(&config, root, Err("unused".to_string()));
        j.scenario = Some(scenario.to_string());
        j
    }

    fn unmatched(root: &str, scenario: &str) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::OverlayMatchesNothing, "x").at(Span::point(
            "app/overlay.yml",
            2,
            1,
        ));
        d.root = Some(root.to_string());
        d.scenario = Some(scenario.to_string());
        d
    }

    #[test]
    fn an_overlay_is_reported_only_when_no_scenario_matched() {
        let jobs = vec![job("app", "a"), job("app", "b"), job("lib", "a")];
        let found = vec![unmatched("app", "a"), unmatched("lib", "a")];
        let kept = settle(&jobs, found);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].root.as_deref(), Some("lib"));
        let both = vec![unmatched("app", "a"), unmatched("app", "b")];
        assert_eq!(settle(&jobs, both).len(), 2);
    }
}
