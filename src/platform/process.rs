//! Worker processes on each system: how one ended (a signal on Unix, an exception code on
//! Windows), its resident memory as its parent sees it (Linux's `/proc/PID/statm`, macOS's
//! `proc_pidinfo`, Windows' `GetProcessMemoryInfo`), the hard limit a worker sets on its own
//! memory (`RLIMIT_DATA` on Unix, enforced by Linux and not by macOS; on Windows a job object
//! limiting the process's committed memory), and the worker's protocol channel (standard
//! output kept for the protocol alone, the process's own standard output pointed at standard
//! error).

use std::fs::File;
use std::process::{Child, ExitStatus};

/// How a process ended, in words: `exit status 2`, `killed by signal 9 (SIGKILL)`, on Windows
/// `exception 0xC00000FD (a stack overflow)`.
pub fn describe_exit(status: &ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig} ({})", signal_name(sig));
        }
    }
    match status.code() {
        #[cfg(windows)]
        Some(code) if (code as u32) >= 0xC000_0000 => {
            let code = code as u32;
            format!("exception {code:#010X} ({})", exception_name(code))
        }
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

#[cfg(unix)]
fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// The NTSTATUS codes a crashing worker ends with.
#[cfg(windows)]
fn exception_name(code: u32) -> &'static str {
    match code {
        0xC000_0005 => "an access violation",
        0xC000_0017 | 0xC000_012D => "out of memory",
        0xC000_001D => "an illegal instruction",
        0xC000_00FD => "a stack overflow",
        0xC000_0409 => "an abort",
        _ => "an exception",
    }
}

/// The resident memory of the running `child` in bytes, `None` where the system does not
/// tell.
pub fn resident_of(child: &Child) -> Option<u64> {
    resident_impl(child)
}

#[cfg(target_os = "linux")]
fn resident_impl(child: &Child) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{}/statm", child.id())).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    pages.checked_mul(u64::try_from(rustix::param::page_size()).ok()?)
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
fn resident_impl(child: &Child) -> Option<u64> {
    super::memory::task_resident(i32::try_from(child.id()).ok()?)
}

#[cfg(all(
    unix,
    not(any(target_os = "linux", target_os = "macos", target_os = "ios"))
))]
fn resident_impl(_child: &Child) -> Option<u64> {
    None
}

#[cfg(windows)]
fn resident_impl(child: &Child) -> Option<u64> {
    use std::os::windows::io::AsRawHandle;
    super::memory::working_set(child.as_raw_handle()).and_then(|b| u64::try_from(b).ok())
}

/// Limits this process's memory to `bytes`, reserved or committed: an allocation beyond it
/// fails. Unix: `RLIMIT_DATA` (heap, anonymous mappings, thread stacks; Linux enforces it,
/// macOS does not). Windows: the process puts itself in a job object whose process memory
/// limit (committed memory) is `bytes`.
pub fn limit_own_memory(bytes: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::process::{setrlimit, Resource, Rlimit};
        let limit = Rlimit {
            current: Some(bytes),
            maximum: Some(bytes),
        };
        Ok(setrlimit(Resource::Data, limit)?)
    }
    #[cfg(windows)]
    {
        windows_job_limit(bytes)
    }
}

#[cfg(windows)]
fn windows_job_limit(bytes: u64) -> std::io::Result<()> {
    use windows_sys::Win32::System::JobObjects as j;
    use windows_sys::Win32::System::Threading::GetCurrentProcess;
    // SAFETY: the calls get a new job handle (checked), a structure of this frame that they
    // only read, and the current process's pseudo-handle. The job handle stays open for the
    // life of the process, which the job must outlive.
    unsafe {
        let job = j::CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if job.is_null() {
            return Err(std::io::Error::last_os_error());
        }
        let mut info: j::JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        info.BasicLimitInformation.LimitFlags = j::JOB_OBJECT_LIMIT_PROCESS_MEMORY;
        info.ProcessMemoryLimit = usize::try_from(bytes).unwrap_or(usize::MAX);
        let set = j::SetInformationJobObject(
            job,
            j::JobObjectExtendedLimitInformation,
            (&raw const info).cast(),
            std::mem::size_of::<j::JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        );
        if set == 0 || j::AssignProcessToJobObject(job, GetCurrentProcess()) == 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Makes standard output the protocol's channel alone: returns a new handle to what standard
/// output was, and points the process's standard output at standard error, so that nothing
/// else written to it can corrupt a message.
pub fn take_stdout() -> std::io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let out = std::io::stdout().as_fd().try_clone_to_owned()?;
        rustix::stdio::dup2_stdout(std::io::stderr())?;
        Ok(File::from(out))
    }
    #[cfg(windows)]
    {
        use std::os::windows::io::{AsHandle, AsRawHandle};
        use windows_sys::Win32::System::Console::{SetStdHandle, STD_OUTPUT_HANDLE};
        let out = std::io::stdout().as_handle().try_clone_to_owned()?;
        // SAFETY: sets the process's standard output handle to its standard error's, which
        // stays open; the standard library reads the handle at each write.
        if unsafe { SetStdHandle(STD_OUTPUT_HANDLE, std::io::stderr().as_raw_handle()) } == 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(File::from(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child to look at: this test binary running [`sleeper`] alone.
    fn sleeping_child() -> Child {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--ignored", "--exact", "platform::process::tests::sleeper"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap()
    }

    #[test]
    #[ignore = "the child process of the test below"]
    fn sleeper() {
        std::thread::sleep(std::time::Duration::from_secs(20));
    }

    #[test]
    fn a_running_child_has_resident_memory_and_an_ending() {
        let mut child = sleeping_child();
        std::thread::sleep(std::time::Duration::from_millis(200));
        let resident = resident_of(&child);
        if cfg!(any(target_os = "linux", target_os = "macos", windows)) {
            assert!(resident.is_some_and(|r| r > 1 << 16), "{resident:?}");
        }
        child.kill().unwrap();
        let ended = describe_exit(&child.wait().unwrap());
        let want = if cfg!(unix) {
            "killed by signal 9 (SIGKILL)"
        } else {
            "exit status 1"
        };
        assert_eq!(ended, want);
    }
}
