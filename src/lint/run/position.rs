//! Where a worker is: a small page of memory the worker process shares with its parent, in
//! which the worker keeps the running job's file (a repository path) and line up to date as
//! the evaluation moves ([`crate::eval::progress`]). A worker that is killed (out of memory,
//! out of time) or dies (an allocation that fails) cannot say where it was; its parent reads
//! the page once the worker has ended, and puts the job's finding there.
//!
//! A line is one store to the page; a file is written into the slot not in use, which is then
//! made current, so that a worker killed in the middle of writing leaves the previous file
//! whole. The parent reads the page only after the worker has ended.

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::platform::page::Shared;

/// The most bytes of a file's path the page keeps (a longer path is not kept).
const MAX_PATH: usize = 4000;

/// Where each part is in the page: the current slot's number, then two slots of (line,
/// length of the path, path).
const CURRENT: usize = 0;
const SLOT: usize = 64;
const SLOT_BYTES: usize = 8 + MAX_PATH;
const PAGE_BYTES: usize = 8192;
const _: () = assert!(SLOT + 2 * SLOT_BYTES <= PAGE_BYTES && SLOT_BYTES.is_multiple_of(4));

/// The shared page, mapped in this process.
pub struct Page {
    shared: Shared,
}

impl Page {
    /// A new page, all zeros (no file), to hand to a worker ([`Page::hand_over`]).
    pub fn create() -> std::io::Result<Page> {
        Ok(Page {
            shared: Shared::create(PAGE_BYTES)?,
        })
    }

    /// Makes the page the worker's that `command` starts; what the worker is told to open.
    pub fn hand_over(&self, command: &mut Command) -> u64 {
        self.shared.hand_over(command)
    }

    /// The page a parent handed over (a worker's side).
    pub fn open(handed: u64) -> std::io::Result<Page> {
        Ok(Page {
            shared: Shared::open(handed, PAGE_BYTES)?,
        })
    }

    /// The 4-byte word at `offset`.
    fn word(&self, offset: usize) -> &AtomicU32 {
        debug_assert!(offset.is_multiple_of(4) && offset + 4 <= PAGE_BYTES);
        // SAFETY: `offset` is inside the mapping and aligned (the mapping is page-aligned and
        // every offset used is a multiple of 4); the mapping lives as long as `self`, and the
        // word is only ever accessed atomically.
        unsafe { AtomicU32::from_ptr(self.shared.base().add(offset).cast()) }
    }

    fn slot(index: u32) -> usize {
        SLOT + (index as usize & 1) * SLOT_BYTES
    }

    /// The evaluation is in `path` (`None`: no file) at `line` (0: not known).
    pub fn set_file(&mut self, path: Option<&str>, line: u32) {
        let path = path.filter(|p| p.len() <= MAX_PATH).unwrap_or("");
        let next = self.word(CURRENT).load(Ordering::Relaxed) ^ 1;
        let slot = Page::slot(next);
        // SAFETY: the slot's path bytes are inside the mapping and `path` fits them; only this
        // process writes the page while it lives, and the slot is not the current one.
        unsafe {
            std::ptr::copy_nonoverlapping(
                path.as_ptr(),
                self.shared.base().add(slot + 8),
                path.len(),
            );
        }
        self.word(slot).store(line, Ordering::Relaxed);
        self.word(slot + 4)
            .store(path.len() as u32, Ordering::Relaxed);
        self.word(CURRENT).store(next, Ordering::Release);
    }

    /// The evaluation is at `line` of the file last set.
    pub fn set_line(&self, line: u32) {
        let slot = Page::slot(self.word(CURRENT).load(Ordering::Relaxed));
        self.word(slot).store(line, Ordering::Relaxed);
    }

    /// The file and line last set (the line 0 when not known), read once the worker ended.
    pub fn get(&self) -> Option<(String, u32)> {
        let slot = Page::slot(self.word(CURRENT).load(Ordering::Acquire));
        let line = self.word(slot).load(Ordering::Relaxed);
        let len = (self.word(slot + 4).load(Ordering::Relaxed) as usize).min(MAX_PATH);
        let mut bytes = vec![0u8; len];
        // SAFETY: the slot's path bytes are inside the mapping; the worker has ended, so
        // nothing writes them any more.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.shared.base().add(slot + 8),
                bytes.as_mut_ptr(),
                len,
            );
        }
        let path = String::from_utf8(bytes).ok()?;
        (!path.is_empty()).then_some((path, line))
    }

    /// Forgets the file and line (before a job).
    pub fn clear(&mut self) {
        self.set_file(None, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_and_its_line_are_read_back_through_another_mapping() {
        let mut page = Page::create().unwrap();
        assert_eq!(page.get(), None);
        // The worker's side: the same memory, mapped again.
        let mut other = Page {
            shared: page.shared.map_again().unwrap(),
        };
        other.set_file(Some("config/a.yml"), 0);
        other.set_line(12);
        assert_eq!(page.get(), Some(("config/a.yml".to_string(), 12)));
        other.set_file(Some("config/lib.star"), 3);
        assert_eq!(page.get(), Some(("config/lib.star".to_string(), 3)));
        other.set_file(Some(&"x".repeat(MAX_PATH + 1)), 1);
        assert_eq!(page.get(), None);
        other.set_file(Some("b.yml"), 4);
        page.clear();
        assert_eq!(other.get(), None);
    }
}
