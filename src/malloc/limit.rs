//! A memory limit a process sets on itself (a linter worker, see `lint::run::worker`): an
//! allocation that would take the process's resident memory beyond the limit fails. The
//! parent of a worker watches the worker's resident memory too, every 10 ms; but one step of a
//! template (a string doubled, a list repeated, a document encoded) can allocate and fill
//! hundreds of megabytes between two looks, more still on a loaded machine. Here the check
//! comes before the memory is touched: at every block of 1 MiB or more, and after every 16 MiB
//! of blocks of 256 bytes or more. The resident memory is read without allocating
//! ([`crate::platform::memory::resident`]: Linux, macOS and Windows; elsewhere nothing is
//! checked). Before an allocation is refused, glibc's allocator gives its free memory back to
//! the system (`malloc_trim`), which may be enough.
//!
//! A refused allocation ends the process (Rust's allocation failure) or panics (starlark's
//! arena): either way the worker's job gets a `limit-exceeded` finding. In a process that set
//! no limit (every other one), an allocation costs one comparison more.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

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
/// live in starlark's arena, which grows by large blocks, and the parent's look every 10 ms
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
// (returns null) before the system's allocator sees it, as an allocator may.
unsafe impl GlobalAlloc for Limited {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size(), layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's guarantees are passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size(), layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's guarantees are passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees are passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && refused(new_size, new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's guarantees are passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The process's resident memory in bytes, read without allocating.
fn resident() -> Option<usize> {
    crate::platform::memory::resident()
}

/// Gives the allocator's free memory back to the system.
fn trim() {
    crate::platform::memory::trim();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_limit_nothing_is_refused() {
        // Tests run in threads of one process: the limit is never set here.
        assert!(!refused(1 << 40, 1 << 40));
        assert!(!refused(10, 10));
    }
}
