//! Bounds on one evaluation: call depth, executed steps, heap size and wall-clock time. Every
//! limit hit becomes an ordinary evaluation error naming the template line, never a hang.

use std::cell::Cell;
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

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            call_depth: 1000,
            ticks: 2_000_000_000,
            heap_bytes: 4 << 30,
            timeout: Duration::from_secs(120),
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
