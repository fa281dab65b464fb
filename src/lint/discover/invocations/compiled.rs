//! Path patterns compiled once. A repository's commands repeat their path words (a Makefile
//! target per package version, the same `-f $1/bundle/config` in many scripts), and each word
//! becomes a regular expression over the repository's paths ([`super::index`],
//! [`super::sole_match`]). Building one costs far more than matching it (the engine
//! determinizes an automaton), so the compiled expressions are kept per thread by their text:
//! a repository of a hundred package versions otherwise spends minutes compiling the same few
//! patterns. The cache is bounded; when full it starts again, which costs time, never a result.

use std::cell::RefCell;
use std::collections::HashMap;

use regex::Regex;

/// The most expressions kept at once.
const MAX_KEPT: usize = 4096;

thread_local! {
    static KEPT: RefCell<HashMap<String, Option<Regex>>> = RefCell::new(HashMap::new());
}

/// The expression `pattern` compiled (`None`: it is not a valid expression), built once per
/// thread and text.
pub fn regex(pattern: &str) -> Option<Regex> {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(re) = kept.get(pattern) {
            return re.clone();
        }
        if kept.len() >= MAX_KEPT {
            kept.clear();
        }
        let re = Regex::new(pattern).ok();
        kept.insert(pattern.to_string(), re.clone());
        re
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_compiles_as_regex_new_would_and_again_from_the_cache() {
        for _ in 0..2 {
            let re = regex("^config/([^/]+)/bundle$");
            assert!(re.as_ref().is_some_and(|r| r.is_match("config/a/bundle")));
            assert!(re.is_some_and(|r| !r.is_match("config/a/b/bundle")));
            assert!(regex("^(unclosed$").is_none());
        }
    }

    #[test]
    fn a_full_cache_starts_again() {
        for i in 0..MAX_KEPT + 3 {
            assert!(regex(&format!("^p{i}$")).is_some_and(|r| r.is_match(&format!("p{i}"))));
        }
        assert!(KEPT.with(|k| k.borrow().len()) <= MAX_KEPT);
    }
}
