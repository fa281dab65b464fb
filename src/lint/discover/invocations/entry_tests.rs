//! Tests of a loop's entry that the linter decides per entry, as it decides file tests: a
//! string comparison of the entry's name (`[[ "$name" == buildpack ]]`, `[ "$f" != x ]`), a
//! `case` arm (`case "${f##*/}" in *.lib.yml) …`), a `find -name` filter, and a `grep` of the
//! entry's text (`if grep -q "org/shared@main" "$workflow"; then ytt …`, round fourteen's
//! R14B-4). Only a test of a loop's entry is made a condition (its word holds a loop's marker,
//! see `glob_loop.rs`): the entry is known per invocation, and a committed file's text is
//! read under the repository's read policy, bounded. A test the linter cannot decide (an
//! unbound entry, a pattern it does not read, a file it cannot read) holds, as before.

use std::path::Path;

use regex::RegexBuilder;
use tree_sitter::Node;

use super::env::{Cond, Env, Test};
use super::index::{Binding, Index};
use super::shell::Interp;
use super::word::{Piece, Word};

/// The largest file whose text a `grep` of an entry is decided on.
const MAX_GREPPED: usize = 1 << 20;
/// The largest compiled pattern of a `grep`.
const MAX_PATTERN: usize = 1 << 16;
/// The most patterns one condition gathers (`grep A f || grep B f || …`).
const MAX_PATTERNS: usize = 16;
/// The prefix of an unknown part that stands for a marker's last path segment.
const BASENAME: &str = "$(basename ";

/// One `grep` pattern, with the options that change what it matches.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grep {
    pub pattern: String,
    /// `-F`: fixed text.
    pub fixed: bool,
    /// `-E`: an extended regular expression (else a basic one).
    pub extended: bool,
    /// `-i`.
    pub ignore_case: bool,
}

/// Whether a word stands for a loop's entry (or its last segment): a condition on it can be
/// decided per entry.
pub fn of_entry(w: &Word) -> bool {
    w.unknowns().any(|u| {
        super::glob_loop::is_marker(u)
            || u.strip_prefix(BASENAME)
                .and_then(|r| r.strip_suffix(')'))
                .is_some_and(super::glob_loop::is_marker)
    })
}

/// The last path segment of `w` when it ends with a loop's marker whose entries are one
/// segment (`pipelines/$(for p in *)` gives `$(basename $(for p in *))`); `None` otherwise.
pub fn basename(w: &Word) -> Option<Word> {
    let Some(Piece::Unknown(last)) = w.0.last() else {
        return None;
    };
    let single = super::glob_loop::entries_are_names(last);
    single.then(|| Word::unknown(format!("{BASENAME}{last})")))
}

/// The value of a condition's word for a binding: its text with every part bound (a
/// basename part the last segment of its marker's value); `None` when a part is unbound.
fn value(w: &Word, b: &Binding) -> Option<String> {
    let mut out = String::new();
    for p in &w.0 {
        match p {
            Piece::Lit { text, .. } => out.push_str(text),
            Piece::Unknown(u) => {
                if let Some(v) = b.get(u) {
                    out.push_str(v);
                    continue;
                }
                let m = u.strip_prefix(BASENAME)?.strip_suffix(')')?;
                let v = b.get(m)?;
                out.push_str(v.rsplit('/').next().unwrap_or(v));
            }
        }
    }
    Some(out)
}

/// Whether an entry test holds for a binding, reading the repository's walked files under
/// `root`; `None` when it cannot be decided (or is no entry test).
pub fn holds(c: &Cond, b: &Binding, root: Option<&Path>, index: &Index) -> Option<bool> {
    let matched = match &c.test {
        Test::Matches { patterns, base } => {
            let v = value(&c.path, b)?;
            let v = if *base {
                v.trim_end_matches('/').rsplit('/').next().unwrap_or("")
            } else {
                v.as_str()
            };
            let mut any = false;
            for p in patterns {
                any |= shell_match(p, v)?;
            }
            any
        }
        Test::Contains(greps) => {
            let path = super::resolve::substitute(&c.path, b).repo_path()?;
            if !index.is_file(&path) {
                return None;
            }
            let text = super::scripts::read(root?, &path, MAX_GREPPED)?;
            let mut any = false;
            for g in greps {
                any |= grep(g, &text)?;
            }
            any
        }
        _ => return None,
    };
    Some(matched == c.holds)
}

/// Whether a shell pattern (`*.lib.yml`, `buildpack`, `[ab]*`) matches the whole of `v`;
/// `None` for a pattern the linter does not read (extended globs).
pub fn shell_match(pattern: &str, v: &str) -> Option<bool> {
    let re = shell_regex(pattern)?;
    let re = RegexBuilder::new(&re)
        .size_limit(MAX_PATTERN)
        .build()
        .ok()?;
    Some(re.is_match(v))
}

/// A shell pattern as an anchored regular expression (`*` crosses `/`, as in `[[ == ]]`).
fn shell_regex(pattern: &str) -> Option<String> {
    if pattern.len() > MAX_PATTERN || pattern.contains(['(', ')']) {
        return None;
    }
    let mut out = String::from("^(?s:");
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '\\' => out.push_str(&regex::escape(&chars.next()?.to_string())),
            '[' => {
                let mut class = String::from("[");
                let mut first = true;
                let mut closed = false;
                for d in chars.by_ref() {
                    match d {
                        ']' if !first => {
                            closed = true;
                            break;
                        }
                        '!' | '^' if first => class.push('^'),
                        '\\' | '[' | ']' | '&' | '~' => {
                            class.push('\\');
                            class.push(d);
                        }
                        d => class.push(d),
                    }
                    first = false;
                }
                if !closed {
                    return None;
                }
                class.push(']');
                out.push_str(&class);
            }
            c => out.push_str(&regex::escape(&c.to_string())),
        }
    }
    out.push_str(")$");
    Some(out)
}

/// Whether `grep` with `g` finds a line of `text`; `None` for a pattern the linter does not
/// read (back-references, a pattern the `regex` crate refuses or finds too large).
fn grep(g: &Grep, text: &str) -> Option<bool> {
    let re = if g.fixed {
        regex::escape(&g.pattern)
    } else if g.extended {
        g.pattern.clone()
    } else {
        basic_regex(&g.pattern)?
    };
    if g.pattern.len() > MAX_PATTERN || g.pattern.contains('\n') {
        return None;
    }
    let re = RegexBuilder::new(&re)
        .multi_line(true)
        .case_insensitive(g.ignore_case)
        .size_limit(MAX_PATTERN * 16)
        .build()
        .ok()?;
    Some(text.lines().any(|l| re.is_match(l)))
}

/// A basic regular expression (grep's default) as the `regex` crate reads one: `+ ? | ( ) { }`
/// are literal unless escaped; escaped, they are what `-E` makes them (GNU grep).
fn basic_regex(p: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                d @ ('+' | '?' | '|' | '(' | ')' | '{' | '}') => out.push(d),
                d if d.is_ascii_digit() => return None,
                d @ ('w' | 'W' | 's' | 'S' | 'b' | 'B') => {
                    out.push('\\');
                    out.push(d);
                }
                d => out.push_str(&regex::escape(&d.to_string())),
            },
            '+' | '?' | '|' | '(' | ')' | '{' | '}' => out.push('\\'),
            _ => {}
        }
        if !matches!(c, '\\') {
            out.push(c);
        }
    }
    Some(out)
}

impl<'t> Interp<'t> {
    /// The word `n` when it is a loop's entry (or a part of it), expanded to one value in
    /// every case; `None` when it runs a command, or expands otherwise.
    fn entry_word(&mut self, n: Node<'t>, env: &mut Env) -> Option<Word> {
        if runs_commands(self.text(n)) {
            return None;
        }
        let exps = self.expand(n, env, true);
        let [one] = exps.as_slice() else { return None };
        let word = one.joined();
        (one.when.is_empty() && of_entry(&word)).then_some(word)
    }

    /// A string comparison of a loop's entry in `[[ … ]]` or `[ … ]`: `==`, `=`, `!=`, and
    /// `||` of comparisons of the same word.
    pub(super) fn comparison(&mut self, n: Node<'t>, env: &mut Env, double: bool) -> Option<Cond> {
        if n.kind() == "parenthesized_expression" {
            let mut c = n.walk();
            let inner = n.named_children(&mut c).next()?;
            return self.comparison(inner, env, double);
        }
        if n.kind() != "binary_expression" {
            return None;
        }
        let op = self.text(n.child_by_field_name("operator")?);
        let left = n.child_by_field_name("left")?;
        let right = n.child_by_field_name("right")?;
        if op == "||" {
            let a = self.comparison(left, env, double)?;
            let b = self.comparison(right, env, double)?;
            return either(a, b);
        }
        let holds = match op {
            "==" | "=" => true,
            "!=" => false,
            _ => return None,
        };
        let subject = self.entry_word(left, env)?;
        let pattern = pattern_of(self.text(right), double)?;
        Some(Cond {
            test: Test::Matches {
                patterns: vec![pattern],
                base: false,
            },
            path: subject,
            holds,
        })
    }

    /// `grep [-qsFEil] PATTERN FILE` (or `-e PATTERN`) of a loop's entry.
    pub(super) fn grep_test(&mut self, kids: &[Node<'t>], env: &mut Env) -> Option<Cond> {
        let mut g = Grep {
            pattern: String::new(),
            fixed: false,
            extended: false,
            ignore_case: false,
        };
        let mut pattern: Option<String> = None;
        let mut operands: Vec<Node> = Vec::new();
        let mut expect_pattern = false;
        for k in kids.iter().skip(1) {
            let text = self.text(*k);
            if expect_pattern {
                pattern = Some(literal_of(text)?);
                expect_pattern = false;
                continue;
            }
            if let Some(long) = text.strip_prefix("--") {
                match long {
                    "quiet" | "silent" | "no-messages" | "files-with-matches" => continue,
                    "fixed-strings" => g.fixed = true,
                    "extended-regexp" => g.extended = true,
                    "ignore-case" => g.ignore_case = true,
                    _ => return None,
                }
                continue;
            }
            if let Some(flags) = text.strip_prefix('-').filter(|f| !f.is_empty()) {
                for f in flags.chars() {
                    match f {
                        'q' | 's' | 'l' | 'c' | 'H' | 'h' | 'n' => {}
                        'F' => g.fixed = true,
                        'E' => g.extended = true,
                        'i' => g.ignore_case = true,
                        'e' => expect_pattern = true,
                        _ => return None,
                    }
                }
                continue;
            }
            match pattern {
                None => pattern = Some(literal_of(text)?),
                Some(_) => operands.push(*k),
            }
        }
        g.pattern = pattern?;
        let [file] = operands.as_slice() else {
            return None;
        };
        let cwd = env.cwd.clone()?;
        let path = self.entry_word(*file, env)?;
        Some(Cond {
            test: Test::Contains(vec![g]),
            path: path.relative_to(&cwd),
            holds: true,
        })
    }

    /// `A || B` of tests of the same entry (`grep X "$f" || grep Y "$f"`), and `!A && !B`
    /// (`[ "$name" != a ] && [ "$name" != b ]`), which is `!(A || B)`.
    pub(super) fn either_list(&mut self, n: Node<'t>, env: &mut Env) -> Option<Cond> {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let mut acc: Option<Cond> = None;
        let mut op = None;
        for k in kids {
            if !k.is_named() {
                let t = self.text(k);
                if (t != "||" && t != "&&") || op.is_some_and(|o| o != t) {
                    return None;
                }
                op = Some(t);
                continue;
            }
            let cond = self.condition(k, env)?;
            acc = Some(match acc {
                None => cond,
                Some(a) if op == Some("&&") => {
                    if a.holds || cond.holds {
                        return None;
                    }
                    either(a.negated(), cond.negated())?.negated()
                }
                Some(a) => either(a, cond)?,
            });
        }
        acc
    }

    /// The conditions of each arm of a `case` over a loop's entry: the arm's patterns match,
    /// and no earlier arm's do. `None` when the subject is not an entry, or a pattern is not
    /// literal.
    pub(super) fn case_arms(
        &mut self,
        n: Node<'t>,
        items: &[Node<'t>],
        env: &mut Env,
    ) -> Option<Vec<Vec<Cond>>> {
        let subject = n.child_by_field_name("value")?;
        let word = self.entry_word(subject, env)?;
        let mut out = Vec::new();
        let mut before: Vec<Cond> = Vec::new();
        for item in items {
            let mut c = item.walk();
            let mut patterns = Vec::new();
            for v in item.children_by_field_name("value", &mut c) {
                patterns.push(pattern_of(self.text(v), true)?);
            }
            let arm = Cond {
                test: Test::Matches {
                    patterns,
                    base: false,
                },
                path: word.clone(),
                holds: true,
            };
            let mut when = before.clone();
            when.push(arm.clone());
            out.push(when);
            before.push(arm.negated());
        }
        Some(out)
    }
}

/// Whether a word's text runs a command when expanded (`$(…)`, backticks): a test's word is
/// expanded only when it runs none (the walk follows commands where they run).
fn runs_commands(text: &str) -> bool {
    text.contains("$(") || text.contains('`') || text.contains("<(")
}

/// Two tests of the same word of which either may hold, as one; `None` when they differ.
fn either(a: Cond, b: Cond) -> Option<Cond> {
    if a.path != b.path || !a.holds || !b.holds {
        return None;
    }
    let test = match (a.test, b.test) {
        (
            Test::Matches {
                patterns: mut p,
                base,
            },
            Test::Matches {
                patterns: q,
                base: base2,
            },
        ) if base == base2 => {
            p.extend(q);
            Test::Matches { patterns: p, base }
        }
        (Test::Contains(mut p), Test::Contains(q)) => {
            p.extend(q);
            Test::Contains(p)
        }
        _ => return None,
    };
    let count = match &test {
        Test::Matches { patterns, .. } => patterns.len(),
        Test::Contains(g) => g.len(),
        _ => 0,
    };
    (count <= MAX_PATTERNS).then_some(Cond {
        test,
        path: a.path,
        holds: true,
    })
}

/// The shell pattern a right-hand side or `case` pattern stands for: quoted text is literal,
/// unquoted text a pattern in `[[ ]]` and `case` (literal in `[ ]`); `None` for text with an
/// expansion.
fn pattern_of(text: &str, pattern: bool) -> Option<String> {
    if text.contains(['$', '`']) {
        return None;
    }
    let quoted = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')));
    match quoted {
        Some(q) if !q.contains(['"', '\'']) => Some(escape(q)),
        Some(_) => None,
        None if text.contains(['"', '\'']) => None,
        None if pattern => Some(text.to_string()),
        None => Some(escape(text)),
    }
}

/// Literal text as a shell pattern.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The literal text of a word (quotes removed); `None` with an expansion.
pub(super) fn literal_of(text: &str) -> Option<String> {
    if text.contains(['$', '`']) {
        return None;
    }
    let t = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))
        .unwrap_or(text);
    (!t.contains(['"', '\''])).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_patterns_match_as_the_shell_matches() {
        assert_eq!(shell_match("*.lib.yml", "parts.lib.yml"), Some(true));
        assert_eq!(shell_match("*.lib.yml", "lint.yml"), Some(false));
        assert_eq!(shell_match("buildpack", "buildpack"), Some(true));
        assert_eq!(
            shell_match("buildpack", "buildpack-verification"),
            Some(false)
        );
        assert_eq!(shell_match("[ab]*", "beta"), Some(true));
        assert_eq!(shell_match("[!ab]*", "beta"), Some(false));
        assert_eq!(shell_match(&escape("a*b"), "a*b"), Some(true));
        assert_eq!(shell_match(&escape("a*b"), "axb"), Some(false));
        assert_eq!(shell_match("@(a|b)", "a"), None);
    }

    #[test]
    fn greps_match_lines_as_grep_does() {
        let g = |p: &str, fixed: bool, extended: bool| Grep {
            pattern: p.to_string(),
            fixed,
            extended,
            ignore_case: false,
        };
        let text = "jobs:\n  deploy:\n    uses: org/shared/.github/workflows/d.yaml@main\n";
        assert_eq!(
            grep(
                &g("org/shared/.github/workflows/d.yaml@main", false, false),
                text
            ),
            Some(true)
        );
        assert_eq!(grep(&g("org/other@main", true, false), text), Some(false));
        // Basic: `+` is literal; extended: one or more.
        assert_eq!(grep(&g("jobs+", false, false), text), Some(false));
        assert_eq!(grep(&g("jobs+", false, true), text), Some(true));
        assert_eq!(grep(&g("^  deploy:$", false, false), text), Some(true));
        assert_eq!(grep(&g("\\(a\\)\\1", false, false), text), None);
    }

    #[test]
    fn quoted_text_is_literal_and_unquoted_a_pattern() {
        assert_eq!(pattern_of("\"*.yml\"", true).as_deref(), Some("\\*.yml"));
        assert_eq!(pattern_of("*.yml", true).as_deref(), Some("*.yml"));
        assert_eq!(pattern_of("*.yml", false).as_deref(), Some("\\*.yml"));
        assert_eq!(pattern_of("\"$x\"", true), None);
    }

    #[test]
    fn a_basename_part_takes_its_marker_s_last_segment() {
        let mut w = Word::lit("/r/pipelines/");
        w.0.push(Piece::Unknown("$(for p in *)".into()));
        let base = basename(&w).unwrap();
        assert!(of_entry(&base));
        let mut b = Binding::new();
        b.insert("$(for p in *)".into(), "buildpack".into());
        assert_eq!(value(&base, &b).as_deref(), Some("buildpack"));
        assert!(!of_entry(&Word::unknown("$name")));
    }
}
