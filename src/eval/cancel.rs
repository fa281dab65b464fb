//! Cancelling a run from outside: the language server sets a run's flag when a newer edit
//! makes the run's results stale. The thread that runs a job installs the flag around it
//! ([`within`]); the evaluator's budget check ([`crate::eval::limits`]) reads it every thousand
//! steps and stops the evaluation as it stops one out of time, and the job's later stages look
//! at [`requested`] before they start. The command line never installs a flag.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A run's cancellation flag, shared by whoever may cancel it and the threads running it. It
/// may also carry what bounds each job of the run on its thread besides the evaluation's own
/// limits: a memory budget (the language server's jobs run in its own threads, see
/// [`crate::malloc::limit::within_thread_budget`]) and a deadline (a question about a data
/// value must not wait for a runaway data values file).
#[derive(Clone, Debug, Default)]
pub struct Flag {
    cancelled: Arc<AtomicBool>,
    /// Soft and hard memory limits of each job's thread, in bytes.
    memory: Option<(usize, usize)>,
    deadline: Option<Instant>,
}

impl Flag {
    pub fn new() -> Flag {
        Flag::default()
    }

    /// The flag, whose jobs run with a memory budget of `soft` and `hard` bytes on their
    /// thread.
    pub fn with_memory(mut self, soft: usize, hard: usize) -> Flag {
        self.memory = Some((soft, hard));
        self
    }

    /// The flag, cancelled from `deadline` on.
    pub fn with_deadline(mut self, deadline: Instant) -> Flag {
        self.deadline = Some(deadline);
        self
    }

    /// Asks the run to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether the run was asked to stop (or its deadline passed).
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst) || self.deadline.is_some_and(|d| Instant::now() > d)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Flag>> = const { RefCell::new(None) };
}

/// Runs `body` with `flag` as this thread's cancellation flag (none: nothing cancels it), and
/// with the flag's memory budget on this thread when it has one.
pub fn within<R>(flag: Option<&Flag>, body: impl FnOnce() -> R) -> R {
    let old = CURRENT.with(|c| c.replace(flag.cloned()));
    let _restore = Restore(old);
    match flag.and_then(|f| f.memory) {
        Some((soft, hard)) => crate::malloc::limit::within_thread_budget(soft, hard, body),
        None => body(),
    }
}

/// Puts the previous flag back, even when the body panics.
struct Restore(Option<Flag>);

impl Drop for Restore {
    fn drop(&mut self) {
        let old = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = old);
    }
}

/// Whether the run this thread works for was cancelled.
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Flag::is_cancelled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_holds_within_its_body_only() {
        let flag = Flag::new();
        assert!(!requested());
        within(Some(&flag), || {
            assert!(!requested());
            flag.cancel();
            assert!(requested());
            within(None, || assert!(!requested()));
            assert!(requested());
        });
        assert!(!requested());
        assert!(flag.is_cancelled());
    }

    #[test]
    fn a_deadline_cancels_and_a_budget_holds_within() {
        let late = Flag::new().with_deadline(Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(late.is_cancelled());
        let bounded = Flag::new().with_memory(1 << 20, 64 << 20);
        within(Some(&bounded), || {
            assert_eq!(crate::malloc::limit::thread_budget(), 1 << 20);
            let v = vec![1u8; 2 << 20];
            assert!(crate::malloc::limit::over_budget());
            drop(v);
        });
        assert_eq!(crate::malloc::limit::thread_budget(), 0);
    }
}
