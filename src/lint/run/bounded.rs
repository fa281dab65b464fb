//! One job's findings within bounds before they leave the job (a worker's answer, a thread's
//! result, a cache entry): each finding within [`crate::report::bounds`], and at most
//! [`MAX_PER_JOB`] findings, the most severe first; one more finding, a note, says how many
//! others there were. A template that fails a million times costs the run a thousand findings.

use crate::lint::job::{model::place, Job, JobOutcome};
use crate::report::{bounds, Diagnostic, Rule, Severity};

/// The most findings one job (a root with one scenario) keeps.
pub const MAX_PER_JOB: usize = 1000;

/// `outcome` of `job` within the bounds.
pub fn outcome(job: &Job, mut outcome: JobOutcome) -> JobOutcome {
    let found = outcome.diagnostics.len();
    if found > MAX_PER_JOB {
        // Stable: findings of one severity stay in the order the job made them.
        outcome
            .diagnostics
            .sort_by_key(|d| std::cmp::Reverse(d.severity));
        outcome.diagnostics.truncate(MAX_PER_JOB);
        let mut note = Diagnostic::new(
            Rule::LimitExceeded,
            format!(
                "{} more findings of this root were not kept: yttlint keeps at most {MAX_PER_JOB} findings of a root and scenario, the most severe first",
                found - MAX_PER_JOB
            ),
        );
        note.severity = Severity::Info;
        place(job, &mut note);
        outcome.diagnostics.push(note);
    }
    for d in &mut outcome.diagnostics {
        bounds::bound(d);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RootOutcome;

    #[test]
    fn findings_beyond_the_cap_are_counted_and_errors_kept_first() {
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let job = Job::new(&config, "r", Ok(Default::default()));
        let mut diagnostics: Vec<Diagnostic> = (0..MAX_PER_JOB + 5)
            .map(|i| Diagnostic::new(Rule::UnknownAnnotation, format!("w{i}")))
            .collect();
        diagnostics.push(Diagnostic::new(Rule::TemplateError, "M".repeat(1 << 20)));
        let outcome = JobOutcome {
            status: RootOutcome::Error,
            diagnostics,
            ..JobOutcome::failure(&job, Diagnostic::new(Rule::TemplateError, ""))
        };
        let bounded = super::outcome(&job, outcome);
        assert_eq!(bounded.diagnostics.len(), MAX_PER_JOB + 1);
        assert_eq!(bounded.diagnostics[0].rule, Rule::TemplateError);
        assert!(bounded.diagnostics[0].message.len() < bounds::MAX_TEXT + 100);
        assert_eq!(bounded.diagnostics[1].message, "w0");
        let note = bounded.diagnostics.last().unwrap();
        assert_eq!(note.rule, Rule::LimitExceeded);
        assert_eq!(note.severity, Severity::Info);
        assert!(
            note.message.starts_with("6 more findings"),
            "{}",
            note.message
        );
        assert_eq!(note.root.as_deref(), Some("r"));
    }
}
