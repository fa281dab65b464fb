//! Runs jobs in parallel: in worker processes (see [`crate::lint::run::pool`]), or in a rayon pool with
//! `-j` threads, each with a stack large enough for deep Starlark recursion; each job isolated
//! so that a panic becomes an `internal-error` finding of that job while the others go on.
//! Then the configured rule levels are applied and the report is put in its stable order.

pub mod cache;
pub mod pool;
pub mod progress;
pub mod run_cache;
pub mod worker;

use crate::report::Rule;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use rayon::prelude::*;

use crate::lint::config::{Config, RuleLevel};
use crate::lint::job::{run_job, Job, JobOutcome};
use crate::report::coverage::Coverage;
use crate::report::{Diagnostic, Report, RootOutcome, RootStatus};
use cache::Cache;
use pool::Isolation;
use progress::Progress;

/// Native stack of a worker thread: Starlark evaluation recurses on it (the engine's call
/// depth limit keeps well inside it). Reserved lazily by the OS.
const WORKER_STACK: usize = 256 << 20;

/// One job's result: its status line, its findings, and what it executed when it records
/// coverage.
pub type JobResult = (RootStatus, Vec<Diagnostic>, Option<Coverage>);

/// What a run of jobs produced: the report, and each job's coverage in job order.
pub struct Ran {
    pub report: Report,
    pub coverage: Vec<Option<Coverage>>,
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
        return Ok(collect(run_fresh(jobs, threads, isolation, progress)?));
    };
    let keys: Vec<Option<String>> = jobs.par_iter().map(|j| cache.key(j)).collect();
    let mut done: Vec<Option<JobResult>> = keys
        .iter()
        .zip(jobs)
        .map(|(key, job)| {
            let outcome = cache.get(key.as_deref()?)?;
            progress.finished(&describe(job));
            let status = status_of(job, outcome.status, Instant::now());
            Some((status, outcome.diagnostics, outcome.coverage))
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
        let Some((status, diagnostics, coverage)) = fresh.next() else {
            break;
        };
        if let Some(key) = key {
            let outcome = JobOutcome {
                diagnostics,
                status: status.status,
                coverage,
            };
            cache.put(key, &outcome);
            *slot = Some((status, outcome.diagnostics, outcome.coverage));
        } else {
            *slot = Some((status, diagnostics, coverage));
        }
    }
    Ok(collect(done.into_iter().flatten()))
}

/// Runs `jobs` in worker processes or threads: each job's result, in job order.
fn run_fresh(
    jobs: &[Job],
    threads: usize,
    isolation: Option<&Isolation>,
    progress: &Progress,
) -> Result<Vec<JobResult>, String> {
    match isolation {
        Some(iso) => {
            let results = crate::lint::run::pool::run_isolated(jobs, threads, iso, progress);
            progress.clear();
            Ok(results)
        }
        None => run_with(jobs, threads, progress, &|job| run_job(job, evaluating)),
    }
}

/// The report of the jobs' results, and their coverage.
fn collect(results: impl IntoIterator<Item = JobResult>) -> Ran {
    let mut ran = Ran {
        report: Report::default(),
        coverage: Vec::new(),
    };
    for (status, diagnostics, coverage) in results {
        ran.report.roots.push(status);
        ran.report.diagnostics.extend(diagnostics);
        ran.coverage.push(coverage);
    }
    ran
}

/// [`run_jobs`] with the function that runs one job given: each job's result.
fn run_with(
    jobs: &[Job],
    threads: usize,
    progress: &Progress,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
) -> Result<Vec<JobResult>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(WORKER_STACK)
        .thread_name(|i| format!("yttlint-job-{i}"))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let groups = crate::lint::plan::affinity::groups(jobs);
    let ran: Vec<Vec<(usize, JobResult)>> = pool.install(|| {
        groups
            .par_iter()
            .with_max_len(1)
            .map(|group| {
                group
                    .iter()
                    .filter_map(|&i| Some((i, jobs.get(i)?)))
                    .map(|(i, job)| {
                        let (result, _) = caught(job, runner);
                        progress.finished(&describe(job));
                        (i, result)
                    })
                    .collect()
            })
            .collect()
    });
    progress.clear();
    let mut results: Vec<Option<JobResult>> = vec![None; jobs.len()];
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

/// The result of a job that no thread or worker ran (none is expected: it says so rather
/// than losing the root).
pub fn not_linted(job: &Job) -> JobResult {
    let d = Diagnostic::new(Rule::InternalError, "this root was not linted");
    (
        status_of(job, RootOutcome::Error, Instant::now()),
        vec![of_job(job, d)],
        None,
    )
}

fn describe(job: &Job) -> String {
    match &job.scenario {
        Some(s) => format!("{} ({s})", job.root),
        None => job.root.clone(),
    }
}

/// Runs one job, turning a panic into a finding of the job; the second value says whether it
/// panicked. A panic that comes from the size of what the template builds (a collection
/// whose capacity overflows) is a `limit-exceeded` finding; any other is an `internal-error`.
pub fn caught(job: &Job, runner: &(dyn Fn(&Job) -> JobOutcome + Sync)) -> (JobResult, bool) {
    let start = Instant::now();
    let mut panicked = false;
    EVALUATING.with(|f| f.borrow_mut().take());
    let outcome = catch_unwind(AssertUnwindSafe(|| runner(job))).unwrap_or_else(|payload| {
        panicked = true;
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let d = if allocation_failed(&what) {
            Diagnostic::new(
                Rule::LimitExceeded,
                format!("the evaluation could not allocate the memory it needed ({what})"),
            )
        } else {
            Diagnostic::new(
                Rule::InternalError,
                format!("yttlint failed while linting this root: {what}"),
            )
        };
        let d = match EVALUATING.with(|f| f.borrow_mut().take()) {
            Some(file) => in_file(d, &file),
            None => d,
        };
        JobOutcome {
            diagnostics: vec![of_job(job, d)],
            status: RootOutcome::Error,
            coverage: None,
        }
    });
    let status = status_of(job, outcome.status, start);
    ((status, outcome.diagnostics, outcome.coverage), panicked)
}

/// `d` in `file` (a repository path) when the process or thread ended in its evaluation: the
/// line is not known.
pub fn in_file(d: Diagnostic, file: &str) -> Diagnostic {
    let message = format!("{} while evaluating {file}", d.message);
    Diagnostic {
        message,
        ..d.at(crate::report::Span::point(file, 1, 1))
    }
}

/// Notes that the job running on this thread evaluates the file at repository path `path`:
/// a panic in the job gets its finding there.
pub fn evaluating(path: &str) {
    EVALUATING.with(|f| *f.borrow_mut() = Some(path.to_string()));
}

thread_local! {
    /// The file the job running on this thread evaluates (see [`evaluating`]).
    static EVALUATING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The source file of the last panic on this thread, when a panic hook noted it.
    static PANIC_FILE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Notes the source file of a panic (called from a panic hook, on the panicking thread).
pub fn note_panic_file(file: &str) {
    PANIC_FILE.with(|f| *f.borrow_mut() = Some(file.to_string()));
}

/// Whether a panic with message `what` is an allocation that failed or could not be made: the
/// size of a value the template builds, not a bug.
fn allocation_failed(what: &str) -> bool {
    const MESSAGES: [&str; 3] = [
        "capacity overflow",
        "out of memory",
        "must not exceed u32::MAX",
    ];
    // starlark's own stack of temporaries unwraps the allocation of its next buffer.
    let in_alloca = PANIC_FILE
        .with(|f| f.borrow_mut().take())
        .is_some_and(|f| f.ends_with("collections/alloca.rs"));
    in_alloca || MESSAGES.iter().any(|m| what.contains(m))
}

/// A finding about `job` as a whole.
pub fn of_job(job: &Job, mut d: Diagnostic) -> Diagnostic {
    d.root = Some(job.root.clone());
    d.scenario = job.scenario.clone();
    d
}

/// The status line of `job`, which started at `start`.
pub fn status_of(job: &Job, status: RootOutcome, start: Instant) -> RootStatus {
    RootStatus {
        path: job.root.clone(),
        scenario: job.scenario.clone(),
        status,
        duration_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}

/// Applies `rules:` from the configuration: `off` drops a rule's findings, a severity replaces
/// the rule's default.
pub fn apply_levels(config: &Config, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .filter_map(|mut d| match config.level(d.rule) {
            Some(RuleLevel::Off) => None,
            Some(RuleLevel::Severity(s)) => {
                d.severity = s;
                Some(d)
            }
            None => Some(d),
        })
        .collect()
}

/// Marks roots whose findings were all dropped or suppressed as `ok` again.
pub fn settle_statuses(report: &mut Report) {
    for root in &mut report.roots {
        if root.status != RootOutcome::Findings {
            continue;
        }
        let any = report
            .diagnostics
            .iter()
            .any(|d| d.root.as_deref() == Some(&root.path) && d.scenario == root.scenario);
        if !any {
            root.status = RootOutcome::Ok;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::job::JobKind;
    use crate::report::Severity;

    fn job(root: &str, flags: Result<crate::ytt_flags::TemplateArgs, String>) -> Job {
        Job {
            kind: JobKind::Root,
            repo: std::env::temp_dir(),
            root: root.into(),
            scenario: None,
            flags,
            kubevirt: true,
            config_spans: Vec::new(),
            check_files: true,
            analysis: true,
            plain_files: Vec::new(),
            needs_input: false,
            provided: Vec::new(),
            origin: None,
            notices: Vec::new(),
            coverage: false,
            values_from: Default::default(),
        }
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
        let report = collect(run_with(&jobs, 2, &Progress::new(2, false), &runner).unwrap()).report;
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.roots[1].status, RootOutcome::Ok);
        assert_eq!(report.diagnostics[0].rule, Rule::InternalError);
        assert!(report.diagnostics[0].message.ends_with("invariant broken"));
    }

    #[test]
    fn levels_drop_or_change_severity() {
        let mut config = Config::default_for(std::path::Path::new("/repo"));
        config.rules.insert(Rule::TemplateError, RuleLevel::Off);
        config.rules.insert(
            Rule::UnknownAnnotation,
            RuleLevel::Severity(Severity::Error),
        );
        let diags = vec![
            Diagnostic::new(Rule::TemplateError, "x"),
            Diagnostic::new(Rule::UnknownAnnotation, "y"),
        ];
        let out = apply_levels(&config, diags);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Error);
    }
}
