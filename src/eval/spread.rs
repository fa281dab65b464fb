//! One job's work spread over the threads of the job pool. After an edit the language server
//! usually lints one root, in one job, and the pool's other threads would idle while it runs: a
//! thread that runs a job with spreading allowed ([`within`], the server's runs only) hands
//! parts of the job that do not depend on each other to the pool. The check of the rendered
//! Kubernetes objects runs while the static analysis goes on, and about half of the analysis's
//! checks beside the other half ([`both`]); what the job built is dropped after its outcome is
//! known ([`drop_later`]). It sits with the evaluation's other per-job settings of a thread
//! (see [`super::cancel`]) so that the layers above it (the analysis, the linter) may use it.
//!
//! Everywhere else (the command line, whose jobs already keep every thread busy; a worker
//! process, which has no pool) the same parts run one after the other on the job's thread, in
//! the order they always did: the findings are the same either way, since the parts share
//! nothing but what they read.

use std::cell::Cell;

thread_local! {
    static ALLOWED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `body` (a job) with spreading allowed or not on this thread.
pub fn within<R>(allowed: bool, body: impl FnOnce() -> R) -> R {
    let old = ALLOWED.with(|a| a.replace(allowed));
    let _restore = Restore(old);
    body()
}

/// Puts the previous setting back, even when the body panics.
struct Restore(bool);

impl Drop for Restore {
    fn drop(&mut self) {
        ALLOWED.with(|a| a.set(self.0));
    }
}

/// Whether the job this thread runs may hand work to other threads of its pool.
pub fn allowed() -> bool {
    ALLOWED.with(Cell::get) && rayon::current_thread_index().is_some()
}

/// `side` and `main`'s results. When spreading is allowed, `side` is offered to the pool's
/// other threads while this thread runs `main` (it runs `side` itself when no other thread
/// took it); else `side` runs first, then `main`.
pub fn both<A: Send, B>(side: impl Fn() -> A + Sync, main: impl FnOnce() -> B) -> (A, B) {
    if !allowed() {
        let a = side();
        return (a, main());
    }
    let mut slot = None;
    let b = rayon::in_place_scope(|scope| {
        scope.spawn(|_| slot = Some(side()));
        main()
    });
    // The scope waits for what it spawned (and passes a panic of it on), so the slot is full.
    let a = match slot {
        Some(a) => a,
        None => side(),
    };
    (a, b)
}

/// Drops `value` on another thread of the pool when spreading is allowed (the job's outcome
/// goes on meanwhile), else here.
pub fn drop_later<T: Send + 'static>(value: T) {
    if allowed() {
        rayon::spawn(move || drop(value));
    } else {
        drop(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    #[test]
    fn without_spreading_the_side_runs_first_on_this_thread() {
        let order = Mutex::new(Vec::new());
        let here = std::thread::current().id();
        let (a, b) = pool().install(|| {
            within(false, || {
                both(
                    || {
                        order.lock().unwrap().push("side");
                        std::thread::current().id()
                    },
                    || {
                        order.lock().unwrap().push("main");
                        std::thread::current().id()
                    },
                )
            })
        });
        assert_eq!(*order.lock().unwrap(), ["side", "main"]);
        assert_eq!(a, b);
        assert_ne!(a, here);
        // Outside a pool nothing spreads, allowed or not.
        assert!(within(true, || !allowed()));
    }

    #[test]
    fn with_spreading_the_side_runs_on_another_thread_while_main_waits_for_it() {
        let pool = pool();
        let (side, main) = pool.install(|| {
            within(true, || {
                assert!(allowed());
                let started = AtomicUsize::new(0);
                both(
                    || {
                        started.fetch_add(1, Ordering::SeqCst);
                        std::thread::current().id()
                    },
                    || {
                        // The other thread takes the side while this one waits here.
                        let since = std::time::Instant::now();
                        while started.load(Ordering::SeqCst) == 0
                            && since.elapsed() < std::time::Duration::from_secs(20)
                        {
                            std::thread::yield_now();
                        }
                        std::thread::current().id()
                    },
                )
            })
        });
        assert_ne!(side, main);
        assert!(pool.install(|| !allowed()));
    }

    #[test]
    fn a_value_dropped_later_is_dropped() {
        struct Counted<'a>(&'a AtomicUsize);
        impl Drop for Counted<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        let pool = pool();
        pool.install(|| within(false, || drop_later(Counted(&DROPPED))));
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
        pool.install(|| within(true, || drop_later(Counted(&DROPPED))));
        while DROPPED.load(Ordering::SeqCst) < 2 {
            std::thread::yield_now();
        }
    }
}
