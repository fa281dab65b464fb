//! A directory listing a script loops over: `for d in $(ls -d GLOB ...)` (or in backticks)
//! gives the paths the globs match, as written relative to where `ls` runs, each any number
//! of directories deep (`{kind,eks}/test*/` names `kind/test-1`, two levels). Where such a
//! value is part of a path, it stands for exactly those paths, and binds to each of them
//! that exists (see `index.rs`); an unknown part of another origin binds to one directory
//! at the end of a path, a few between directories.

use super::index::glob_regex;

/// The most alternatives a brace expression of a listing may give.
const MAX_ALTERNATIVES: usize = 64;

/// A regular expression (without a capture group) for the paths the listing `text` (the text
/// of a command substitution) prints, if it is an `ls -d` of literal globs.
pub fn listing_regex(text: &str) -> Option<String> {
    let words = ls_arguments(text)?;
    let mut directories = false;
    let mut globs = Vec::new();
    for w in words {
        if let Some(flags) = w.strip_prefix('-') {
            // `-d`: the directories themselves; `-1`: one a line. Others change the output.
            if !flags.chars().all(|c| c == 'd' || c == '1') {
                return None;
            }
            directories |= flags.contains('d');
            continue;
        }
        // A variable, a quote or a redirection is not a literal glob.
        if w.contains(['$', '"', '\'', '`', '>', '<', '|', ';', '&', '(', ')']) {
            return None;
        }
        globs.push(w);
    }
    if !directories || globs.is_empty() {
        return None;
    }
    let mut alts = Vec::new();
    for g in globs {
        for e in braces(g)? {
            let e = e.trim_end_matches('/');
            if e.is_empty() || e.starts_with('/') || e.split('/').any(|s| s == "..") {
                return None;
            }
            alts.push(format!("(?:{})", glob_regex(e)));
        }
    }
    Some(alts.join("|"))
}

/// The arguments of the `ls` a command substitution (`$(ls …)` or in backticks) runs; `None`
/// for another command.
pub fn ls_arguments(text: &str) -> Option<std::str::SplitWhitespace<'_>> {
    let body = text
        .strip_prefix("$(")
        .and_then(|t| t.strip_suffix(')'))
        .or_else(|| text.strip_prefix('`').and_then(|t| t.strip_suffix('`')))?
        .trim();
    let mut words = body.split_whitespace();
    (words.next()? == "ls").then_some(words)
}

/// The words a brace expression (`{a,b}/x*`, no nesting) gives, in order; `None` for a
/// nested or unclosed one, or too many.
fn braces(word: &str) -> Option<Vec<String>> {
    let Some(open) = word.find('{') else {
        return Some(vec![word.to_string()]);
    };
    let close = open + word[open..].find('}')?;
    let inner = &word[open + 1..close];
    if inner.contains('{') {
        return None;
    }
    let rest = braces(&word[close + 1..])?;
    let mut out = Vec::new();
    for alt in inner.split(',') {
        for r in &rest {
            out.push(format!("{}{alt}{r}", &word[..open]));
            if out.len() > MAX_ALTERNATIVES {
                return None;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_of_directories_is_the_paths_its_globs_match() {
        let re = listing_regex("`ls -d {kind,eks}/test*/`").unwrap_or_default();
        let re = regex::Regex::new(&format!("^(?:{re})$")).unwrap();
        assert!(re.is_match("kind/test-1"));
        assert!(re.is_match("eks/test-x"));
        assert!(!re.is_match("gke/test-1"));
        assert!(!re.is_match("kind/other"));
        assert!(!re.is_match("kind/test-1/deeper"));
        assert!(listing_regex("$(ls -d */)").is_some());
        // Not a listing of directories, or not of literal globs.
        assert_eq!(listing_regex("$(ls */)"), None);
        assert_eq!(listing_regex("$(ls -la */)"), None);
        assert_eq!(listing_regex("$(ls -d $X/*)"), None);
        assert_eq!(listing_regex("$(ls -d ../*)"), None);
        assert_eq!(listing_regex("$(find . -type d)"), None);
    }

    #[test]
    fn braces_give_each_alternative() {
        assert_eq!(
            braces("{a,b}/t*{1,2}").unwrap_or_default(),
            vec!["a/t*1", "a/t*2", "b/t*1", "b/t*2"]
        );
        assert_eq!(braces("{a,{b}}"), None);
    }
}
