//! Which runs the background linter starts, in what order, and which it cancels. A run lints
//! one unit: what one edited file selects (the roots and libraries that read it, linted
//! together as the command line would lint that file). Units wait in a queue; the one of the
//! file edited last goes first. An edit cancels the running units that read the edited file
//! (their text is stale: they publish nothing and are queued again), and no other: a slow root
//! (a long loop, up to the evaluation's time limit) does not hold back another root's
//! diagnostics. When every runner is busy and a unit of an edited file waits, the unit that
//! has run longest without reading an edited file is cancelled and queued again behind it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::eval::cancel::Flag;
use crate::lint::discover::select::Selection;

/// How long a unit may run before a unit of an edited file, waiting for a runner, takes its
/// place.
pub const PREEMPT_AFTER: Duration = Duration::from_millis(300);

/// What one run lints.
#[derive(Clone, Debug)]
pub struct Unit {
    pub selection: Selection,
    /// The files whose change queued it (published even when they have no findings).
    pub files: Vec<PathBuf>,
    /// Queued for an edit (else: queued again after a cancellation, or a reload).
    pub edited: bool,
}

impl Unit {
    /// The roots, libraries and plain files it lints, as one comparable key.
    pub fn key(&self) -> (Vec<usize>, Vec<usize>, Vec<String>) {
        let s = &self.selection;
        (s.roots.clone(), s.libraries.clone(), s.plain.clone())
    }

    /// Whether it lints nothing.
    pub fn is_empty(&self) -> bool {
        let s = &self.selection;
        s.roots.is_empty() && s.libraries.is_empty() && s.plain.is_empty()
    }

    /// Whether it lints something `other` lints too.
    pub fn overlaps(&self, other: &Selection) -> bool {
        let s = &self.selection;
        s.roots.iter().any(|r| other.roots.contains(r))
            || s.libraries.iter().any(|l| other.libraries.contains(l))
            || s.plain.iter().any(|p| other.plain.contains(p))
    }
}

/// A unit being linted.
pub struct Running {
    pub id: u64,
    pub unit: Unit,
    pub flag: Flag,
    pub started: Instant,
}

/// The queue and the runs going on.
#[derive(Default)]
pub struct Schedule {
    pub queue: VecDeque<Unit>,
    pub running: Vec<Running>,
    next_id: u64,
}

impl Schedule {
    /// Queues `unit` first (an edit) or last, merged with a queued unit of the same key.
    pub fn queue(&mut self, unit: Unit, first: bool) {
        let key = unit.key();
        let mut unit = unit;
        if let Some(i) = self.queue.iter().position(|u| u.key() == key) {
            if let Some(old) = self.queue.remove(i) {
                for f in old.files {
                    if !unit.files.contains(&f) {
                        unit.files.push(f);
                    }
                }
                unit.edited |= old.edited;
            }
        }
        if first {
            self.queue.push_front(unit);
        } else {
            self.queue.push_back(unit);
        }
    }

    /// Cancels the running units that lint something `changed` lints (they read an edited
    /// file) and queues them again, after the queued edits.
    pub fn cancel_overlapping(&mut self, changed: &Selection) {
        let (stale, kept): (Vec<Running>, Vec<Running>) = std::mem::take(&mut self.running)
            .into_iter()
            .partition(|r| r.unit.overlaps(changed));
        self.running = kept;
        for r in stale {
            r.flag.cancel();
            // Its run ends by itself (and is dropped, see `finished`); its files are linted
            // again with the newer text.
            self.queue(
                Unit {
                    edited: false,
                    ..r.unit
                },
                false,
            );
        }
    }

    /// Cancels everything and forgets the queue (the project was reloaded).
    pub fn cancel_all(&mut self) {
        for r in self.running.drain(..) {
            r.flag.cancel();
        }
        self.queue.clear();
    }

    /// Takes the next unit to run when fewer than `runners` run, with its flag.
    pub fn start_next(&mut self, runners: usize, flag: impl Fn() -> Flag) -> Option<Running> {
        if self.running.len() >= runners {
            return None;
        }
        let unit = self.queue.pop_front()?;
        self.next_id += 1;
        let run = Running {
            id: self.next_id,
            unit,
            flag: flag(),
            started: Instant::now(),
        };
        Some(run)
    }

    /// When a unit of an edited file waits and every runner is busy: cancels the unit that has
    /// run longest (longer than [`PREEMPT_AFTER`]) without being for an edit, and queues it
    /// again at the end.
    pub fn preempt(&mut self, runners: usize, now: Instant) {
        let waiting = self.queue.front().is_some_and(|u| u.edited);
        if !waiting || self.running.len() < runners {
            return;
        }
        let oldest = self
            .running
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.unit.edited && now.duration_since(r.started) > PREEMPT_AFTER)
            .min_by_key(|(_, r)| r.started)
            .map(|(i, _)| i);
        // Units of edits run as long as they need; among them, the oldest gives way too when
        // it has run far longer than a run takes.
        let oldest = oldest.or_else(|| {
            self.running
                .iter()
                .enumerate()
                .filter(|(_, r)| now.duration_since(r.started) > PREEMPT_AFTER * 10)
                .min_by_key(|(_, r)| r.started)
                .map(|(i, _)| i)
        });
        if let Some(i) = oldest {
            let r = self.running.remove(i);
            r.flag.cancel();
            self.queue(
                Unit {
                    edited: false,
                    ..r.unit
                },
                false,
            );
        }
    }

    /// The unit `id` ended: its entry, when it was still running (not cancelled meanwhile).
    pub fn finished(&mut self, id: u64) -> Option<Running> {
        let i = self.running.iter().position(|r| r.id == id)?;
        Some(self.running.remove(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(roots: &[usize], file: &str, edited: bool) -> Unit {
        Unit {
            selection: Selection {
                roots: roots.to_vec(),
                ..Selection::default()
            },
            files: vec![PathBuf::from(file)],
            edited,
        }
    }

    #[test]
    fn an_edit_goes_first_and_cancels_only_what_reads_it() {
        let mut s = Schedule::default();
        s.queue(unit(&[0], "a.yml", true), true);
        s.queue(unit(&[1], "b.yml", true), true);
        let first = s.start_next(2, Flag::new).unwrap();
        assert_eq!(first.unit.selection.roots, [1]);
        s.running.push(first);
        let second = s.start_next(2, Flag::new).unwrap();
        s.running.push(second);
        assert!(s.start_next(2, Flag::new).is_none());
        // An edit of root 0's file: its run is cancelled and queued again, root 1 runs on.
        let changed = unit(&[0], "a.yml", true);
        s.cancel_overlapping(&changed.selection);
        assert_eq!(s.running.len(), 1);
        assert_eq!(s.running[0].unit.selection.roots, [1]);
        s.queue(changed, true);
        // Merged with the cancelled one, first in the queue.
        assert_eq!(s.queue.len(), 1);
        assert!(s.queue[0].edited);
    }

    #[test]
    fn a_long_run_gives_way_to_an_edit() {
        let mut s = Schedule::default();
        s.queue(unit(&[0], "slow.yml", false), false);
        let slow = s.start_next(1, Flag::new).unwrap();
        let flag = slow.flag.clone();
        s.running.push(slow);
        s.queue(unit(&[1], "b.yml", true), true);
        s.preempt(1, Instant::now());
        assert!(!flag.is_cancelled(), "not before it ran a while");
        s.preempt(1, Instant::now() + PREEMPT_AFTER * 2);
        assert!(flag.is_cancelled());
        assert!(s.running.is_empty());
        assert_eq!(s.queue.len(), 2);
        assert_eq!(s.queue[0].selection.roots, [1]);
        assert_eq!(s.queue[1].selection.roots, [0]);
    }
}
