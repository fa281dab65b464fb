//! A cache of what was derived from a file's text (its parse, its compiled template), kept by
//! the thread that runs jobs one after another so that the next job reading the same file
//! finds it done. An entry is found by the text, the file's name (positions carry it) and a
//! variant (the options the derivation depends on), compared in full; the cache holds at most
//! a budget of text bytes and drops the least recently used entry first.
//!
//! A text can also be released ([`release`]): the language server releases a buffer's text
//! when the buffer changes or closes, and every cache of every thread then drops what it
//! derived from that text (found by a digest of it) the next time it is used, instead of
//! keeping one entry per version typed until the budget evicts it. What a derivation made
//! from another text's derivation (the Starlark code compiled from a template) is released
//! with that text too ([`derived_from`]).

use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Values derived from texts, bounded by the bytes of those texts.
pub struct ByteLru<V> {
    entries: HashMap<u64, Vec<Entry<V>>>,
    bytes: usize,
    clock: u64,
    budget: usize,
    /// The last release this cache has applied.
    seen: u64,
}

struct Entry<V> {
    text: Arc<str>,
    file: Arc<str>,
    variant: u64,
    value: V,
    /// When it was last put or found (a counter of this cache's uses).
    used: u64,
    /// The digest of its text, and of the text it was derived from (0: none).
    digests: [u64; 2],
}

/// Texts released lately, by the number of their release.
struct Released {
    recent: VecDeque<(u64, u64)>,
}

/// How many releases are remembered: a cache that has not looked for longer drops everything.
const REMEMBERED: usize = 4096;

/// The number of the last release.
static EPOCH: AtomicU64 = AtomicU64::new(0);

fn released() -> &'static Mutex<Released> {
    static RELEASED: Mutex<Released> = Mutex::new(Released {
        recent: VecDeque::new(),
    });
    &RELEASED
}

thread_local! {
    /// The digest of the text whose derivation this thread is making (0: none).
    static ORIGIN: Cell<u64> = const { Cell::new(0) };
}

/// A digest of `text` (not a cryptographic one: a collision only drops an entry too many).
pub fn digest(text: &str) -> u64 {
    hash(text, "", u64::MAX)
}

/// Tells every cache that `text` is no longer wanted: what was derived from it is dropped.
pub fn release(text: &str) {
    let d = digest(text);
    let mut r = released().lock().unwrap_or_else(|e| e.into_inner());
    let epoch = EPOCH.load(Ordering::SeqCst) + 1;
    r.recent.push_back((epoch, d));
    while r.recent.len() > REMEMBERED {
        r.recent.pop_front();
    }
    EPOCH.store(epoch, Ordering::SeqCst);
}

/// Tells every cache that `text` is wanted again (a buffer came back to a text it had): what
/// is derived from it may be kept again.
pub fn wanted(text: &str) {
    let d = digest(text);
    let mut r = released().lock().unwrap_or_else(|e| e.into_inner());
    r.recent.retain(|(_, x)| *x != d);
}

/// Whether one of `digests` was released and not wanted again since.
fn is_released(digests: &[u64; 2]) -> bool {
    if EPOCH.load(Ordering::SeqCst) == 0 {
        return false;
    }
    let r = released().lock().unwrap_or_else(|e| e.into_inner());
    r.recent
        .iter()
        .any(|(_, d)| digests.iter().any(|x| *x != 0 && x == d))
}

/// Runs `body`, which derives something from `text`: what the caches keep meanwhile is
/// released with `text`.
pub fn derived_from<R>(text: &str, body: impl FnOnce() -> R) -> R {
    let old = ORIGIN.with(|o| o.replace(digest(text)));
    let _restore = RestoreOrigin(old);
    body()
}

struct RestoreOrigin(u64);

impl Drop for RestoreOrigin {
    fn drop(&mut self) {
        ORIGIN.with(|o| o.set(self.0));
    }
}

impl<V: Clone> ByteLru<V> {
    /// A cache holding values for at most `budget` bytes of text. A text over half the budget
    /// is never kept.
    pub fn new(budget: usize) -> ByteLru<V> {
        ByteLru {
            entries: HashMap::new(),
            bytes: 0,
            clock: 0,
            budget,
            seen: EPOCH.load(Ordering::SeqCst),
        }
    }

    /// The value kept for `text` under `file` and `variant`.
    pub fn get(&mut self, text: &str, file: &str, variant: u64) -> Option<V> {
        self.sweep();
        self.clock += 1;
        let clock = self.clock;
        let entry = self
            .entries
            .get_mut(&hash(text, file, variant))?
            .iter_mut()
            .find(|e| e.matches(text, file, variant))?;
        entry.used = clock;
        Some(entry.value.clone())
    }

    /// Whether a value for `text` would be kept (a text over half the budget never is).
    pub fn keeps(&self, text: &str) -> bool {
        text.len() <= self.budget / 2
    }

    /// Keeps `value` for `text` under `file` and `variant` (replacing what was kept there).
    pub fn put(&mut self, text: &Arc<str>, file: &Arc<str>, variant: u64, value: V) {
        if !self.keeps(text) {
            return;
        }
        self.sweep();
        self.clock += 1;
        let key = hash(text, file, variant);
        if let Some(e) = self
            .entries
            .get_mut(&key)
            .and_then(|list| list.iter_mut().find(|e| e.matches(text, file, variant)))
        {
            e.value = value;
            e.used = self.clock;
            return;
        }
        let digests = [digest(text), ORIGIN.with(Cell::get)];
        if is_released(&digests) {
            // A job that read the text before its release (it is being cancelled).
            return;
        }
        let list = self.entries.entry(key).or_default();
        list.push(Entry {
            text: text.clone(),
            file: file.clone(),
            variant,
            value,
            used: self.clock,
            digests,
        });
        self.bytes += text.len();
        while self.bytes > self.budget && self.evict_oldest() {}
    }

    /// Applies the releases made since this cache last looked.
    fn sweep(&mut self) {
        let epoch = EPOCH.load(Ordering::SeqCst);
        if epoch == self.seen {
            return;
        }
        let gone: Option<Vec<u64>> = {
            let r = released().lock().unwrap_or_else(|e| e.into_inner());
            let missed = r
                .recent
                .front()
                .is_some_and(|(first, _)| *first > self.seen + 1);
            (!missed).then(|| {
                r.recent
                    .iter()
                    .filter(|(n, _)| *n > self.seen)
                    .map(|(_, d)| *d)
                    .collect()
            })
        };
        self.seen = epoch;
        let Some(gone) = gone else {
            // Releases were forgotten before this cache saw them: drop everything.
            self.entries.clear();
            self.bytes = 0;
            return;
        };
        if gone.is_empty() || self.entries.is_empty() {
            return;
        }
        let mut freed = 0;
        self.entries.retain(|_, list| {
            list.retain(|e| {
                let drop = e.digests.iter().any(|d| *d != 0 && gone.contains(d));
                if drop {
                    freed += e.text.len();
                }
                !drop
            });
            !list.is_empty()
        });
        self.bytes -= freed;
    }

    /// Drops the least recently used entry; false when there is none.
    fn evict_oldest(&mut self) -> bool {
        let oldest = self
            .entries
            .iter()
            .flat_map(|(k, list)| list.iter().enumerate().map(move |(i, e)| (e.used, *k, i)))
            .min_by_key(|(used, _, _)| *used);
        let Some((_, key, i)) = oldest else {
            return false;
        };
        if let Some(list) = self.entries.get_mut(&key) {
            let gone = list.swap_remove(i);
            self.bytes -= gone.text.len();
            if list.is_empty() {
                self.entries.remove(&key);
            }
        }
        true
    }
}

impl<V> Entry<V> {
    fn matches(&self, text: &str, file: &str, variant: u64) -> bool {
        self.variant == variant
            && *self.file == *file
            && (std::ptr::eq(self.text.as_ptr(), text.as_ptr()) && self.text.len() == text.len()
                || *self.text == *text)
    }
}

/// Where an entry is looked for. Entries are compared in full, so the hash only needs to be
/// fast (it reads every text on every lookup) and to spread; a crafted collision costs a
/// comparison, never a wrong entry.
fn hash(text: &str, file: &str, variant: u64) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = variant.wrapping_add(1).wrapping_mul(K);
    for part in [file.as_bytes(), text.as_bytes()] {
        let mut words = part.chunks_exact(8);
        for w in words.by_ref() {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
        for &b in words.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        h = (h.rotate_left(5) ^ part.len() as u64).wrapping_mul(K);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Arc<str> {
        Arc::from(text)
    }

    #[test]
    fn a_value_is_found_by_text_name_and_variant() {
        let mut cache = ByteLru::new(100);
        cache.put(&s("a: 1"), &s("f.yml"), 0, 1);
        assert_eq!(cache.get("a: 1", "f.yml", 0), Some(1));
        assert_eq!(cache.get("a: 1", "g.yml", 0), None);
        assert_eq!(cache.get("a: 1", "f.yml", 1), None);
        assert_eq!(cache.get("a: 2", "f.yml", 0), None);
        cache.put(&s("a: 1"), &s("f.yml"), 0, 2);
        assert_eq!(cache.get("a: 1", "f.yml", 0), Some(2));
        assert_eq!(cache.bytes, 4);
    }

    #[test]
    fn the_budget_drops_the_least_recently_used() {
        let mut cache = ByteLru::new(12);
        let f = s("f");
        cache.put(&s("aaaaa"), &f, 0, 'a');
        cache.put(&s("bbbbb"), &f, 0, 'b');
        // Using the first makes the second the oldest.
        assert_eq!(cache.get("aaaaa", "f", 0), Some('a'));
        cache.put(&s("ccccc"), &f, 0, 'c');
        assert_eq!(cache.bytes, 10);
        assert_eq!(cache.get("bbbbb", "f", 0), None);
        assert_eq!(cache.get("aaaaa", "f", 0), Some('a'));
        assert_eq!(cache.get("ccccc", "f", 0), Some('c'));
        // A text over half the budget is not kept.
        cache.put(&s("ddddddd"), &f, 0, 'd');
        assert_eq!(cache.get("ddddddd", "f", 0), None);
    }

    #[test]
    fn a_released_text_is_dropped_with_what_was_derived_from_it() {
        let mut cache = ByteLru::new(1 << 20);
        let mut derived = ByteLru::new(1 << 20);
        let f = s("f");
        let (old, kept) = (s("a: released-in-this-test"), s("b: 2"));
        cache.put(&old, &f, 0, 1);
        cache.put(&kept, &f, 0, 2);
        derived_from(&old, || derived.put(&s("code of a"), &f, 0, 3));
        derived.put(&s("other code"), &f, 0, 4);
        release(&old);
        assert_eq!(cache.get(&old, "f", 0), None);
        assert_eq!(cache.get(&kept, "f", 0), Some(2));
        assert_eq!(cache.bytes, kept.len());
        assert_eq!(derived.get("code of a", "f", 0), None);
        assert_eq!(derived.get("other code", "f", 0), Some(4));
        // A released text is not kept again until it is wanted.
        cache.put(&old, &f, 0, 5);
        assert_eq!(cache.get(&old, "f", 0), None);
        wanted(&old);
        cache.put(&old, &f, 0, 6);
        assert_eq!(cache.get(&old, "f", 0), Some(6));
    }
}
