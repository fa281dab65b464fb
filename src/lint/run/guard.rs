//! One job guarded: run so that a panic becomes a finding of that job (in the file it was
//! evaluating when that is known) while the other jobs go on, and timed; a failed job always
//! has an error-level finding ([`never_silent`]).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use std::cell::{Cell, RefCell};

use crate::lint::job::{Job, JobOutcome, OnFile};
use crate::report::{Diagnostic, RootOutcome, Rule, Severity};

/// The result of a job that no thread or worker ran (none is expected: it says so rather
/// than losing the root).
pub fn not_linted(job: &Job) -> JobOutcome {
    JobOutcome::failure(
        job,
        Diagnostic::new(Rule::InternalError, "this root was not linted"),
    )
}

/// `outcome` with an `internal-error` finding when its status is error but none of its
/// findings is an error: a root that failed is never reported without saying so.
pub fn never_silent(job: &Job, mut outcome: JobOutcome) -> JobOutcome {
    let said = outcome
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    if outcome.status == RootOutcome::Error && !said {
        let mut d = Diagnostic::new(
            Rule::InternalError,
            "this root failed, but yttlint lost the finding that says why",
        );
        d.root = Some(job.root.clone());
        d.scenario = job.scenario.clone();
        outcome.diagnostics.push(d);
    }
    outcome
}

/// Runs one job, turning a panic into a finding of the job; the second value says whether it
/// panicked. A panic that comes from the size of what the template builds (a collection
/// whose capacity overflows) is a `limit-exceeded` finding; any other is an `internal-error`.
/// The outcome is within bounds ([`crate::lint::run::bounded`]).
pub fn caught(job: &Job, runner: &(dyn Fn(&Job) -> JobOutcome + Sync)) -> (JobOutcome, bool) {
    let start = Instant::now();
    let mut panicked = false;
    evaluating(None, 0);
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
            Some(file) => in_file(d, &file, LINE.get()),
            None => d,
        };
        JobOutcome::failure(job, d)
    });
    let outcome = crate::lint::run::bounded::outcome(job, outcome);
    (
        JobOutcome {
            duration_ms: elapsed_ms(start),
            ..outcome
        },
        panicked,
    )
}

/// Milliseconds since `start`.
pub fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// `d` at `line` of `file` (a repository path; line 0: not known, the first line) where the
/// process or thread ended in its evaluation.
pub fn in_file(d: Diagnostic, file: &str, line: u32) -> Diagnostic {
    let message = format!("{} while evaluating {file}", d.message);
    Diagnostic {
        message,
        ..d.at(crate::report::Span::point(file, line.max(1), 1))
    }
}

/// Notes that the job running on this thread evaluates the file at repository path `path`
/// (`None`: no file of the repository), at `line` (0: not known): a panic in the job gets its
/// finding there.
pub fn evaluating(path: Option<&str>, line: u32) {
    EVALUATING.with(|f| {
        let mut f = f.borrow_mut();
        match (f.as_mut(), path) {
            (Some(old), Some(new)) => {
                old.clear();
                old.push_str(new);
            }
            (_, new) => *f = new.map(str::to_string),
        }
    });
    LINE.set(line);
}

/// Notes that the job running on this thread is at `line` of the file it evaluates.
pub fn evaluating_line(line: u32) {
    LINE.set(line);
}

/// Where a job that runs on a thread of this process is ([`evaluating`]).
pub const IN_THREAD: OnFile = OnFile {
    file: evaluating,
    line: evaluating_line,
};

thread_local! {
    /// The file the job running on this thread evaluates (see [`evaluating`]), and the line.
    static EVALUATING: RefCell<Option<String>> = const { RefCell::new(None) };
    static LINE: Cell<u32> = const { Cell::new(0) };
    /// The source file of the last panic on this thread, when a panic hook noted it.
    static PANIC_FILE: RefCell<Option<String>> = const { RefCell::new(None) };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_thread_is_placed_where_the_evaluation_was() {
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let job = Job::new(&config, "r", Ok(Default::default()));
        let (outcome, panicked) = caught(&job, &|_| {
            (IN_THREAD.file)(Some("r/a.yml"), 0);
            (IN_THREAD.line)(7);
            panic!("capacity overflow");
        });
        assert!(panicked);
        let d = &outcome.diagnostics[0];
        assert_eq!(d.rule, Rule::LimitExceeded);
        assert_eq!(d.span, Some(crate::report::Span::point("r/a.yml", 7, 1)));
        assert!(
            d.message.ends_with("while evaluating r/a.yml"),
            "{}",
            d.message
        );
        // The next job on the thread starts nowhere.
        let (outcome, _) = caught(&job, &|_| panic!("unknown"));
        assert_eq!(outcome.diagnostics[0].span, None);
    }
}
