//! Runs jobs in parallel: in worker processes (see [`crate::lint::run::pool`]), or in a rayon pool with
//! `-j` threads, each with a stack large enough for deep Starlark recursion; each job isolated
//! so that a panic becomes an `internal-error` finding of that job while the others go on.
//! Then the configured rule levels are applied and the report is put in its stable order.

pub mod cache;
pub mod cache_auth;
pub mod git_index;
pub mod guard;
pub mod pool;
pub mod progress;
pub mod run_cache;
pub mod worker;

use rayon::prelude::*;

use crate::lint::job::usage::Usage;
use crate::lint::job::{run_job, Job, JobOutcome};
use crate::report::coverage::Coverage;
use crate::report::Report;
use cache::Cache;
use guard::{caught, evaluating, never_silent, not_linted};
use pool::Isolation;
use progress::Progress;

/// Native stack of a worker thread: Starlark evaluation recurses on it (the engine's call
/// depth limit keeps well inside it). Reserved lazily by the OS.
const WORKER_STACK: usize = 256 << 20;

/// What a run of jobs produced: the report, and each job's coverage and usage in job order.
pub struct Ran {
    pub report: Report,
    pub coverage: Vec<Option<Coverage>>,
    /// The kinds of rendered objects no schema was known for, sorted.
    pub unchecked_kinds: Vec<String>,
    pub usage: Vec<Option<Usage>>,
}

/// Evaluates `jobs` on `threads` threads (or in as many worker processes when `isolation` is
/// given), taking unchanged jobs' outcomes from `cache`; the report of every job, in job
/// order, and each job's coverage.
pub fn run_jobs(
    jobs: &[Job],
    threads: usize,
    isolation: Option<&Isolation>,
    progress: &Progress,
    cache: Option<&Cache>,
) -> Result<Ran, String> {
    let Some(cache) = cache else {
        return Ok(collect(
            jobs,
            run_fresh(jobs, threads, isolation, progress)?,
        ));
    };
    let keys: Vec<Option<String>> = jobs.par_iter().map(|j| cache.key(j)).collect();
    let mut done: Vec<Option<JobOutcome>> = keys
        .iter()
        .zip(jobs)
        .map(|(key, job)| {
            let outcome = cache.get(key.as_deref()?)?;
            progress.finished(&job.describe());
            Some(outcome)
        })
        .collect();
    let todo: Vec<Job> = jobs
        .iter()
        .zip(&done)
        .filter(|(_, d)| d.is_none())
        .map(|(j, _)| j.clone())
        .collect();
    let mut fresh = run_fresh(&todo, threads, isolation, progress)?.into_iter();
    for (slot, key) in done.iter_mut().zip(&keys) {
        if slot.is_some() {
            continue;
        }
        let Some(outcome) = fresh.next() else {
            break;
        };
        if let Some(key) = key {
            cache.put(key, &outcome);
        }
        *slot = Some(outcome);
    }
    let outcomes = done
        .into_iter()
        .zip(jobs)
        .map(|(o, job)| o.unwrap_or_else(|| not_linted(job)));
    Ok(collect(jobs, outcomes))
}

/// Runs `jobs` in worker processes or threads: each job's result, in job order.
fn run_fresh(
    jobs: &[Job],
    threads: usize,
    isolation: Option<&Isolation>,
    progress: &Progress,
) -> Result<Vec<JobOutcome>, String> {
    match isolation {
        Some(iso) => {
            let results = crate::lint::run::pool::run_isolated(jobs, threads, iso, progress);
            progress.clear();
            Ok(results)
        }
        None => run_with(jobs, threads, progress, &|job| run_job(job, evaluating)),
    }
}

/// The report of the jobs' outcomes (one per job, in job order), and their coverage.
fn collect(jobs: &[Job], outcomes: impl IntoIterator<Item = JobOutcome>) -> Ran {
    let mut ran = Ran {
        report: Report::default(),
        coverage: Vec::new(),
        unchecked_kinds: Vec::new(),
        usage: Vec::new(),
    };
    for (job, outcome) in jobs.iter().zip(outcomes) {
        let outcome = never_silent(job, outcome);
        ran.report.roots.push(outcome.root_status(job));
        ran.report.diagnostics.extend(outcome.diagnostics);
        ran.coverage.push(outcome.coverage);
        ran.unchecked_kinds.extend(outcome.unchecked_kinds);
        ran.usage.push(outcome.usage);
    }
    ran.unchecked_kinds.sort();
    ran.unchecked_kinds.dedup();
    ran
}

/// [`run_jobs`] with the function that runs one job given: each job's result.
fn run_with(
    jobs: &[Job],
    threads: usize,
    progress: &Progress,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
) -> Result<Vec<JobOutcome>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(WORKER_STACK)
        .thread_name(|i| format!("yttlint-job-{i}"))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let groups = crate::lint::plan::affinity::groups(jobs);
    let ran: Vec<Vec<(usize, JobOutcome)>> = pool.install(|| {
        groups
            .par_iter()
            .with_max_len(1)
            .map(|group| {
                group
                    .iter()
                    .filter_map(|&i| Some((i, jobs.get(i)?)))
                    .map(|(i, job)| {
                        let (outcome, _) = caught(job, runner);
                        progress.finished(&job.describe());
                        (i, outcome)
                    })
                    .collect()
            })
            .collect()
    });
    progress.clear();
    let mut results: Vec<Option<JobOutcome>> = vec![None; jobs.len()];
    for (i, result) in ran.into_iter().flatten() {
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(result);
        }
    }
    Ok(results
        .into_iter()
        .zip(jobs)
        .map(|(r, job)| r.unwrap_or_else(|| not_linted(job)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{RootOutcome, Rule};

    fn job(root: &str, flags: Result<crate::ytt_flags::TemplateArgs, String>) -> Job {
        let config = crate::lint::config::Config::default_for(&std::env::temp_dir());
        let mut job = Job::new(&config, root, flags);
        job.kubevirt = true;
        job.check_files = true;
        job.analysis = true;
        job
    }

    #[test]
    fn a_failing_job_does_not_stop_the_others() {
        let jobs = vec![
            job("broken", Err("cannot read flags".into())),
            job("empty", Ok(Default::default())),
        ];
        let report = run_jobs(&jobs, 2, None, &Progress::new(2, false), None)
            .unwrap()
            .report;
        assert_eq!(report.roots.len(), 2);
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.roots[1].status, RootOutcome::Ok);
        assert_eq!(report.diagnostics.len(), 1);
        assert_eq!(report.diagnostics[0].root.as_deref(), Some("broken"));
    }

    #[test]
    fn a_failed_job_without_an_error_finding_gets_an_internal_error() {
        let jobs = vec![
            job("a", Ok(Default::default())),
            job("b", Ok(Default::default())),
        ];
        let lost = |j: &Job| JobOutcome {
            status: if j.root == "a" {
                RootOutcome::Error
            } else {
                RootOutcome::Ok
            },
            ..run_job(j, evaluating)
        };
        let report = collect(
            &jobs,
            run_with(&jobs, 2, &Progress::new(2, false), &lost).unwrap(),
        )
        .report;
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.diagnostics.len(), 1);
        assert_eq!(report.diagnostics[0].rule, Rule::InternalError);
        assert_eq!(report.diagnostics[0].root.as_deref(), Some("a"));
        // A failure with its error finding is left as it is.
        let broken = vec![job("broken", Err("cannot read flags".into()))];
        let report = run_jobs(&broken, 1, None, &Progress::new(1, false), None)
            .unwrap()
            .report;
        assert_eq!(report.diagnostics.len(), 1);
        assert_ne!(report.diagnostics[0].rule, Rule::InternalError);
    }

    #[test]
    fn a_panic_becomes_an_internal_error_of_its_job() {
        let jobs = vec![
            job("a", Ok(Default::default())),
            job("b", Ok(Default::default())),
        ];
        let runner = |j: &Job| {
            if j.root == "a" {
                panic!("invariant broken");
            }
            run_job(j, evaluating)
        };
        let report = collect(
            &jobs,
            run_with(&jobs, 2, &Progress::new(2, false), &runner).unwrap(),
        )
        .report;
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.roots[1].status, RootOutcome::Ok);
        assert_eq!(report.diagnostics[0].rule, Rule::InternalError);
        assert!(report.diagnostics[0].message.ends_with("invariant broken"));
    }
}
