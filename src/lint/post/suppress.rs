//! Suppression comments. `#! yttlint: disable=<rule>[,<rule>] -- reason` on its own line
//! suppresses those rules on the lines below it down to the next line that is not a comment
//! (so it covers a node and the `#@` annotations above it); at the end of a line it suppresses
//! them on that line; `#! yttlint: disable-file=<rule>` suppresses them in the whole file.
//! ytt reads `#!` as a comment (Starlark files use `#`). A suppression that matched nothing,
//! or a `yttlint:` comment that cannot be read, is an `unused-suppression` finding.

use crate::report::Rule;
use std::collections::HashSet;

use crate::lint::repo::marker::{may_have_directive, DIRECTIVE_MARK as MARKER};
use crate::report::{Diagnostic, Span};

/// Where a suppression applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Lines `first..=last` (from 1).
    Lines {
        first: u32,
        last: u32,
    },
    File,
}

/// One `yttlint:` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// Repository-relative file.
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub rules: Vec<String>,
    pub scope: Scope,
    /// Why the comment could not be read, if it could not.
    pub problem: Option<String>,
}

/// Column (from 0, in bytes) of a `#` or `#!` comment holding a `yttlint:` directive, and the
/// directive after the marker.
fn directive(line: &str) -> Option<(usize, &str)> {
    line.match_indices('#').find_map(|(i, _)| {
        let before_ok = line[..i]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let rest = &line[i + 1..];
        let rest = rest.strip_prefix('!').unwrap_or(rest).trim_start();
        let body = rest.strip_prefix(MARKER)?;
        before_ok.then_some((i, body))
    })
}

/// Rules and scope of a directive body (`disable=a,b -- why`), or what is wrong with it.
fn read(body: &str) -> Result<(Vec<String>, bool), String> {
    let body = body.split_once("--").map_or(body, |(b, _)| b).trim();
    let (whole_file, list) = if let Some(l) = body.strip_prefix("disable-file=") {
        (true, l)
    } else if let Some(l) = body.strip_prefix("disable=") {
        (false, l)
    } else {
        return Err(format!(
            "cannot read yttlint comment \"{body}\": expected disable=<rule>[,<rule>] or disable-file=<rule>[,<rule>]"
        ));
    };
    let rules: Vec<String> = list.split(',').map(|r| r.trim().to_string()).collect();
    let valid = |r: &String| {
        // A repository's policy: `policy/NAME`.
        let policy = r
            .strip_prefix(crate::report::policy_name::PREFIX)
            .is_some_and(|name| crate::report::policy_name::check_name(name).is_ok());
        policy
            || (!r.is_empty()
                && r.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
    };
    if !rules.iter().all(valid) {
        return Err(format!(
            "cannot read the rules \"{}\" of a yttlint comment: expected rule ids separated by commas",
            list.trim()
        ));
    }
    Ok((rules, whole_file))
}

fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// The suppressions of one file.
pub fn scan(file: &str, text: &str) -> Vec<Suppression> {
    // Most files have no directive: one search of the whole text settles it.
    if !may_have_directive(text) {
        return Vec::new();
    }
    // Lines as findings count them (ytt, the editor): a CR alone ends one too.
    let lines: Vec<&str> = crate::pos::lines(text)
        .map(|l| &text[l.start..l.end])
        .collect();
    let mut out = Vec::new();
    for (idx, line) in lines.iter().enumerate() {
        let Some((col, body)) = directive(line) else {
            continue;
        };
        let number = line_number(idx);
        let own_line = line[..col].trim().is_empty();
        let (rules, whole_file, problem) = match read(body) {
            Ok((rules, whole)) => (rules, whole, None),
            Err(p) => (Vec::new(), false, Some(p)),
        };
        let scope = if whole_file {
            Scope::File
        } else if own_line {
            let target = (idx + 1..lines.len())
                .find(|&j| !is_comment_or_blank(lines[j]))
                .unwrap_or(lines.len().saturating_sub(1));
            let target = block_scalar_end(&lines, target);
            Scope::Lines {
                first: number + 1,
                last: line_number(target).max(number + 1),
            }
        } else {
            Scope::Lines {
                first: number,
                last: number,
            }
        };
        out.push(Suppression {
            file: file.to_string(),
            line: number,
            column: u32::try_from(col + 1).unwrap_or(u32::MAX),
            rules,
            scope,
            problem,
        });
    }
    out
}

/// The last line of the block scalar (`key: |`, `- >-`) that line `node` opens, else `node`:
/// a suppression above a node covers its block's lines too (a comment inside the block would
/// be part of its text, which ytt renders).
fn block_scalar_end(lines: &[&str], node: usize) -> usize {
    let Some(line) = lines.get(node) else {
        return node;
    };
    let code = line
        .match_indices(" #")
        .next()
        .map_or(*line, |(i, _)| &line[..i])
        .trim_end();
    let header = code.trim_end_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit());
    let Some(before) = header
        .strip_suffix('|')
        .or_else(|| header.strip_suffix('>'))
    else {
        return node;
    };
    let before = before.trim_end();
    let opens = before.is_empty()
        || before.ends_with(':')
        || before.trim_start() == "-"
        || before.ends_with(" -")
        || before == "---";
    if !opens {
        return node;
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(line);
    let mut last = node;
    for (j, l) in lines.iter().enumerate().skip(node + 1) {
        if l.trim().is_empty() {
            continue;
        }
        if indent(l) <= own {
            break;
        }
        last = j;
    }
    last
}

fn line_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

impl Suppression {
    fn covers(&self, d: &Diagnostic) -> bool {
        d.span.as_ref().is_some_and(|s| self.covers_at(d.rule, s))
    }

    /// Whether it suppresses `rule` at `span`.
    pub fn covers_at(&self, rule: Rule, span: &Span) -> bool {
        span.file == self.file
            && self.rules.iter().any(|r| r == rule.id())
            && match self.scope {
                Scope::File => true,
                Scope::Lines { first, last } => (first..=last).contains(&span.line),
            }
    }
}

/// `(suppression index, rule)` pairs that suppressed something.
pub type Used = HashSet<(usize, String)>;

/// Drops the suppressed diagnostics; returns the others and which suppressions were used.
pub fn apply(diagnostics: Vec<Diagnostic>, sups: &[Suppression]) -> (Vec<Diagnostic>, Used) {
    let mut used = Used::new();
    let kept = diagnostics
        .into_iter()
        .filter(|d| {
            let hits: Vec<usize> = (0..sups.len()).filter(|&i| sups[i].covers(d)).collect();
            for &i in &hits {
                used.insert((i, d.rule.id().to_string()));
            }
            hits.is_empty()
        })
        .collect();
    (kept, used)
}

/// `unused-suppression` findings for unread comments and for rules that suppressed nothing,
/// except where `check(suppression, rule)` says the rule could not have fired.
pub fn unused(
    sups: &[Suppression],
    used: &Used,
    check: impl Fn(&Suppression, &str) -> bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, s) in sups.iter().enumerate() {
        let at = Span::point(s.file.clone(), s.line, s.column);
        if let Some(problem) = &s.problem {
            if check(s, "") {
                out.push(Diagnostic::new(Rule::UnusedSuppression, problem.clone()).at(at.clone()));
            }
            continue;
        }
        for rule in &s.rules {
            if !used.contains(&(i, rule.clone())) && check(s, rule) {
                let mut d = Diagnostic::new(
                    Rule::UnusedSuppression,
                    format!("suppression of \"{rule}\" matched no finding"),
                )
                .at(at.clone());
                if Rule::from_id(rule).is_none() {
                    d = d.with_help(format!("\"{rule}\" is not a yttlint rule"));
                }
                out.push(d);
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "suppress_tests.rs"]
mod tests;
