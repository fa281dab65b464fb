//! Parsed YAML shared by the jobs one thread runs one after another.
//!
//! The same file is parsed by every job that reads it: each scenario of a root, the standalone
//! check of each private library, and every root that keeps a copy of the same library at the
//! same place. The corpus repository parses about three times the bytes it holds. A parse depends
//! only on the text, the file's name (every position carries it) and the options, and the parsed
//! documents are never changed after parsing, so a parse is kept per thread, under those three,
//! and handed out again.
//!
//! The cache is bounded by the bytes of text it holds (see [`crate::shared_cache`]). Errors
//! are not kept (a job that meets one reports it, and errors are rare).
//!
//! The same text under another name (a library or an upstream manifest vendored at several
//! paths: a fifth of the bytes a worker parsed on the corpus repository) is not parsed again
//! either while a parse of it is kept: that parse is copied with the other name in its
//! positions ([`super::renamed`]). An index by text points at the kept parses without holding
//! them, so it adds no memory of parsed YAML.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use super::node::DocSet;
use super::parse::{parse, ParseError, ParseOpts};
use super::renamed::renamed;
use crate::shared_cache::ByteLru;

/// Bytes of YAML text whose parses one thread keeps, at most.
const MOST: usize = 6 << 20;

/// The budget of the threads started from now on (see [`limit_to_heap`]).
static BUDGET: AtomicUsize = AtomicUsize::new(MOST);

thread_local! {
    static CACHE: RefCell<ByteLru<Arc<DocSet>>> =
        RefCell::new(ByteLru::new(BUDGET.load(Ordering::Relaxed)));
    /// The kept parses by the digest of their text and the variant: the text, the name it was
    /// parsed under and the parse, none of them held (the cache holds them).
    static BY_TEXT: RefCell<HashMap<(u64, u64), Vec<Seen>>> = RefCell::new(HashMap::new());
}

/// A parse the cache keeps (while it does).
struct Seen {
    text: Weak<str>,
    file: Weak<str>,
    parsed: Weak<DocSet>,
}

/// How many texts the index lists, at least, before the ones whose parse is gone are dropped.
/// A listed text that the cache let go still holds its allocation (a weak reference keeps the
/// memory of what it points at until it is dropped), so the index is swept whenever it has
/// doubled since the last sweep: what is swept away stays below the live parses plus this.
const LISTED: usize = 64;

thread_local! {
    /// The index's size that starts the next sweep.
    static SWEEP_AT: std::cell::Cell<usize> = const { std::cell::Cell::new(LISTED) };
}

/// A kept parse of the same `src` under another name, with `file` in its positions.
fn under_another_name(
    src: &Arc<str>,
    digest: u64,
    file: &Arc<str>,
    variant: u64,
) -> Option<DocSet> {
    BY_TEXT.with(|index| {
        let index = index.borrow();
        index.get(&(digest, variant))?.iter().find_map(|seen| {
            let text = seen.text.upgrade()?;
            let from = seen.file.upgrade()?;
            let parsed = seen.parsed.upgrade()?;
            (*text == **src).then(|| renamed(&parsed, &from, file))
        })
    })
}

/// Lists `parsed` (of `src` named `file`) in the index by text.
fn list(src: &Arc<str>, digest: u64, file: &Arc<str>, variant: u64, parsed: &Arc<DocSet>) {
    BY_TEXT.with(|index| {
        let mut index = index.borrow_mut();
        if index.len() >= SWEEP_AT.with(std::cell::Cell::get) {
            index.retain(|_, seen| {
                seen.retain(|s| s.parsed.strong_count() > 0);
                !seen.is_empty()
            });
            SWEEP_AT.with(|at| at.set((2 * index.len()).max(LISTED)));
        }
        let seen = index.entry((digest, variant)).or_default();
        seen.retain(|s| s.parsed.strong_count() > 0);
        seen.push(Seen {
            text: Arc::downgrade(src),
            file: Arc::downgrade(file),
            parsed: Arc::downgrade(parsed),
        });
    });
}

/// Keeps the cache small next to a worker's memory: its parses (about ten times their text)
/// stay under a fifth of the `heap` bytes a job may use (`--memory-limit` shared by the
/// workers), so that the cache never makes a job run out of memory it would have had.
pub fn limit_to_heap(heap: u64) {
    let budget = usize::try_from(heap / 48).unwrap_or(MOST).min(MOST);
    BUDGET.store(budget, Ordering::Relaxed);
}

/// [`parse`] of `src`, taken from this thread's cache when the same text was parsed under the
/// same name and options.
pub fn parse_shared(
    src: &Arc<str>,
    file: &Arc<str>,
    opts: &ParseOpts,
) -> Result<Arc<DocSet>, ParseError> {
    let variant = u64::from(opts.strict);
    if let Some(parsed) = CACHE.with(|c| c.borrow_mut().get(src, file, variant)) {
        return Ok(parsed);
    }
    let digest = crate::shared_cache::digest(src);
    let parsed = match under_another_name(src, digest, file, variant) {
        Some(copy) => Arc::new(copy),
        None => Arc::new(parse(src, file, opts)?),
    };
    CACHE.with(|c| c.borrow_mut().put(src, file, variant, parsed.clone()));
    list(src, digest, file, variant, &parsed);
    Ok(parsed)
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
}
