//! A memory limit a process sets on itself (a linter worker, see `lint::run::worker`): an
//! allocation that would take the process's resident memory beyond the limit fails. The
//! parent of a worker watches the worker's resident memory too, every 20 ms; but one step of a
//! template (a string doubled, a list repeated, a document encoded) can allocate and fill
//! hundreds of megabytes between two looks, more still on a loaded machine. Here the check
//! comes before the memory is touched: at every block of 1 MiB or more, and after every 16 MiB
//! of blocks of 256 bytes or more. The resident memory is read without allocating
//! ([`crate::platform::memory::resident`]: Linux, macOS and Windows; elsewhere nothing is
//! checked). Before an allocation is refused, the allocator gives its free memory back to the
//! system ([`crate::platform::memory::trim`]), which may be enough.
//!
//! A refused allocation ends the process (Rust's allocation failure) or panics (starlark's
//! arena): either way the worker's job gets a `limit-exceeded` finding. In a process that set
//! no limit (every other one), an allocation costs one comparison more.
//!
//! A thread may also have a budget of its own ([`within_thread_budget`]): the language server's
//! job threads, which run the jobs of untrusted repositories in its own process. Every
//! allocation the thread makes (and every block it frees) is counted from the moment the
//! budget is set; past its soft limit the thread is marked over budget ([`over_budget`]: the
//! evaluator's checks stop the evaluation with its heap error, as they stop one out of
//! time), and an allocation past its hard limit is refused, which starlark's arena (where the
//! values of an evaluation live) turns into a panic the job's guard reports as
//! `limit-exceeded`.

use std::alloc::{GlobalAlloc, Layout};

use crate::platform::memory::BASE;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The system's allocator, with the check.
pub struct Limited;

#[global_allocator]
static ALLOCATOR: Limited = Limited;

/// The limit in bytes (0: none).
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// Bytes of small blocks allocated since the last check (counted without synchronisation:
/// a count lost between two threads only moves the next check).
static SINCE: AtomicUsize = AtomicUsize::new(0);

/// Blocks smaller than this are not counted (most blocks are: the values of an evaluation
/// live in starlark's arena, which grows by large blocks, and the parent's look every 20 ms
/// bounds what small blocks add).
const SMALL: usize = 256;
/// A block this large is checked on its own.
const LARGE: usize = 1 << 20;
/// Smaller blocks are checked after this many bytes of them.
const STEP: usize = 16 << 20;

/// Limits this process's resident memory to `bytes` from now on.
pub fn set(bytes: usize) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// Gives free memory back to the system when the process holds more than half its limit (a
/// worker between two jobs: what one job freed then does not count against the next).
pub fn relieve() {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit > 0 && resident().is_some_and(|r| r > limit / 2) {
        trim();
    }
}

/// Whether an allocation of `size` bytes, which adds `grows` bytes to the process, must fail.
#[inline]
fn refused(size: usize, grows: usize) -> bool {
    // Most allocations are small: they cost this one comparison.
    if size < SMALL {
        return false;
    }
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == 0 {
        return false;
    }
    if size < LARGE {
        let since = SINCE.load(Ordering::Relaxed).saturating_add(size);
        if since < STEP {
            SINCE.store(since, Ordering::Relaxed);
            return false;
        }
        SINCE.store(0, Ordering::Relaxed);
    }
    beyond(grows, limit)
}

/// Whether the process's resident memory and `grows` more bytes exceed `limit`, even after
/// the allocator gave its free memory back.
#[cold]
fn beyond(grows: usize, limit: usize) -> bool {
    let over = || resident().is_some_and(|r| r.saturating_add(grows) > limit);
    if !over() {
        return false;
    }
    trim();
    over()
}

// SAFETY: every method hands the request to the system's allocator unchanged, or fails it
// (returns null) before the system's allocator sees it, as an allocator may. The per-thread
// counts are plain thread-locals with constant initial values and no destructor: reading
// them never allocates.
unsafe impl GlobalAlloc for Limited {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size(), layout.size()) || !thread_grants(layout.size(), 0) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's guarantees are passed on.
        unsafe { BASE.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size(), layout.size()) || !thread_grants(layout.size(), 0) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's guarantees are passed on.
        unsafe { BASE.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        thread_frees(layout.size());
        // SAFETY: the caller's guarantees are passed on.
        unsafe { BASE.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && refused(new_size, new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        if !thread_grants(new_size, layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's guarantees are passed on.
        let moved = unsafe { BASE.realloc(ptr, layout, new_size) };
        if moved.is_null() {
            // The block stays as it was: so does the count.
            thread_frees(new_size);
            thread_counts(layout.size());
        }
        moved
    }
}

/// Whether some thread has a budget (most processes: none, and an allocation costs one load).
static ANY_BUDGET: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// This thread's hard limit in bytes (0: no budget).
    static HARD: Cell<usize> = const { Cell::new(0) };
    /// Its soft limit.
    static SOFT: Cell<usize> = const { Cell::new(0) };
    /// Bytes it allocated less bytes it freed since its budget was set.
    static USED: Cell<isize> = const { Cell::new(0) };
    /// It went past its soft limit.
    static OVER: Cell<bool> = const { Cell::new(false) };
}

/// Counts an allocation of `size` bytes replacing a block of `old` bytes (0: a new block);
/// false when it must be refused (past the thread's hard limit).
#[inline]
fn thread_grants(size: usize, old: usize) -> bool {
    if !ANY_BUDGET.load(Ordering::Relaxed) {
        return true;
    }
    let hard = HARD.with(Cell::get);
    if hard == 0 {
        return true;
    }
    let used = USED.with(Cell::get);
    let grown = isize::try_from(size).unwrap_or(isize::MAX) - isize::try_from(old).unwrap_or(0);
    let after = used.saturating_add(grown);
    // A thread that panics (the arena refused to grow) may allocate to report it and to
    // unwind, which frees what the evaluation held.
    if grown > 0 && usize::try_from(after).is_ok_and(|a| a > hard) && !std::thread::panicking() {
        OVER.with(|o| o.set(true));
        return false;
    }
    if usize::try_from(after).is_ok_and(|a| a > SOFT.with(Cell::get)) {
        OVER.with(|o| o.set(true));
    }
    USED.with(|u| u.set(after));
    true
}

/// Counts a block of `size` bytes this thread frees.
#[inline]
fn thread_frees(size: usize) {
    if ANY_BUDGET.load(Ordering::Relaxed) && HARD.with(Cell::get) != 0 {
        USED.with(|u| u.set(u.get().saturating_sub(isize::try_from(size).unwrap_or(0))));
    }
}

/// Counts a block of `size` bytes this thread holds again (a failed reallocation).
fn thread_counts(size: usize) {
    if ANY_BUDGET.load(Ordering::Relaxed) && HARD.with(Cell::get) != 0 {
        USED.with(|u| u.set(u.get().saturating_add(isize::try_from(size).unwrap_or(0))));
    }
}

/// Runs `body` with a memory budget on this thread: what it allocates from now on beyond
/// what it frees is counted; past `soft` bytes the thread is [`over_budget`], and an
/// allocation that would take it past `hard` bytes fails. The previous budget (none, on
/// most threads) is back afterwards, even when `body` panics.
pub fn within_thread_budget<R>(soft: usize, hard: usize, body: impl FnOnce() -> R) -> R {
    ANY_BUDGET.store(true, Ordering::Relaxed);
    let saved = (
        HARD.with(|h| h.replace(hard.max(1))),
        SOFT.with(|s| s.replace(soft.min(hard))),
        USED.with(|u| u.replace(0)),
        OVER.with(|o| o.replace(false)),
    );
    let _restore = RestoreBudget(saved);
    body()
}

struct RestoreBudget((usize, usize, isize, bool));

impl Drop for RestoreBudget {
    fn drop(&mut self) {
        let (hard, soft, used, over) = self.0;
        HARD.with(|h| h.set(hard));
        SOFT.with(|s| s.set(soft));
        USED.with(|u| u.set(used));
        OVER.with(|o| o.set(over));
    }
}

/// Whether this thread went past the soft limit of its budget (see [`within_thread_budget`]).
pub fn over_budget() -> bool {
    OVER.with(Cell::get)
}

/// The soft limit of this thread's budget, in bytes (0: it has none).
pub fn thread_budget() -> usize {
    if HARD.with(Cell::get) == 0 {
        0
    } else {
        SOFT.with(Cell::get)
    }
}

/// The process's resident memory in bytes, read without allocating.
fn resident() -> Option<usize> {
    crate::platform::memory::resident()
}

/// Gives the allocator's free memory back to the system.
pub(super) fn trim() {
    crate::platform::memory::trim();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn the_resident_memory_is_read_without_allocating() {
        let r = resident().unwrap();
        // A test process holds some memory, and less than a terabyte.
        assert!(r > 1 << 20 && r < 1 << 40, "{r}");
    }

    #[test]
    fn a_thread_budget_counts_what_the_thread_holds() {
        let (kept, refused_big) = within_thread_budget(8 << 20, 16 << 20, || {
            let kept: Vec<u8> = vec![1; 10 << 20];
            assert!(over_budget(), "past the soft limit");
            // Past the hard limit: refused (the fallible path reports it).
            let mut big: Vec<u8> = Vec::new();
            let refused_big = big.try_reserve_exact(8 << 20).is_err();
            (kept.len(), refused_big)
        });
        assert_eq!(kept, 10 << 20);
        assert!(refused_big);
        // Back to no budget: the thread may allocate again, and is not over.
        assert!(!over_budget());
        assert_eq!(thread_budget(), 0);
        let again: Vec<u8> = vec![0; 20 << 20];
        assert_eq!(again.len(), 20 << 20);
        // What is freed within the budget is counted back.
        within_thread_budget(8 << 20, 16 << 20, || {
            for _ in 0..10 {
                let v: Vec<u8> = vec![1; 4 << 20];
                drop(v);
            }
            assert!(!over_budget());
        });
    }

    #[test]
    fn without_a_limit_nothing_is_refused() {
        // Tests run in threads of one process: the limit is never set here.
        assert!(!refused(1 << 40, 1 << 40));
        assert!(!refused(10, 10));
    }
}
