//! Makefiles (`Makefile`, `makefile`, `GNUmakefile`, `*.mk`): the recipe lines, each a shell
//! of its own run in the Makefile's directory, with make's variables expanded as make would
//! (`$(VAR)`, `${VAR}`, `$$`), and the automatic variables of their rule (`$@`, `$<`, `$^`).
//! A pattern rule (`test-%: ; ytt -f ../lib/$* -f $*`) is made once for each target of the
//! file it matches (`all: test-redis test-web` gives `$*` = `redis`, then `web`). A variable
//! the file does not define or a function (`$(shell ...)`) is a value known only at run time,
//! but for the idioms that name the Makefile's own directory (see `make_here.rs`). The lines a
//! `define` block makes through `$(eval $(call NAME,…))` are read where the call is, at the
//! block's own lines (see `make_define.rs`).

use std::collections::{HashMap, VecDeque};

use super::index::Index;
use super::make_define;
use super::make_here::Here;
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
            let value = without_comment(&line[at + op.len()..])
                .trim()
                .replace("\\\n", " ");
            return Some((name.to_string(), value, op == "+="));
        }
    }
    None
}

/// A definition's value without its comment, as make reads it: `#` starts a comment that
/// runs to the end (`30951 # matches kind.yaml` is `30951`), but for `\#`, a `#` written, and
/// one inside a variable reference or function call (`$(shell grep '#' f)`), which is kept.
fn without_comment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut depth = 0usize;
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'#') => {
                out.push('#');
                chars.next();
                continue;
            }
            '#' if depth == 0 => break,
            // `$$` is a `$` written, never a reference.
            '$' if chars.peek() == Some(&'$') => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
                continue;
            }
            '$' if matches!(chars.peek(), Some('(' | '{')) => {
                out.push(c);
                if let Some(open) = chars.next() {
                    out.push(open);
                }
                depth += 1;
                continue;
            }
            '(' | '{' if depth > 0 => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            _ => {}
        }
        out.push(c);
    }
    out
}

/// The snippets of the Makefile at repository-relative `path`.
/// Recipes are kept when `mentions` says their text may run ytt.
pub fn snippets(path: &str, text: &str, mentions: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    snippets_in(path, text, mentions, None)
}

/// [`snippets`], with the targets the file's functions name over the repository's walk
/// `index` (`$(wildcard app/*)`, see `make_wildcard.rs`).
pub fn snippets_in(
    path: &str,
    text: &str,
    mentions: &dyn Fn(&str) -> bool,
    index: Option<&Index>,
) -> Vec<Snippet> {
    let dir = paths::parent(path);
    let cwd = Word::lit(if dir == "." {
        REPO.to_string()
    } else {
        format!("{REPO}/{dir}")
    });
    let here = super::make_here::Here::of(path, text, cwd.clone());
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("MAKE".into(), "make".into());
    let mut recipes: Vec<(u32, String, Option<usize>)> = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    // `define` blocks, and the lines their `$(eval $(call …))` make (see `make_define.rs`).
    let mut defines = make_define::Defines::new();
    let mut block: Option<(String, make_define::Lines, usize)> = None;
    let no_files = Index::new(std::iter::empty::<&str>());
    let walk = super::make_wildcard::Walk {
        index: index.unwrap_or(&no_files),
        dir,
    };
    let mut made = 0usize;
    let mut lines: VecDeque<(u32, String)> = logical_lines(text).into();
    while let Some((line, text)) = lines.pop_front() {
        if let Some((name, body, depth)) = block.as_mut() {
            if make_define::closes(&text) && *depth == 0 {
                defines.insert(std::mem::take(name), std::mem::take(body));
                block = None;
                continue;
            }
            if make_define::closes(&text) {
                *depth -= 1;
            } else if make_define::opened(&text).is_some() {
                *depth += 1;
            }
            body.push((line, text));
            continue;
        }
        if let Some(recipe) = text.strip_prefix('\t') {
            let rule = rules.len().checked_sub(1);
            recipes.push((line, recipe.to_string(), rule));
            continue;
        }
        let trimmed = text.trim_start();
        if let Some(name) = make_define::opened(trimmed) {
            block = Some((name, Vec::new(), 0));
        } else if let Some(more) = trimmed
            .starts_with("$(")
            .then(|| make_define::instantiated(trimmed, &defines, &vars, &walk))
            .flatten()
            .filter(|m| made + m.len() <= make_define::MAX_LINES)
        {
            made += more.len();
            for l in more.into_iter().rev() {
                lines.push_front(l);
            }
        } else if let Some((name, value, append)) = definition(trimmed) {
            let value = match (append, vars.get(&name)) {
                (true, Some(old)) => format!("{old} {value}"),
                _ => value,
            };
            vars.insert(name, value);
        } else if let Some(rule) = rule_line(trimmed) {
            rules.push(rule);
        }
    }
    let mut names: Vec<&str> = rules
        .iter()
        .flat_map(|r| r.targets.iter().chain(&r.prerequisites))
        .map(String::as_str)
        .filter(|n| !n.contains(['%', '$']))
        .collect();
    let computed = match index {
        Some(index) => {
            let pairs: Vec<(Vec<String>, Vec<String>)> = rules
                .iter()
                .map(|r| (r.targets.clone(), r.prerequisites.clone()))
                .collect();
            let walk = super::make_wildcard::Walk { index, dir };
            super::make_wildcard::computed_names(&pairs, &names, &vars, &walk)
        }
        None => Vec::new(),
    };
    names.extend(computed.iter().map(String::as_str));
    let mut out = Vec::new();
    for (line, recipe, rule) in recipes {
        let recipe = recipe.trim_start_matches(['@', '-', '+']);
        if !mentions(recipe) && !recipe.contains('$') {
            continue;
        }
        let instances = match rule.and_then(|r| rules.get(r)) {
            Some(r) => r.instances(&names),
            None => vec![HashMap::new()],
        };
        for automatic in instances {
            let mut all = vars.clone();
            all.extend(automatic);
            let mut m = Marked::default();
            expand(recipe, &all, &here, &mut m, 0);
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
    }
    out
}

/// The most targets one pattern rule is made for (a test rule over a wildcard's folders
/// runs for each of them).
const MAX_INSTANCES: usize = 300;

/// A rule's line: its targets and prerequisites.
#[derive(Debug, PartialEq)]
struct Rule {
    targets: Vec<String>,
    prerequisites: Vec<String>,
}

impl Rule {
    /// The automatic variables of each time the rule's recipe runs: once for a plain rule,
    /// once per matching target named in the file for a pattern rule (none named: once, with
    /// the stem unknown).
    fn instances(&self, names: &[&str]) -> Vec<HashMap<String, String>> {
        let first_prereq = self.prerequisites.first().cloned();
        let all_prereqs = self.prerequisites.join(" ");
        let vars = |target: &str, stem: Option<&str>| {
            let mut v = HashMap::new();
            v.insert("@".to_string(), target.to_string());
            if let Some(s) = stem {
                v.insert("*".to_string(), s.to_string());
                let p = |x: &String| x.replace('%', s);
                if let Some(f) = &first_prereq {
                    v.insert("<".to_string(), p(f));
                }
                let prereqs: Vec<String> = self.prerequisites.iter().map(p).collect();
                v.insert("^".to_string(), prereqs.join(" "));
            } else {
                if let Some(f) = &first_prereq {
                    v.insert("<".to_string(), f.clone());
                }
                v.insert("^".to_string(), all_prereqs.clone());
            }
            v
        };
        let Some(pattern) = self.targets.iter().find(|t| t.contains('%')) else {
            return match self.targets.first() {
                Some(t) if !t.contains('$') => vec![vars(t, None)],
                _ => vec![HashMap::new()],
            };
        };
        let (pre, post) = pattern.split_once('%').unwrap_or((pattern, ""));
        let mut out: Vec<HashMap<String, String>> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for name in names {
            let Some(stem) = name.strip_prefix(pre).and_then(|r| r.strip_suffix(post)) else {
                continue;
            };
            if stem.is_empty() || seen.contains(name) || out.len() >= MAX_INSTANCES {
                continue;
            }
            seen.push(name);
            out.push(vars(name, Some(stem)));
        }
        if out.is_empty() {
            out.push(HashMap::new());
        }
        out
    }
}

/// A rule's line (`a b: c d`, `x:: y`, `t: p ; recipe`); `None` for anything else.
fn rule_line(line: &str) -> Option<Rule> {
    if line.starts_with('#') || line.starts_with('.') && !line.starts_with("./") {
        return None;
    }
    let line = line.split(';').next().unwrap_or(line);
    let line = line.split('#').next().unwrap_or(line);
    let at = line.find(':')?;
    let (targets, rest) = (&line[..at], line[at..].trim_start_matches(':'));
    if targets.trim().is_empty() || rest.starts_with('=') {
        return None;
    }
    // An order-only bar separates prerequisites; a target-specific variable is no rule.
    if rest.contains('=') {
        return None;
    }
    let words = |s: &str| -> Vec<String> {
        s.split_whitespace()
            .filter(|w| *w != "|")
            .map(str::to_string)
            .collect()
    };
    Some(Rule {
        targets: words(targets),
        prerequisites: words(rest),
    })
}

/// Make's expansion of `text` into `out`.
fn expand(text: &str, vars: &HashMap<String, String>, here: &Here, out: &mut Marked, depth: usize) {
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
            let substituted = super::make_wildcard::substitution(r, vars);
            match (vars.get(r.trim()), substituted, here.names(r)) {
                (Some(v), _, _) if depth < 16 => expand(v, vars, here, out, depth + 1),
                (None, Some(v), _) => out.push(&v),
                (None, None, Some((dir, slash))) => {
                    out.known(dir);
                    if slash {
                        out.push("/");
                    }
                }
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
pub(super) fn matching(s: &str, open: char, close: char) -> Option<usize> {
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
    fn a_pattern_rule_runs_for_each_target_the_file_names() {
        let text = "all:: test-redis test-web\n\ntest-%::\n\tytt -f ../lib/$* -f $*\n\nout/%.yml: %/values.yml\n\tytt -f config -f $< > $@\n";
        let s = snippets("tests/Makefile", text, &|t| t.contains("ytt"));
        let texts: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "ytt -f ../lib/redis -f redis",
                "ytt -f ../lib/web -f web",
                "ytt -f config -f ${__yttlint_0} > ${__yttlint_1}"
            ]
        );
        assert_eq!(s[0].line_offset, 3);
    }

    #[test]
    fn a_plain_rule_knows_its_target_and_prerequisites() {
        let text = "out/app.yml: config/values.yml\n\tytt -f config -f $< > $@\n";
        let s = snippets("Makefile", text, &|t| t.contains("ytt"));
        assert_eq!(
            s[0].text,
            "ytt -f config -f config/values.yml > out/app.yml"
        );
        assert_eq!(rule_line("X := 1"), None);
        assert_eq!(rule_line("t: V=1"), None);
    }

    #[test]
    fn functions_and_automatic_variables_are_unknown() {
        let s = snippets("Makefile", "x:\n\tytt -f $(shell date)/a -f $@\n", &|t| {
            t.contains("ytt")
        });
        assert_eq!(s[0].text, "ytt -f ${__yttlint_0}/a -f x");
        assert_eq!(s[0].vars[0].1.to_string(), "$(shell date)");
    }

    #[test]
    fn a_comment_after_a_value_is_no_part_of_it() {
        // hoegaarden/harbor-replication's shape: make reads `30951`, and the recipe's
        // continuation lines stay one command.
        let text = "PORT ?= 30951 # must match kind.yml\nIP ?= 10.96.255.254\n\n\
                    up:\n\tcurl -fsL $(URL) \\\n\t\t| ytt -f - -f patch.yml \\\n\t\t\t-v port=$(PORT) \\\n\t\t\t-v ip=$(IP) \\\n\t\t| kubectl apply -f -\n";
        let s = snippets("Makefile", text, &|t| t.contains("ytt"));
        assert!(s[0].text.contains("-v port=30951 \\\n"), "{}", s[0].text);
        assert!(s[0].text.contains("-v ip=10.96.255.254"), "{}", s[0].text);
    }

    #[test]
    fn a_hash_written_or_inside_a_reference_stays() {
        assert_eq!(without_comment(" a\\#b # c"), " a#b ");
        assert_eq!(
            without_comment(" $(shell grep '#' f) # c"),
            " $(shell grep '#' f) "
        );
        assert_eq!(without_comment(" ${X#y}"), " ${X#y}");
        assert_eq!(without_comment(" $$(a) # c"), " $$(a) ");
        assert_eq!(without_comment("#all"), "");
    }
}
