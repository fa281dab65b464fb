//! Runs jobs in parallel: in worker processes (see [`crate::lint::run::pool`]), or in a rayon pool with
//! `-j` threads, each with a stack large enough for deep Starlark recursion; each job isolated
//! so that a panic becomes an `internal-error` finding of that job while the others go on.
//! Then the configured rule levels are applied and the report is put in its stable order.

pub mod bounded;
pub mod budget;
pub mod cache;
pub mod cache_auth;
pub mod deadline;
pub mod ended;
pub mod guard;
pub mod pool;
pub mod position;
pub mod progress;
pub mod run_cache;
pub mod worker;

use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::eval::cancel::{self, Flag};
use crate::eval::spread;
use crate::lint::job::usage::Usage;
use crate::lint::job::{run_job, Job, JobOutcome};
use crate::report::coverage::Coverage;
use crate::report::Report;
use budget::Kept;
use cache::Cache;
use guard::{caught, never_silent, IN_THREAD};
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

/// How jobs are run: in how many threads or workers, isolated or not, and how many bytes of
/// findings the run keeps ([`budget::findings_bytes`]).
pub struct Running<'a> {
    pub threads: usize,
    pub isolation: Option<&'a Isolation>,
    pub progress: &'a Progress,
    pub cache: Option<&'a Cache>,
    pub findings_bytes: usize,
    /// Set when the run's results are no longer wanted: the evaluation going on stops, and
    /// the jobs not started yet are skipped (in threads only; the language server's case).
    pub cancel: Option<&'a Flag>,
    /// A job may hand parts of its work to idle threads (in threads only; see
    /// [`crate::eval::spread`]).
    pub spread: bool,
    /// When the whole run's time is up (`--timeout`; see [`deadline`]).
    pub deadline: Option<deadline::Deadline>,
}

/// Where each job's outcome goes as it finishes: the job's index, and the outcome.
type Deliver<'a> = &'a (dyn Fn(usize, JobOutcome) + Sync);

/// Evaluates `jobs` as `how` says, taking unchanged jobs' outcomes from its cache; the report
/// of every job, in job order, and each job's coverage.
pub fn run_jobs(jobs: &[Job], how: &Running) -> Result<Ran, String> {
    run_guarded(jobs, how, &|job| run_job(job, IN_THREAD))
}

/// [`run_jobs`] with the function that runs one job in a thread given.
fn run_guarded(
    jobs: &[Job],
    how: &Running,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
) -> Result<Ran, String> {
    let kept = Mutex::new(Kept::new(jobs.len(), how.findings_bytes));
    let keep = |index: usize, outcome: JobOutcome| {
        let Some(job) = jobs.get(index) else { return };
        let outcome = never_silent(job, outcome);
        if let Ok(mut kept) = kept.lock() {
            kept.put(index, outcome);
        }
    };
    let keys: Vec<Option<String>> = match how.cache {
        Some(cache) => jobs.par_iter().map(|j| cache.key(j)).collect(),
        None => vec![None; jobs.len()],
    };
    let mut todo = Vec::new();
    for (index, (job, key)) in jobs.iter().zip(&keys).enumerate() {
        let cached = how
            .cache
            .zip(key.as_deref())
            .and_then(|(cache, key)| cache.get(key));
        match cached {
            Some(outcome) => {
                how.progress.finished(&job.describe());
                keep(index, outcome);
            }
            None => todo.push(index),
        }
    }
    let fresh: Vec<Job> = todo.iter().filter_map(|&i| jobs.get(i).cloned()).collect();
    let deliver = |t: usize, outcome: JobOutcome| {
        let Some(&index) = todo.get(t) else { return };
        if let (Some(cache), Some(Some(key))) = (how.cache, keys.get(index)) {
            cache.put(key, &outcome);
        }
        keep(index, outcome);
    };
    match how.isolation {
        Some(iso) => pool::run_isolated(
            &fresh,
            how.threads,
            iso,
            how.deadline.as_ref(),
            how.progress,
            &deliver,
        ),
        None => in_threads(&fresh, how, runner, &deliver)?,
    }
    how.progress.clear();
    let kept = kept.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(collect(jobs, kept.finish(jobs)))
}

/// Runs `jobs` in threads of this process, each cancellable: by the run's flag (the language
/// server's), and at the run's deadline, when a watcher sets the flag (a job stopped so is a
/// `limit-exceeded` finding, a job not started yet is one too).
fn in_threads(
    jobs: &[Job],
    how: &Running,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
    deliver: Deliver,
) -> Result<(), String> {
    let own = Flag::new();
    let flag = match (how.cancel, how.deadline) {
        (Some(flag), _) => Some(flag),
        (None, Some(_)) => Some(&own),
        (None, None) => None,
    };
    let cancellable = |job: &Job| {
        let late = how.deadline.filter(deadline::Deadline::passed);
        if let Some(d) = late {
            return JobOutcome::failure(job, d.not_started());
        }
        if flag.is_some_and(Flag::is_cancelled) {
            return JobOutcome::cancelled();
        }
        let outcome = cancel::within(flag, || spread::within(how.spread, || runner(job)));
        match how.deadline.filter(deadline::Deadline::passed) {
            // Stopped at the deadline (or done just then): what it found may be cut short.
            Some(d) if flag.is_some_and(Flag::is_cancelled) => {
                JobOutcome::failure(job, d.stopped())
            }
            _ => outcome,
        }
    };
    let Some(d) = how.deadline else {
        return run_with(jobs, how.threads, how.progress, &cancellable, deliver);
    };
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let waited = finished.recv_timeout(d.left());
            if waited == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                if let Some(flag) = flag {
                    flag.cancel();
                }
            }
        });
        let result = run_with(jobs, how.threads, how.progress, &cancellable, deliver);
        let _ = done.send(());
        result
    })
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
        ran.report.roots.push(outcome.root_status(job));
        ran.report.diagnostics.extend(outcome.diagnostics);
        ran.coverage.push(outcome.coverage);
        ran.unchecked_kinds
            .extend(outcome.unchecked_kinds.into_iter().map(|u| u.kind));
        ran.usage.push(outcome.usage);
    }
    ran.unchecked_kinds.sort();
    ran.unchecked_kinds.dedup();
    ran
}

/// Runs `jobs` on `threads` threads of this process with `runner`, handing each outcome to
/// `deliver` as it finishes.
fn run_with(
    jobs: &[Job],
    threads: usize,
    progress: &Progress,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
    deliver: Deliver,
) -> Result<(), String> {
    let pool = pool_of(threads.max(1))?;
    let groups = crate::lint::plan::affinity::groups(jobs);
    pool.install(|| {
        groups.par_iter().with_max_len(1).for_each(|group| {
            for (i, job) in group.iter().filter_map(|&i| Some((i, jobs.get(i)?))) {
                let (outcome, _) = caught(job, runner);
                progress.finished(&job.describe());
                deliver(i, outcome);
            }
        })
    });
    Ok(())
}

/// The thread pool of `threads` threads, started by the first run that asks for it and kept
/// for the next runs of this process (the language server's): what a thread keeps between jobs
/// (parsed files, library checks; see [`crate::yaml::shared`]) then serves the next run too.
fn pool_of(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(WORKER_STACK)
        .thread_name(|i| format!("yttlint-job-{i}"))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let pool = Arc::new(pool);
    pools.push((threads, pool.clone()));
    Ok(pool)
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

    /// Runs `jobs` in 2 threads with `runner`, without a cache.
    fn ran(jobs: &[Job], runner: &(dyn Fn(&Job) -> JobOutcome + Sync)) -> Report {
        let progress = Progress::new(jobs.len(), false);
        let how = Running {
            threads: 2,
            isolation: None,
            progress: &progress,
            cache: None,
            findings_bytes: 1 << 20,
            cancel: None,
            spread: false,
            deadline: None,
        };
        run_guarded(jobs, &how, runner).unwrap().report
    }

    fn plain(job: &Job) -> JobOutcome {
        run_job(job, IN_THREAD)
    }

    #[test]
    fn a_failing_job_does_not_stop_the_others() {
        let jobs = vec![
            job("broken", Err("cannot read flags".into())),
            job("empty", Ok(Default::default())),
        ];
        let report = ran(&jobs, &plain);
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
            ..plain(j)
        };
        let report = ran(&jobs, &lost);
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.diagnostics.len(), 1);
        assert_eq!(report.diagnostics[0].rule, Rule::InternalError);
        assert_eq!(report.diagnostics[0].root.as_deref(), Some("a"));
        // A failure with its error finding is left as it is.
        let broken = vec![job("broken", Err("cannot read flags".into()))];
        let report = ran(&broken, &plain);
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
            plain(j)
        };
        let report = ran(&jobs, &runner);
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.roots[1].status, RootOutcome::Ok);
        assert_eq!(report.diagnostics[0].rule, Rule::InternalError);
        assert!(report.diagnostics[0].message.ends_with("invariant broken"));
    }

    #[test]
    fn a_job_that_fails_with_a_huge_message_is_bounded() {
        let jobs = vec![job("a", Ok(Default::default()))];
        let huge = |j: &Job| {
            JobOutcome::failure(
                j,
                crate::report::Diagnostic::new(Rule::TemplateError, "M".repeat(20 << 20)),
            )
        };
        let report = ran(&jobs, &huge);
        assert_eq!(report.diagnostics.len(), 1);
        assert!(report.diagnostics[0].message.len() < 17 << 10);
        assert!(report.diagnostics[0].message.ends_with(&format!(
            "[{} more bytes cut by yttlint]",
            (20 << 20) - (16 << 10)
        )));
    }
}
