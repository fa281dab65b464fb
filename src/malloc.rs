//! Settings of glibc's allocator for a process that builds and drops many small trees (YAML
//! nodes, Starlark syntax) job after job. With glibc's defaults, a fifth of a lint run's CPU
//! time is spent in `malloc` and `free`, an eighth of that merging freed small blocks
//! (`malloc_consolidate`) and giving memory back to the system only to ask for it again.
//! Measured on the corpus as one repository (perf, 2 workers): the allocator's share went from
//! 1.8 s to 1.3 s of CPU, with the same peak memory.

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
