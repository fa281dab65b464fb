//! Memory shared by a process and a child it starts, mapped in both. Unix: a file of memory
//! only (Linux's `memfd_create`; elsewhere a temporary file removed at once), mapped with
//! `mmap`, handed to the child as its descriptor 3. Windows: a mapping of the paging file
//! (`CreateFileMappingW`), whose inheritable handle the child receives (every child started
//! while it exists inherits it; it is closed with the page), named by its number.

use std::process::Command;

/// A shared mapping of `len` bytes.
pub struct Shared {
    base: *mut u8,
    len: usize,
    #[cfg(unix)]
    file: std::fs::File,
    #[cfg(windows)]
    handle: std::os::windows::io::OwnedHandle,
}

// SAFETY: the mapping stays valid as long as the value lives; moving it to another thread
// moves the only handle to the mapping in this process.
unsafe impl Send for Shared {}

impl Shared {
    /// The start of the mapping (page-aligned), valid for `len` bytes while `self` lives.
    pub fn base(&self) -> *mut u8 {
        self.base
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no bytes (never: a mapping is made of at least one byte).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The descriptor a child finds the page at (Unix).
#[cfg(unix)]
const CHILD_FD: i32 = 3;

#[cfg(unix)]
impl Shared {
    /// New shared memory of `len` bytes, all zeros.
    pub fn create(len: usize) -> std::io::Result<Shared> {
        let file = memory_file()?;
        file.set_len(len as u64)?;
        Shared::map(file, len)
    }

    /// What the child is told to find the page with: its descriptor 3, which the spawn of
    /// `command` makes a copy of this page's.
    pub fn hand_over(&self, command: &mut Command) -> u64 {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let fd = self.file.as_raw_fd();
        // SAFETY: the closure runs in the child between fork and exec, and calls only dup2
        // and fcntl (async-signal-safe); it allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if fd == CHILD_FD {
                    // dup2 onto itself would keep close-on-exec: clear it.
                    if libc::fcntl(fd, libc::F_SETFD, 0) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                } else if libc::dup2(fd, CHILD_FD) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        CHILD_FD as u64
    }

    /// The page a parent handed over as `handed` ([`Shared::hand_over`]), `len` bytes long.
    /// Call it once: the process takes the descriptor for its own.
    pub fn open(handed: u64, len: usize) -> std::io::Result<Shared> {
        use std::os::fd::FromRawFd;
        let fd = i32::try_from(handed)
            .ok()
            .filter(|fd| *fd > 2)
            .ok_or_else(|| std::io::Error::other("not a descriptor"))?;
        // SAFETY: the descriptor was opened for this process by its parent (made the child's
        // by the parent's spawn) and nothing else in this process owns it.
        let file = unsafe { std::fs::File::from_raw_fd(fd) };
        if file.metadata()?.len() < len as u64 {
            return Err(std::io::Error::other("the shared page is too small"));
        }
        Shared::map(file, len)
    }

    /// Another mapping of the same memory, as a child has it (tests).
    pub fn map_again(&self) -> std::io::Result<Shared> {
        Shared::map(self.file.try_clone()?, self.len)
    }

    fn map(file: std::fs::File, len: usize) -> std::io::Result<Shared> {
        use rustix::mm::{mmap, MapFlags, ProtFlags};
        // SAFETY: a new shared mapping of the whole (large enough) file; the result is checked.
        let base = unsafe {
            mmap(
                std::ptr::null_mut(),
                len,
                ProtFlags::READ | ProtFlags::WRITE,
                MapFlags::SHARED,
                &file,
                0,
            )?
        };
        Ok(Shared {
            base: base.cast(),
            len,
            file,
        })
    }
}

#[cfg(unix)]
impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: unmaps the mapping made in `map`; nothing refers to it after `self`.
        unsafe {
            let _ = rustix::mm::munmap(self.base.cast(), self.len);
        }
    }
}

/// A new file of memory only, not in any directory.
#[cfg(target_os = "linux")]
fn memory_file() -> std::io::Result<std::fs::File> {
    use rustix::fs::{memfd_create, MemfdFlags};
    Ok(std::fs::File::from(memfd_create(
        c"yttlint-page",
        MemfdFlags::CLOEXEC,
    )?))
}

/// A new file of the temporary directory, removed at once (only the descriptor remains).
#[cfg(all(unix, not(target_os = "linux")))]
fn memory_file() -> std::io::Result<std::fs::File> {
    let name = format!(
        ".yttlint-page-{:032x}",
        u128::from_ne_bytes(super::random::bytes())
    );
    let path = std::env::temp_dir().join(name);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

#[cfg(windows)]
impl Shared {
    /// New shared memory of `len` bytes, all zeros, its handle inheritable.
    pub fn create(len: usize) -> std::io::Result<Shared> {
        use std::os::windows::io::FromRawHandle;
        use windows_sys::Win32::Foundation::INVALID_HANDLE_VALUE;
        use windows_sys::Win32::Security::SECURITY_ATTRIBUTES;
        use windows_sys::Win32::System::Memory::{CreateFileMappingW, PAGE_READWRITE};
        let inherit = SECURITY_ATTRIBUTES {
            nLength: std::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: std::ptr::null_mut(),
            bInheritHandle: 1,
        };
        let size = u32::try_from(len).map_err(std::io::Error::other)?;
        // SAFETY: a new mapping of the paging file; the attributes live for the call, the
        // result is checked and owned by the value returned.
        let handle = unsafe {
            let h = CreateFileMappingW(
                INVALID_HANDLE_VALUE,
                &raw const inherit,
                PAGE_READWRITE,
                0,
                size,
                std::ptr::null(),
            );
            if h.is_null() {
                return Err(std::io::Error::last_os_error());
            }
            std::os::windows::io::OwnedHandle::from_raw_handle(h)
        };
        Shared::map(handle, len)
    }

    /// What the child is told to find the page with: the number of the inherited handle.
    pub fn hand_over(&self, _command: &mut Command) -> u64 {
        use std::os::windows::io::AsRawHandle;
        self.handle.as_raw_handle() as usize as u64
    }

    /// The page a parent handed over as `handed` ([`Shared::hand_over`]), `len` bytes long.
    /// Call it once: the process takes the handle for its own.
    pub fn open(handed: u64, len: usize) -> std::io::Result<Shared> {
        use std::os::windows::io::FromRawHandle;
        let raw = usize::try_from(handed)
            .ok()
            .filter(|h| *h != 0)
            .ok_or_else(|| std::io::Error::other("not a handle"))?;
        // SAFETY: the handle was inherited from the parent, which named it; nothing else in
        // this process owns it.
        let handle = unsafe { std::os::windows::io::OwnedHandle::from_raw_handle(raw as _) };
        Shared::map(handle, len)
    }

    /// Another mapping of the same memory, as a child has it (tests).
    pub fn map_again(&self) -> std::io::Result<Shared> {
        Shared::map(self.handle.try_clone()?, self.len)
    }

    fn map(handle: std::os::windows::io::OwnedHandle, len: usize) -> std::io::Result<Shared> {
        use std::os::windows::io::AsRawHandle;
        use windows_sys::Win32::System::Memory::{MapViewOfFile, FILE_MAP_ALL_ACCESS};
        // SAFETY: a view of the whole mapping; the result is checked.
        let view = unsafe { MapViewOfFile(handle.as_raw_handle(), FILE_MAP_ALL_ACCESS, 0, 0, len) };
        if view.Value.is_null() {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Shared {
            base: view.Value.cast(),
            len,
            handle,
        })
    }
}

#[cfg(windows)]
impl Drop for Shared {
    fn drop(&mut self) {
        use windows_sys::Win32::System::Memory::{UnmapViewOfFile, MEMORY_MAPPED_VIEW_ADDRESS};
        // SAFETY: unmaps the view made in `map`; nothing refers to it after `self`.
        unsafe {
            UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS {
                Value: self.base.cast(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_mappings_see_the_same_bytes() {
        let page = Shared::create(8192).unwrap();
        let other = page.map_again().unwrap();
        // SAFETY: both mappings are 8192 bytes long and live for the test.
        unsafe {
            *other.base().add(100) = 7;
            assert_eq!(*page.base().add(100), 7);
            assert_eq!(*page.base().add(8191), 0);
        }
    }
}
