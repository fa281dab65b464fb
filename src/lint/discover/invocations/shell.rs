//! Follows a shell script, without running it, to the `ytt` commands it runs: the script is
//! parsed with tree-sitter's bash grammar, then its statements are walked in order with an
//! [`Env`] that tracks assignments, `cd`/`pushd`, `if` branches (with the file tests that
//! guard them), `for` loops over word lists, `case` arms, functions (followed where they are
//! called, with their arguments), `bash -c` strings, sourced files and other scripts it runs
//! (see [`super::commands`]). A `ytt` command anywhere (in a pipeline, a `$(...)`, a `<(...)`)
//! becomes a [`Call`] with its arguments as [`Word`]s. Branches and loops are followed in
//! [`super::flow`], words expanded in [`super::expand`].

use std::collections::{BTreeSet, HashMap, HashSet};

use tree_sitter::Node;

use super::env::{Alt, Cond, Env, Test};
use super::outputs::{Made, Stdin};
use super::script_set::{self, Parsed, ScriptSet};
use super::word::Word;

/// Scripts larger than this are not read (a script is a few kilobytes).
pub const MAX_SCRIPT: usize = 1 << 20;
/// How deep the walk follows nested statements, expansions and calls.
pub(super) const MAX_DEPTH: usize = 200;
/// The most argument combinations one command is expanded into.
const MAX_COMBINATIONS: usize = 16;
/// The most statements followed in one script (functions calling themselves twice would
/// otherwise take exponential time), and the most `ytt` commands taken from it.
const MAX_STEPS: usize = 100_000;
const MAX_CALLS: usize = 1_000;

/// A `ytt` command found in a script.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Call {
    /// Line in the file (from 1); for a command of another file the script entered, the line
    /// of the command that entered it.
    pub line: u32,
    /// The arguments after `ytt`.
    pub args: Vec<Word>,
    /// The working directory (`None`: unknown).
    pub cwd: Option<Word>,
    /// File tests that must hold for the command to run this way.
    pub when: Vec<Cond>,
    /// Found in this function, which nothing in the script calls (followed with unknown
    /// arguments).
    pub uncalled: Option<String>,
    /// What the command reads on its standard input (`-f -`).
    pub stdin: Option<Stdin>,
    /// Written in another file of the repository that the snippet entered (a script it runs
    /// or sources, a function of one), not in the snippet itself: a page that runs
    /// `./scripts/deploy.sh prod` chooses only the script's arguments.
    pub scripted: bool,
    /// For a command written in another file of the repository (see `scripted`), that file
    /// and the command's own line there.
    pub written: Option<(String, u32)>,
    /// The branch conditions its arguments' values were set under that the linter combined
    /// itself, each a variable and the value assumed (see `flags.rs`).
    pub chosen: Vec<(String, bool)>,
    /// Why the working directory is not certain: it was entered by a `cd` that runs only if
    /// a command fails or a test holds (see `conditional_cd.rs`).
    pub cwd_assumed: Option<String>,
}

impl Call {
    /// The command at `line` with arguments `args`, run from `cwd`, under no condition,
    /// written where it was found.
    pub fn new(line: u32, args: Vec<Word>, cwd: Option<Word>) -> Call {
        Call {
            line,
            args,
            cwd,
            when: Vec::new(),
            uncalled: None,
            stdin: None,
            scripted: false,
            written: None,
            chosen: Vec::new(),
            cwd_assumed: None,
        }
    }
}

/// A command that deploys files as they are, without ytt: `kapp deploy -f PATH`,
/// `kubectl apply -f PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deploy {
    pub line: u32,
    /// `kapp deploy` or `kubectl apply`.
    pub tool: String,
    /// The `-f` arguments.
    pub paths: Vec<Word>,
    pub cwd: Option<Word>,
    /// It reads directories' subdirectories too (kapp always, kubectl with `-R`).
    pub recursive: bool,
}

impl Call {
    /// Whether the command depends on the arguments of the script or function that runs it,
    /// which the linter does not know (`ytt -f "$1"`).
    pub fn uses_arguments(&self) -> bool {
        let positional = |u: &str| {
            let rest = u.strip_prefix("${").or_else(|| u.strip_prefix('$'));
            rest.and_then(|r| r.chars().next())
                .is_some_and(|c| c.is_ascii_digit() || c == '@' || c == '*')
        };
        self.args
            .iter()
            .chain(&self.cwd)
            .chain(self.when.iter().map(|c| &c.path))
            .any(|w| w.unknowns().any(positional))
    }
}

/// Another file a script entered: a script it ran, or a function of a file it called.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Entered {
    Script(String),
    Function { file: String, name: String },
}

/// Where a script is.
#[derive(Clone, Debug)]
pub struct Context {
    /// The script's own path, for `$0` and `${BASH_SOURCE[0]}`.
    pub script: Word,
    /// Added to line numbers (the line before the script's first line in its file).
    pub line_offset: u32,
}

/// What following a script found.
#[derive(Debug, Default)]
pub struct Followed {
    pub calls: Vec<Call>,
    /// `kapp deploy -f` and `kubectl apply -f` commands: files deployed without ytt.
    pub deploys: Vec<Deploy>,
    /// The other scripts and their functions it entered.
    pub entered: BTreeSet<Entered>,
    /// The paths its commands make (see [`super::outputs`]).
    pub made: Vec<Made>,
    /// Files it sources or runs, named from the directory it is started from
    /// (`source ../setup.sh`): they exist only from where it runs.
    pub anchors: Vec<Word>,
    /// What its `cp` and `rsync` commands copy, as written (see [`super::tree_copy`]).
    pub tree_copies: Vec<super::tree_copy::TreeCopy>,
    /// The templates its `envsubst` and `sed` commands render into other files (see
    /// [`super::rendered`]).
    pub rendered: Vec<super::rendered::Rendering>,
    /// The bundles its `imgpkg push` commands push from a folder (see
    /// [`super::bundle_push`]).
    pub pushes: Vec<super::bundle_push::Push>,
}

/// The `ytt` commands of the script `src`, starting in `env`, alone.
pub fn calls(src: &str, ctx: &Context, env: Env) -> Result<Vec<Call>, String> {
    follow(src, ctx, env, &ScriptSet::default(), None).map(|f| f.calls)
}

/// The `ytt` commands of the script `src`, starting in `env`, entering the repository's other
/// `scripts` where it runs them. With `site`, every command found is placed on that line (a
/// `bash -c` string).
pub fn follow(
    src: &str,
    ctx: &Context,
    env: Env,
    scripts: &ScriptSet,
    site: Option<u32>,
) -> Result<Followed, String> {
    if src.len() > MAX_SCRIPT {
        return Err(format!("larger than {} KiB", MAX_SCRIPT >> 10));
    }
    let tree = script_set::parse(src)?;
    let mut it = Interp::new(src.as_bytes(), ctx, scripts, site);
    let mut env = env;
    it.stmt(tree.root_node(), &mut env);
    // Functions nobody calls here (a library of functions) are followed once, with unknown
    // arguments.
    let mut uncalled: Vec<(String, Node)> = it
        .functions
        .iter()
        .filter(|(name, (_, file))| file.is_none() && !it.called.contains(*name))
        .map(|(n, (b, _))| (n.clone(), *b))
        .collect();
    uncalled.sort_by_key(|(_, b)| b.start_byte());
    for (name, body) in uncalled {
        let mut fenv = env.clone();
        fenv.positional = None;
        it.uncalled = Some(name);
        it.stmt(body, &mut fenv);
    }
    let mut calls = it.calls;
    calls.sort();
    calls.dedup();
    // The same command found under flags some branch gives without combining them is known
    // without the combination.
    calls = super::flags::fewest_chosen(calls);
    let mut made = it.made;
    made.sort();
    made.dedup();
    let mut anchors = it.anchors.into_inner();
    anchors.sort();
    anchors.dedup();
    Ok(Followed {
        calls,
        deploys: it.deploys,
        entered: it.entered,
        made,
        anchors,
        tree_copies: it.tree_copies,
        rendered: it.rendered,
        pushes: it.pushes,
    })
}

/// The walk's state: what it found and where it is.
pub(super) struct Interp<'t> {
    pub(super) src: &'t [u8],
    pub(super) ctx: &'t Context,
    pub(super) scripts: &'t ScriptSet,
    /// The other file whose statements are followed now (`None`: the script itself).
    pub(super) here: Option<&'t Parsed>,
    /// A `bash -c` string of another file is followed (see [`Call::scripted`]).
    pub(super) within: bool,
    /// `$0`.
    pub(super) zero: Word,
    /// The line of the script's command that entered another file: commands found there are
    /// placed on it.
    pub(super) site: Option<u32>,
    /// The other files being followed (a script that runs itself is not entered again).
    pub(super) active: Vec<&'t str>,
    pub(super) calls: Vec<Call>,
    pub(super) deploys: Vec<Deploy>,
    /// `imgpkg push -b` commands so far (see [`super::bundle_push`]).
    pub(super) pushes: Vec<super::bundle_push::Push>,
    /// Functions defined so far, with the file that defines them (`None`: the script).
    pub(super) functions: HashMap<String, (Node<'t>, Option<&'t Parsed>)>,
    pub(super) called: HashSet<String>,
    pub(super) entered: BTreeSet<Entered>,
    /// The uncalled function being followed.
    pub(super) uncalled: Option<String>,
    /// Conditions of the enclosing `if` branches.
    pub(super) guards: Vec<Cond>,
    /// Paths made so far.
    pub(super) made: Vec<Made>,
    /// Copies so far (see [`super::tree_copy`]).
    pub(super) tree_copies: Vec<super::tree_copy::TreeCopy>,
    /// Templates rendered into other files so far (see [`super::rendered`]).
    pub(super) rendered: Vec<super::rendered::Rendering>,
    /// What the command followed now reads on its standard input.
    pub(super) stdin: Option<Stdin>,
    /// Files found from the caller's directory (see [`Followed::anchors`]).
    pub(super) anchors: std::cell::RefCell<Vec<Word>>,
    /// Whether a file logs the commands it runs (see `printed.rs`), by the address of its
    /// text: judged once per file.
    pub(super) logs: HashMap<usize, bool>,
    pub(super) depth: usize,
    /// Where the command being run is written, when in another file (see [`Call::written`]).
    pub(super) written: Option<(String, u32)>,
    /// The candidates of each configuration file sourced by a variable's name, with the
    /// flags they set (see `flags.rs`).
    pub(super) sites: Vec<super::flags::Site>,
    /// Following a candidate configuration file for its flags only (see `flags.rs`).
    pub(super) probing: bool,
    /// The next command run names a program, never a shell function: it is run by `command`,
    /// `exec`, `env`, `sudo`, `nohup` or `nice`, or in a container (a `ytt() { command ytt -f-
    /// "$@"; }` wrapper runs ytt itself, see `commands.rs`).
    pub(super) program: bool,
    /// Statements followed so far (see [`MAX_STEPS`]).
    steps: usize,
}

impl<'t> Interp<'t> {
    pub(super) fn new(
        src: &'t [u8],
        ctx: &'t Context,
        scripts: &'t ScriptSet,
        site: Option<u32>,
    ) -> Interp<'t> {
        Interp {
            src,
            ctx,
            scripts,
            here: None,
            within: false,
            zero: ctx.script.clone(),
            site,
            active: Vec::new(),
            calls: Vec::new(),
            deploys: Vec::new(),
            pushes: Vec::new(),
            functions: HashMap::new(),
            called: HashSet::new(),
            entered: BTreeSet::new(),
            uncalled: None,
            guards: Vec::new(),
            made: Vec::new(),
            tree_copies: Vec::new(),
            rendered: Vec::new(),
            stdin: None,
            anchors: std::cell::RefCell::new(Vec::new()),
            logs: HashMap::new(),
            depth: 0,
            written: None,
            sites: Vec::new(),
            probing: false,
            program: false,
            steps: 0,
        }
    }

    pub(super) fn text(&self, n: Node<'t>) -> &'t str {
        let src = self.here.map_or(self.src, |p| p.text.as_bytes());
        n.utf8_text(src).unwrap_or("")
    }

    pub(super) fn line(&self, n: Node<'t>) -> u32 {
        if let Some(site) = self.site {
            return site;
        }
        let row = u32::try_from(n.start_position().row).unwrap_or(u32::MAX - 1);
        row.saturating_add(1).saturating_add(self.ctx.line_offset)
    }

    /// Where `n` is written when another file is followed (its path and line there).
    pub(super) fn written_at(&self, n: Node<'t>) -> Option<(String, u32)> {
        let row = u32::try_from(n.start_position().row).unwrap_or(u32::MAX - 1);
        self.here.map(|p| (p.path.clone(), row.saturating_add(1)))
    }

    /// Follows one statement (or a list of them).
    pub(super) fn stmt(&mut self, n: Node<'t>, env: &mut Env) {
        self.steps += 1;
        if self.depth > MAX_DEPTH || self.steps > MAX_STEPS || self.calls.len() >= MAX_CALLS {
            return;
        }
        self.depth += 1;
        match n.kind() {
            "program" | "compound_statement" | "do_group" | "negated_command" => {
                self.children(n, env)
            }
            // `A || cd X`, `[ -d X ] && cd X`: a `cd` that may not run (`conditional_cd.rs`).
            "list" => self.list(n, env),
            "redirected_statement" => self.redirected(n, env),
            // `find … | while read VAR`: one command per entry (`find_loop.rs`).
            "pipeline" if self.find_loop(n, env) => {}
            "pipeline" => self.pipeline(n, env),
            // `( cd ../config; ytt -f . )`: the subshell's statements run in order in a copy
            // of the state, which its `cd` and assignments change for them only.
            "subshell" => {
                let mut sub = env.clone();
                self.children(n, &mut sub);
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
                        .is_some_and(|c| matches!(c.test, Test::Symlink) && c.holds);
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
                    let name = self.text(*name).to_string();
                    self.functions.insert(name, (*body, self.here));
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

    /// Whether the source holds a bare `-` between command `n` and the here-document that
    /// follows it, which the grammar leaves out of the tree.
    fn dash_dropped(&self, n: Node) -> bool {
        let Some(next) = n.next_sibling().filter(|s| s.kind() == "heredoc_redirect") else {
            return false;
        };
        let gap = self
            .src
            .get(n.end_byte()..next.start_byte())
            .unwrap_or_default();
        std::str::from_utf8(gap).map(str::trim) == Ok("-")
    }

    fn command(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let mut words: Vec<Vec<super::expand::Exp>> = Vec::new();
        let line = self.line(n);
        let mut input: Option<Stdin> = None;
        // The end of the last word: an argument that starts there is part of the same word
        // (the grammar splits `name=<(cmd)` in two).
        let mut word_end = None;
        for child in kids {
            let is_word = !matches!(
                child.kind(),
                "variable_assignment"
                    | "file_redirect"
                    | "heredoc_redirect"
                    | "herestring_redirect"
            );
            let glued = is_word && word_end == Some(child.start_byte());
            word_end = is_word.then(|| child.end_byte());
            if glued {
                if let Some(last) = words.pop() {
                    let part = self.expand(child, env, false);
                    words.push(super::expand::concat(last, part));
                    continue;
                }
            }
            match child.kind() {
                // `FOO=bar cmd`: only cmd's environment; nothing to track.
                "variable_assignment" => {}
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    input = self.command_redirect(child, line, env).or(input);
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
        // The grammar drops a bare `-` right before a here-document (`ytt -f - <<EOF`), the
        // file the here-document gives: an argument all the same.
        if self.dash_dropped(n) {
            words.push(vec![super::expand::Exp {
                fields: vec![Word::lit("-")],
                when: Vec::new(),
            }]);
        }
        let combos = super::expand::combine(words, MAX_COMBINATIONS);
        let single = combos.len() == 1;
        let saved = input.map(|i| self.stdin.replace(i));
        let written = self.written_at(n);
        for (fields, when) in combos {
            self.written.clone_from(&written);
            self.run(line, &fields, when, env, single);
        }
        if let Some(s) = saved {
            self.stdin = s;
        }
    }
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
