//! The targets a Makefile names through its functions: `APPS := $(wildcard app/*)` and
//! `TESTS := $(addsuffix /diff.txt,$(addprefix test/,$(APPS)))` name one target per folder of
//! `app/`, which a pattern rule (`test/app/%/result.txt`) is then made for, through the
//! pattern rules between them (`test/%/diff.txt: test/%/result.txt`). A wildcard matches
//! the repository's walk only, at most [`MAX_MATCHES`] paths; anything else make computes
//! (`$(shell …)`) names nothing.
//!
//! Make's substitution references (`$(@:%/result.txt=%)`) are here too.

use std::collections::HashMap;

use super::index::Index;
use super::word::{Word, REPO};

/// The most paths one `$(wildcard …)` gives.
const MAX_MATCHES: usize = 300;
/// The most names the functions and the pattern rules' prerequisites add.
const MAX_NAMES: usize = 1_000;
/// How many times the pattern rules' prerequisites are followed from the names.
const MAX_ROUNDS: usize = 4;
/// How deep variables and functions nest.
const MAX_DEPTH: usize = 16;

/// Where the Makefile's functions look: its directory in the repository's walk.
pub struct Walk<'a> {
    pub index: &'a Index,
    /// The Makefile's directory (`.` at the top).
    pub dir: &'a str,
}

/// The value of `text` with variables and the functions `wildcard`, `addprefix`,
/// `addsuffix`, `sort` and `strip` evaluated; `None` when some part is not known.
pub fn evaluate(
    text: &str,
    vars: &HashMap<String, String>,
    walk: &Walk,
    depth: usize,
) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let open = after.chars().next()?;
        let (inner, len) = match open {
            '$' => {
                out.push('$');
                rest = &after[1..];
                continue;
            }
            '(' | '{' => {
                let close = if open == '(' { ')' } else { '}' };
                let end = super::make::matching(after, open, close)?;
                (&after[1..end], end + 1)
            }
            c => (&after[..c.len_utf8()], c.len_utf8()),
        };
        out.push_str(&reference(inner, vars, walk, depth)?);
        rest = &after[len..];
    }
    out.push_str(rest);
    Some(out)
}

/// One `$(…)`: a variable, a substitution reference or a function.
fn reference(
    inner: &str,
    vars: &HashMap<String, String>,
    walk: &Walk,
    depth: usize,
) -> Option<String> {
    if let Some((function, args)) = inner.split_once(char::is_whitespace) {
        let args = split_args(args.trim_start());
        let arg = |i: usize| -> Option<String> {
            evaluate(args.get(i).copied().unwrap_or(""), vars, walk, depth + 1)
        };
        return match function {
            "wildcard" => Some(wildcard(&arg(0)?, walk)?.join(" ")),
            "addprefix" | "addsuffix" => {
                let fix = arg(0)?;
                let list = arg(1)?;
                let words: Vec<String> = list
                    .split_whitespace()
                    .map(|w| match function {
                        "addprefix" => format!("{fix}{w}"),
                        _ => format!("{w}{fix}"),
                    })
                    .collect();
                Some(words.join(" "))
            }
            "sort" => {
                let list = arg(0)?;
                let mut words: Vec<&str> = list.split_whitespace().collect();
                words.sort_unstable();
                words.dedup();
                Some(words.join(" "))
            }
            "strip" => Some(arg(0)?.split_whitespace().collect::<Vec<_>>().join(" ")),
            _ => None,
        };
    }
    if let Some(value) = substitution(inner, vars) {
        return evaluate(&value, vars, walk, depth + 1);
    }
    let value = vars.get(inner.trim())?;
    evaluate(value, vars, walk, depth + 1)
}

/// A function's arguments, split at the commas outside parentheses and braces (also for
/// `make_define.rs`'s `$(call NAME,…)`).
pub(super) fn split_args(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[from..]);
    out
}

/// `$(VAR:from=to)`: each word of the variable's value with `from` replaced by `to` (a `%`
/// in both matches and keeps the stem; without one, a suffix). `None` when `reference` is
/// not one, or the variable is not known.
pub fn substitution(reference: &str, vars: &HashMap<String, String>) -> Option<String> {
    let (name, rule) = reference.split_once(':')?;
    let (from, to) = rule.split_once('=')?;
    let value = vars.get(name.trim())?;
    if value.contains('$') {
        return None;
    }
    let words: Vec<String> = value
        .split_whitespace()
        .map(|w| substitute_word(w, from, to))
        .collect();
    Some(words.join(" "))
}

fn substitute_word(word: &str, from: &str, to: &str) -> String {
    match from.split_once('%') {
        Some((pre, post)) => match word.strip_prefix(pre).and_then(|r| r.strip_suffix(post)) {
            Some(stem) => to.replacen('%', stem, 1),
            None => word.to_string(),
        },
        None => match word.strip_suffix(from) {
            Some(head) => format!("{head}{to}"),
            None => word.to_string(),
        },
    }
}

/// The paths of the walk the patterns match, relative to the Makefile's directory, as make
/// gives them (sorted); `None` past [`MAX_MATCHES`].
fn wildcard(patterns: &str, walk: &Walk) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for p in patterns.split_whitespace() {
        if p.starts_with('/') || p.split('/').any(|s| s == "..") {
            return None;
        }
        let mut w = Word::lit(if walk.dir == "." {
            REPO.to_string()
        } else {
            format!("{REPO}/{}", walk.dir)
        });
        w.push_lit("/", false);
        w.push_lit(p.trim_start_matches("./"), true);
        let prefix = if walk.dir == "." {
            String::new()
        } else {
            format!("{}/", walk.dir)
        };
        for found in walk.index.glob(&w) {
            let rel = found.strip_prefix(&prefix).unwrap_or(&found).to_string();
            out.push(rel);
            if out.len() > MAX_MATCHES {
                return None;
            }
        }
    }
    out.sort();
    Some(out)
}

/// The names of targets the rules' words compute (with `vars`), and those the pattern
/// rules' prerequisites give for them, besides `named` (written out in the file).
pub fn computed_names(
    rules: &[(Vec<String>, Vec<String>)],
    named: &[&str],
    vars: &HashMap<String, String>,
    walk: &Walk,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let words = rules.iter().flat_map(|(t, p)| t.iter().chain(p));
    for w in words.filter(|w| w.contains('$')) {
        let Some(value) = evaluate(w, vars, walk, 0) else {
            continue;
        };
        for v in value.split_whitespace() {
            if !v.contains(['%', '$']) && !out.iter().any(|o| o == v) && out.len() < MAX_NAMES {
                out.push(v.to_string());
            }
        }
    }
    // `test/%/diff.txt: test/%/result.txt`: each computed name the target matches gives its
    // prerequisites.
    let mut from = 0;
    for _ in 0..MAX_ROUNDS {
        let fresh: Vec<String> = out[from..].to_vec();
        from = out.len();
        for name in fresh
            .iter()
            .map(String::as_str)
            .chain(named.iter().copied())
        {
            for (targets, prereqs) in rules {
                for t in targets.iter().filter(|t| t.contains('%')) {
                    let (pre, post) = t.split_once('%').unwrap_or((t, ""));
                    let Some(stem) = name.strip_prefix(pre).and_then(|r| r.strip_suffix(post))
                    else {
                        continue;
                    };
                    if stem.is_empty() {
                        continue;
                    }
                    for p in prereqs
                        .iter()
                        .filter(|p| p.contains('%') && !p.contains('$'))
                    {
                        let made = p.replacen('%', stem, 1);
                        if !out.contains(&made) && out.len() < MAX_NAMES {
                            out.push(made);
                        }
                    }
                }
            }
        }
        if out.len() == from {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_over_a_wildcard_name_a_target_per_folder() {
        let index = Index::new(["app/web/a.yaml", "app/api/b.yaml", "other/c.yaml"]);
        let walk = Walk {
            index: &index,
            dir: ".",
        };
        let mut vars = HashMap::new();
        vars.insert("APPS".to_string(), "$(wildcard app/*)".to_string());
        vars.insert(
            "TESTS".to_string(),
            "$(addsuffix /diff.txt,$(addprefix test/,$(APPS)))".to_string(),
        );
        assert_eq!(
            evaluate("$(TESTS)", &vars, &walk, 0).as_deref(),
            Some("test/app/api/diff.txt test/app/web/diff.txt")
        );
        assert_eq!(evaluate("$(shell ls)", &vars, &walk, 0), None);
        let rules = vec![
            (vec!["test".to_string()], vec!["$(TESTS)".to_string()]),
            (
                vec!["test/%/diff.txt".to_string()],
                vec!["test/%/result.txt".to_string()],
            ),
        ];
        let names = computed_names(&rules, &[], &vars, &walk);
        assert!(
            names.contains(&"test/app/web/result.txt".to_string()),
            "{names:?}"
        );
    }

    #[test]
    fn a_substitution_reference_keeps_the_stem() {
        let mut vars = HashMap::new();
        vars.insert("@".to_string(), "test/app/web/result.txt".to_string());
        assert_eq!(
            substitution("@:%/result.txt=%", &vars).as_deref(),
            Some("test/app/web")
        );
        vars.insert("X".to_string(), "a.yml b.yml".to_string());
        assert_eq!(
            substitution("X:.yml=.json", &vars).as_deref(),
            Some("a.json b.json")
        );
    }
}
