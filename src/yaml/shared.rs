//! Parsed YAML shared by the jobs one thread runs one after another.
//!
//! The same file is parsed by every job that reads it: each scenario of a root, the standalone
//! check of each private library, and every root that keeps a copy of the same library at the
//! same place. The corpus repository parses about three times the bytes it holds. A parse depends
//! only on the text, the file's name (every position carries it) and the options, and the parsed
//! documents are never changed after parsing, so a parse is kept per thread, under those three,
//! and handed out again.
//!
//! The cache is bounded by the bytes of text it holds; the least recently used parse goes
//! first. A file larger than half the bound is not kept. Errors are not kept (a job
//! that meets one reports it, and errors are rare).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::node::DocSet;
use super::parse::{parse, ParseError, ParseOpts};

/// Bytes of YAML text whose parses one thread keeps.
const BUDGET: usize = 4 << 20;

/// [`parse`] of `src`, taken from this thread's cache when the same text was parsed under the
/// same name and options.
pub fn parse_shared(
    src: &Arc<str>,
    file: &Arc<str>,
    opts: &ParseOpts,
) -> Result<Arc<DocSet>, ParseError> {
    let key = Key::new(src, file, opts);
    if let Some(parsed) = CACHE.with(|c| c.borrow_mut().get(&key, src, file, opts)) {
        return Ok(parsed);
    }
    let parsed = Arc::new(parse(src, file, opts)?);
    CACHE.with(|c| {
        c.borrow_mut()
            .put(key, src, file, opts, parsed.clone(), BUDGET)
    });
    Ok(parsed)
}

/// Hash of what a parse depends on (entries are compared in full on a hit).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key(u64);

impl Key {
    fn new(src: &str, file: &str, opts: &ParseOpts) -> Key {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        src.hash(&mut h);
        file.hash(&mut h);
        opts.strict.hash(&mut h);
        Key(h.finish())
    }
}

struct Entry {
    src: Arc<str>,
    file: Arc<str>,
    strict: bool,
    parsed: Arc<DocSet>,
    /// When it was last handed out (a counter of this cache's lookups).
    used: u64,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<Key, Vec<Entry>>,
    bytes: usize,
    clock: u64,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

impl Cache {
    fn get(&mut self, key: &Key, src: &str, file: &str, opts: &ParseOpts) -> Option<Arc<DocSet>> {
        self.clock += 1;
        let clock = self.clock;
        let entry = self.entries.get_mut(key)?.iter_mut().find(|e| {
            e.strict == opts.strict
                && *e.file == *file
                && (e.src.as_ptr() == src.as_ptr() || *e.src == *src)
        })?;
        entry.used = clock;
        Some(entry.parsed.clone())
    }

    fn put(
        &mut self,
        key: Key,
        src: &Arc<str>,
        file: &Arc<str>,
        opts: &ParseOpts,
        parsed: Arc<DocSet>,
        budget: usize,
    ) {
        if src.len() > budget / 2 {
            return;
        }
        while self.bytes + src.len() > budget && self.evict_oldest() {}
        self.clock += 1;
        self.bytes += src.len();
        self.entries.entry(key).or_default().push(Entry {
            src: src.clone(),
            file: file.clone(),
            strict: opts.strict,
            parsed,
            used: self.clock,
        });
    }

    /// Drops the least recently used parse; false when there is none.
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
            self.bytes -= gone.src.len();
            if list.is_empty() {
                self.entries.remove(&key);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Arc<str> {
        Arc::from(s)
    }

    #[test]
    fn the_same_text_and_name_share_one_parse() {
        let opts = ParseOpts::default();
        let a = parse_shared(&name("a: 1\n"), &name("x.yml"), &opts).unwrap();
        let b = parse_shared(&name("a: 1\n"), &name("x.yml"), &opts).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn another_name_or_option_or_text_is_parsed_again() {
        let opts = ParseOpts::default();
        let strict = ParseOpts { strict: true };
        let a = parse_shared(&name("b: 1\n"), &name("y.yml"), &opts).unwrap();
        let other_name = parse_shared(&name("b: 1\n"), &name("z.yml"), &opts).unwrap();
        let other_opts = parse_shared(&name("b: 1\n"), &name("y.yml"), &strict).unwrap();
        let other_text = parse_shared(&name("b: 2\n"), &name("y.yml"), &opts).unwrap();
        assert!(!Arc::ptr_eq(&a, &other_name));
        assert_eq!(other_name.items[0].pos.file.as_deref(), Some("z.yml"));
        assert!(!Arc::ptr_eq(&a, &other_opts));
        assert!(!Arc::ptr_eq(&a, &other_text));
    }

    #[test]
    fn the_budget_drops_the_least_recently_used() {
        let mut cache = Cache::default();
        let opts = ParseOpts::default();
        let file = name("f.yml");
        let texts: Vec<Arc<str>> = ["a: 1\n", "b: 2\n", "c: 3\n"].map(name).to_vec();
        let put = |cache: &mut Cache, src: &Arc<str>| {
            let parsed = Arc::new(parse(src, &file, &opts).unwrap());
            cache.put(Key::new(src, &file, &opts), src, &file, &opts, parsed, 12);
        };
        put(&mut cache, &texts[0]);
        put(&mut cache, &texts[1]);
        // Using the first makes the second the oldest.
        assert!(cache
            .get(&Key::new(&texts[0], &file, &opts), &texts[0], &file, &opts)
            .is_some());
        // 5 + 5 + 5 bytes do not fit in 12: the second goes.
        put(&mut cache, &texts[2]);
        assert_eq!(cache.bytes, 10);
        let has = |cache: &mut Cache, src: &Arc<str>| {
            cache
                .get(&Key::new(src, &file, &opts), src, &file, &opts)
                .is_some()
        };
        assert!(has(&mut cache, &texts[0]));
        assert!(!has(&mut cache, &texts[1]));
        assert!(has(&mut cache, &texts[2]));
        // A file over half the budget is not kept.
        let big: Arc<str> = name("d: 123456789\n");
        put(&mut cache, &big);
        assert!(!has(&mut cache, &big));
    }
}
