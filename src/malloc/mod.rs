//! Settings of glibc's allocator for a process that builds and drops many small trees (YAML
//! nodes, Starlark syntax) job after job. With glibc's defaults, a fifth of a lint run's CPU
//! time was spent in `malloc` and `free`, an eighth of that merging freed small blocks
//! (`malloc_consolidate`) and giving memory back to the system only to ask for it again; these
//! settings took the allocator's share from 1.8 s to 1.3 s of CPU (perf, the corpus as one
//! repository, 2 workers). Since then Rust's allocations go to jemalloc on Linux with glibc
//! ([`crate::platform::memory::Base`], a sixth less CPU again); the settings still serve what
//! C code allocates there (tree-sitter's parser). A process with a memory limit ([`limit`])
//! keeps less free memory back
//! ([`for_limit`]). The calls themselves are [`crate::platform::memory`]'s; macOS's, Windows'
//! and musl's allocators keep their own settings.

pub mod limit;

use crate::platform::memory::{tune_malloc, MallocSetting};

/// Bytes the heap may keep free at its top before returning them to the system.
const TRIM_THRESHOLD: i32 = 256 << 20;
/// Extra bytes asked from the system each time the heap grows.
const TOP_PAD: i32 = 64 << 20;
/// Allocations from this size on get their own mapping (glibc's largest allowed value).
const MMAP_THRESHOLD: i32 = 32 << 20;

/// Applies the settings (once, before the process allocates much, before other threads
/// start). Elsewhere than glibc it does nothing.
pub fn tune() {
    tune_malloc(&[
        // No "fast bins": freed small blocks go to the per-thread cache or are merged at once,
        // so that no pass merges them all later.
        MallocSetting::NoFastBins,
        MallocSetting::TrimThreshold(TRIM_THRESHOLD),
        MallocSetting::TopPad(TOP_PAD),
        MallocSetting::MmapThreshold(MMAP_THRESHOLD),
    ]);
}

/// Gives the allocator's free memory back to the system: the language server after a run,
/// whose memory is otherwise kept at the heap's top for the next one ([`TRIM_THRESHOLD`])
/// and counted in its resident memory.
pub fn give_back() {
    limit::trim();
}

/// Settings for a process whose resident memory is limited to `bytes` (a linter worker): the
/// free memory kept at the heap's top is at most an eighth of it, so that memory a job freed
/// does not count against the next job's share; then [`limit::set`] holds it.
pub fn for_limit(bytes: u64) {
    let part = |div: u64, max: i32| i32::try_from(bytes / div).map_or(max, |b| b.min(max));
    // Called before the thread that runs the jobs starts.
    tune_malloc(&[
        MallocSetting::TrimThreshold(part(8, TRIM_THRESHOLD)),
        MallocSetting::TopPad(part(16, TOP_PAD)),
    ]);
    limit::set(usize::try_from(bytes).unwrap_or(usize::MAX));
}
