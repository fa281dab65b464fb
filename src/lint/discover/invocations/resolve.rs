//! Turns one `ytt` command found in the repository into what the linter can evaluate: its
//! inputs as repository paths, its data values (literal, or known only at run time), its
//! flags. Unknown parts of paths take every value for which the paths exist (a script run
//! per package, `addons/packages/$1/...`), file tests of the branches that built the command
//! are decided against the repository, globs are expanded, and a command that starts from
//! its caller's directory is placed where its inputs exist. A command that cannot be placed
//! is skipped with the reason.

use super::env::{Cond, Test};
use super::ignored::Ignored;
use super::index::{Binding, Index, MAX_MATCHES};
use super::made::MadeAt;
use super::outputs::Stdin;
use super::shell::{Call, Deploy};
use super::snippet::{Snippet, CALLER};
use super::word::{Piece, Word, REPO};
use super::ytt_args::{self, Command, ValueKind, YttArgs};
use crate::lint::discover::vendir::Target;
use crate::report::Assumption;

/// Where a command is written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub file: String,
    pub line: u32,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A data value flag.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DataValue {
    pub kind: ValueKind,
    /// The key, with its `@lib:` prefix.
    pub key: String,
    /// The value; `None` when it is known only at run time.
    pub value: Option<String>,
    /// The committed file and line the value is read from, `FILE:LINE`, where ytt names its
    /// source by a path nobody can use: a process substitution's `/dev/fd/63`, which ytt shows
    /// as `63` (see [`super::sops_values`]).
    pub written: Option<String>,
}

/// A `ytt` command the linter can evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub origin: Origin,
    /// `-f` inputs as repository paths (`name=path` keeps its name).
    pub inputs: Vec<String>,
    /// `--data-values-file` arguments (`[@lib:][+:]path`, the path repository-relative).
    pub values_files: Vec<String>,
    pub values: Vec<DataValue>,
    /// `--data-value-file key=path` (path repository-relative).
    pub value_files: Vec<(String, String)>,
    /// Inputs known only at run time (a values file from a variable, environment values).
    pub unknown: Vec<String>,
    /// Flags that shape the evaluation, as ytt spells them.
    pub flags: Vec<String>,
    pub file_marks: Vec<String>,
    /// Renders nothing (`--data-values-inspect`, `--data-values-schema-inspect`).
    pub inspect: bool,
    /// Prints the final data values (`--data-values-inspect`).
    pub prints_values: bool,
    /// Writes each input file's output to a file of its own (`--output-files`).
    pub split_output: bool,
    /// Where a later command of its script deploys that output as one (see
    /// [`super::output_deploy`]).
    pub output_deployed: Option<crate::lint::config::output_deploy::OutputDeploy>,
    /// The comparison that alone reads its output, which nothing applies (see
    /// [`super::compared_output`]).
    pub output_compared: Option<crate::lint::config::compared_output::Compared>,
    /// The values unknown path parts took (`$1=nginx`).
    pub binding: Vec<(String, String)>,
    /// Data values given as text in place of a file (a here-document, a README's block).
    pub values_docs: Vec<ValuesDoc>,
    /// What was assumed to lint the command this way (an input outside the repository, an
    /// example standing in for the user's copy).
    pub assumptions: Vec<Assumption>,
    /// The command is written in a file of the repository that its origin runs or sources
    /// (see [`Call::scripted`]), not at its origin.
    pub scripted: bool,
    /// Repository files that stand in for inputs the repository does not hold (an example
    /// for the user's copy, the source of a `cp` or `mv` that makes the input).
    pub stand_ins: Vec<String>,
    /// Folders its copies assemble (see [`super::assembled`]): how a root names the folder,
    /// and the repository paths of the inputs that stand for it.
    pub assembled: Vec<(String, Vec<String>)>,
    /// `--data-value-file` keys whose file an earlier schema inspection writes, with that
    /// command's origin (see [`super::inspected`]).
    pub inspected: Vec<(String, Origin)>,
    /// Its bindings only choose one of the repository's values files (see
    /// [`super::chosen_values`]): the command is complete under that choice.
    pub values_choice: bool,
    /// It reads another `ytt` command's output on `-f -` (`ytt -f a | ytt -f - -f o.yaml`):
    /// that command's first words (see [`super::piped_ytt`]).
    pub piped_ytt: Option<String>,
}

impl Invocation {
    /// The command at `origin` with nothing given yet: no inputs, flags, values or
    /// assumptions (the start of a resolution, and of a test's command).
    pub fn new(origin: Origin) -> Invocation {
        Invocation {
            origin,
            inputs: Vec::new(),
            values_files: Vec::new(),
            values: Vec::new(),
            value_files: Vec::new(),
            unknown: Vec::new(),
            flags: Vec::new(),
            file_marks: Vec::new(),
            inspect: false,
            prints_values: false,
            split_output: false,
            output_deployed: None,
            output_compared: None,
            binding: Vec::new(),
            values_docs: Vec::new(),
            assumptions: Vec::new(),
            scripted: false,
            stand_ins: Vec::new(),
            assembled: Vec::new(),
            inspected: Vec::new(),
            values_choice: false,
            piped_ytt: None,
        }
    }
}

/// Data values written as text: a `#@data/values` document or plain YAML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuesDoc {
    /// Where the text is (`README.md:12`).
    pub origin: String,
    pub text: String,
    /// The shell expands parts of it: a value holding `$` is known only at run time.
    pub expanded: bool,
    /// Standard input gives it (`-f -`): ytt reads it as the file `stdin.yml`.
    pub stdin: bool,
    /// How many of the command's `-f` inputs come before `-` (ytt reads its inputs in the
    /// command's order: it decides which data values win and the templates' order).
    pub after: usize,
}

impl ValuesDoc {
    /// The top-level keys and values of the text's documents, or `None` when a document is
    /// not a map (`<key1>:<value1>` under `#@data/values`: a form for the reader to fill in,
    /// which ytt refuses, "Expected map"): then the values it gives are known only at run
    /// time. An empty document gives nothing.
    pub fn entries(&self) -> Option<Vec<(String, crate::yaml::Value)>> {
        let name: std::sync::Arc<str> = std::sync::Arc::from(self.origin.as_str());
        let opts = crate::yaml::parse::ParseOpts { strict: false };
        let set = crate::yaml::parse::parse(&self.text, &name, &opts).ok()?;
        let mut out = Vec::new();
        for d in &set.items {
            match &d.value {
                crate::yaml::Value::Map(m) => {
                    for item in &m.items {
                        let key = crate::yaml::scalar_key_string(&item.key);
                        out.push((key, item.value.clone()));
                    }
                }
                crate::yaml::Value::Null => {}
                _ => return None,
            }
        }
        Some(out)
    }
}

/// A command one of whose inputs does not exist, and that nothing makes: ytt fails on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingInput {
    pub origin: Origin,
    /// The inputs that do not exist (as repository paths), each with the path of the
    /// repository that looks like the one meant.
    pub paths: Vec<(String, Option<String>)>,
    /// How many of its other inputs exist.
    pub found: usize,
    /// The repository paths it reads.
    pub claims: Vec<String>,
    /// Whether the command is evidently meant to run from where it was placed (see
    /// [`super::missing::evident`]); if not, it is skipped, not reported.
    pub evident: bool,
    /// What reporting it assumes (a command whose output path is known only in part does
    /// not make the input).
    pub assumed: Vec<Assumption>,
    /// Where the command is written when that is another file than `origin`'s (a script the
    /// page at `origin` runs): the finding is there.
    pub written: Option<Origin>,
    /// Whether the nearest directory of the repository above each missing path is claimed
    /// (see [`super::input_missing::skip`]); not for a page's command found only by what
    /// moved (see `moved_page.rs`), which claims only what it reads.
    pub dir_claims: bool,
    /// Whether ytt fails for certain, unless an assumption of `assumed` is wrong: the
    /// command is a page's own, its reader's procedure (see `moved_page.rs`).
    pub fails: bool,
    /// The command with its stale paths corrected, and the moves that correct them (see
    /// `corrected_page.rs`).
    pub corrected: Option<Corrected>,
}

/// A page's command with its stale paths corrected, and the moves (old path, path now) that
/// correct them (see `corrected_page.rs`).
pub type Corrected = (Box<Invocation>, Vec<(String, String)>);

/// A command the linter cannot evaluate, and the repository paths it reads (which are then
/// not linted on their own: they are meant to be used this way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub origin: Origin,
    pub reason: String,
    pub claims: Vec<String>,
    /// A `-f` input a placeholder names (`YOUR_FILE`), as a repository path: the reader's
    /// own file (see `placeholder_file.rs`).
    pub placeholder: Option<String>,
    /// The entries of a loop that a test of their name leaves out (see `ls_loop.rs`), as
    /// repository paths: what is found in them rests on their being rendered alone.
    pub left_out: Vec<String>,
    /// The input that is what a `kubectl get … -o yaml` prints, which alone stops the
    /// command (see `kubectl_got.rs`).
    pub got: Option<super::kubectl_got::GotInput>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Found(Box<Invocation>),
    Skipped(Skipped),
    /// An input does not exist (see [`MissingInput`]).
    Missing(MissingInput),
    /// Not a rendering (`ytt version`): nothing to say.
    Ignored,
}

impl Outcome {
    /// The outcome with `assumed` among a found invocation's assumptions; the others as
    /// they are.
    pub fn assuming(self, assumed: &Assumption) -> Outcome {
        match self {
            Outcome::Found(mut inv) => {
                inv.assumptions.push(assumed.clone());
                Outcome::Found(inv)
            }
            other => other,
        }
    }
}

/// What the resolution needs from the repository.
pub struct Repo<'a> {
    pub index: &'a Index,
    pub vendir: &'a [Target],
    /// The repository directory's name (a CI input is often named after it).
    pub name: &'a str,
    /// The paths the repository's commands make.
    pub made: &'a [MadeAt],
    /// What the `cp` and `rsync` commands of the snippet being resolved copy (see
    /// [`super::assembled`]).
    pub copies: &'a [super::tree_copy::TreeCopy],
    /// The paths its `.gitignore` files hide.
    pub ignored: Option<&'a Ignored>,
    /// The module path of its `go.mod` (`github.com/org/repo`), which names the repository.
    pub module: Option<&'a str>,
    /// The command is written in a script that another script or a page runs (see
    /// [`Call::scripted`]): it runs from its caller's working directory, and where that is
    /// known, an input missing from there is missing (`./tools/render.sh` run from the top,
    /// whose `ytt -f ./templates/t.yaml` is written for `tools/`).
    pub nested: bool,
    /// The values examples its pages tell the reader to copy.
    pub documented: &'a [super::documented_example::Documented],
    /// The command runs from the directory its script's other commands show (see
    /// `settled.rs`): an input missing from there is missing.
    pub settled: bool,
    /// The repository's directory, whose committed files a `grep` of a loop's entry reads
    /// (see `entry_tests.rs`); `None`: such a test is not decided.
    pub root: Option<&'a std::path::Path>,
    /// The names of the variables its environment files set (see `env_files.rs`).
    pub env_files: &'a [super::env_files::EnvFile],
    /// The committed templates of environment files its scripts source (see
    /// `env_template.rs`).
    pub env_templates: &'a [super::env_template::EnvTemplate],
    /// The folders its App Accelerators include (see `accelerator_page.rs`).
    pub accelerated: &'a [super::accelerator_page::Included],
}

impl<'a> Repo<'a> {
    /// A repository of `index` named `name`, with nothing else known.
    pub fn new(index: &'a Index, vendir: &'a [Target], name: &'a str) -> Repo<'a> {
        Repo {
            index,
            vendir,
            name,
            made: &[],
            copies: &[],
            ignored: None,
            module: None,
            nested: false,
            documented: &[],
            settled: false,
            root: None,
            env_files: &[],
            env_templates: &[],
            accelerated: &[],
        }
    }
}

/// The invocations one command stands for.
pub fn resolve(call: &Call, snippet: &Snippet, repo: &Repo) -> Vec<Outcome> {
    resolve_from(call, snippet, repo, None, None)
}

/// The invocations one command stands for, trying the caller's directory `prefer` first when
/// the command runs from its caller's directory (see [`preferred_base`]). `known`: the
/// caller's directory the script's other commands show it runs from (see `settled.rs`),
/// where a missing input is missing.
pub fn resolve_from(
    call: &Call,
    snippet: &Snippet,
    repo: &Repo,
    prefer: Option<&Word>,
    known: Option<&Word>,
) -> Vec<Outcome> {
    let origin = Origin {
        file: snippet.file.clone(),
        line: call.line,
    };
    let args = match ytt_args::parse(&call.args) {
        Command::Render(a) => *a,
        Command::Other(_) => return vec![Outcome::Ignored],
        Command::Unreadable(reason) => return vec![skipped(&origin, reason, Vec::new())],
    };
    let unknown = args.unknown_flags.clone();
    let out = resolve_args(call, snippet, repo, prefer, known, args, origin);
    super::unknown_flag::assumed(out, &unknown)
}

/// [`resolve_from`] with the command's arguments read.
fn resolve_args(
    call: &Call,
    snippet: &Snippet,
    repo: &Repo,
    prefer: Option<&Word>,
    known: Option<&Word>,
    args: YttArgs,
    origin: Origin,
) -> Vec<Outcome> {
    // A command that names every input from a known directory reads the same files from
    // wherever it runs (see `anywhere.rs`).
    let anywhere = Word::lit(REPO);
    let absolute = || super::anywhere::reads_absolute_paths(&args, call.stdin.as_ref());
    let cwd = match &call.cwd {
        // A directory known only in part (`cd "checkout/${{ inputs.path }}/app"`, another
        // checkout's) matters to no path of the command.
        Some(cwd) if cwd.unknowns().next().is_some() && absolute() => &anywhere,
        Some(cwd) => cwd,
        None if absolute() => &anywhere,
        None => {
            return vec![skipped(
                &origin,
                "its working directory is not known".into(),
                Vec::new(),
            )]
        }
    };
    let mut roots = bases(cwd, snippet);
    if let Some(i) = prefer.and_then(|p| roots.iter().position(|r| r == p)) {
        let first = roots.remove(i);
        roots.insert(0, first);
    }
    let caller = roots.len() > 1;
    let mut all_found = None;
    let mut others = Vec::new();
    let from_caller = cwd.literal_prefix().starts_with(CALLER);
    // A page's command, from the page's own directory (see `subfolder.rs`).
    let page_dir = crate::files::paths::parent(&snippet.file);
    let page_base = (from_caller && super::readme::candidate(&snippet.file))
        .then(|| Word::lit(format!("{REPO}/{page_dir}")).normalized());
    let mut from_page: Option<MissingInput> = None;
    for root in roots {
        // Settled already: a Makefile's recipe, which runs beside it (`makefile_dir.rs`).
        let here = Repo {
            settled: repo.settled || (from_caller && known == Some(&root)),
            ..*repo
        };
        let (out, found, missing) = attempt(call, &origin, &args, cwd, &root, &here, caller);
        if found && !missing {
            return scripted(out, call, repo.index);
        }
        if here.settled && super::settled::missing_here(&out) {
            return scripted(out, call, repo.index);
        }
        if found {
            all_found.get_or_insert(out);
        } else {
            if page_base.as_ref() == Some(&root.normalized()) {
                from_page = out.iter().find_map(|o| match o {
                    Outcome::Missing(m) => Some(m.clone()),
                    _ => None,
                });
            }
            others.push(out);
        }
    }
    if let (None, Some(m)) = (&all_found, &from_page) {
        if let Some(dir) = super::subfolder::folder(m, page_dir, repo.index, repo.vendir) {
            let root = Word::lit(format!("{REPO}/{dir}"));
            let (out, _, _) = attempt(call, &origin, &args, cwd, &root, repo, caller);
            if let Some(out) = super::subfolder::placed(out, m, &dir) {
                return scripted(out, call, repo.index);
            }
        }
    }
    if let (None, Some(_)) = (&all_found, &page_base) {
        // A page's command of the project an App Accelerator generates, from the one folder
        // it includes that holds every input (see `accelerator_page.rs`).
        let mut fits = super::accelerator_page::candidates(&snippet.file, repo.accelerated)
            .into_iter()
            .filter_map(|inc| {
                let root = Word::lit(format!("{REPO}/{}", inc.folder));
                let (out, found, missing) = attempt(call, &origin, &args, cwd, &root, repo, caller);
                (found && !missing).then_some((out, inc))
            });
        if let (Some((out, inc)), None) = (fits.next(), fits.next()) {
            let at = format!("{}:{}", origin.file, origin.line);
            let out = super::accelerator_page::placed(out, &at, inc);
            return scripted(out, call, repo.index);
        }
    }
    if all_found.is_none() && from_caller {
        // From where an earlier block of the page left its reader (`page_cd.rs`).
        for (root, why) in super::page_cd::bases(snippet) {
            let (mut out, found, missing) = attempt(call, &origin, &args, cwd, &root, repo, caller);
            if found && !missing {
                super::page_cd::assume(&mut out, &why);
                return scripted(out, call, repo.index);
            }
        }
    }
    scripted(
        all_found.unwrap_or_else(|| unplaced(others)),
        call,
        repo.index,
    )
}

/// The outcomes of `call`, each invocation marked as written where the call is. A missing
/// input of a command written in another file is that file's, unless the file's own
/// directory holds it (`./config/cm.yaml` beside `hack/gen/render.sh`): then the caller runs
/// the script from the wrong place, and the finding stays at the caller's line.
fn scripted(mut out: Vec<Outcome>, call: &Call, index: &Index) -> Vec<Outcome> {
    for o in &mut out {
        match o {
            Outcome::Found(inv) => {
                inv.scripted = call.scripted;
                if !call.chosen.is_empty() {
                    inv.assumptions
                        .push(super::flags::chosen_assumption(&call.chosen));
                }
                if let Some(why) = &call.cwd_assumed {
                    inv.assumptions.push(super::conditional_cd::assumption(why));
                }
            }
            Outcome::Missing(m) => {
                if let Some(why) = &call.cwd_assumed {
                    m.assumed.push(super::conditional_cd::assumption(why));
                }
                let beside = |file: &str| {
                    let dir = crate::files::paths::parent(file);
                    m.paths
                        .iter()
                        .any(|(p, _)| index.exists(&crate::files::paths::join(dir, p)))
                };
                m.written = call
                    .written
                    .as_ref()
                    .filter(|(file, _)| *file != m.origin.file && !beside(file))
                    .map(|(file, line)| Origin {
                        file: file.clone(),
                        line: *line,
                    });
            }
            _ => {}
        }
    }
    out
}

/// The outcomes of a command that is not found from any directory it may run in: a missing
/// input where most of its other inputs exist (or the same missing input from everywhere);
/// else those of the directory where most of its inputs exist (the first of equals), a
/// missing input there being a skip (from another directory it might exist). A skip names
/// the files the command reads from there (`-f /tmp/pulled/config -f overlay.yml`, run from
/// the script's directory, reads its `overlay.yml`).
fn unplaced(attempts: Vec<Vec<Outcome>>) -> Vec<Outcome> {
    let missing = |o: &[Outcome]| -> Option<(usize, usize, bool)> {
        o.iter().find_map(|x| match x {
            Outcome::Missing(m) => Some((m.found, m.found + m.paths.len(), m.evident)),
            _ => None,
        })
    };
    let best = attempts
        .iter()
        .enumerate()
        .filter_map(|(i, a)| missing(a).filter(|m| m.2).map(|(n, all, _)| (n, all, i)))
        .max_by_key(|(n, _, i)| (*n, usize::MAX - i));
    // From a directory where every input exists the command runs (it was skipped there for
    // another reason, standard input it cannot see): it is not missing.
    let runs_elsewhere = |all: usize| {
        attempts.iter().any(|a| {
            a.iter().any(|o| match o {
                Outcome::Skipped(s) => s.claims.len() >= all,
                _ => false,
            })
        })
    };
    let chosen = best.filter(|(_, all, _)| !runs_elsewhere(*all));
    let mut attempts = attempts;
    if let Some((_, _, i)) = chosen {
        return attempts.swap_remove(i);
    }
    let claimed = |a: &Vec<Outcome>| -> usize {
        a.iter()
            .map(|o| match o {
                Outcome::Skipped(s) => s.claims.len(),
                Outcome::Missing(m) => m.claims.len(),
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    };
    let most = attempts
        .iter()
        .enumerate()
        .max_by_key(|(i, a)| (claimed(a), usize::MAX - i))
        .map(|(i, _)| i);
    let first = match most {
        Some(i) => attempts.swap_remove(i),
        None => Vec::new(),
    };
    first
        .into_iter()
        .map(|o| match o {
            Outcome::Missing(m) => {
                let shown: Vec<&str> = m.paths.iter().map(|p| p.0.as_str()).collect();
                skipped(
                    &m.origin,
                    format!("{}{UNPLACED_SKIP}", shown.join(", ")),
                    m.claims,
                )
            }
            other => other,
        })
        .collect()
}

/// The directories a command may start in: a command started from its caller's directory,
/// from the repository root, the script's own directory or a directory between them; the one
/// where all its paths exist. A README's reader is in the README's directory first.
fn bases(cwd: &Word, snippet: &Snippet) -> Vec<Word> {
    if cwd.literal_prefix().starts_with(CALLER) {
        let mut bases = caller_bases(crate::files::paths::parent(&snippet.file));
        if super::readme::candidate(&snippet.file) {
            bases.rotate_left(1);
        }
        bases
    } else {
        vec![Word::lit(REPO)]
    }
}

/// The command resolved from `root`: its outcomes, whether they are all found, and whether
/// some input of them is not in the repository.
fn attempt(
    call: &Call,
    origin: &Origin,
    args: &YttArgs,
    cwd: &Word,
    root: &Word,
    repo: &Repo,
    caller: bool,
) -> (Vec<Outcome>, bool, bool) {
    let base = rebase(cwd, root);
    let when: Vec<Cond> = call
        .when
        .iter()
        .map(|c| Cond {
            path: rebase(&c.path, root),
            ..c.clone()
        })
        .collect();
    let stdin = match &call.stdin {
        Some(Stdin::File(w)) => Some(Stdin::File(rebase(w, root))),
        other => other.clone(),
    };
    // An input named from the caller's directory (`"$(pwd)/config"`, `${PWD}/tpl/*`) is
    // where the working directory is, from this root too.
    let args = rebased_args(args, root);
    let (mut out, decided, excluded) =
        place(origin, &args, stdin.as_ref(), &base, &when, repo, caller);
    let emptied = super::truncated::emptied(call, origin, root, repo);
    for o in out.iter_mut().filter(|_| !emptied.is_empty()) {
        if let Outcome::Found(inv) = o {
            super::truncated::leave_out(inv, &emptied);
        }
    }
    // A page's command whose file mark matches nothing from here runs elsewhere
    // (`page_marks.rs`).
    if crate::lint::discover::provenance::source_of(&origin.file) == crate::report::Source::Document
    {
        for o in &mut out {
            let unmatched = match o {
                Outcome::Found(inv) => super::page_marks::unmatched(inv, repo.index),
                _ => None,
            };
            if let Some(mark) = unmatched {
                *o = skipped(
                    origin,
                    format!(
                        "its file mark `{mark}` matches no file from any directory it may run \
                         in, and the page does not say where its reader runs it"
                    ),
                    Vec::new(),
                );
            }
        }
    }
    // Every entry of a loop that a test of its name or text leaves out: the command is placed
    // and runs for none of them.
    let found = decided || (!out.is_empty() && out.iter().all(|o| matches!(o, Outcome::Found(_))));
    let missing = out.iter().any(|o| match o {
        Outcome::Found(inv) => inv.unknown.iter().any(|u| u.ends_with(NOT_IN_REPOSITORY)),
        _ => true,
    });
    out.extend(excluded);
    (out, found, missing)
}

/// Where a script's commands started from its caller's directory read every input: for each
/// such command that does from somewhere, the directories it may start in where it does (and
/// where the files the script sources exist), and whether a command renders `.`.
pub struct Placements {
    pub complete: Vec<Vec<Word>>,
    pub dot: bool,
}

/// The [`Placements`] of a script's commands.
pub fn placements(calls: &[Call], snippet: &Snippet, repo: &Repo, anchors: &[Word]) -> Placements {
    // Where the files it sources from the caller's directory exist.
    let anchored = |root: &Word| anchored(anchors, root, repo.index);
    let mut complete: Vec<Vec<Word>> = Vec::new();
    let mut dot = false;
    for call in calls {
        let Command::Render(args) = ytt_args::parse(&call.args) else {
            continue;
        };
        let Some(cwd) = call
            .cwd
            .as_ref()
            .filter(|c| c.literal_prefix().starts_with(CALLER))
        else {
            continue;
        };
        dot |= args
            .files
            .iter()
            .any(|f| matches!(f.literal().as_deref(), Some(".") | Some("./")));
        let origin = Origin {
            file: snippet.file.clone(),
            line: call.line,
        };
        let ok: Vec<Word> = bases(cwd, snippet)
            .into_iter()
            .filter(|root| anchored(root))
            .filter(|root| {
                let (_, found, missing) = attempt(call, &origin, &args, cwd, root, repo, true);
                found && !missing
            })
            .collect();
        if !ok.is_empty() {
            complete.push(ok);
        }
    }
    Placements { complete, dot }
}

/// Whether every file a script sources from its caller's directory exists from `root`.
fn anchored(anchors: &[Word], root: &Word, index: &Index) -> bool {
    anchors.iter().all(|a| {
        rebase(a, root)
            .repo_path()
            .is_some_and(|p| index.is_file(&p))
    })
}

/// The caller's directory every command of one script runs from, when the script says: one
/// command's paths exist only from a directory other than the repository root (the others'
/// exist there too), or a command renders `.` from a script below the root (`ytt -f .` in
/// `step1/run.sh` renders `step1`, not the whole repository). A script runs from one place.
pub fn preferred_base(
    placed: &Placements,
    snippet: &Snippet,
    repo: &Repo,
    anchors: &[Word],
) -> Option<Word> {
    let top = Word::lit(REPO);
    let complete = &placed.complete;
    let everywhere = |w: &Word| complete.iter().all(|c| c.contains(w));
    if let Some(w) = complete
        .iter()
        .filter(|c| !c.contains(&top))
        .find_map(|c| c.first().filter(|w| everywhere(w)))
    {
        return Some(w.clone());
    }
    let dir = crate::files::paths::parent(&snippet.file);
    let own = Word::lit(format!("{REPO}/{dir}"));
    let script = !super::readme::candidate(&snippet.file) && dir != ".";
    if placed.dot && script && everywhere(&own) {
        return Some(own);
    }
    // A script that sources `../setup.sh` runs where that file exists.
    if anchors.is_empty() || anchored(anchors, &top, repo.index) {
        return None;
    }
    caller_bases(dir)
        .into_iter()
        .find(|b| anchored(anchors, b, repo.index))
}

/// The end of the reason of a command skipped because an input is not in the repository
/// from any directory it may run in (the inputs come first): `page_skip.rs` reports a page's
/// such command in a note.
pub const UNPLACED_SKIP: &str =
    " is not in the repository, and nothing shows the command runs from here";

/// How an input that is not in the repository is listed among the unknown ones.
pub(super) const NOT_IN_REPOSITORY: &str = "(not in the repository)";

/// The directories a script started from its caller's directory may run in: the repository
/// root, the script's own directory (`script_dir`), then each directory between them, nearest
/// first.
pub fn caller_bases(script_dir: &str) -> Vec<Word> {
    let mut out = vec![Word::lit(REPO)];
    let mut dir = script_dir;
    while dir != "." && !dir.is_empty() {
        out.push(Word::lit(format!("{REPO}/{dir}")));
        dir = crate::files::paths::parent(dir);
    }
    out
}

pub(super) fn skipped(origin: &Origin, reason: String, claims: Vec<String>) -> Outcome {
    Outcome::Skipped(Skipped {
        origin: origin.clone(),
        reason,
        claims,
        placeholder: None,
        left_out: Vec::new(),
        got: None,
    })
}

/// `cwd` with its caller prefix replaced by `base`.
pub(super) fn rebase(cwd: &Word, base: &Word) -> Word {
    match cwd.strip_prefix(CALLER) {
        Some(rest) => {
            let mut w = base.clone();
            w.extend(&rest);
            w.normalized()
        }
        None => cwd.clone(),
    }
}

/// `args` with every input path that starts in the caller's directory rebased on `root`.
fn rebased_args(args: &YttArgs, root: &Word) -> YttArgs {
    let mut out = args.clone();
    for f in &mut out.files {
        let (name, path) = split_name(f);
        if path.strip_prefix(CALLER).is_some() {
            let mut w = Word::lit(name);
            w.extend(&rebase(&path, root));
            *f = w;
        }
    }
    for f in &mut out.values_files {
        let (prefix, path) = split_values_prefix(f);
        if path.strip_prefix(CALLER).is_some() {
            let mut w = Word::lit(prefix);
            w.extend(&rebase(&path, root));
            *f = w;
        }
    }
    for (_, path) in &mut out.value_files {
        *path = rebase(path, root);
    }
    out
}

/// The path part of `-f [name=]path` and of `[@lib:][+:]path`.
pub(super) fn split_name(arg: &Word) -> (String, Word) {
    if let Some((name, path)) = arg.split_once('=') {
        if let Some(n) = name.literal().filter(|n| !n.contains('/') && !n.is_empty()) {
            return (format!("{n}="), path);
        }
    }
    (String::new(), arg.clone())
}

pub(super) fn split_values_prefix(arg: &Word) -> (String, Word) {
    let mut prefix = String::new();
    let mut rest = arg.clone();
    if rest.literal_prefix().starts_with('@') {
        if let Some((lib, path)) = rest.split_once(':') {
            if let Some(l) = lib.literal() {
                prefix.push_str(&format!("{l}:"));
                rest = path;
            }
        }
    }
    if let Some(path) = rest.strip_prefix("+:") {
        prefix.push_str("+:");
        rest = path;
    }
    (prefix, rest)
}

/// The path words that must exist for the command to run: its working directory and its
/// inputs (a values file that is not there is an input given at run time).
fn path_words(args: &YttArgs, cwd: &Word) -> Vec<Word> {
    let mut out = vec![cwd.clone()];
    for f in &args.files {
        out.push(split_name(f).1.relative_to(cwd));
    }
    out
}

/// The values unknown path parts can take: the combinations for which every path with
/// unknown parts exists, and whether each path that bound to nothing is a loop's glob the
/// shell drops under `nullglob` (the loop then has no such entry, see `glob_loop.rs`).
/// A path that exists nowhere but that a command of the repository makes, unknown parts
/// and all, from a file the repository holds (`envsubst < t.yaml > "config/$ENV.yaml"`
/// before `ytt -f "config/$ENV.yaml"`), leaves its parts unknown: what makes it is judged
/// as for any input the repository lacks. `None` when the paths are too vague to follow.
fn bindings(
    words: &[Word],
    index: &Index,
    made: &dyn Fn(&Word) -> bool,
) -> Option<(Vec<Binding>, bool)> {
    let mut out = vec![Binding::new()];
    let mut dropped = false;
    let mut unmatched = false;
    for (i, w) in words.iter().enumerate() {
        if w.unknowns().next().is_none() {
            continue;
        }
        let mut next = Vec::new();
        for b in &out {
            let bound = substitute(w, b);
            // An input whose whole name is unknown (`-f "$VALUES_YAML"`) does not stand for
            // every file of its directory: it is given at run time.
            let unnamed = i > 0
                && bound.normalized().segments().last().is_some_and(|s| {
                    s.literal_prefix().is_empty()
                        && s.0.len() == 1
                        && !s.unknowns().any(super::glob_loop::is_marker)
                });
            if unnamed || bound.unknowns().next().is_none() {
                next.push(b.clone());
                continue;
            }
            // The first word is the working directory: a directory.
            let Some(found) = index.bindings(&bound, i == 0) else {
                // Too vague to bind (an unknown first segment): leave it unknown.
                next.push(b.clone());
                continue;
            };
            // A loop's glob that matches nothing stays as written, as the shell leaves it,
            // unless the shell drops it (`nullglob`).
            let found = match (found.is_empty(), super::glob_loop::unmatched(&bound)) {
                (true, Some(literal)) => vec![literal],
                _ => found,
            };
            if found.is_empty() && i > 0 && made(&bound) {
                next.push(b.clone());
                continue;
            }
            if found.is_empty() {
                let null = bound.unknowns().next().is_some()
                    && bound
                        .unknowns()
                        .all(super::glob_loop::dropped_when_unmatched);
                dropped |= null;
                unmatched |= !null;
            }
            for m in found {
                let mut merged = b.clone();
                merged.extend(m);
                next.push(merged);
            }
        }
        if next.len() > MAX_MATCHES {
            return None;
        }
        out = next;
    }
    Some((out, dropped && !unmatched))
}

/// `w` with bound unknown parts replaced by their values.
pub(super) fn substitute(w: &Word, b: &Binding) -> Word {
    let mut out = Word::default();
    for p in &w.0 {
        match p {
            Piece::Unknown(name) => match b.get(name) {
                Some(v) => out.push_lit(v, false),
                None => out.0.push(p.clone()),
            },
            Piece::Lit { text, glob } => out.push_lit(text, *glob),
        }
    }
    out
}

/// The invocations of a command run in `cwd`, one per binding of its unknown path parts,
/// whether its paths exist and a test of a loop's entry leaves out every binding (see
/// `entry_tests.rs`), and the entries a test of their name leaves out, skipped.
fn place(
    origin: &Origin,
    args: &YttArgs,
    stdin: Option<&Stdin>,
    cwd: &Word,
    when: &[Cond],
    repo: &Repo,
    caller: bool,
) -> (Vec<Outcome>, bool, Vec<Outcome>) {
    let mut words = path_words(args, cwd);
    // A file test's path binds as a path; an entry's name is no path.
    words.extend(
        when.iter()
            .filter(|c| {
                !matches!(
                    c.test,
                    Test::Matches { .. } | Test::Flag(_) | Test::Carried(_)
                )
            })
            .map(|c| c.path.clone()),
    );
    let made = |w: &Word| super::made::from_committed(repo.made, w, repo.index);
    let Some((all, dropped)) = bindings(&words, repo.index, &made) else {
        return (
            vec![skipped(
                origin,
                "its paths match too many directories".into(),
                Vec::new(),
            )],
            false,
            Vec::new(),
        );
    };
    // A loop over a glob that matches nothing under `nullglob`: no entry runs the command.
    if all.is_empty() && dropped {
        return (vec![Outcome::Ignored], true, Vec::new());
    }
    if all.is_empty() {
        let shown: Vec<String> = words
            .iter()
            .filter(|w| w.unknowns().next().is_some())
            .map(|w| w.to_string())
            .collect();
        return (
            vec![skipped(
                origin,
                format!("no directory matches {}", shown.join(", ")),
                Vec::new(),
            )],
            false,
            Vec::new(),
        );
    }
    // A value in an input's first directory that one path alone matches (`vars-$code/…`).
    let sole: Vec<(Binding, Assumption)> = words
        .iter()
        .skip(1)
        .filter_map(|w| super::sole_match::binding(repo.index, w))
        .collect();
    let mut out = Vec::new();
    let mut excluded = Vec::new();
    let mut left_out = false;
    for b in &all {
        if !when.iter().all(|c| holds(c, b, repo)) {
            let by_entry = |c: &Cond| matches!(c.test, Test::Matches { .. } | Test::Contains(_));
            let others_hold = when
                .iter()
                .filter(|c| !by_entry(c))
                .all(|c| holds(c, b, repo));
            left_out |= others_hold;
            // An entry the loop leaves out by its name: the script says it is not rendered
            // this way, so it is not a root of its own inferred from the layout either.
            let by_name = when
                .iter()
                .filter(|c| !holds(c, b, repo))
                .all(|c| matches!(c.test, Test::Matches { .. }));
            if others_hold && by_name {
                excluded.extend(super::ls_loop::left_out(origin, &words, b));
            }
            continue;
        }
        let mut b = b.clone();
        for (m, _) in &sole {
            for (k, v) in m {
                b.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let mut found =
            super::instance::instance(origin, args, stdin, &substitute(cwd, &b), &b, repo, caller);
        if let Outcome::Found(inv) = &mut found {
            inv.assumptions.extend(sole.iter().map(|(_, a)| a.clone()));
            inv.assumptions
                .extend(super::glob_loop::entry_assumptions(&b, origin));
        }
        out.push(found);
    }
    let decided = out.is_empty() && left_out;
    if out.is_empty() {
        out.push(Outcome::Ignored);
    }
    (out, decided, excluded)
}

/// Whether a file test, or a test of a loop's entry, holds for a binding (a test the linter
/// cannot decide holds).
fn holds(c: &Cond, b: &Binding, repo: &Repo) -> bool {
    if matches!(c.test, Test::Flag(_) | Test::Carried(_)) {
        return true;
    }
    if matches!(c.test, Test::Matches { .. } | Test::Contains(_)) {
        return super::entry_tests::holds(c, b, repo.root, repo.index).unwrap_or(true);
    }
    let Some(path) = substitute(&c.path, b).repo_path() else {
        return true;
    };
    let index = repo.index;
    let exists = match c.test {
        Test::Dir => index.is_dir(&path),
        Test::File => index.is_file(&path),
        Test::Exists => index.exists(&path),
        Test::Symlink
        | Test::Matches { .. }
        | Test::Contains(_)
        | Test::Flag(_)
        | Test::Carried(_) => false,
    };
    exists == c.holds
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;

/// The repository paths a deploying command (`kapp deploy -f config/`) takes as they are,
/// each resolved against the first directory the command may run in where it exists.
pub fn deployed(d: &Deploy, snippet: &Snippet, index: &Index) -> Vec<String> {
    let Some(cwd) = &d.cwd else {
        return Vec::new();
    };
    let bases: Vec<Word> = if cwd.literal_prefix().starts_with(CALLER) {
        caller_bases(crate::files::paths::parent(&snippet.file))
    } else {
        vec![Word::lit(REPO)]
    };
    let mut out = Vec::new();
    for p in &d.paths {
        for base in &bases {
            let at = p.relative_to(&rebase(cwd, base));
            let Some(lit) = at.literal() else { continue };
            let Some(rest) = lit.strip_prefix(REPO) else {
                continue;
            };
            let rel = rest.trim_start_matches('/');
            let rel = if rel.is_empty() { "." } else { rel };
            if index.exists(rel) {
                out.push(rel.trim_end_matches('/').to_string());
                break;
            }
        }
    }
    out
}
