//! This process's memory: the allocator under [`crate::malloc::limit`]'s accounting
//! ([`Base`]: jemalloc on Linux with glibc, the system's allocator elsewhere), how much of the
//! memory is resident, read without allocating (it is called from inside the allocator:
//! Linux's `/proc/self/statm`, macOS's `proc_pidinfo`, Windows' `GetProcessMemoryInfo`), and
//! the allocators' settings where they can be changed (glibc's `mallopt` and `malloc_trim` for
//! what C code allocates, jemalloc's purge; macOS's and Windows' allocators and musl's keep
//! their own).

/// The allocator that serves Rust's allocations under the memory limit's accounting.
///
/// On Linux with glibc it is jemalloc: a lint run builds and drops many small trees (YAML
/// nodes, Starlark syntax, schemas) job after job, and glibc's allocator spent about a
/// quarter of the run's CPU time in `malloc`, `free` and `realloc` even tuned (perf on the
/// corpus as one repository, 2026-11-28); jemalloc's per-thread caches and size classes cut
/// the whole run's CPU time by about a sixth (README, "Speed"). Elsewhere it is the system's
/// allocator: jemalloc's C build is not cross-compiled for macOS and Windows here.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub type Base = tikv_jemallocator::Jemalloc;
/// The allocator that serves Rust's allocations under the memory limit's accounting.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub type Base = std::alloc::System;

/// The one value of [`Base`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub const BASE: Base = tikv_jemallocator::Jemalloc;
/// The one value of [`Base`].
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub const BASE: Base = std::alloc::System;

/// A setting of glibc's allocator.
#[derive(Clone, Copy, Debug)]
pub enum MallocSetting {
    /// No "fast bins": freed small blocks go to the per-thread cache or are merged at once.
    NoFastBins,
    /// Bytes the heap may keep free at its top before returning them to the system.
    TrimThreshold(i32),
    /// Extra bytes asked from the system each time the heap grows.
    TopPad(i32),
    /// Allocations from this size on get their own mapping.
    MmapThreshold(i32),
}

/// Whether [`tune_malloc`] changes anything here (glibc alone).
pub const MALLOC_TUNABLE: bool = cfg!(all(target_os = "linux", target_env = "gnu"));

/// Applies `settings` to glibc's allocator (call before other threads start); elsewhere
/// nothing is done. A value the allocator refuses leaves its default.
pub fn tune_malloc(settings: &[MallocSetting]) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    for setting in settings {
        let (param, value) = match *setting {
            MallocSetting::NoFastBins => (libc::M_MXFAST, 0),
            MallocSetting::TrimThreshold(v) => (libc::M_TRIM_THRESHOLD, v),
            MallocSetting::TopPad(v) => (libc::M_TOP_PAD, v),
            MallocSetting::MmapThreshold(v) => (libc::M_MMAP_THRESHOLD, v),
        };
        // SAFETY: mallopt only changes the allocator's parameters.
        unsafe {
            libc::mallopt(param, value);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = settings;
}

/// Gives the allocators' free memory back to the system (jemalloc's purge of every arena and
/// glibc's `malloc_trim`; elsewhere nothing). Never call it from inside the allocator's own
/// calls.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `arena.<MALLCTL_ARENAS_ALL>.purge` takes no value and returns none: it only
    // releases the free pages of every arena; malloc_trim only releases free memory of glibc's
    // allocator.
    unsafe {
        tikv_jemalloc_sys::mallctl(
            c"arena.4096.purge".as_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        );
        libc::malloc_trim(0);
    }
}

/// This process's resident memory in bytes, read without allocating; `None` where the
/// system does not tell.
pub fn resident() -> Option<usize> {
    resident_impl()
}

#[cfg(target_os = "linux")]
fn resident_impl() -> Option<usize> {
    use rustix::fs::{Mode, OFlags};
    let mut buf = [0u8; 128];
    let fd = rustix::fs::open(
        c"/proc/self/statm",
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    let read = rustix::io::read(&fd, &mut buf).ok()?;
    drop(fd);
    let text = buf.get(..read)?;
    // The second field: resident pages.
    let field = text.split(|b| *b == b' ').nth(1)?;
    let mut pages: usize = 0;
    for b in field {
        pages = pages
            .checked_mul(10)?
            .checked_add(usize::from(b.checked_sub(b'0').filter(|d| *d < 10)?))?;
    }
    pages.checked_mul(rustix::param::page_size())
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
fn resident_impl() -> Option<usize> {
    task_resident(i32::try_from(std::process::id()).ok()?).and_then(|b| usize::try_from(b).ok())
}

#[cfg(all(
    unix,
    not(any(target_os = "linux", target_os = "macos", target_os = "ios"))
))]
fn resident_impl() -> Option<usize> {
    None
}

#[cfg(windows)]
fn resident_impl() -> Option<usize> {
    // SAFETY: the pseudo-handle of the current process needs no closing.
    working_set(unsafe { windows_sys::Win32::System::Threading::GetCurrentProcess() })
}

/// The resident memory of the process `pid` (macOS: `proc_pidinfo`'s task information).
#[cfg(any(target_os = "macos", target_os = "ios"))]
pub(super) fn task_resident(pid: i32) -> Option<u64> {
    // SAFETY: a zeroed plain C structure is a valid value.
    let mut info: libc::proc_taskinfo = unsafe { std::mem::zeroed() };
    let size = i32::try_from(std::mem::size_of::<libc::proc_taskinfo>()).ok()?;
    // SAFETY: the call writes at most `size` bytes into `info`, a structure of this frame.
    let got =
        unsafe { libc::proc_pidinfo(pid, libc::PROC_PIDTASKINFO, 0, (&raw mut info).cast(), size) };
    (got == size).then_some(info.pti_resident_size)
}

/// The working set (resident memory) of the process behind `handle` (Windows).
#[cfg(windows)]
pub(super) fn working_set(handle: std::os::windows::raw::HANDLE) -> Option<usize> {
    use windows_sys::Win32::System::ProcessStatus::{
        K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS,
    };
    // SAFETY: a zeroed plain C structure is a valid value.
    let mut counters: PROCESS_MEMORY_COUNTERS = unsafe { std::mem::zeroed() };
    let size = u32::try_from(std::mem::size_of::<PROCESS_MEMORY_COUNTERS>()).ok()?;
    counters.cb = size;
    // SAFETY: the call writes at most `size` bytes into `counters`; the handle is open.
    let ok = unsafe { K32GetProcessMemoryInfo(handle.cast(), &raw mut counters, size) };
    (ok != 0).then_some(counters.WorkingSetSize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resident_memory_is_read_where_the_system_tells() {
        let r = resident();
        if cfg!(any(target_os = "linux", target_os = "macos", windows)) {
            // A test process holds some memory, and less than a terabyte.
            assert!(r.is_some_and(|r| r > 1 << 20 && r < 1 << 40), "{r:?}");
        }
    }
}
