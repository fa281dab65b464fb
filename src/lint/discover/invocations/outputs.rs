//! What the commands of a script write, followed without running them: the files and
//! directories they make (a redirection `> out.yml`, `cp`, `mv`, `mkdir`, `touch`, `tee`,
//! `git clone`, `curl -o`, `wget -O`, `imgpkg pull -o`, `helm pull --untardir`, `tar -C`,
//! `unzip -d`, a tool's `--output` or `--output-files`), with the text a here-document writes,
//! and what a command reads on its standard input (a here-document, a file, another command
//! of a pipeline). A `ytt` input that is not in the repository is judged against them (see
//! [`super::made`]): made by an earlier command, or missing.

use tree_sitter::Node;

use super::env::Env;
use super::shell::Interp;
use super::word::Word;

/// A path a command of the repository makes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Made {
    /// The line of the command (in the file the snippet is in).
    pub line: u32,
    /// What makes it: the command's name (`helm`, `cp`, `cat`).
    pub by: String,
    /// The path made, relative to the working directory it was made in (a repository word,
    /// one starting with the caller's directory, an absolute path, or unknown parts).
    pub path: Word,
    /// What it is a copy of (`cp values-example.yml values.yml`).
    pub from: Option<Word>,
    /// The text written, when the command writes a here-document (`cat > v.yml <<EOF`).
    pub text: Option<Written>,
    /// The committed template it renders there, relative to the working directory as
    /// [`Made::from`] is (`envsubst < values.tpl > values.yml`; see `rendered.rs`).
    pub rendered: Option<Word>,
    /// Made by the command's standard output (`> f`, `>> f`): how (see [`Stdout`]).
    pub stdout: Option<Stdout>,
}

/// A path a command's standard output writes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stdout {
    /// It appends (`>> f`) rather than writing the file anew (`> f`, which empties it before
    /// the command starts).
    pub appended: bool,
    /// For a command written in another file of the repository that the snippet entered,
    /// that file and the command's line there (as [`super::shell::Call::written`]).
    pub written: Option<(String, u32)>,
    /// The command is a `kubectl get … -o yaml`: what it prints has a known shape (see
    /// [`super::kubectl_got`]).
    pub got: Option<super::kubectl_got::Got>,
}

/// Text a here-document gives.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Written {
    pub text: String,
    /// The shell expands parts of it (`$VAR`, `$(cmd)`): the text holds values known only at
    /// run time.
    pub expanded: bool,
    /// The line of the text's first line.
    pub line: u32,
}

/// What a command reads on its standard input.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stdin {
    /// A here-document.
    Text(Written),
    /// A file (`ytt -f - < values.yml`), from the working directory made absolute.
    File(Word),
    /// The output of another command of a pipeline, named by its first words
    /// (`sops -d secrets.yml`).
    Command(String),
}

/// Output flags whose value is a path another command may read (`-o json` is a format).
const OUTPUT_FLAGS: [&str; 8] = [
    "--output",
    "--output-file",
    "--output-files",
    "--output-directory",
    "--output-dir",
    "--imgpkg-lock-output",
    "--lock-output",
    "--out",
];

/// The values of `-o` that name a format, not a file.
fn is_format(v: &str) -> bool {
    !v.contains('/') && !v.contains('.')
}

impl<'t> Interp<'t> {
    /// Records what one expanded command line makes.
    pub(super) fn outputs(&mut self, line: u32, fields: &[Word], env: &Env) {
        let Some(name) = fields.first().and_then(Word::literal) else {
            return;
        };
        let tool = name.rsplit('/').next().unwrap_or(&name).to_string();
        let args = &fields[1..];
        let plain: Vec<&Word> = args
            .iter()
            .filter(|a| !a.literal_prefix().starts_with('-'))
            .collect();
        let mut made: Vec<(Word, Option<Word>)> = Vec::new();
        match tool.as_str() {
            "cp" | "mv" | "install" | "rsync" | "ln" if plain.len() >= 2 => {
                let (dest, sources) = match plain.split_last() {
                    Some((d, s)) => (*d, s),
                    None => return,
                };
                // A source or destination that is only a run-time value (`cp "$1" …`,
                // `cp t.env $ENV_FILE`) names no file: matched, it would stand for any.
                let from =
                    (sources.len() == 1 && sources[0].names_file()).then(|| sources[0].clone());
                if dest.names_file() {
                    made.push((dest.clone(), from));
                }
                // Copied into a directory: the copy keeps its name.
                for s in sources.iter().filter(|s| s.names_file()) {
                    if let Some(base) = s.normalized().segments().last() {
                        let mut into = dest.clone();
                        into.push_lit("/", false);
                        into.extend(base);
                        made.push((into, Some((*s).clone())));
                    }
                }
            }
            // A directory known only at run time (`mkdir -p "$dir"`) names no place: matched,
            // it would stand for any input (LR11-C1).
            "mkdir" => made.extend(
                plain
                    .iter()
                    .filter(|p| p.names_file())
                    .map(|p| ((*p).clone(), None)),
            ),
            "touch" | "tee" => made.extend(
                plain
                    .iter()
                    .filter(|p| p.names_file())
                    .map(|p| ((*p).clone(), None)),
            ),
            "git" if args.first().and_then(Word::literal).as_deref() == Some("clone") => {
                made.extend(clone_dir(&args[1..]).map(|d| (d, None)));
            }
            "curl" | "wget" => made.extend(downloads(args)),
            _ => {}
        }
        made.extend(flag_outputs(&tool, args));
        for (path, from) in made {
            self.make(line, &tool, &path, from, None, env);
        }
    }

    /// Records a path made from the working directory of `env`.
    pub(super) fn make(
        &mut self,
        line: u32,
        by: &str,
        path: &Word,
        from: Option<Word>,
        text: Option<Written>,
        env: &Env,
    ) {
        let Some(full) = made_path(path, env) else {
            return;
        };
        let from = match (&env.cwd, from) {
            (Some(cwd), Some(f)) => Some(f.relative_to(cwd)),
            _ => None,
        };
        self.made.push(Made {
            line,
            by: by.to_string(),
            path: full,
            from,
            text,
            rendered: None,
            stdout: None,
        });
    }

    /// A statement with redirections: the files its `>` redirections write (with the text of
    /// a here-document `cat` writes), and what the statement and the pipeline after a
    /// here-document read on standard input.
    pub(super) fn redirected(&mut self, n: Node<'t>, env: &mut Env) {
        let body = n.child_by_field_name("body");
        let mut c = n.walk();
        let redirects: Vec<Node> = n.children_by_field_name("redirect", &mut c).collect();
        let heredoc = redirects
            .iter()
            .find(|r| r.kind() == "heredoc_redirect")
            .copied();
        let written = heredoc.and_then(|h| self.heredoc_text(h));
        let tool = body.map(|b| self.first_word(b)).unwrap_or_default();
        // What the redirection writes is the last command's output (`ytt ... | helm template
        // ... > chart.yaml` is helm's).
        let writer = body
            .map(|b| match b.kind() {
                "pipeline" => {
                    let mut c = b.walk();
                    let last = b.named_children(&mut c).last();
                    last.map_or_else(|| tool.clone(), |l| self.first_word(l))
                }
                _ => tool.clone(),
            })
            .unwrap_or_default();
        let line = self.line(n);
        // `cat <<EOF > f`: the here-document's own redirections write too.
        let mut outputs: Vec<Node> = redirects.clone();
        if let Some(h) = heredoc {
            let mut c2 = h.walk();
            outputs.extend(h.children_by_field_name("redirect", &mut c2));
        }
        let mut input: Option<Stdin> = written.clone().map(Stdin::Text);
        // A committed template the statement renders into what it writes (see `rendered.rs`).
        let template = body.and_then(|b| self.rendered_template(b, &tool, &outputs, env));
        // A template wrapped in a here-document the script runs next (`heredoc_wrapper.rs`).
        if let Some((to, t, expands)) = body.and_then(|b| self.wrapped_heredoc(b, env)) {
            let tool = super::heredoc_wrapper::TOOL;
            if expands {
                self.rendering(
                    (line, self.written_at(n)),
                    tool,
                    &(t.clone(), None),
                    &to,
                    env,
                );
                let before = self.made.len();
                self.make(line, tool, &to, None, None, env);
                self.rendered_since(before, &t, env);
            } else {
                // A quoted delimiter: the file is the template, as a copy makes it.
                self.make(line, tool, &to, Some(t), None, env);
            }
        }
        for r in &outputs {
            match redirect_target(*r, self) {
                Some((true, dest)) => {
                    // `> "$3"` writes a file only the caller knows.
                    for e in self.expand(dest, env, true) {
                        if !e.joined().names_file() {
                            continue;
                        }
                        if let Some(t) = &template {
                            let at = self.written_at(n);
                            self.rendering((line, at), &tool, t, &e.joined(), env);
                        }
                        let text = matches!(tool.as_str(), "cat" | "tee" | "envsubst")
                            .then(|| written.clone())
                            .flatten()
                            .map(|mut w| {
                                w.expanded |= tool == "envsubst";
                                w
                            });
                        let before = self.made.len();
                        let appended = appends(*r, self);
                        if appended {
                            self.append(line, &writer, &e.joined(), env);
                        } else {
                            self.make(line, &writer, &e.joined(), None, text, env);
                            if let Some((t, _)) = &template {
                                self.rendered_since(before, t, env);
                            }
                        }
                        self.by_stdout(before, appended, n, env);
                    }
                }
                Some((false, src)) => {
                    if let ([one], Some(cwd)) = (self.expand(src, env, true).as_slice(), &env.cwd) {
                        input = Some(Stdin::File(one.joined().relative_to(cwd)));
                    }
                }
                None => {}
            }
        }
        if let Some(b) = body {
            let given = input.clone().or_else(|| self.stdin.clone());
            let saved = std::mem::replace(&mut self.stdin, given);
            self.stmt(b, env);
            self.stdin = saved;
        }
        for r in redirects {
            match r.kind() {
                "heredoc_redirect" => {
                    // `cat <<EOF | ytt -f -`: the pipeline reads what `cat` prints.
                    let piped = match (tool.as_str(), &written) {
                        ("cat", Some(w)) => Some(Stdin::Text(w.clone())),
                        _ => Some(Stdin::Command(tool.clone())),
                    };
                    let mut c3 = r.walk();
                    let kids: Vec<Node> = r.named_children(&mut c3).collect();
                    for k in kids {
                        match k.kind() {
                            "heredoc_start" | "heredoc_body" | "heredoc_end" | "file_redirect" => {}
                            _ => {
                                let saved = std::mem::replace(&mut self.stdin, piped.clone());
                                let mut sub = env.clone();
                                self.stmt(k, &mut sub);
                                self.stdin = saved;
                            }
                        }
                    }
                }
                // `< <(ytt ...)`: a command inside a redirection still runs.
                _ => self.stmt(r, env),
            }
        }
    }

    /// Marks the last path made since the `before`th as rendered from `template` (as written,
    /// from the working directory of `env`).
    fn rendered_since(&mut self, before: usize, template: &Word, env: &Env) {
        if let (Some(m), Some(cwd)) = (
            self.made.get_mut(before..).and_then(<[_]>::last_mut),
            &env.cwd,
        ) {
            m.rendered = Some(template.relative_to(cwd));
        }
    }

    /// Records a path a command appends to (`>> f`): a file an earlier here-document started
    /// (`cat > f << EOF` with a header) holds more than that text now, so no earlier record
    /// of it keeps its text (N49-2: the header alone is not the file ytt reads).
    fn append(&mut self, line: u32, by: &str, path: &Word, env: &Env) {
        let Some(full) = made_path(path, env) else {
            return;
        };
        for m in self.made.iter_mut().filter(|m| m.path == full) {
            m.text = None;
        }
        self.made.push(Made {
            line,
            by: by.to_string(),
            path: full,
            from: None,
            text: None,
            rendered: None,
            stdout: Some(Stdout {
                appended: true,
                written: None,
                got: None,
            }),
        });
    }

    /// A pipeline: each command after the first reads the one before it.
    pub(super) fn pipeline(&mut self, n: Node<'t>, env: &Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let inherited = self.stdin.clone();
        let mut before: Option<String> = None;
        // What the command before prints, when it is a file's text.
        let mut printed: Option<Stdin> = None;
        for child in kids {
            self.stdin = match (&before, &printed) {
                (Some(_), Some(text)) => Some(text.clone()),
                (Some(p), None) => Some(Stdin::Command(p.clone())),
                (None, _) => inherited.clone(),
            };
            let given = self.stdin.clone();
            let mut sub = env.clone();
            self.stmt(child, &mut sub);
            printed = self.passes_on(child, given, &mut env.clone());
            before = Some(self.producer(child));
        }
        self.stdin = inherited;
    }

    /// What a command of a pipeline prints, when it is a file's text: `cat values.yml` prints
    /// the file; `envsubst` and `tee` print what they read (the variables `envsubst` fills are
    /// the user's, which the file shows as `${VAR}`).
    fn passes_on(&mut self, n: Node<'t>, given: Option<Stdin>, env: &mut Env) -> Option<Stdin> {
        if n.kind() != "command" {
            return None;
        }
        let tool = self.first_word(n);
        let mut c = n.walk();
        let args: Vec<Node> = n.children_by_field_name("argument", &mut c).collect();
        match (tool.as_str(), args.as_slice()) {
            ("cat", [one]) => {
                let exps = self.expand(*one, env, true);
                match (exps.as_slice(), &env.cwd) {
                    ([e], Some(cwd)) => Some(Stdin::File(e.joined().relative_to(cwd))),
                    _ => None,
                }
            }
            ("envsubst" | "tee", _) => given,
            _ => None,
        }
    }

    /// A redirection of a command (`ytt -f - < values.yml`): the file it writes is made; the
    /// file it reads is the command's standard input.
    pub(super) fn command_redirect(
        &mut self,
        r: Node<'t>,
        line: u32,
        env: &mut Env,
    ) -> Option<Stdin> {
        let tool = r.parent().map(|p| self.first_word(p)).unwrap_or_default();
        let (writes, target) = redirect_target(r, self)?;
        let exps = self.expand(target, env, true);
        if !writes {
            return match (exps.as_slice(), &env.cwd) {
                ([one], Some(cwd)) => Some(Stdin::File(one.joined().relative_to(cwd))),
                _ => None,
            };
        }
        let append = appends(r, self);
        for e in exps.iter().filter(|e| e.joined().names_file()) {
            let before = self.made.len();
            if append {
                self.append(line, &tool, &e.joined(), env);
            } else {
                self.make(line, &tool, &e.joined(), None, None, env);
            }
            if let Some(command) = r.parent() {
                self.by_stdout(before, append, command, env);
            }
        }
        None
    }

    /// Marks the path recorded since `before` as written by the standard output of the
    /// statement `n`, with where `n` is written when in another file; what a `kubectl get`
    /// there prints is read knowing the values of its variables in `env`.
    fn by_stdout(&mut self, before: usize, appended: bool, n: Node<'t>, env: &Env) {
        let row = u32::try_from(n.start_position().row).unwrap_or(u32::MAX - 1);
        let written = self.here.map(|p| (p.path.clone(), row.saturating_add(1)));
        let values = |name: &str| {
            env.get(name)
                .map(|alts| alts.iter().map(|a| a.word.to_string()).collect())
        };
        let got = super::kubectl_got::read_in(self.text(n), &values);
        if let Some(m) = self.made.get_mut(before) {
            m.stdout = Some(Stdout {
                appended,
                written,
                got,
            });
        }
    }

    /// The template a statement renders, as written: the file `envsubst` reads (`envsubst <
    /// t.yaml > v.yaml`, or a file given on its standard input by the statement around it),
    /// the one file of a `sed` that is no in-place edit. A pipeline whose redirection writes
    /// (`cat t.yaml | envsubst > v.yaml`) is not read: its first word is `cat`.
    fn rendered_template(
        &mut self,
        body: Node<'t>,
        tool: &str,
        redirects: &[Node<'t>],
        env: &mut Env,
    ) -> Option<(Word, Option<Vec<String>>)> {
        match tool {
            "envsubst" => {
                let read = redirects
                    .iter()
                    .filter_map(|r| redirect_target(*r, self))
                    .find_map(|(writes, src)| (!writes).then_some(src));
                let template = match read {
                    Some(src) => match self.expand(src, env, true).as_slice() {
                        [one] => Some(one.joined()),
                        _ => None,
                    },
                    None => match &self.stdin {
                        Some(Stdin::File(w)) => Some(w.clone()),
                        _ => None,
                    },
                };
                template.map(|t| (t, None))
            }
            "sed" | "gsed" if body.kind() == "command" => {
                let mut c = body.walk();
                let args: Vec<Node> = body.children_by_field_name("argument", &mut c).collect();
                let mut words = Vec::new();
                for a in args {
                    let exps = self.expand(a, env, false);
                    let [one] = exps.as_slice() else { return None };
                    words.extend(one.fields.iter().cloned());
                }
                super::rendered::sed_template(&words)
            }
            _ => None,
        }
    }

    /// The text of a here-document, and whether the shell expands it.
    fn heredoc_text(&self, h: Node<'t>) -> Option<Written> {
        let mut c = h.walk();
        let kids: Vec<Node> = h.named_children(&mut c).collect();
        let start = kids.iter().find(|k| k.kind() == "heredoc_start")?;
        let body = kids.iter().find(|k| k.kind() == "heredoc_body")?;
        let quoted = self.text(*start).contains(['\'', '"', '\\']);
        let mut c2 = body.walk();
        let expands = body.named_children(&mut c2).any(|k| {
            matches!(
                k.kind(),
                "expansion" | "simple_expansion" | "command_substitution"
            )
        });
        Some(Written {
            text: self.text(*body).to_string(),
            expanded: expands && !quoted,
            line: self.line(*body),
        })
    }

    /// The first word of a statement's command (`cat`, `helm`), or empty.
    fn first_word(&self, n: Node<'t>) -> String {
        let text = self.text(n);
        text.split_whitespace()
            .find(|w| !w.contains('='))
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
            .unwrap_or_default()
    }

    /// A pipeline member as its first words (`sops -d secrets.yml`).
    fn producer(&self, n: Node<'t>) -> String {
        let words: Vec<&str> = self.text(n).split_whitespace().take(3).collect();
        words.join(" ")
    }
}

/// The path `path` names from the working directory of `env` (absolute or in the home
/// directory when the directory is unknown), unless it is `/dev/null` or unknown.
fn made_path(path: &Word, env: &Env) -> Option<Word> {
    let full = match &env.cwd {
        Some(cwd) => path.relative_to(cwd),
        None if path.literal_prefix().starts_with('/') || path.in_home() => path.normalized(),
        None => return None,
    };
    (full.literal().as_deref() != Some("/dev/null")).then_some(full)
}

/// Whether a writing redirection appends (`>>`, `&>>`).
fn appends<'t>(r: Node<'t>, it: &Interp<'t>) -> bool {
    let mut c = r.walk();
    let op = r.children(&mut c).find(|k| !k.is_named());
    op.is_some_and(|k| matches!(it.text(k), ">>" | "&>>"))
}

/// Whether a redirection writes (`>`, `>>`, `&>`, `>|`) or reads (`<`) a file of the
/// standard streams it concerns, and its target; `None` for stderr, duplications and the like.
fn redirect_target<'t>(r: Node<'t>, it: &Interp<'t>) -> Option<(bool, Node<'t>)> {
    if r.kind() != "file_redirect" {
        return None;
    }
    let dest = r.child_by_field_name("destination")?;
    if let Some(fd) = r.child_by_field_name("descriptor") {
        if !matches!(it.text(fd), "0" | "1") {
            return None;
        }
    }
    let mut c = r.walk();
    let op = r
        .children(&mut c)
        .find(|k| !k.is_named())
        .map(|k| it.text(k))?;
    match op {
        ">" | ">>" | "&>" | "&>>" | ">|" => Some((true, dest)),
        "<" => Some((false, dest)),
        _ => None,
    }
}

/// The directory `git clone [OPTIONS] URL [DIR]` makes: `DIR` when it names a place (a
/// destination known only at run time, `"$dst_dir"`, names none: matched, it would make any
/// missing input, LR11-C1), else the URL's last segment without `.git`. The options that take
/// a value (`--branch main`) are no positional argument.
fn clone_dir(args: &[Word]) -> Option<Word> {
    const VALUED: [&str; 12] = [
        "-b",
        "--branch",
        "-o",
        "--origin",
        "--depth",
        "-c",
        "--config",
        "--reference",
        "-u",
        "--upload-pack",
        "--separate-git-dir",
        "--template",
    ];
    let mut positional: Vec<&Word> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let l = a.literal_prefix();
        if l.starts_with('-') {
            if VALUED.contains(&l) && a.literal().is_some() {
                it.next();
            }
            continue;
        }
        positional.push(a);
    }
    match positional.as_slice() {
        [_, dir, ..] => dir.names_file().then(|| (*dir).clone()),
        [url] => repository_dir(url),
        [] => None,
    }
}

/// The directory `git clone URL` makes: the URL's last segment without `.git`.
fn repository_dir(url: &Word) -> Option<Word> {
    let text = url.literal()?;
    let name = text.trim_end_matches('/').rsplit(['/', ':']).next()?;
    let name = name.strip_suffix(".git").unwrap_or(name);
    (!name.is_empty()).then(|| Word::lit(name))
}

/// The files `curl -o F`, `curl -O URL`, `wget -O F`, `wget -P DIR` and `wget URL` write.
fn downloads(args: &[Word]) -> Vec<(Word, Option<Word>)> {
    let mut out = Vec::new();
    let mut it = args.iter().peekable();
    let mut named = false;
    while let Some(a) = it.next() {
        match a.literal().as_deref() {
            Some("-o" | "--output" | "-O" | "--output-document" | "-P" | "--directory-prefix")
                if it
                    .peek()
                    .is_some_and(|v| !v.literal_prefix().starts_with("http")) =>
            {
                named = true;
                out.extend(it.next().map(|v| (v.clone(), None)));
            }
            _ => {}
        }
    }
    if !named {
        // `curl -O URL`, `wget URL`: the URL's last segment, in the working directory.
        for a in args {
            let Some(l) = a.literal() else { continue };
            if l.starts_with("http://") || l.starts_with("https://") {
                if let Some(name) = l
                    .split(['?', '#'])
                    .next()
                    .and_then(|u| u.rsplit('/').next())
                {
                    if !name.is_empty() {
                        out.push((Word::lit(name), None));
                    }
                }
            }
        }
    }
    out
}

/// Paths given to a tool's output flags (`--output-files out/`, `imgpkg pull -o /tmp/b`,
/// `helm pull --untardir charts`, `tar -C dir`, `unzip -d dir`). `yaml-patch -o` names the
/// operations it reads (it writes its standard output), and a value known only at run time
/// names no file.
fn flag_outputs(tool: &str, args: &[Word]) -> Vec<(Word, Option<Word>)> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(l) = a.literal() else { continue };
        let (flag, glued) = match l.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(Word::lit(v))),
            _ => (l.clone(), None),
        };
        let takes = OUTPUT_FLAGS.contains(&flag.as_str())
            || (flag == "-o" && !matches!(tool, "curl" | "wget" | "yaml-patch"))
            || (tool == "helm" && matches!(flag.as_str(), "-d" | "--destination" | "--untardir"))
            || (tool == "tar" && matches!(flag.as_str(), "-C" | "--directory"))
            || (tool == "unzip" && flag == "-d");
        if !takes {
            continue;
        }
        let Some(value) = glued.or_else(|| it.next().cloned()) else {
            continue;
        };
        if flag == "-o" && value.literal().is_some_and(|v| is_format(&v)) {
            continue;
        }
        // A value known only at run time (`-o $o`) names no file: matched, it would stand
        // for any input, as a `cp` to `$TARGET` would (LR11-B1).
        if !value.names_file() {
            continue;
        }
        out.push((value, None));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    #[test]
    fn downloads_and_clones_name_what_they_write() {
        let d = downloads(&words("-sL https://x.io/a/values.yml?raw=1"));
        assert_eq!(d[0].0.to_string(), "values.yml");
        let d = downloads(&words("-o /tmp/x.yml https://x.io/a"));
        assert_eq!(d[0].0.to_string(), "/tmp/x.yml");
        let dir = |s: &str| clone_dir(&words(s)).map(|w| w.to_string());
        assert_eq!(
            dir("--branch main https://x.io/o/lib lib2").as_deref(),
            Some("lib2")
        );
        assert_eq!(
            dir("-b main https://x.io/o/lib.git").as_deref(),
            Some("lib")
        );
        // LR11-C1: a destination known only at run time makes no path.
        let mut unknown = words("--branch");
        unknown.push(Word::unknown("$branch".to_string()));
        unknown.push(Word::unknown("$remote".to_string()));
        unknown.push(Word::unknown("$dst_dir".to_string()));
        assert_eq!(clone_dir(&unknown), None);
        assert_eq!(
            repository_dir(&Word::lit("https://github.com/o/lib.git"))
                .unwrap()
                .to_string(),
            "lib"
        );
    }

    #[test]
    fn output_flags_name_paths_not_formats() {
        let o = flag_outputs("ytt", &words("-f a -o json --output-files out/"));
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].0.to_string(), "out/");
        let o = flag_outputs("imgpkg", &words("pull -b img -o /tmp/bundle"));
        assert_eq!(o[0].0.to_string(), "/tmp/bundle");
        assert!(flag_outputs("kubectl", &words("get cm -o yaml")).is_empty());
        let o = flag_outputs("tar", &words("-xzf a.tgz -C vendor"));
        assert_eq!(o[0].0.to_string(), "vendor");
        // LR11-B1: yaml-patch's `-o` is its operations file, an input.
        assert!(flag_outputs("yaml-patch", &words("-o ops/x.yml")).is_empty());
    }
}
