//! Follows a shell script, without running it, to the `ytt` commands it runs: the script is
//! parsed with tree-sitter's bash grammar, then its statements are walked in order with an
//! [`Env`] that tracks assignments, `cd`/`pushd`, `if` branches (with the file tests that
//! guard them), `for` loops over word lists, `case` arms, functions (followed where they are
//! called, with their arguments) and `bash -c` strings. A `ytt` command anywhere (in a
//! pipeline, a `$(...)`, a `<(...)`) becomes a [`Call`] with its arguments as [`Word`]s.
//! Branches and loops are followed in [`super::flow`], words expanded in [`super::expand`].

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Parser};

use super::env::{Alt, Cond, Env, Test};
use super::word::Word;

/// Scripts larger than this are not read (a script is a few kilobytes).
pub const MAX_SCRIPT: usize = 1 << 20;
/// How deep the walk follows nested statements, expansions and calls.
const MAX_DEPTH: usize = 200;
/// The most argument combinations one command is expanded into.
const MAX_COMBINATIONS: usize = 16;
/// The most statements followed in one script (functions calling themselves twice would
/// otherwise take exponential time), and the most `ytt` commands taken from it.
const MAX_STEPS: usize = 100_000;
const MAX_CALLS: usize = 1_000;

/// A `ytt` command found in a script.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Call {
    /// Line in the file (from 1).
    pub line: u32,
    /// The arguments after `ytt`.
    pub args: Vec<Word>,
    /// The working directory (`None`: unknown).
    pub cwd: Option<Word>,
    /// File tests that must hold for the command to run this way.
    pub when: Vec<Cond>,
}

/// Where a script is.
#[derive(Clone, Debug)]
pub struct Context {
    /// The script's own path, for `$0` and `${BASH_SOURCE[0]}`.
    pub script: Word,
    /// Added to line numbers (the line before the script's first line in its file).
    pub line_offset: u32,
}

/// The `ytt` commands of the script `src`, starting in `env`.
pub fn calls(src: &str, ctx: &Context, env: Env) -> Result<Vec<Call>, String> {
    if src.len() > MAX_SCRIPT {
        return Err(format!("larger than {} KiB", MAX_SCRIPT >> 10));
    }
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|e| format!("cannot load the bash grammar: {e}"))?;
    let tree = parser
        .parse(src, None)
        .ok_or_else(|| "the bash parser gave up".to_string())?;
    let mut it = Interp {
        src: src.as_bytes(),
        ctx,
        calls: Vec::new(),
        functions: HashMap::new(),
        called: HashSet::new(),
        guards: Vec::new(),
        depth: 0,
        steps: 0,
    };
    let mut env = env;
    it.stmt(tree.root_node(), &mut env);
    // Functions nobody calls here (a library of functions) are followed once, with unknown
    // arguments.
    let mut uncalled: Vec<(String, Node)> = it
        .functions
        .iter()
        .filter(|(name, _)| !it.called.contains(*name))
        .map(|(n, b)| (n.clone(), *b))
        .collect();
    uncalled.sort_by_key(|(_, b)| b.start_byte());
    for (_, body) in uncalled {
        let mut fenv = env.clone();
        fenv.positional = None;
        it.stmt(body, &mut fenv);
    }
    let mut calls = it.calls;
    calls.sort();
    calls.dedup();
    Ok(calls)
}

/// The walk's state: what it found and where it is.
pub(super) struct Interp<'t> {
    pub(super) src: &'t [u8],
    pub(super) ctx: &'t Context,
    pub(super) calls: Vec<Call>,
    functions: HashMap<String, Node<'t>>,
    called: HashSet<String>,
    /// Conditions of the enclosing `if` branches.
    pub(super) guards: Vec<Cond>,
    pub(super) depth: usize,
    /// Statements followed so far (see [`MAX_STEPS`]).
    steps: usize,
}

impl<'t> Interp<'t> {
    pub(super) fn text(&self, n: Node<'t>) -> &'t str {
        n.utf8_text(self.src).unwrap_or("")
    }

    fn line(&self, n: Node<'t>) -> u32 {
        let row = u32::try_from(n.start_position().row).unwrap_or(u32::MAX - 1);
        row.saturating_add(1).saturating_add(self.ctx.line_offset)
    }

    /// Follows one statement (or a list of them).
    pub(super) fn stmt(&mut self, n: Node<'t>, env: &mut Env) {
        self.steps += 1;
        if self.depth > MAX_DEPTH || self.steps > MAX_STEPS || self.calls.len() >= MAX_CALLS {
            return;
        }
        self.depth += 1;
        match n.kind() {
            "program"
            | "compound_statement"
            | "do_group"
            | "list"
            | "negated_command"
            | "redirected_statement" => self.children(n, env),
            "subshell" | "pipeline" => {
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    let mut sub = env.clone();
                    self.stmt(child, &mut sub);
                }
            }
            "command" => self.command(n, env),
            "variable_assignment" => self.assign(n, env),
            "variable_assignments" | "declaration_command" => {
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    if child.kind() == "variable_assignment" {
                        self.assign(child, env);
                    }
                }
            }
            "unset_command" => {
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    env.unset(self.text(child));
                }
            }
            "if_statement" => self.if_statement(n, env),
            "for_statement" => self.for_statement(n, env),
            "while_statement" | "until_statement" | "c_style_for_statement" => {
                // `while [ -h "$SOURCE" ]` (resolving the script's symlinks): the linter reads
                // no symlinks, so such a loop never runs for it.
                let mut c = n.walk();
                let cond = n.named_children(&mut c).next();
                let never = n.kind() == "while_statement"
                    && cond
                        .and_then(|c| self.condition(c, env))
                        .is_some_and(|c| c.test == Test::Symlink && c.holds);
                if !never {
                    let mut body = env.clone();
                    self.children(n, &mut body);
                    *env = Env::merge(env, vec![(body, Vec::new()), (env.clone(), Vec::new())]);
                }
            }
            "case_statement" => self.case_statement(n, env),
            "function_definition" => {
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                if let (Some(name), Some(body)) = (kids.first(), kids.last()) {
                    self.functions.insert(self.text(*name).to_string(), *body);
                }
            }
            "file_redirect" | "herestring_redirect" => {
                // `< <(ytt ...)`: a command inside a redirection still runs.
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    self.expand(child, env, false);
                }
            }
            _ => {}
        }
        self.depth -= 1;
    }

    pub(super) fn children(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        for child in kids {
            self.stmt(child, env);
        }
    }

    fn assign(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let Some(name) = kids.first() else { return };
        let name = self.text(*name).to_string();
        let alts = match kids.get(1) {
            None => vec![Alt::plain(Word::default())],
            Some(v) if v.kind() == "array" => vec![Alt::plain(Word::unknown(format!("${name}")))],
            // An assignment's value is not split into fields, and its globs are not expanded.
            Some(v) => self
                .expand(*v, env, true)
                .into_iter()
                .map(|e| Alt {
                    word: e.joined(),
                    when: e.when,
                })
                .collect(),
        };
        let append = self.text(n).contains("+=");
        let alts = match (append, env.get(&name)) {
            (true, Some(old)) => concat_alts(old, &alts),
            _ => alts,
        };
        env.set(&name, alts);
    }

    fn command(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let mut words: Vec<Vec<super::expand::Exp>> = Vec::new();
        for child in kids {
            match child.kind() {
                // `FOO=bar cmd`: only cmd's environment; nothing to track.
                "variable_assignment" => {}
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    self.stmt(child, env);
                }
                "command_name" => {
                    let mut c2 = child.walk();
                    let inner: Vec<Node> = child.named_children(&mut c2).collect();
                    let exps = match inner.first() {
                        Some(i) => self.expand(*i, env, false),
                        None => Vec::new(),
                    };
                    words.push(exps);
                }
                _ => words.push(self.expand(child, env, false)),
            }
        }
        let line = self.line(n);
        let combos = super::expand::combine(words, MAX_COMBINATIONS);
        let single = combos.len() == 1;
        for (fields, when) in combos {
            self.run(line, &fields, when, env, single);
        }
    }

    /// Runs one expanded command line.
    fn run(&mut self, line: u32, fields: &[Word], when: Vec<Cond>, env: &mut Env, single: bool) {
        let Some(name_word) = fields.first() else {
            return;
        };
        let args = &fields[1..];
        let name = name_word.literal();
        match name.as_deref() {
            Some("cd") => {
                let target = args.iter().find(|a| !a.literal_prefix().starts_with('-'));
                env.cwd = match (target, &env.cwd, single) {
                    (Some(t), Some(cwd), true) if t.literal().as_deref() != Some("-") => {
                        Some(t.relative_to(cwd))
                    }
                    _ => None,
                };
            }
            Some("pushd") => {
                env.dirs.push(env.cwd.clone());
                env.cwd = match (args.first(), &env.cwd, single) {
                    (Some(t), Some(cwd), true) => Some(t.relative_to(cwd)),
                    _ => None,
                };
            }
            Some("popd") => env.cwd = env.dirs.pop().flatten(),
            Some("read") => {
                for a in args.iter().filter_map(Word::literal) {
                    if !a.starts_with('-') {
                        env.set(&a, vec![Alt::plain(Word::unknown(format!("${a}")))]);
                    }
                }
            }
            Some("sudo" | "time" | "exec" | "command" | "nohup" | "nice" | "env") => {
                let rest: Vec<Word> = args
                    .iter()
                    .skip_while(|a| {
                        let l = a.literal_prefix();
                        l.starts_with('-') || (name.as_deref() == Some("env") && l.contains('='))
                    })
                    .cloned()
                    .collect();
                self.run(line, &rest, when, env, single);
            }
            Some("bash" | "sh" | "zsh") => self.shell_c(args, env),
            Some(n) if self.functions.contains_key(n) => self.call_function(n, args, env),
            _ if is_ytt(name_word) => {
                let mut all = self.guards.clone();
                all.extend(when);
                all.sort();
                all.dedup();
                self.calls.push(Call {
                    line,
                    args: args.to_vec(),
                    cwd: env.cwd.clone(),
                    when: all,
                });
            }
            _ => {}
        }
    }

    /// `bash -c 'script'`: the string is a script of its own, run in a copy of the state.
    fn shell_c(&mut self, args: &[Word], env: &Env) {
        let Some(i) = args
            .iter()
            .position(|a| a.literal().as_deref() == Some("-c"))
        else {
            return;
        };
        let Some(script) = args.get(i + 1).and_then(Word::literal) else {
            return;
        };
        if self.depth > MAX_DEPTH / 2 {
            return;
        }
        let ctx = Context {
            script: self.ctx.script.clone(),
            line_offset: self.ctx.line_offset,
        };
        if let Ok(found) = calls(&script, &ctx, env.clone()) {
            self.calls.extend(found);
        }
    }

    fn call_function(&mut self, name: &str, args: &[Word], env: &mut Env) {
        let Some(body) = self.functions.get(name).copied() else {
            return;
        };
        self.called.insert(name.to_string());
        if self.depth > MAX_DEPTH / 2 {
            return;
        }
        let saved = env.positional.replace(args.to_vec());
        self.stmt(body, env);
        env.positional = saved;
    }
}

/// Whether a command name runs ytt: `ytt`, `./bin/ytt`, `$YTT`, `$(YTT)`.
fn is_ytt(name: &Word) -> bool {
    if let Some(l) = name.literal() {
        return l == "ytt" || l.ends_with("/ytt");
    }
    let lowered = name.to_string().to_ascii_lowercase();
    let tail = lowered.rsplit('/').next().unwrap_or("");
    tail.contains("ytt") && !tail.contains("version")
}

fn concat_alts(old: &[Alt], new: &[Alt]) -> Vec<Alt> {
    let mut out = Vec::new();
    for a in old {
        for b in new {
            let mut w = a.word.clone();
            w.extend(&b.word);
            let mut when = a.when.clone();
            when.extend(b.when.iter().cloned());
            out.push(Alt { word: w, when });
        }
    }
    out
}

#[cfg(test)]
#[path = "shell_tests.rs"]
mod tests;
