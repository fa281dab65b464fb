//! How the run's memory (`--memory-limit`) is shared out, and the findings the main process
//! keeps within its part.
//!
//! The main process keeps an eighth of the memory ([`main_part`]): its own data, the findings
//! of every job and one report being written at a time. The workers share the rest
//! (`lint::run::pool`). The main process cannot be stopped as a worker is (it would take the
//! run with it), so it bounds what it holds instead: each finding is bounded and each job keeps
//! at most a thousand ([`crate::lint::run::bounded`]), and the findings of all jobs together
//! are kept up to [`findings_bytes`], an eighth of its part. Beyond that, findings are counted,
//! not kept: those of the last jobs, in job order, whatever order the jobs finish in, so that
//! the same run keeps the same findings ([`Kept`]).

use crate::lint::job::{model::place, Job, JobOutcome};
use crate::lint::run::guard::not_linted;
use crate::report::{bounds::weight, Diagnostic, Rule, Severity};

/// `--memory-limit` when it is not given.
pub const DEFAULT_MEMORY: u64 = 4 << 30;

/// The part of the run's `memory` the main process keeps: an eighth, at least 32 MiB.
pub fn main_part(memory: u64) -> u64 {
    (memory / 8).max(32 << 20).min(memory / 2)
}

/// The bytes of findings the main process keeps of a run with `memory`.
pub fn findings_bytes(memory: u64) -> usize {
    usize::try_from(main_part(memory) / 8).unwrap_or(usize::MAX)
}

/// The jobs' outcomes as they come (in any order), with their findings kept up to a budget of
/// bytes: the findings kept are the longest run of findings, in the order of the jobs and of
/// each job's findings, that fits in the budget.
pub struct Kept {
    outcomes: Vec<Option<JobOutcome>>,
    budget: usize,
    held: usize,
    /// The first finding not kept (job, finding): none after it is kept either.
    cut: Option<(usize, usize)>,
    dropped: usize,
    /// The highest job that may hold findings.
    top: usize,
}

impl Kept {
    /// Room for `jobs` outcomes and `budget` bytes of findings.
    pub fn new(jobs: usize, budget: usize) -> Kept {
        Kept {
            outcomes: vec![None; jobs],
            budget,
            held: 0,
            cut: None,
            dropped: 0,
            top: 0,
        }
    }

    /// Keeps the outcome of job `index`, and as many findings as the budget allows.
    pub fn put(&mut self, index: usize, mut outcome: JobOutcome) {
        if index >= self.outcomes.len() {
            return;
        }
        if let Some((job, finding)) = self.cut {
            let from = match index.cmp(&job) {
                std::cmp::Ordering::Less => None,
                std::cmp::Ordering::Equal => Some(finding),
                std::cmp::Ordering::Greater => Some(0),
            };
            if let Some(from) = from.filter(|f| *f < outcome.diagnostics.len()) {
                self.dropped += outcome.diagnostics.len() - from;
                outcome.diagnostics.truncate(from);
            }
        }
        self.held += outcome.diagnostics.iter().map(weight).sum::<usize>();
        self.top = self.top.max(index);
        self.outcomes[index] = Some(outcome);
        while self.held > self.budget && self.drop_last() {}
    }

    /// Drops the last finding of the last job that holds one; false when none does.
    fn drop_last(&mut self) -> bool {
        loop {
            let Some(slot) = self.outcomes.get_mut(self.top) else {
                return false;
            };
            if let Some(d) = slot.as_mut().and_then(|o| o.diagnostics.pop()) {
                let left = slot.as_ref().map_or(0, |o| o.diagnostics.len());
                self.held = self.held.saturating_sub(weight(&d));
                self.dropped += 1;
                self.cut = Some((self.top, left));
                return true;
            }
            if self.top == 0 {
                return false;
            }
            self.top -= 1;
        }
    }

    /// Every job's outcome, in job order (a job nobody ran says so); the first job that lost
    /// findings has a note that says how many the run did not keep.
    pub fn finish(self, jobs: &[Job]) -> Vec<JobOutcome> {
        let megabytes = self.budget >> 20;
        let (cut, dropped) = (self.cut, self.dropped);
        let mut outcomes: Vec<JobOutcome> = self
            .outcomes
            .into_iter()
            .zip(jobs)
            .map(|(o, job)| o.unwrap_or_else(|| not_linted(job)))
            .collect();
        if let Some((index, _)) = cut.filter(|_| dropped > 0) {
            if let (Some(outcome), Some(job)) = (outcomes.get_mut(index), jobs.get(index)) {
                let mut note = Diagnostic::new(
                    Rule::LimitExceeded,
                    format!(
                        "{dropped} findings of this root and of the roots after it were not kept: the run's findings outgrew the {megabytes} MiB the main process keeps for them (a sixty-fourth of --memory-limit, at least 4 MiB)"
                    ),
                );
                note.severity = Severity::Info;
                place(job, &mut note);
                outcome.diagnostics.push(note);
            }
        }
        outcomes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RootOutcome;

    fn job(root: &str) -> Job {
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        Job::new(&config, root, Ok(Default::default()))
    }

    fn outcome(findings: usize) -> JobOutcome {
        JobOutcome {
            status: RootOutcome::Findings,
            diagnostics: (0..findings)
                .map(|i| Diagnostic::new(Rule::UnknownAnnotation, format!("{i:0100}")))
                .collect(),
            coverage: None,
            duration_ms: 0,
            unchecked_kinds: Vec::new(),
            usage: None,
            provenance: None,
        }
    }

    /// The findings kept of three jobs of 10 findings with room for 15, the outcomes put in
    /// `order`.
    fn kept(order: &[usize]) -> Vec<usize> {
        let jobs = [job("a"), job("b"), job("c")];
        let one = weight(&outcome(1).diagnostics[0]);
        let mut kept = Kept::new(3, one * 15 + one / 2);
        for &i in order {
            kept.put(i, outcome(10));
        }
        kept.finish(&jobs)
            .iter()
            .map(|o| o.diagnostics.len())
            .collect()
    }

    #[test]
    fn the_same_findings_are_kept_whatever_order_the_jobs_finish_in() {
        // The first 15 findings in job order; the note is in the second job.
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]] {
            assert_eq!(kept(&order), [10, 6, 0], "{order:?}");
        }
        let jobs = [job("a"), job("b"), job("c")];
        let mut k = Kept::new(3, 1 << 20);
        k.put(2, outcome(10));
        k.put(0, outcome(1));
        let out = k.finish(&jobs);
        assert_eq!(out[1].diagnostics[0].rule, Rule::InternalError);
        assert_eq!(out[2].diagnostics.len(), 10);
    }

    #[test]
    fn the_note_counts_what_was_not_kept() {
        let jobs = [job("a"), job("b")];
        let one = weight(&outcome(1).diagnostics[0]);
        let mut k = Kept::new(2, one * 3);
        k.put(1, outcome(4));
        k.put(0, outcome(2));
        let out = k.finish(&jobs);
        assert_eq!(out[0].diagnostics.len(), 2);
        let note = out[1].diagnostics.last().unwrap();
        assert_eq!(note.severity, Severity::Info);
        assert!(
            note.message.starts_with("3 findings of this root"),
            "{}",
            note.message
        );
        assert_eq!(out[1].diagnostics.len(), 2);
    }

    #[test]
    fn the_main_part_of_the_memory() {
        assert_eq!(main_part(4 << 30), 512 << 20);
        assert_eq!(main_part(256 << 20), 32 << 20);
        assert_eq!(main_part(64 << 20), 32 << 20);
        assert_eq!(findings_bytes(1 << 30), 16 << 20);
    }
}
