//! Word expansion as the shell does it, without running anything: quotes, `$VAR`,
//! `${VAR:-default}` and the other parameter forms, `$0`, `$(dirname "$0")`,
//! `$(cd ... && pwd)`, `$(git rev-parse --show-toplevel)`, field splitting of unquoted
//! values. What cannot be known (an environment variable, another command's output) becomes
//! an unknown piece. A `ytt` inside `$(...)` or `<(...)` is still followed.

use tree_sitter::Node;

use super::env::{Alt, Cond, Env};
use super::shell::Interp;
use super::word::{Piece, Word, REPO};

/// One way a word can expand: its fields and the conditions under which it does.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exp {
    pub fields: Vec<Word>,
    pub when: Vec<Cond>,
}

impl Exp {
    fn one(word: Word) -> Vec<Exp> {
        vec![Exp {
            fields: vec![word],
            when: Vec::new(),
        }]
    }

    /// The fields as one word (as an assignment or a quoted string keeps them).
    pub fn joined(&self) -> Word {
        let mut out = Word::default();
        for (i, f) in self.fields.iter().enumerate() {
            if i > 0 {
                out.push_lit(" ", false);
            }
            out.extend(f);
        }
        out
    }
}

/// Every combination of the words' expansions, as command lines with their conditions; at
/// most `max` of them (the first ones).
pub fn combine(words: Vec<Vec<Exp>>, max: usize) -> Vec<(Vec<Word>, Vec<Cond>)> {
    let mut out: Vec<(Vec<Word>, Vec<Cond>)> = vec![(Vec::new(), Vec::new())];
    for exps in words {
        if exps.is_empty() {
            continue;
        }
        let mut next = Vec::new();
        for (fields, when) in &out {
            for e in &exps {
                let mut f = fields.clone();
                f.extend(e.fields.iter().cloned());
                let mut w = when.clone();
                w.extend(e.when.iter().cloned());
                next.push((f, w));
                if next.len() >= max {
                    break;
                }
            }
        }
        out = next;
    }
    out
}

/// `a` then `b`, the last field of `a` joined to the first of `b` (as `"$x"/y` concatenates).
pub(super) fn concat(a: Vec<Exp>, b: Vec<Exp>) -> Vec<Exp> {
    let mut out = Vec::new();
    for x in &a {
        for y in &b {
            let mut fields = x.fields.clone();
            let mut rest = y.fields.iter();
            match (fields.last_mut(), rest.next()) {
                (Some(last), Some(first)) => last.extend(first),
                (None, Some(first)) => fields.push(first.clone()),
                _ => {}
            }
            fields.extend(rest.cloned());
            let mut when = x.when.clone();
            when.extend(y.when.iter().cloned());
            out.push(Exp { fields, when });
        }
    }
    out.truncate(super::env::MAX_ALTS);
    out
}

/// Backslash escapes of unquoted text.
fn unescape(text: &str, quoted: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {}
            Some(n) if !quoted || matches!(n, '"' | '\\' | '$' | '`') => out.push(n),
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => out.push('\\'),
        }
    }
    out
}

impl<'t> Interp<'t> {
    /// The expansions of one word node. `quoted` when it is inside double quotes or is an
    /// assignment's value (no field splitting, no globbing).
    pub(super) fn expand(&mut self, n: Node<'t>, env: &mut Env, quoted: bool) -> Vec<Exp> {
        self.depth += 1;
        let out = self.expand_inner(n, env, quoted);
        self.depth -= 1;
        out
    }

    fn expand_inner(&mut self, n: Node<'t>, env: &mut Env, quoted: bool) -> Vec<Exp> {
        let text = self.text(n);
        if self.depth > 200 {
            return Exp::one(Word::unknown(text));
        }
        match n.kind() {
            "word" | "number" | "extglob_pattern" => {
                let mut w = Word::default();
                if let Some(rest) = text.strip_prefix('~') {
                    w.0.push(Piece::Unknown("~".into()));
                    w.push_lit(&unescape(rest, quoted), !quoted);
                } else {
                    w.push_lit(&unescape(text, quoted), !quoted);
                }
                Exp::one(w)
            }
            "raw_string" => {
                let inner = text.strip_prefix('\'').unwrap_or(text);
                let inner = inner.strip_suffix('\'').unwrap_or(inner);
                Exp::one(Word::lit(inner))
            }
            "ansi_c_string" => {
                let inner = text.trim_start_matches('$').trim_matches('\'');
                Exp::one(Word::lit(unescape(inner, false)))
            }
            "string_content" => {
                let mut w = Word::default();
                w.push_lit(&unescape(text, true), false);
                Exp::one(w)
            }
            "string" | "translated_string" => {
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                let mut acc = Exp::one(Word::default());
                for k in kids {
                    let part = self.expand(k, env, true);
                    // `"$@"` stays one field per argument.
                    let all = matches!(self.text(k), "$@" | "${@}");
                    acc = concat(acc, if all { part } else { joined(part) });
                }
                acc
            }
            "concatenation" => {
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                let mut acc = vec![Exp::default()];
                for k in kids {
                    let part = self.expand(k, env, quoted);
                    acc = concat(acc, part);
                }
                acc
            }
            "simple_expansion" => {
                let mut c = n.walk();
                let name = n
                    .named_children(&mut c)
                    .next()
                    .map(|v| self.text(v))
                    .unwrap_or("");
                self.variable(name, env, quoted)
            }
            "expansion" => self.parameter(n, env, quoted),
            "command_substitution" => self.substitution(n, env),
            "process_substitution" => {
                let mut sub = env.clone();
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                for k in kids {
                    self.stmt(k, &mut sub);
                }
                Exp::one(Word::unknown(text))
            }
            _ => Exp::one(Word::unknown(text)),
        }
    }

    /// `$name`, split into fields unless quoted.
    pub(super) fn variable(&mut self, name: &str, env: &Env, quoted: bool) -> Vec<Exp> {
        let alts: Vec<Alt> = match name {
            "0" => vec![Alt::plain(self.zero.clone())],
            "BASH_SOURCE" => vec![Alt::plain(
                self.here
                    .map_or_else(|| self.ctx.script.clone(), |p| p.word()),
            )],
            "@" | "*" => return all_arguments(name, env, quoted),
            "PWD" => vec![Alt::plain(
                env.cwd.clone().unwrap_or_else(|| Word::unknown("$PWD")),
            )],
            _ => match env.get(name) {
                Some(a) => a.to_vec(),
                None => vec![Alt::plain(positional(name, env))],
            },
        };
        alts.into_iter()
            .map(|a| {
                let fields = if quoted {
                    vec![a.word]
                } else {
                    globbing(&a.word).split_fields()
                };
                Exp {
                    fields,
                    when: a.when,
                }
            })
            .collect()
    }

    /// `${...}`: the forms a script uses to give defaults and cut paths.
    fn parameter(&mut self, n: Node<'t>, env: &mut Env, quoted: bool) -> Vec<Exp> {
        let text = self.text(n);
        let unknown = || Exp::one(Word::unknown(text));
        if text.starts_with("${#") || text.starts_with("${!") {
            return unknown();
        }
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let Some(name_node) = kids.iter().find(|k| k.is_named()) else {
            return unknown();
        };
        let name = match name_node.kind() {
            "variable_name" | "special_variable_name" => self.text(*name_node).to_string(),
            "subscript" if self.text(*name_node).starts_with("BASH_SOURCE") => {
                "BASH_SOURCE".to_string()
            }
            _ => return unknown(),
        };
        let after: Vec<Node> = kids
            .iter()
            .copied()
            .skip_while(|k| k.id() != name_node.id())
            .skip(1)
            .filter(|k| k.kind() != "}")
            .collect();
        let Some(op) = after.first() else {
            return self.variable(&name, env, quoted);
        };
        let rest: Vec<Node> = after[1..]
            .iter()
            .copied()
            .filter(|k| k.is_named())
            .collect();
        let argument = name
            .parse::<usize>()
            .ok()
            .filter(|i| *i > 0)
            .and_then(|i| env.positional.as_ref()?.get(i - 1));
        let known = env.get(&name).is_some()
            || matches!(name.as_str(), "0" | "BASH_SOURCE")
            || argument.is_some_and(|a| !a.is_empty());
        match op.kind() {
            ":-" | "-" | ":=" | "=" => {
                if known {
                    return self.variable(&name, env, quoted);
                }
                let mut default = self.words(&rest, env);
                if !quoted {
                    // The default stands for the value the variable usually has: set in the
                    // environment, an unquoted expansion of it would be split into fields
                    // (`for v in ${variants:-"release pr"}` is meant to loop twice).
                    for e in &mut default {
                        e.fields = e
                            .fields
                            .iter()
                            .flat_map(|f| globbing(f).split_fields())
                            .collect();
                    }
                }
                if op.kind().ends_with('=') {
                    let alts = default
                        .iter()
                        .map(|e| Alt {
                            word: e.joined(),
                            when: e.when.clone(),
                        })
                        .collect();
                    env.set(&name, alts);
                }
                default
            }
            "%" | "%%" | "#" | "##" => {
                let pattern = rest.first().map(|r| self.text(*r)).unwrap_or("");
                let base = self.variable(&name, env, true);
                base.into_iter()
                    .map(|e| Exp {
                        fields: vec![trim(&e.joined(), op.kind(), pattern)],
                        when: e.when,
                    })
                    .collect()
            }
            _ => unknown(),
        }
    }

    /// The nodes of a default value, concatenated.
    fn words(&mut self, nodes: &[Node<'t>], env: &mut Env) -> Vec<Exp> {
        let mut acc = Exp::one(Word::default());
        for n in nodes {
            let part = self.expand(*n, env, true);
            acc = concat(acc, joined(part));
        }
        acc
    }

    /// `$(...)`: a directory when the linter can tell it, else unknown; ytt commands inside
    /// are followed either way.
    fn substitution(&mut self, n: Node<'t>, env: &mut Env) -> Vec<Exp> {
        let text = self.text(n);
        let body = text
            .strip_prefix("$(")
            .and_then(|t| t.strip_suffix(')'))
            .or_else(|| text.strip_prefix('`').and_then(|t| t.strip_suffix('`')))
            .unwrap_or("")
            .trim();
        let mut sub = env.clone();
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let first = kids.first().copied();
        for k in &kids {
            self.stmt(*k, &mut sub);
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        match words.as_slice() {
            ["git", "rev-parse", "--show-toplevel"] => return Exp::one(Word::lit(REPO)),
            ["pwd"] | ["pwd", "-P"] => {
                return Exp::one(env.cwd.clone().unwrap_or_else(|| Word::unknown(text)))
            }
            _ => {}
        }
        if body.ends_with("&& pwd") || body.ends_with("; pwd") || body.ends_with("&& pwd -P") {
            return Exp::one(sub.cwd.unwrap_or_else(|| Word::unknown(text)));
        }
        let (Some(cmd), true) = (first, kids.len() == 1) else {
            return Exp::one(Word::unknown(text));
        };
        if cmd.kind() != "command" {
            return Exp::one(Word::unknown(text));
        }
        let mut c2 = cmd.walk();
        let parts: Vec<Node> = cmd.named_children(&mut c2).collect();
        let name = parts.first().map(|p| self.text(*p)).unwrap_or("");
        let args: Vec<Node> = parts
            .iter()
            .skip(1)
            .copied()
            .filter(|p| !self.text(*p).starts_with('-'))
            .collect();
        let [arg] = args.as_slice() else {
            return Exp::one(Word::unknown(text));
        };
        match name {
            // The last segment of a loop's entry (`$(basename "$p")`), known per entry.
            "basename" => self
                .expand(*arg, env, true)
                .into_iter()
                .map(|e| Exp {
                    fields: vec![super::entry_tests::basename(&e.joined())
                        .unwrap_or_else(|| Word::unknown(text))],
                    when: e.when,
                })
                .collect(),
            "dirname" => self
                .expand(*arg, env, true)
                .into_iter()
                .map(|e| Exp {
                    fields: vec![e.joined().dirname()],
                    when: e.when,
                })
                .collect(),
            "realpath" | "readlink" => {
                let Some(cwd) = env.cwd.clone() else {
                    return Exp::one(Word::unknown(text));
                };
                self.expand(*arg, env, true)
                    .into_iter()
                    .map(|e| Exp {
                        fields: vec![e.joined().relative_to(&cwd)],
                        when: e.when,
                    })
                    .collect()
            }
            _ => Exp::one(Word::unknown(text)),
        }
    }
}

/// A value expanded without quotes: its literal text takes on glob meaning.
fn globbing(w: &Word) -> Word {
    let mut out = Word::default();
    for p in &w.0 {
        match p {
            Piece::Lit { text, .. } => out.push_lit(text, true),
            Piece::Unknown(u) => out.0.push(Piece::Unknown(u.clone())),
        }
    }
    out
}

/// `$@` and `$*`: a function's or script's arguments, one field each (`"$*"`: one field), or
/// unknown when the linter does not know them.
fn all_arguments(name: &str, env: &Env, quoted: bool) -> Vec<Exp> {
    let Some(args) = &env.positional else {
        return Exp::one(Word::unknown(format!("${name}")));
    };
    let fields = match (quoted, name) {
        (true, "@") => args.clone(),
        (true, _) => vec![Exp {
            fields: args.clone(),
            when: Vec::new(),
        }
        .joined()],
        (false, _) => args
            .iter()
            .flat_map(|a| globbing(a).split_fields())
            .collect(),
    };
    vec![Exp {
        fields,
        when: Vec::new(),
    }]
}

/// Expansions made single-field (inside quotes).
fn joined(exps: Vec<Exp>) -> Vec<Exp> {
    exps.into_iter()
        .map(|e| Exp {
            fields: vec![e.joined()],
            when: e.when,
        })
        .collect()
}

/// `$1` and the other positional parameters: a function's arguments, or unknown.
fn positional(name: &str, env: &Env) -> Word {
    let index = name.parse::<usize>().ok().filter(|i| *i > 0);
    match (index, &env.positional) {
        (Some(i), Some(args)) => args
            .get(i - 1)
            .cloned()
            .unwrap_or_else(|| Word::unknown(format!("${name}"))),
        _ => Word::unknown(format!("${name}")),
    }
}

/// `${v%pat}` and friends, for a literal value and the patterns scripts use on paths: an
/// exact text, `/*` (the directory) and `*/` (the base name). Anything else is unknown.
fn trim(value: &Word, op: &str, pattern: &str) -> Word {
    let unknown = || Word::unknown(format!("${{{value}{op}{pattern}}}"));
    let Some(v) = value.literal() else {
        // `${f##*/}` of a loop's entry: its last segment, known per entry.
        if matches!(op, "#" | "##") && pattern == "*/" {
            return super::entry_tests::basename(value).unwrap_or_else(unknown);
        }
        return unknown();
    };
    let cut = match (op, pattern) {
        ("%" | "%%", "/*") => v.rfind('/').map(|i| v[..i].to_string()),
        ("#" | "##", "*/") => v.rfind('/').map(|i| v[i + 1..].to_string()),
        (_, p) if p.contains(['*', '?', '[']) => return unknown(),
        ("%" | "%%", p) => Some(v.strip_suffix(p).unwrap_or(&v).to_string()),
        ("#" | "##", p) => Some(v.strip_prefix(p).unwrap_or(&v).to_string()),
        _ => None,
    };
    match cut {
        Some(c) => Word::lit(c),
        None => Word::lit(v),
    }
}
