//! Bounds on one evaluation: call depth, executed steps, heap size and wall-clock time. Every
//! limit hit becomes an ordinary evaluation error naming the template line, never a hang.

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
}

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
        }
    }
}

impl Limits {
    /// Sets the limits on an evaluator; the deadline starts with the first evaluation.
    pub fn apply(&self, eval: &mut Evaluator<'_, '_, '_>) {
        let _ = eval.set_max_callstack_size(self.call_depth);
        let _ = eval.set_max_tick_count(self.ticks);
        let _ = eval.set_max_heap_size(self.heap_bytes);
        let deadline = match self.deadline.get() {
            Some(d) => d,
            None => {
                let d = Instant::now() + self.timeout;
                self.deadline.set(Some(d));
                d
            }
        };
        eval.set_check_cancelled(Box::new(move || Instant::now() > deadline));
    }

    /// Called after an evaluation (kept for symmetry; the deadline stays for the library).
    pub fn finish(&self) {}

    /// Whether the library's time is up.
    pub fn expired(&self) -> bool {
        matches!(self.deadline.get(), Some(d) if Instant::now() > d)
    }
}
