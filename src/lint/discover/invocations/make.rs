//! Makefiles (`Makefile`, `makefile`, `GNUmakefile`, `*.mk`): the recipe lines, each a shell
//! of its own run in the Makefile's directory, with make's variables expanded as make would
//! (`$(VAR)`, `${VAR}`, `$$`). A variable the file does not define, an automatic variable or
//! a function (`$(shell ...)`) is a value known only at run time.

use std::collections::HashMap;

use super::snippet::{Marked, Snippet};
use super::word::{Word, REPO};
use crate::files::paths;

/// Whether a repository file is a Makefile, by name.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "Makefile" | "makefile" | "GNUmakefile") || name.ends_with(".mk")
}

/// One logical line (continuations joined) and the line it starts on.
fn logical_lines(text: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let mut current: Option<(u32, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (start, mut acc) = current.take().unwrap_or((n, String::new()));
        if !acc.is_empty() {
            acc.push('\n');
        }
        acc.push_str(line);
        if line.ends_with('\\') {
            current = Some((start, acc));
        } else {
            out.push((start, acc));
        }
    }
    out.extend(current);
    out
}

/// A variable definition: `NAME = value` (`:=`, `::=`, `?=`, `+=`, with `export` or
/// `override` before it).
fn definition(line: &str) -> Option<(String, String, bool)> {
    let line = line
        .trim_start_matches("export ")
        .trim_start_matches("override ");
    for op in ["::=", ":=", "?=", "+=", "="] {
        if let Some(at) = line.find(op) {
            let name = line[..at].trim();
            if name.is_empty() || name.contains(|c: char| c.is_whitespace() || "$():#".contains(c))
            {
                return None;
            }
            let value = line[at + op.len()..].trim().replace("\\\n", " ");
            return Some((name.to_string(), value, op == "+="));
        }
    }
    None
}

/// The snippets of the Makefile at repository-relative `path`.
/// Recipes are kept when `mentions` says their text may run ytt.
pub fn snippets(path: &str, text: &str, mentions: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let dir = paths::parent(path);
    let cwd = Word::lit(if dir == "." {
        REPO.to_string()
    } else {
        format!("{REPO}/{dir}")
    });
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("MAKE".into(), "make".into());
    let mut recipes: Vec<(u32, String)> = Vec::new();
    let mut in_define = false;
    for (line, text) in logical_lines(text) {
        if in_define {
            in_define = !text.trim_start().starts_with("endef");
            continue;
        }
        if let Some(recipe) = text.strip_prefix('\t') {
            recipes.push((line, recipe.to_string()));
            continue;
        }
        let trimmed = text.trim_start();
        if trimmed.starts_with("define ") {
            in_define = true;
        } else if let Some((name, value, append)) = definition(trimmed) {
            let value = match (append, vars.get(&name)) {
                (true, Some(old)) => format!("{old} {value}"),
                _ => value,
            };
            vars.insert(name, value);
        }
    }
    let mut out = Vec::new();
    for (line, recipe) in recipes {
        let recipe = recipe.trim_start_matches(['@', '-', '+']);
        if !mentions(recipe) && !recipe.contains('$') {
            continue;
        }
        let mut m = Marked::default();
        expand(recipe, &vars, &mut m, 0);
        if !mentions(&m.text)
            && !m
                .vars
                .iter()
                .any(|(_, w)| w.to_string().to_ascii_lowercase().contains("ytt"))
        {
            continue;
        }
        out.push(m.into_snippet(path, line.saturating_sub(1), cwd.clone()));
    }
    out
}

/// Make's expansion of `text` into `out`.
fn expand(text: &str, vars: &HashMap<String, String>, out: &mut Marked, depth: usize) {
    let mut chars = text.char_indices().peekable();
    let mut plain_from = 0;
    while let Some((i, c)) = chars.next() {
        if c != '$' {
            continue;
        }
        out.push(&text[plain_from..i]);
        let rest = &text[i + 1..];
        let (reference, len) = match rest.chars().next() {
            Some('$') => {
                out.push("$");
                (None, 1)
            }
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                match matching(rest, open, close) {
                    Some(end) => (Some(&rest[1..end]), end + 1),
                    None => (Some(rest), rest.len()),
                }
            }
            Some(ch) => (Some(&rest[..ch.len_utf8()]), ch.len_utf8()),
            None => (None, 0),
        };
        if let Some(r) = reference {
            match vars.get(r.trim()) {
                Some(v) if depth < 16 => expand(v, vars, out, depth + 1),
                _ => out.unknown(&format!("$({r})")),
            }
        }
        // Skip what the reference consumed.
        let consumed_to = i + 1 + len;
        while chars.peek().is_some_and(|(j, _)| *j < consumed_to) {
            chars.next();
        }
        plain_from = consumed_to.min(text.len());
    }
    out.push(&text[plain_from..]);
}

/// The index of the bracket closing the one `s` starts with.
fn matching(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_with_make_variables() {
        let text = "YTT ?= ytt\nCONFIG := config\nVALUES = $(CONFIG)/values.yml\n\n\
                    render: deps\n\t@$(YTT) -f $(CONFIG) \\\n\t  -f $(VALUES) -v v=$(VERSION) | kapp deploy -f-\n\
                    \techo $$HOME\n";
        let s = snippets("deploy/Makefile", text, &|t| t.contains("ytt"));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line_offset, 5);
        assert!(s[0]
            .text
            .starts_with("ytt -f config \\\n\t  -f config/values.yml -v v=${__yttlint_0}"));
        assert_eq!(s[0].vars[0].1.to_string(), "$(VERSION)");
        assert_eq!(s[0].cwd.to_string(), "deploy");
    }

    #[test]
    fn functions_and_automatic_variables_are_unknown() {
        let s = snippets("Makefile", "x:\n\tytt -f $(shell pwd)/a -f $@\n", &|t| {
            t.contains("ytt")
        });
        assert_eq!(s[0].text, "ytt -f ${__yttlint_0}/a -f ${__yttlint_1}");
        assert_eq!(s[0].vars[0].1.to_string(), "$(shell pwd)");
    }
}
