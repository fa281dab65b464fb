//! What one expanded command line does to the walk of a script: the builtins that change its
//! state (`cd`, `pushd`, `read`, `shift`, `set --`), the prefixes that run another command
//! (`sudo`, `env`, `time`...), `bash -c` strings (with their `$0` and arguments), functions
//! (the script's own, those of files it sources, and a function only one script of the
//! repository defines, which the script that runs this one exported), other scripts of the
//! repository it runs (`./hack/render.sh config prod`, `bash "$DIR/render.sh" x`), files it
//! sources, and `ytt` itself, which becomes a [`Call`].

use super::env::{Alt, Cond, Env};
use super::resolve::caller_bases;
use super::script_set::Parsed;
use super::shell::{Call, Context, Deploy, Entered, Interp, MAX_DEPTH};
use super::snippet::CALLER;
use super::word::{Piece, Word};

impl<'t> Interp<'t> {
    /// Runs one expanded command line.
    pub(super) fn run(
        &mut self,
        line: u32,
        fields: &[Word],
        when: Vec<Cond>,
        env: &mut Env,
        single: bool,
    ) {
        // `command ytt …` in a function named `ytt`: the program, not the function again.
        let program = std::mem::take(&mut self.program);
        let Some(name_word) = fields.first() else {
            return;
        };
        // `mv ./demo/_ytt_lib{1,}`: the shell expands the braces before the command runs.
        let moved;
        let moves = matches!(name_word.literal().as_deref(), Some("cp" | "mv"));
        let files = if moves {
            moved = super::braces::expand_fields(fields);
            &moved[..]
        } else {
            fields
        };
        self.outputs(line, files, env);
        self.tree_copy(line, files, env);
        self.edits(line, fields, env);
        let args = &fields[1..];
        let name = name_word.literal();
        let wrapped = super::wrapped_ytt::unwrapped(fields, env.cwd.as_ref());
        if let Some(n) = name.as_deref() {
            self.shell_option(n, args, env);
        }
        match name.as_deref() {
            Some("cd") => {
                let target = args.iter().find(|a| !a.literal_prefix().starts_with('-'));
                env.cwd = match (target, &env.cwd, single) {
                    (Some(t), Some(cwd), true) if t.literal().as_deref() != Some("-") => {
                        Some(t.relative_to(cwd))
                    }
                    // Back to a directory saved before (`cd "$saved"`), from wherever.
                    (Some(t), None, true) if t.anchored() => Some(t.normalized()),
                    _ => None,
                };
                // A `cd` to an absolute directory no longer depends on an assumed one.
                if target.is_some_and(Word::anchored) {
                    env.cwd_assumed = None;
                }
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
            Some("shift") => {
                let n = args
                    .first()
                    .and_then(Word::literal)
                    .and_then(|n| n.parse::<usize>().ok())
                    .unwrap_or(1);
                if let Some(p) = env.positional.as_mut() {
                    p.drain(..n.min(p.len()));
                }
            }
            Some("set") if args.first().and_then(Word::literal).as_deref() == Some("--") => {
                env.positional = Some(args[1..].to_vec());
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
                // Bash's `time` is a keyword that runs a function as well; the others run
                // a program.
                self.program = program || name.as_deref() != Some("time");
                self.run(line, &rest, when, env, single);
            }
            // `go run …/cmd/ytt`, `docker run IMAGE` of ytt (see `wrapped_ytt.rs`).
            Some("go" | "docker" | "podman") if wrapped.is_some() => {
                if let Some(ytt) = wrapped {
                    self.program = true;
                    // A container's working directory (`-w`), for this command only.
                    let shell = ytt.workdir.map(|d| env.cwd.replace(d));
                    self.run(line, &ytt.fields, when, env, single);
                    if let Some(cwd) = shell {
                        env.cwd = cwd;
                    }
                }
            }
            Some("." | "source") => self.source(line, args, env),
            Some("bash" | "sh" | "zsh") => self.shell(line, args, env),
            Some(n) if !program && self.functions.contains_key(n) => {
                self.call_function(n, line, args, env)
            }
            Some(p @ ("echo" | "printf")) => self.printed(line, p, args, env),
            Some("kapp" | "kubectl") => {
                if let Some(d) = deploy(name.as_deref().unwrap_or(""), line, args, env) {
                    self.deploys.push(d);
                }
            }
            Some("imgpkg") => {
                if let Some(p) = super::bundle_push::parse(line, args, env) {
                    self.pushes.push(p);
                }
            }
            _ if is_ytt(name_word) => {
                let mut all = self.guards.clone();
                all.extend(when.iter().cloned());
                all.sort();
                all.dedup();
                // Branch conditions no candidate configuration makes together: never runs.
                let Some((all, chosen)) = self.settle_flags(all, &when) else {
                    return;
                };
                self.calls.push(Call {
                    line,
                    args: args.to_vec(),
                    cwd: env.cwd.clone(),
                    when: all,
                    uncalled: self.uncalled.clone(),
                    stdin: self.stdin.clone(),
                    scripted: self.here.is_some() || self.within,
                    written: self.written.clone(),
                    chosen,
                    cwd_assumed: env.cwd_assumed.clone(),
                });
            }
            Some(n) if n.contains('/') => {
                if let Some(script) = self.lookup(name_word, env) {
                    self.run_script(script, line, args, env);
                }
            }
            Some(n) if !program => {
                if let Some((file, body)) = self.scripts.function(n) {
                    self.enter_function(n, body, Some(file), line, args, env);
                }
            }
            _ => {}
        }
    }

    /// The repository script a path word names, from the working directory (a script started
    /// from its caller's directory tries the places it may be started from).
    fn lookup(&self, word: &Word, env: &Env) -> Option<&'t Parsed> {
        let full = match &env.cwd {
            Some(cwd) => word.relative_to(cwd),
            None => word.normalized(),
        };
        let anchor = full
            .literal_prefix()
            .starts_with(CALLER)
            .then(|| full.clone());
        let candidates = match full.strip_prefix(CALLER) {
            Some(rest) => {
                let dir = self.ctx.script.dirname().repo_path().unwrap_or_default();
                caller_bases(&dir)
                    .into_iter()
                    .map(|mut base| {
                        base.extend(&rest);
                        base.normalized()
                    })
                    .collect()
            }
            None => vec![full],
        };
        let own = self.ctx.script.repo_path();
        let found = candidates
            .iter()
            .filter_map(Word::repo_path)
            .filter(|p| Some(p) != own.as_ref())
            .find_map(|p| self.scripts.get(p.as_str()));
        // A file named from the caller's directory says where the script runs.
        if let (Some(_), Some(a)) = (found, anchor) {
            self.anchors.borrow_mut().push(a);
        }
        found
    }

    /// `bash -c 'script' [name args...]` or `bash script args...`.
    fn shell(&mut self, line: u32, args: &[Word], env: &Env) {
        if let Some(i) = args
            .iter()
            .position(|a| a.literal().as_deref() == Some("-c"))
        {
            self.shell_c(line, &args[i + 1..], env);
            return;
        }
        let Some(i) = args
            .iter()
            .position(|a| !a.literal_prefix().starts_with('-'))
        else {
            return;
        };
        if let Some(script) = self.lookup(&args[i], env) {
            self.run_script(script, line, &args[i + 1..], env);
        }
    }

    /// `bash -c 'script' [name args...]`: the string is a script of its own, run in a copy of
    /// the state, with `name` as `$0` and the arguments after it as `$1`...; what it runs is
    /// placed on the line of the `bash` command.
    fn shell_c(&mut self, line: u32, args: &[Word], env: &Env) {
        let Some(script) = args.first().and_then(Word::literal) else {
            return;
        };
        if self.depth > MAX_DEPTH / 2 {
            return;
        }
        let Ok(tree) = super::script_set::parse(&script) else {
            return;
        };
        let ctx = Context {
            script: self.ctx.script.clone(),
            line_offset: self.ctx.line_offset,
        };
        let mut inner = Interp::new(script.as_bytes(), &ctx, self.scripts, Some(line));
        inner.depth = self.depth;
        inner.active = self.active.clone();
        inner.uncalled = self.uncalled.clone();
        inner.within = self.here.is_some() || self.within;
        inner.zero = args.get(1).cloned().unwrap_or_else(|| self.zero.clone());
        inner.sites = self.sites.clone();
        let mut sub = env.clone();
        // A new shell: its options are the defaults.
        sub.nullglob = false;
        if args.len() > 1 {
            sub.positional = passed_on(&args[2..], env);
        }
        inner.stmt(tree.root_node(), &mut sub);
        self.calls.extend(inner.calls);
        self.made.extend(inner.made);
        self.rendered.extend(inner.rendered);
        self.anchors.borrow_mut().extend(inner.anchors.into_inner());
        self.entered.extend(inner.entered);
    }

    /// `. file [args]`: the file's statements run here, in this state; its functions stay.
    fn source(&mut self, line: u32, args: &[Word], env: &mut Env) {
        let Some(file) = args.first().and_then(|w| self.lookup(w, env)) else {
            if let Some(w) = args.first() {
                self.source_candidates(w, env);
            }
            return;
        };
        if self.active.contains(&file.path.as_str()) || self.depth > MAX_DEPTH / 2 {
            return;
        }
        self.entered.insert(Entered::Script(file.path.clone()));
        let saved = (self.here, self.site);
        self.here = Some(file);
        self.site.get_or_insert(line);
        self.active.push(&file.path);
        let positional = (args.len() > 1).then(|| {
            let given = passed_on(&args[1..], env);
            std::mem::replace(&mut env.positional, given)
        });
        self.stmt(file.root(), env);
        if let Some(p) = positional {
            env.positional = p;
        }
        self.active.pop();
        (self.here, self.site) = saved;
    }

    /// Another script of the repository, run with `args` from the working directory: what it
    /// runs is placed on the line that runs it.
    fn run_script(&mut self, script: &'t Parsed, line: u32, args: &[Word], env: &Env) {
        if self.active.contains(&script.path.as_str()) || self.depth > MAX_DEPTH / 2 {
            return;
        }
        self.entered.insert(Entered::Script(script.path.clone()));
        let saved = (self.here, self.site, self.zero.clone());
        let functions = std::mem::take(&mut self.functions);
        self.here = Some(script);
        self.site.get_or_insert(line);
        self.zero = script.word();
        self.active.push(&script.path);
        let mut senv = env.cwd.clone().map(Env::at).unwrap_or_default();
        senv.positional = passed_on(args, env);
        self.stmt(script.root(), &mut senv);
        self.active.pop();
        self.functions = functions;
        (self.here, self.site, self.zero) = saved;
    }

    fn call_function(&mut self, name: &str, line: u32, args: &[Word], env: &mut Env) {
        let Some((body, file)) = self.functions.get(name).copied() else {
            return;
        };
        self.enter_function(name, body, file, line, args, env);
    }

    /// Follows a function's body with `args` as its arguments; a function of another file
    /// places what it runs on the calling line.
    fn enter_function(
        &mut self,
        name: &str,
        body: tree_sitter::Node<'t>,
        file: Option<&'t Parsed>,
        line: u32,
        args: &[Word],
        env: &mut Env,
    ) {
        match file {
            None => {
                self.called.insert(name.to_string());
            }
            Some(f) => {
                self.entered.insert(Entered::Function {
                    file: f.path.clone(),
                    name: name.to_string(),
                });
            }
        }
        if self.depth > MAX_DEPTH / 2 {
            return;
        }
        let saved = (self.here, self.site);
        if file.is_some() {
            self.site.get_or_insert(line);
        }
        self.here = file;
        let given = passed_on(args, env);
        let positional = std::mem::replace(&mut env.positional, given);
        self.stmt(body, env);
        env.positional = positional;
        (self.here, self.site) = saved;
    }
}

/// The positional parameters a command gives the script, sourced file or function it runs:
/// its arguments, or, when they are only the caller's own `"$@"` (`$*`) and the linter does
/// not know those, the caller's unknown ones as they are. A script run on its own then takes
/// the same default in a file it sources with `"$@"` as in its own text (`ENV=${1:-dev}`).
fn passed_on(args: &[Word], env: &Env) -> Option<Vec<Word>> {
    let forwarded =
        |w: &Word| matches!(w.0.as_slice(), [Piece::Unknown(u)] if u == "$@" || u == "$*");
    match args {
        [one] if env.positional.is_none() && forwarded(one) => None,
        _ => Some(args.to_vec()),
    }
}

/// `kapp deploy` and `kubectl apply|create` with the files they deploy as they are.
fn deploy(tool: &str, line: u32, args: &[Word], env: &Env) -> Option<Deploy> {
    let verb = args
        .iter()
        .filter_map(Word::literal)
        .find(|a| !a.starts_with('-'))?;
    let deploys = match tool {
        "kapp" => verb == "deploy",
        _ => verb == "apply" || verb == "create",
    };
    if !deploys {
        return None;
    }
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(lit) = a.literal() else { continue };
        match lit.as_str() {
            "-f" | "--file" | "--filename" => paths.extend(it.next().cloned()),
            _ => {
                for flag in ["-f=", "--file=", "--filename="] {
                    if let Some(p) = lit.strip_prefix(flag) {
                        paths.push(Word::lit(p));
                    }
                }
            }
        }
    }
    let recursive = tool == "kapp"
        || args
            .iter()
            .filter_map(Word::literal)
            .any(|a| a == "-R" || a == "--recursive" || a == "--recursive=true");
    Some(Deploy {
        line,
        tool: format!("{tool} {verb}"),
        paths,
        cwd: env.cwd.clone(),
        recursive,
    })
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
