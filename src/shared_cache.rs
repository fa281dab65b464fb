//! A cache of what was derived from a file's text (its parse, its compiled template), kept by
//! the thread that runs jobs one after another so that the next job reading the same file
//! finds it done. An entry is found by the text, the file's name (positions carry it) and a
//! variant (the options the derivation depends on), compared in full; the cache holds at most
//! a budget of text bytes and drops the least recently used entry first.

use std::collections::HashMap;
use std::sync::Arc;

/// Values derived from texts, bounded by the bytes of those texts.
pub struct ByteLru<V> {
    entries: HashMap<u64, Vec<Entry<V>>>,
    bytes: usize,
    clock: u64,
    budget: usize,
}

struct Entry<V> {
    text: Arc<str>,
    file: Arc<str>,
    variant: u64,
    value: V,
    /// When it was last put or found (a counter of this cache's uses).
    used: u64,
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
        }
    }

    /// The value kept for `text` under `file` and `variant`.
    pub fn get(&mut self, text: &str, file: &str, variant: u64) -> Option<V> {
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
        self.clock += 1;
        let list = self.entries.entry(hash(text, file, variant)).or_default();
        if let Some(e) = list.iter_mut().find(|e| e.matches(text, file, variant)) {
            e.value = value;
            e.used = self.clock;
            return;
        }
        list.push(Entry {
            text: text.clone(),
            file: file.clone(),
            variant,
            value,
            used: self.clock,
        });
        self.bytes += text.len();
        while self.bytes > self.budget && self.evict_oldest() {}
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
}
