//! A one-line progress display on standard error while jobs run (`[3/12] config (prod)`),
//! shown only when standard error is a terminal, erased when the run ends.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Counts finished jobs and redraws the line.
pub struct Progress {
    total: usize,
    done: AtomicUsize,
    line: Option<Mutex<std::io::Stderr>>,
}

impl Progress {
    /// A display for `total` jobs; silent unless `wanted` and standard error is a terminal.
    pub fn new(total: usize, wanted: bool) -> Progress {
        let err = std::io::stderr();
        let line = (wanted && err.is_terminal()).then(|| Mutex::new(err));
        Progress {
            total,
            done: AtomicUsize::new(0),
            line,
        }
    }

    /// Records one finished job, named `what`.
    pub fn finished(&self, what: &str) {
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(Ok(mut err)) = self.line.as_ref().map(Mutex::lock) {
            let _ = write!(err, "\r\x1b[2K[{n}/{}] {what}", self.total);
            let _ = err.flush();
        }
    }

    /// Erases the line.
    pub fn clear(&self) {
        if let Some(Ok(mut err)) = self.line.as_ref().map(Mutex::lock) {
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }

    /// How many jobs have finished.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_without_a_terminal() {
        let p = Progress::new(2, false);
        p.finished("a");
        p.finished("b");
        p.clear();
        assert_eq!(p.done(), 2);
    }
}
