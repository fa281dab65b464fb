//! Runs jobs in parallel: a rayon pool with `-j` threads, each with a stack large enough for
//! deep Starlark recursion; each job isolated so that a panic becomes an `internal-error`
//! finding of that job while the others go on. Then the configured rule levels are applied and
//! the report is put in its stable order.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use rayon::prelude::*;

use super::cache::Cache;
use super::config::{Config, RuleLevel};
use super::job::{run_job, Job, JobOutcome};
use super::progress::Progress;
use crate::report::{Diagnostic, Report, RootOutcome, RootStatus};

/// Native stack of a worker thread: Starlark evaluation recurses on it (the engine's call
/// depth limit keeps well inside it). Reserved lazily by the OS.
const WORKER_STACK: usize = 256 << 20;

/// Evaluates `jobs` on `threads` threads, taking unchanged jobs' outcomes from `cache`; the
/// report of every job, in job order.
pub fn run_jobs(
    jobs: &[Job],
    threads: usize,
    progress: &Progress,
    cache: Option<&Cache>,
) -> Result<Report, String> {
    let Some(cache) = cache else {
        return Ok(collect(run_with(jobs, threads, progress, &run_job)?));
    };
    let keys: Vec<Option<String>> = jobs.par_iter().map(|j| cache.key(j)).collect();
    let mut done: Vec<Option<(RootStatus, Vec<Diagnostic>)>> = keys
        .iter()
        .zip(jobs)
        .map(|(key, job)| {
            let outcome = cache.get(key.as_deref()?)?;
            progress.finished(&describe(job));
            let status = status_of(job, outcome.status, Instant::now());
            Some((status, outcome.diagnostics))
        })
        .collect();
    let todo: Vec<Job> = jobs
        .iter()
        .zip(&done)
        .filter(|(_, d)| d.is_none())
        .map(|(j, _)| j.clone())
        .collect();
    let mut fresh = run_with(&todo, threads, progress, &run_job)?.into_iter();
    for (slot, key) in done.iter_mut().zip(&keys) {
        if slot.is_some() {
            continue;
        }
        let Some((status, diagnostics)) = fresh.next() else {
            break;
        };
        if let Some(key) = key {
            let outcome = JobOutcome {
                diagnostics,
                status: status.status,
            };
            cache.put(key, &outcome);
            *slot = Some((status, outcome.diagnostics));
        } else {
            *slot = Some((status, diagnostics));
        }
    }
    Ok(collect(done.into_iter().flatten()))
}

/// The report of the jobs' results.
fn collect(results: impl IntoIterator<Item = (RootStatus, Vec<Diagnostic>)>) -> Report {
    let mut report = Report::default();
    for (status, diagnostics) in results {
        report.roots.push(status);
        report.diagnostics.extend(diagnostics);
    }
    report
}

/// [`run_jobs`] with the function that runs one job given: each job's status and findings.
fn run_with(
    jobs: &[Job],
    threads: usize,
    progress: &Progress,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
) -> Result<Vec<(RootStatus, Vec<Diagnostic>)>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(WORKER_STACK)
        .thread_name(|i| format!("yttlint-job-{i}"))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let results = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let result = isolated(job, runner);
                progress.finished(&describe(job));
                result
            })
            .collect()
    });
    progress.clear();
    Ok(results)
}

fn describe(job: &Job) -> String {
    match &job.scenario {
        Some(s) => format!("{} ({s})", job.root),
        None => job.root.clone(),
    }
}

/// Runs one job, turning a panic into an `internal-error` finding.
fn isolated(
    job: &Job,
    runner: &(dyn Fn(&Job) -> JobOutcome + Sync),
) -> (RootStatus, Vec<Diagnostic>) {
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| runner(job))).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let mut d = Diagnostic::new(
            "internal-error",
            format!("yttlint failed while linting this root: {what}"),
        );
        d.root = Some(job.root.clone());
        d.scenario = job.scenario.clone();
        JobOutcome {
            diagnostics: vec![d],
            status: RootOutcome::Error,
        }
    });
    (status_of(job, outcome.status, start), outcome.diagnostics)
}

/// The status line of a job that started at `start`.
fn status_of(job: &Job, status: RootOutcome, start: Instant) -> RootStatus {
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
        .filter_map(|mut d| match config.level(&d.rule) {
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

    fn job(root: &str, flags: Result<crate::cli::template::TemplateArgs, String>) -> Job {
        Job {
            kind: JobKind::Root,
            repo: std::env::temp_dir(),
            root: root.into(),
            scenario: None,
            flags,
            kubevirt: true,
            config_spans: Vec::new(),
            check_files: true,
            plain_files: Vec::new(),
            needs_input: false,
            provided: Vec::new(),
            origin: None,
            notices: Vec::new(),
        }
    }

    #[test]
    fn a_failing_job_does_not_stop_the_others() {
        let jobs = vec![
            job("broken", Err("cannot read flags".into())),
            job("empty", Ok(Default::default())),
        ];
        let report = run_jobs(&jobs, 2, &Progress::new(2, false), None).unwrap();
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
            run_job(j)
        };
        let report = collect(run_with(&jobs, 2, &Progress::new(2, false), &runner).unwrap());
        assert_eq!(report.roots[0].status, RootOutcome::Error);
        assert_eq!(report.roots[1].status, RootOutcome::Ok);
        assert_eq!(report.diagnostics[0].rule, "internal-error");
        assert!(report.diagnostics[0].message.ends_with("invariant broken"));
    }

    #[test]
    fn levels_drop_or_change_severity() {
        let mut config = Config::default_for(std::path::Path::new("/repo"));
        config.rules.insert("template-error".into(), RuleLevel::Off);
        config.rules.insert(
            "unknown-annotation".into(),
            RuleLevel::Severity(Severity::Error),
        );
        let diags = vec![
            Diagnostic::new("template-error", "x"),
            Diagnostic::new("unknown-annotation", "y"),
        ];
        let out = apply_levels(&config, diags);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Error);
    }
}
