//! Bounds on one evaluation: call depth, executed steps, heap size and wall-clock time. Every
//! limit hit becomes an ordinary evaluation error naming the template line, never a hang. The
//! same check stops an evaluation whose run was cancelled ([`super::cancel`]).

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use starlark::eval::Evaluator;

/// Limits for evaluating one library (all its templates together share the deadline).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Maximum Starlark call depth.
    pub call_depth: usize,
    /// Maximum steps per module evaluation.
    pub ticks: u64,
    /// Maximum heap of one module, in bytes.
    pub heap_bytes: usize,
    /// Wall-clock budget for the whole library.
    pub timeout: Duration,
    deadline: Cell<Option<Instant>>,
    /// The limit an evaluation was last stopped for, and when.
    stopped: Cell<Option<(Exceeded, Instant)>>,
}

/// Steps (calls and loop iterations) between two cancellation checks of starlark's evaluator.
const STEPS_PER_CHECK: u64 = 1000;

/// How long the cancellation check keeps quiet after it stopped an evaluation (see
/// [`Limits::apply`]); an evaluation that goes on (an error caught by `assert.try_to`, a
/// validation) is stopped again after it.
const GRACE: Duration = Duration::from_millis(50);

/// The heap limit of every evaluation of this process (see [`set_process_defaults`]).
static HEAP_BYTES: AtomicU64 = AtomicU64::new(4 << 30);
/// The wall-clock budget of every library evaluation of this process, in milliseconds.
static TIMEOUT_MS: AtomicU64 = AtomicU64::new(120_000);

/// Sets the heap limit and time budget of the evaluations this process runs from now on: a
/// linter worker process sets them from its share of the run's memory and its job timeout, so
/// that the engine stops a runaway template with its own error (naming the template line)
/// before the operating system's limit ends the process.
pub fn set_process_defaults(heap_bytes: u64, timeout: Duration) {
    HEAP_BYTES.store(heap_bytes, Ordering::Relaxed);
    TIMEOUT_MS.store(
        u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        Ordering::Relaxed,
    );
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            call_depth: 1000,
            ticks: 2_000_000_000,
            heap_bytes: usize::try_from(HEAP_BYTES.load(Ordering::Relaxed)).unwrap_or(usize::MAX),
            timeout: Duration::from_millis(TIMEOUT_MS.load(Ordering::Relaxed)),
            deadline: Cell::new(None),
            stopped: Cell::new(None),
        }
    }
}

impl Limits {
    /// Sets the limits on an evaluator; the deadline starts with the first evaluation.
    ///
    /// The call depth is starlark's own limit. Time, heap and steps are checked by the
    /// evaluator's cancellation check (every thousand steps), not by starlark's own heap and
    /// step limits: starlark checks those again once the module has ended and then replaces
    /// the error raised at the template line by one without any line. The check stops the
    /// evaluation once, records why ([`Limits::exceeded`]), and keeps quiet for a moment
    /// ([`GRACE`]) so that the check run after the module does not replace the error.
    pub fn apply<'a>(&'a self, eval: &mut Evaluator<'_, 'a, '_>) {
        let _ = eval.set_max_callstack_size(self.call_depth);
        let deadline = match self.deadline.get() {
            Some(d) => d,
            None => {
                let d = Instant::now() + self.timeout;
                self.deadline.set(Some(d));
                d
            }
        };
        let heap = eval.heap();
        let checks = Cell::new(0u64);
        eval.set_check_cancelled(Box::new(move || {
            checks.set(checks.get().saturating_add(1));
            let steps = checks.get().saturating_mul(STEPS_PER_CHECK);
            self.check(deadline, heap.peak_allocated_bytes(), steps)
        }));
    }

    /// Whether the evaluation must stop now: a limit is exceeded, and it was not stopped for
    /// it within [`GRACE`].
    fn check(&self, deadline: Instant, heap_bytes: usize, steps: u64) -> bool {
        let now = Instant::now();
        let reason = if super::cancel::requested() {
            Exceeded::Cancelled
        } else if now > deadline {
            Exceeded::Time(self.timeout)
        } else if heap_bytes > self.heap_bytes {
            Exceeded::Heap(self.heap_bytes)
        } else if crate::malloc::limit::over_budget() {
            // The thread's own budget (the language server's jobs).
            Exceeded::Heap(crate::malloc::limit::thread_budget())
        } else if steps > self.ticks {
            Exceeded::Steps(self.ticks)
        } else {
            return false;
        };
        if let Some((_, at)) = self.stopped.get() {
            if now.saturating_duration_since(at) < GRACE {
                return false;
            }
        }
        self.stopped.set(Some((reason, now)));
        true
    }

    /// Called after an evaluation (kept for symmetry; the deadline stays for the library).
    pub fn finish(&self) {}

    /// Whether the library's time is up.
    pub fn expired(&self) -> bool {
        matches!(self.deadline.get(), Some(d) if Instant::now() > d)
    }

    /// The limit an evaluation of this library was last stopped for.
    pub fn exceeded(&self) -> Option<Exceeded> {
        self.stopped.get().map(|(e, _)| e)
    }
}

/// A limit an evaluation was stopped for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    /// The library's wall-clock budget.
    Time(Duration),
    /// The heap of one module, in bytes.
    Heap(usize),
    /// The steps of one module.
    Steps(u64),
    /// Not a limit: the run was cancelled ([`super::cancel`]); its results are thrown away.
    Cancelled,
}

impl Exceeded {
    /// The error message (`limit exceeded: ...`, as the call depth's).
    pub fn message(self) -> String {
        match self {
            Exceeded::Time(t) => format!(
                "limit exceeded: the evaluation ran longer than its time budget of {} ms",
                t.as_millis()
            ),
            Exceeded::Heap(b) => format!(
                "limit exceeded: the evaluation's heap grew beyond its budget of {} MiB",
                b >> 20
            ),
            Exceeded::Steps(n) => {
                format!("limit exceeded: the evaluation ran more than {n} steps")
            }
            Exceeded::Cancelled => "the evaluation was cancelled".to_string(),
        }
    }
}
