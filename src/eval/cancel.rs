//! Cancelling a run from outside: the language server sets a run's flag when a newer edit
//! makes the run's results stale. The thread that runs a job installs the flag around it
//! ([`within`]); the evaluator's budget check ([`crate::eval::limits`]) reads it every thousand
//! steps and stops the evaluation as it stops one out of time, and the job's later stages look
//! at [`requested`] before they start. The command line never installs a flag.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A run's cancellation flag, shared by whoever may cancel it and the threads running it.
#[derive(Clone, Debug, Default)]
pub struct Flag(Arc<AtomicBool>);

impl Flag {
    pub fn new() -> Flag {
        Flag::default()
    }

    /// Asks the run to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the run was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Flag>> = const { RefCell::new(None) };
}

/// Runs `body` with `flag` as this thread's cancellation flag (none: nothing cancels it).
pub fn within<R>(flag: Option<&Flag>, body: impl FnOnce() -> R) -> R {
    let old = CURRENT.with(|c| c.replace(flag.cloned()));
    let _restore = Restore(old);
    body()
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
}
