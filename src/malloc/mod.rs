//! Settings of glibc's allocator for a process that builds and drops many small trees (YAML
//! nodes, Starlark syntax) job after job. With glibc's defaults, a fifth of a lint run's CPU
//! time is spent in `malloc` and `free`, an eighth of that merging freed small blocks
//! (`malloc_consolidate`) and giving memory back to the system only to ask for it again.
//! Measured on the corpus as one repository (perf, 2 workers): the allocator's share went from
//! 1.8 s to 1.3 s of CPU, with the same peak memory. A process with a memory limit
//! ([`limit`]) keeps less free memory back ([`for_limit`]).

pub mod limit;

/// Bytes the heap may keep free at its top before returning them to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: i32 = 256 << 20;
/// Extra bytes asked from the system each time the heap grows.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: i32 = 64 << 20;
/// Allocations from this size on get their own mapping (glibc's largest allowed value).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 32 << 20;

/// Applies the settings (once, before the process allocates much). Elsewhere than glibc it
/// does nothing.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's parameters; called before other threads
    // start. A value it refuses leaves the default (its result is not needed).
    unsafe {
        // No "fast bins": freed small blocks go to the per-thread cache or are merged at once,
        // so that no pass merges them all later.
        libc::mallopt(libc::M_MXFAST, 0);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
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
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let part = |div: u64, max: i32| i32::try_from(bytes / div).map_or(max, |b| b.min(max));
        // SAFETY: as in `tune`; called before the thread that runs the jobs starts.
        unsafe {
            libc::mallopt(libc::M_TRIM_THRESHOLD, part(8, TRIM_THRESHOLD));
            libc::mallopt(libc::M_TOP_PAD, part(16, TOP_PAD));
        }
    }
    limit::set(usize::try_from(bytes).unwrap_or(usize::MAX));
}
