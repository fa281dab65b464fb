//! Where a suppression comment can go without changing what ytt renders. A comment line
//! inserted inside a block scalar (a text-templated `conf: |`), a multi-line quoted string or
//! a Starlark string is part of the value, and ytt renders it; elsewhere it is a comment. Each
//! place is tried from the finding's line up: the comment must cover the finding (see
//! `lint/post/suppress.rs`: on its own line it covers the node below it, a block scalar's
//! lines included), and the file with the comment must mean the same to ytt as without it
//! (YAML: the same documents, values and `#@` comments, parsed again; Starlark: the line
//! starts outside any string and continuation). Where no place qualifies, no suppression is
//! offered.

use std::sync::Arc;

use crate::lint::post::suppress::{self, Scope};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{Comment, DocSet, Value};

/// How many lines above the finding a suppression is looked for (a block scalar's node).
const LOOK_UP: u32 = 400;

/// Where to insert `comment` (already formatted for the file) so that it suppresses a
/// finding at line `line` (from 0) of `text`: the line to insert before (from 0) and the
/// indentation to give it.
pub fn place(name: &str, text: &str, line: u32, comment: &str) -> Option<(u32, String)> {
    // Lines as the protocol counts them: a CR alone ends one too.
    let lines: Vec<&str> = crate::pos::lines(text)
        .map(|l| &text[l.start..l.end])
        .collect();
    let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
    let before = if yaml { parse_plain(text) } else { None };
    if yaml && before.is_none() {
        // A file ytt cannot parse: whatever the comment does, nothing renders.
        return None;
    }
    let lowest = line.saturating_sub(LOOK_UP);
    for at in (lowest..=line).rev() {
        let indent = indentation(lines.get(at as usize).copied().unwrap_or_default());
        let inserted = insert(text, at, &format!("{indent}{comment}"));
        if !covers(name, &inserted, at, line + 1) {
            continue;
        }
        let same = match &before {
            Some(b) => parse_plain(&inserted).is_some_and(|a| same_docs(b, &a)),
            None => star_line_is_free(text, at),
        };
        if same {
            return Some((at, indent));
        }
    }
    None
}

/// `text` with `line` inserted before line `at` (from 0).
fn insert(text: &str, at: u32, line: &str) -> String {
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    // Lines as the protocol counts them (a CR alone ends one too), as the code action inserts.
    let (head, rest) = match crate::pos::line_span(text, at.saturating_add(1)) {
        Some(l) => text.split_at(l.start),
        None => (text, ""),
    };
    out.push_str(head);
    if rest.is_empty() && !head.is_empty() && !head.ends_with(['\n', '\r']) {
        out.push('\n');
    }
    out.push_str(line);
    out.push('\n');
    out.push_str(rest);
    out
}

fn indentation(line: &str) -> String {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// Whether the suppression comment inserted at line `at` (from 0) of `inserted` covers line
/// `target` (from 0, in the text with the comment).
fn covers(name: &str, inserted: &str, at: u32, target: u32) -> bool {
    suppress::scan(name, inserted).iter().any(|s| {
        s.line == at + 1
            && s.problem.is_none()
            && match s.scope {
                Scope::File => true,
                Scope::Lines { first, last } => (first..=last).contains(&(target + 1)),
            }
    })
}

fn parse_plain(text: &str) -> Option<DocSet> {
    let name: Arc<str> = Arc::from("suppression-check.yml");
    parse(text, &name, &ParseOpts::default()).ok()
}

/// Whether two parses mean the same to ytt: the same documents, keys, values and `#@`
/// comments (in order, on the same nodes); positions and `#!` comments aside.
fn same_docs(a: &DocSet, b: &DocSet) -> bool {
    same_comments(&a.comments, &b.comments)
        && a.items.len() == b.items.len()
        && a.items.iter().zip(&b.items).all(|(x, y)| {
            x.injected == y.injected
                && same_comments(&x.comments, &y.comments)
                && same_value(&x.value, &y.value)
        })
}

fn same_comments(a: &[Comment], b: &[Comment]) -> bool {
    let code = |c: &&Comment| !c.data.starts_with('!');
    a.iter()
        .filter(code)
        .map(|c| c.data.as_str())
        .eq(b.iter().filter(code).map(|c| c.data.as_str()))
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            same_comments(&x.comments, &y.comments)
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(i, j)| {
                    same_comments(&i.comments, &j.comments)
                        && same_value(&i.key, &j.key)
                        && same_value(&i.value, &j.value)
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            same_comments(&x.comments, &y.comments)
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(i, j)| {
                    same_comments(&i.comments, &j.comments) && same_value(&i.value, &j.value)
                })
        }
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// Whether line `at` (from 0) of Starlark `text` starts outside any string and is not the
/// continuation of the line above (a backslash at its end).
fn star_line_is_free(text: &str, at: u32) -> bool {
    // Lines as the protocol counts them: a CR alone ends one too.
    let text = crate::pos::lone_cr_as_lf(text);
    let mut line = 0u32;
    let mut quote: Option<(char, bool)> = None;
    let mut chars = text.chars().peekable();
    let mut previous_end = '\n';
    let mut last = '\n';
    while let Some(c) = chars.next() {
        if line >= at {
            break;
        }
        match quote {
            Some((q, triple)) => {
                if c == '\\' {
                    if chars.next() == Some('\n') {
                        line += 1;
                    }
                    last = '\\';
                    continue;
                }
                if c == q {
                    if !triple {
                        quote = None;
                    } else if chars.peek() == Some(&q) {
                        chars.next();
                        if chars.peek() == Some(&q) {
                            chars.next();
                            quote = None;
                        }
                    }
                }
            }
            None => match c {
                '#' => {
                    while chars.peek().is_some_and(|c| *c != '\n') {
                        chars.next();
                    }
                }
                '"' | '\'' => {
                    let triple = chars.peek() == Some(&c) && {
                        let mut ahead = chars.clone();
                        ahead.next();
                        ahead.peek() == Some(&c)
                    };
                    if triple {
                        chars.next();
                        chars.next();
                    } else if chars.peek() == Some(&c) {
                        // An empty string.
                        chars.next();
                        last = c;
                        continue;
                    }
                    quote = Some((c, triple));
                }
                _ => {}
            },
        }
        if c == '\n' {
            line += 1;
            previous_end = last;
            if quote.is_some_and(|(_, triple)| !triple) {
                // An unterminated string ends at its line.
                quote = None;
            }
        }
        last = c;
    }
    quote.is_none() && previous_end != '\\'
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "#! yttlint: disable=r";

    #[test]
    fn a_plain_node_gets_the_comment_on_the_line_above() {
        let text = "a:\n  b: 1\n";
        assert_eq!(place("t.yml", text, 1, YAML), Some((1, "  ".into())));
    }

    #[test]
    fn a_line_of_a_block_scalar_gets_it_above_the_node() {
        let text = "#@yaml/text-templated-strings\ndata:\n  conf: |\n    first\n    (@ if x: @)\n    y\n    (@ end @)\n";
        assert_eq!(place("t.yml", text, 4, YAML), Some((2, "  ".into())));
    }

    #[test]
    fn a_multi_line_quoted_string_is_left_alone() {
        // Inside the string, and above it the comment would not cover the line.
        let text = "a: 1\nb: \"one\n  two\n  three\"\n";
        assert_eq!(place("t.yml", text, 2, YAML), None);
    }

    #[test]
    fn an_annotation_block_above_a_node_is_kept_together() {
        let text = "#@overlay/match by=\"name\"\n#@overlay/replace\n- name: x\n";
        let placed = place("t.yml", text, 2, YAML).unwrap();
        assert_eq!(placed, (2, String::new()));
    }

    #[test]
    fn starlark_strings_and_continuations_are_left_alone() {
        let star = "# yttlint: disable=r";
        let text = "x = \"\"\"\nline\n\"\"\"\ny = 1 + \\\n  2\nz = 3\n";
        assert_eq!(place("h.star", text, 1, star), None);
        assert_eq!(place("h.star", text, 5, star), Some((5, String::new())));
        assert!(!star_line_is_free(text, 4));
        assert!(star_line_is_free(text, 3));
    }

    #[test]
    fn a_file_that_does_not_parse_gets_none() {
        assert_eq!(place("t.yml", "a: [\n", 0, YAML), None);
    }
}
