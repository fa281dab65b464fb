//! Every call that differs between operating systems, and nothing else: the rest of the crate
//! calls these functions and never names `std::os::unix`, `std::os::fd`, `std::os::windows` or
//! `libc` itself (`tests/it/layers.rs` checks it). Unix covers Linux and macOS (with a few
//! Linux-only refinements: `/proc`, `memfd_create`, glibc's allocator settings); Windows is its
//! own. The lowest layer: it names no other module of the crate.
//!
//! - [`fs`]: what a file is (special files, links and Windows reparse points), opening a file
//!   without blocking or without following a link, where an open file really is, the stamp of
//!   a file the run cache compares, private directories and keys.
//! - [`dir`]: a directory held open, in which a file is created and renamed by name
//!   (`openat`/`renameat` on Unix): the writes of reports and fixes.
//! - [`random`]: random bytes from the operating system.
//! - [`process`]: worker processes: how one ended, its resident memory, the limit it sets on
//!   its own memory, its protocol channel.
//! - [`page`]: a page of memory a worker shares with its parent.
//! - [`memory`]: this process's resident memory and the allocator's settings.

pub mod dir;
pub mod fs;
pub mod memory;
pub mod page;
pub mod process;
pub mod random;
