//! One placed `ytt` command: each path it names found in the repository (a glob expanded, a
//! CI input named after the repository, an absolute path to a checkout or an image layout, or
//! a URL of the repository's own files mapped back), what it reads on standard input, and the
//! command turned into an [`Invocation`]. An input that is not in the repository is judged by
//! [`super::missing`]: what stands in for it, what was assumed, or why the command is skipped
//! or fails.

use super::assembled;
use super::author_clone;
use super::corrected_page;
use super::documented_example;
use super::env_files;
use super::index::Binding;
use super::missing::{self, Absent, Given};
use super::moved_page;
use super::outputs::Stdin;
use super::remote;
use super::resolve::{
    skipped, split_name, split_values_prefix, substitute, DataValue, Invocation, MissingInput,
    Origin, Outcome, Repo, ValuesDoc, NOT_IN_REPOSITORY,
};
use super::sops_values;
use super::unfilled_dir;
use super::word::Word;
use super::ytt_args::{ValueKind, YttArgs};
use crate::report::{Assumption, AssumptionKind};
use crate::ytt_flags::stdin_text;

#[path = "instance_absent.rs"]
mod absent;

/// Where a path word points: repository paths (globs expanded), or why not.
enum Place {
    Paths(Vec<String>),
    Stdin,
    /// Content a command makes at run time (`<(./gen.sh)`): never a path.
    Generated(String),
    /// A URL (`-f https://...`) of another repository: ytt downloads it.
    Remote(String),
    Unknown(String),
    /// Not in the repository: the path word, normalized.
    Absent(Word),
}

/// Where `word` points, with what placing it assumed (an author's own clone, see
/// [`author_clone`]) recorded in the invocation being built.
fn place(at: &mut Building, word: &Word, cwd: &Word, b: &Binding, repo: &Repo, c: bool) -> Place {
    let mut assumed = None;
    let found = locate(word, cwd, b, repo, c, &mut assumed);
    at.assume(assumed);
    found
}

fn locate(
    word: &Word,
    cwd: &Word,
    b: &Binding,
    repo: &Repo,
    caller: bool,
    assumed: &mut Option<Assumption>,
) -> Place {
    if word.literal().as_deref() == Some("-") {
        return Place::Stdin;
    }
    if word
        .unknowns()
        .any(|u| u.starts_with("<(") || u.starts_with(">("))
    {
        return Place::Generated(word.to_string());
    }
    let prefix = word.literal_prefix();
    if prefix.starts_with("https://") || prefix.starts_with("http://") {
        return match word.literal().and_then(|url| remote::own_file(&url, repo)) {
            Some(p) => Place::Paths(vec![p]),
            None => Place::Remote(word.to_string()),
        };
    }
    let full = substitute(&word.relative_to(cwd), b);
    if full.in_home() {
        return Place::Absent(full);
    }
    if full.unknowns().next().is_some() {
        // Rendered from a committed template, unknown parts and all: judged as an input the
        // repository lacks (see `bindings` in `resolve.rs`).
        if super::made::rendered_from_committed(repo.made, &full, repo.index) {
            return Place::Absent(full);
        }
        return Place::Unknown(word.to_string());
    }
    if full.has_glob() {
        let found = repo.index.glob(&full);
        if !found.is_empty() {
            return Place::Paths(found);
        }
    }
    let Some(path) = full.repo_path() else {
        let abs = full.literal();
        if let Some(p) = abs.as_deref().and_then(|abs| elsewhere(abs, repo)) {
            return Place::Paths(vec![p]);
        }
        return match abs
            .as_deref()
            .and_then(|abs| author_clone::mapped(abs, repo))
        {
            Some((p, a)) => {
                *assumed = Some(a);
                Place::Paths(vec![p])
            }
            None => Place::Absent(full),
        };
    };
    if repo.index.exists(&path) {
        return Place::Paths(vec![path]);
    }
    // From a CI build directory, a path starts with the name of the input holding the
    // repository (`cf-for-k8s/config`).
    if let (true, Some((first, rest))) = (caller, path.split_once('/')) {
        if !repo.index.exists(first)
            && (first.contains(repo.name) || repo.name.contains(first))
            && repo.index.exists(rest)
        {
            return Place::Paths(vec![rest.to_string()]);
        }
    }
    Place::Absent(full)
}

/// An absolute path to a copy of the repository (`/tmp/kind/cf-for-k8s/config`, a checkout
/// named after it) or to where an image holds its files (`/opt/app/etc/x.yaml` for the
/// repository's `image/opt/app/etc/x.yaml`: the whole path, so that a bundle pulled into
/// `/tmp/pkg/config` is not taken for a directory of the repository that ends alike).
fn elsewhere(abs: &str, repo: &Repo) -> Option<String> {
    if !abs.starts_with('/') {
        return None;
    }
    let segs: Vec<&str> = abs.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(i) = segs.iter().rposition(|s| *s == repo.name) {
        let rest = segs[i + 1..].join("/");
        let rest = if rest.is_empty() {
            ".".to_string()
        } else {
            rest
        };
        if repo.index.exists(&rest) {
            return Some(rest);
        }
    }
    if segs.first() == Some(&"tmp") || segs.len() < 2 {
        return None;
    }
    repo.index.by_suffix(&segs.join("/"))
}

/// The invocation being built, and what stops it.
struct Building {
    inv: Invocation,
    problems: Vec<String>,
    /// Inputs that do not exist: the path, what was likely meant, and whether the command
    /// is evidently meant to run here (see [`missing::evident`]).
    missing: Vec<(String, Option<String>, bool)>,
    stdin: bool,
    /// `-f -` reads what a program the linter cannot run prints (see `piped_stdin.rs`).
    piped: bool,
    generated: bool,
    /// The directory of the page the command is on, when it is documented.
    page: Option<String>,
    /// Written in a script another runs, from the one directory its caller is in (see
    /// [`Repo::nested`]): a missing input is evidently missing from there.
    nested: bool,
    /// It runs from the directory its script's other commands show (see
    /// [`Repo::settled`]): a missing input is evidently missing from there.
    settled: bool,
    /// The command is a script's, run by the page it is documented on (`page`).
    page_script: bool,
    /// The command runs in CI, with no user at hand to give files of their own.
    unattended: bool,
    /// Values-like inputs of the repository's directories that do not exist, taken for the
    /// user's own (as `missing`): reported when the command has no other input.
    absent_values: Vec<(String, Option<String>, bool)>,
    /// Every missing input leads into the repository's directories from where the command
    /// runs (see [`missing::leads_in`]).
    leads_in: bool,
    /// What reporting a missing input assumes: that a command whose output path is known
    /// only in part does not make it.
    doubts: Vec<Assumption>,
    /// A `-f` input a placeholder names, as a repository path (see `placeholder_file.rs`).
    placeholder: Option<String>,
    /// A missing input of a page's own command names the page's folder, or a file one level
    /// up, by an old path (see `moved_page.rs`).
    moved: bool,
    /// A missing input may exist from another directory of the repository (see
    /// `moved_page::exists_elsewhere`).
    elsewhere: bool,
    /// The missing `-f` inputs of a page's own command that name the page's folder by an old
    /// path, with the path each now is (see `corrected_page.rs`).
    corrections: Vec<corrected_page::Correction>,
    /// A `-f` input that is what a `kubectl get … -o yaml` of the repository prints (see
    /// `kubectl_got.rs`).
    got: Option<super::kubectl_got::GotInput>,
}

impl Building {
    /// Records an input that does not exist.
    fn missing(
        &mut self,
        full: &Word,
        written: &Word,
        cwd: &Word,
        mut hint: Option<String>,
        repo: &Repo,
    ) {
        // A page that runs a script from the page's own directory (`./install.sh`, the
        // script beside it) shows where its reader stands: an input the script names from
        // there is missing, whatever else it is given at run time (`-f $1`).
        let from_page = self.page_script
            && cwd.repo_path().as_deref() == self.page.as_deref()
            && full
                .repo_path()
                .zip(self.page.as_deref())
                .is_some_and(|(t, dir)| dir == "." || crate::files::paths::is_within(&t, dir));
        let evident = self.nested
            || self.settled
            || from_page
            || missing::evident(
                full,
                written,
                cwd,
                hint.as_deref(),
                self.page.as_deref(),
                repo.index,
            );
        self.leads_in &= missing::leads_in(full, cwd, repo.index);
        // A path that exists as written from the page's own folder (`./wf.yml` beside the
        // page) is where the page's reader stands, not a move (round fifty-three's N53-2).
        if !evident && !self.beside_page(written, hint.as_deref()) {
            hint = self.moved_on_page(full, hint, repo);
        }
        if self.page.is_some() {
            self.elsewhere |= moved_page::exists_elsewhere(written, repo.index);
        }
        self.missing.push((shown_path(full), hint, evident));
    }

    /// Whether `hint`, what a missing input of a page's own command is, is the path as
    /// `written` taken from the page's own folder.
    fn beside_page(&self, written: &Word, hint: Option<&str>) -> bool {
        let (Some(dir), Some(hint)) = (self.page.as_deref(), hint) else {
            return false;
        };
        let Some(rel) = written.normalized().literal() else {
            return false;
        };
        !self.page_script
            && !rel.starts_with('/')
            && !rel.split('/').any(|s| s == "..")
            && crate::files::paths::join(dir, rel.trim_start_matches("./").trim_end_matches('/'))
                == hint
    }

    /// The hint for a missing input of a page's own command that moved (see `moved_page.rs`),
    /// noting the move.
    fn moved_on_page(&mut self, full: &Word, hint: Option<String>, repo: &Repo) -> Option<String> {
        let (Some(dir), Some(target)) = (self.page.as_deref(), full.repo_path()) else {
            return hint;
        };
        if self.page_script {
            return hint;
        }
        if let Some(h) = hint {
            self.moved |= moved_page::into_own_folder(&h, dir);
            return Some(h);
        }
        let up = moved_page::moved_up(&target, repo.index)
            .filter(|_| dir == "." || crate::files::paths::is_within(&target, dir));
        self.moved |= up.is_some();
        up
    }

    /// Records the last missing input as a stale path of the page's own folder, when it is
    /// one (see `corrected_page.rs`); `name` is the input's `name=` part.
    fn correct(&mut self, name: &str, full: &Word) {
        let (Some(dir), Some(stale)) = (self.page.as_deref(), full.repo_path()) else {
            return;
        };
        let Some((_, Some(now), false)) = self.missing.last() else {
            return;
        };
        if self.page_script || !name.is_empty() || !moved_page::into_own_folder(now, dir) {
            return;
        }
        self.corrections.push(corrected_page::Correction {
            at: self.inv.inputs.len(),
            stale,
            now: now.clone(),
        });
    }

    fn assume(&mut self, a: Option<Assumption>) {
        if let Some(a) = a {
            if !self.inv.assumptions.contains(&a) {
                self.inv.assumptions.push(a);
            }
        }
    }
}

pub(super) fn instance(
    origin: &Origin,
    args: &YttArgs,
    stdin: Option<&Stdin>,
    cwd: &Word,
    b: &Binding,
    repo: &Repo,
    caller: bool,
) -> Outcome {
    let source = crate::lint::discover::provenance::source_of(&origin.file);
    let mut at = Building {
        inv: Invocation {
            flags: args.flags.clone(),
            file_marks: args.file_marks.iter().filter_map(Word::literal).collect(),
            inspect: args.inspect,
            prints_values: args.prints_values,
            split_output: args.split_output,
            binding: b.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            ..Invocation::new(origin.clone())
        },
        problems: Vec::new(),
        missing: Vec::new(),
        stdin: false,
        piped: false,
        generated: false,
        nested: repo.nested && !caller,
        settled: repo.settled,
        page: (source == crate::report::Source::Document)
            .then(|| crate::files::paths::parent(&origin.file).to_string()),
        unattended: source == crate::report::Source::Ci,
        page_script: repo.nested && source == crate::report::Source::Document,
        absent_values: Vec::new(),
        doubts: Vec::new(),
        leads_in: true,
        placeholder: None,
        moved: false,
        elsewhere: false,
        corrections: Vec::new(),
        got: None,
    };
    for f in &args.files {
        // `-f [NAME](URL)`, a page's link: the file NAME its reader downloads from URL.
        if let Some((name, url)) = f.literal().as_deref().and_then(super::page_links::link) {
            at.assume(Some(super::page_links::assumption(name, url)));
            at.inv
                .unknown
                .push(format!("-f {name} (downloaded from {url})"));
            continue;
        }
        let (name, path) = split_name(f);
        // A file an earlier copy put there is the copied one (`copied_input.rs`).
        let (name, path) =
            match super::copied_input::instead_of_skip(&name, &path, cwd, b, origin, repo) {
                Some((name, path, assumed)) => {
                    at.assume(assumed);
                    (name, path)
                }
                None => (name, path),
            };
        match place(&mut at, &path, cwd, b, repo, caller) {
            Place::Paths(found) => at
                .inv
                .inputs
                .extend(found.into_iter().map(|p| format!("{name}{p}"))),
            Place::Stdin => standard_input(&mut at, stdin, &name, (cwd, b, repo, caller)),
            Place::Generated(w) => {
                at.generated = true;
                at.inv
                    .unknown
                    .push(format!("-f {name}{w} (made at run time)"));
            }
            Place::Remote(w) => at.problems.push(format!("remote input {w}")),
            Place::Unknown(w) => match documented_example::for_run_time_input(
                &path,
                &origin.file,
                repo.documented,
                at.unattended,
            ) {
                // The user's copy of the example a page tells them to fill in.
                Some((example, a)) => {
                    at.inv.stand_ins.push(example.clone());
                    at.inv.inputs.push(format!("{name}{example}"));
                    at.assume(Some(a));
                }
                None => {
                    at.assume(Some(run_time_file(&path)));
                    at.inv.unknown.push(format!("-f {w}"));
                }
            },
            Place::Absent(full)
                if at.inv.file_marks.is_empty()
                    && assembled::layout(&full, origin, repo).is_some() =>
            {
                // A folder the snippet's copies assemble: the copied files, as laid out there.
                if let Some(a) = assembled::layout(&full, origin, repo) {
                    let plain: Vec<String> = a
                        .inputs
                        .iter()
                        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string())
                        .collect();
                    at.inv.assembled.push((a.label, plain));
                    at.inv.inputs.extend(a.inputs);
                    for s in a.sources {
                        if !at.inv.stand_ins.contains(&s) {
                            at.inv.stand_ins.push(s);
                        }
                    }
                    at.assume(a.assumption);
                }
            }
            Place::Absent(full) => {
                let shown = path.to_string();
                let marks = at.inv.file_marks.clone();
                match missing::judge(&full, &shown, Given::File, &marks, repo, at.unattended) {
                    Absent::Instead(p, a) => {
                        at.inv.stand_ins.push(p.clone());
                        // A file mark names the file as the command does: the stand-in
                        // keeps that name (`mv values.yaml values.yaml.original`).
                        let marked = marks.iter().any(|m| missing::marks_input(m, &shown));
                        at.inv.inputs.push(stand_in(&name, &shown, &p, marked));
                        at.assume(a);
                    }
                    Absent::Text(doc, a) => {
                        at.inv.values_docs.push(doc);
                        at.assume(a);
                    }
                    Absent::Without(a) => {
                        // Its file marks would match nothing, which ytt rejects.
                        at.inv
                            .file_marks
                            .retain(|m| !missing::marks_input(m, &shown));
                        at.assume(Some(a));
                    }
                    Absent::Unknown => {
                        absent::record(&mut at, &full, &path, cwd, repo);
                        at.inv
                            .unknown
                            .push(format!("-f {} {NOT_IN_REPOSITORY}", shown_path(&full)));
                    }
                    Absent::Skip(reason) => {
                        if missing::placeholder(&shown).is_some() {
                            at.placeholder = full.repo_path();
                        }
                        if at.got.is_none() {
                            at.got = super::kubectl_got::input(&full, &shown, repo);
                        }
                        at.problems.push(reason);
                    }
                    // A CI job's path that climbs out of its working directory (`cd repo;
                    // ytt -f ../template.yaml`) reaches its build directory, which holds
                    // its other inputs and what it made there: uncertain, not missing.
                    Absent::Missing(_)
                        if at.unattended && path.literal_prefix().starts_with("../") =>
                    {
                        at.inv.unknown.push(format!(
                            "-f {shown} (outside the CI job's working directory)"
                        ));
                    }
                    Absent::Missing(hint) => {
                        at.missing(&full, &path, cwd, hint, repo);
                        at.correct(&name, &full);
                    }
                    Absent::Doubtful(hint, a) => {
                        at.doubts.push(a);
                        at.missing(&full, &path, cwd, hint, repo);
                    }
                }
            }
        }
    }
    values_files(&mut at, args, cwd, b, repo, caller);
    value_files(&mut at, args, cwd, b, repo, caller);
    for (kind, key, value) in &args.values {
        match key.literal().filter(|k| !k.is_empty()) {
            Some(k) => at.inv.values.push(DataValue {
                kind: *kind,
                key: k,
                value: substitute(value, b).literal(),
                written: None,
            }),
            None => at.inv.unknown.push(format!("-v {key}")),
        }
    }
    for p in &args.env_prefixes {
        // The environment files beside it, else the templates of the files its script
        // sources (`env_template.rs`).
        let given = env_files::given(p, cwd, repo.env_files).or_else(|| {
            let prefix = p.literal()?;
            super::env_template::given(&prefix, &origin.file, repo.env_templates)
        });
        match given {
            Some((values, a)) => {
                at.inv.values.extend(values);
                at.assume(Some(a));
            }
            None => at.inv.unknown.push(format!("--data-values-env {p}")),
        }
    }
    for a in &args.unknown {
        at.inv.unknown.push(format!("argument {a}"));
    }
    finish(at, origin, cwd)
}

/// The outcome of a built invocation.
fn finish(mut at: Building, origin: &Origin, cwd: &Word) -> Outcome {
    // Too little of a piped command is the repository's, or it stops for another reason (an
    // input missing, not in the repository): as any other standard input.
    at.stdin |= at.piped
        && (!at.missing.is_empty()
            || !at.problems.is_empty()
            || super::piped_stdin::too_little(&at.inv));
    absent::all_missing(&mut at);
    let claims: Vec<String> = at
        .inv
        .inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string())
        .collect();
    if !at.missing.is_empty() {
        let found = at.inv.inputs.len();
        // A page's command whose other inputs exist from where it runs, and whose missing
        // ones lead into the directories there (`config/deps/x.yaml` beside `config/app.yaml`),
        // runs there: a later commit deleted the file (LR11-C1). A page copied from a bundle
        // names paths that lead out of the repository (`../../ingress`), or nowhere in it.
        let evident =
            at.missing.iter().any(|m| m.2) || (found > 0 && (at.page.is_none() || at.leads_in));
        // Or it names what moved within the page's tree: reported, claiming nothing more.
        let moved = !evident && at.moved;
        // Every missing input is the page's own folder by an old path: the command is linted
        // too as its reader would run it with the path corrected (`corrected_page.rs`).
        let fixable = moved
            && at.corrections.len() == at.missing.len()
            && at.problems.is_empty()
            && !at.stdin
            && !at.generated;
        let corrected = fixable.then(|| {
            (
                Box::new(corrected_page::corrected(&at.inv, &at.corrections)),
                corrected_page::moves(&at.corrections),
            )
        });
        let paths: Vec<(String, Option<String>)> =
            at.missing.into_iter().map(|(p, h, _)| (p, h)).collect();
        // A page's own command fails for certain where its reader's directory is certain.
        let own_page = at.page.as_deref().filter(|_| !at.page_script);
        let mut assumed = at.doubts;
        assumed.extend(
            own_page.and_then(|dir| moved_page::directory_assumed(dir, cwd, found, at.elsewhere)),
        );
        return Outcome::Missing(MissingInput {
            origin: origin.clone(),
            paths,
            found,
            claims,
            evident: evident || moved,
            assumed,
            written: None,
            dir_claims: !moved,
            fails: own_page.is_some(),
            corrected,
        });
    }
    if at.stdin {
        return skipped(
            origin,
            "it renders templates from standard input".into(),
            claims,
        );
    }
    // Only a command whose one problem is the `kubectl get` output, which gives nothing but
    // files, is judged by what that output is.
    let plain = at.problems.len() == 1
        && at.inv.flags.is_empty()
        && at.inv.file_marks.is_empty()
        && at.inv.values.is_empty()
        && at.inv.values_files.is_empty()
        && at.inv.value_files.is_empty()
        && at.inv.values_docs.is_empty()
        && at.inv.unknown.is_empty()
        && at.inv.assumptions.is_empty()
        && at.inv.inputs.iter().all(|i| !i.contains('='));
    if let Some(p) = at.problems.into_iter().next() {
        let mut out = skipped(origin, p, claims);
        if let Outcome::Skipped(s) = &mut out {
            s.placeholder = at.placeholder;
            s.got = at.got.map(|mut g| {
                g.plain = plain;
                g
            });
        }
        return out;
    }
    if at.inv.inputs.is_empty() && at.generated {
        return skipped(
            origin,
            "its inputs are made at run time (process substitution)".into(),
            claims,
        );
    }
    if at.inv.inputs.is_empty() {
        return skipped(
            origin,
            "none of its inputs is in the repository".into(),
            claims,
        );
    }
    Outcome::Found(Box::new(at.inv))
}

/// `-f -`: a file or a here-document of data values on standard input stands in for it, read
/// where the command names `-`; data values another command writes (`sops -d secrets.yml | ytt
/// -f config -f -`) and manifests another tool prints (`helm template … | ytt -f - -f
/// overlay/`) are left out, as an assumption, and so is what any other program prints
/// (`make-cluster | ytt -f assist -f-`, `piped_stdin.rs`); other templates on standard input
/// stop the command. ytt names what it reads there `stdin.yml` (`-f x.yml=-`: `x.yml`), a
/// committed file too (`ytt -f - < values.yml`): the input keeps that name.
fn standard_input(
    at: &mut Building,
    stdin: Option<&Stdin>,
    name: &str,
    (cwd, b, repo, caller): (&Word, &Binding, &Repo, bool),
) {
    let unnamed = name.is_empty();
    match stdin {
        Some(Stdin::File(w)) => match place(at, w, cwd, b, repo, caller) {
            Place::Paths(found) if found.len() == 1 => {
                let name = match unnamed {
                    true => format!("{}=", stdin_text::NAME),
                    false => name.to_string(),
                };
                at.inv
                    .inputs
                    .extend(found.into_iter().map(|p| format!("{name}{p}")));
            }
            Place::Paths(found) => at.inv.inputs.extend(found),
            _ => at.stdin = true,
        },
        Some(Stdin::Text(w)) if missing::is_values_text(&w.text) => {
            at.inv.values_docs.push(ValuesDoc {
                origin: format!("{}:{}", at.inv.origin.file, w.line),
                text: w.text.clone(),
                expanded: w.expanded,
                stdin: true,
                after: at.inv.inputs.len(),
            });
            if w.expanded {
                at.assume(Some(Assumption::new(
                    AssumptionKind::RuntimeValues,
                    "the data values on standard input hold values known only at run time",
                )));
            }
        }
        Some(Stdin::Command(producer)) if gives_values(producer) => {
            // Any data value may come from there: a failure for want of one is `needs-input`.
            at.inv
                .unknown
                .push(format!("-f - (what `{producer}` prints)"));
            at.assume(Some(Assumption::new(
                AssumptionKind::MissingInput,
                format!(
                    "`-f -` reads what `{producer}` prints at run time (data values); linted without it"
                ),
            )
            .about(super::piped_stdin::piped(producer))));
        }
        // Named (`-f image.yml=-`), it is read by name (`data.read`): not only overlaid.
        Some(Stdin::Command(producer)) if unnamed && prints_manifests(producer) => {
            at.assume(Some(
                Assumption::new(
                    AssumptionKind::MissingInput,
                    format!(
                    "`-f -` reads the manifests `{producer}` prints at run time; linted without \
                     them, so what the other inputs do to them (an overlay's matches) is not judged"
                ),
                )
                .about(super::piped_stdin::piped(producer)),
            ));
        }
        // Another program's output, unnamed: the command's own files are linted without it
        // (see `piped_stdin.rs`). Named (`-f x.yml=-`), a template reads it by name.
        Some(Stdin::Command(producer)) if unnamed => {
            let first = producer.split_whitespace().next().unwrap_or("");
            if first.rsplit('/').next() == Some("ytt") {
                at.inv.piped_ytt = Some(producer.clone());
            }
            at.piped = true;
            at.inv.unknown.push(super::piped_stdin::unknown(producer));
            at.assume(Some(super::piped_stdin::assumption(producer)));
        }
        _ => at.stdin = true,
    }
}

/// What a `-f` input known only at run time assumes (`-f $REPO_DIR/config/workload.yaml`, a
/// file another tool made; `-f $YML`; `-f "$1"`): it may be what the other inputs overlay,
/// so the command is linted without part of its input and an overlay's matches are not
/// judged. (Its data values are `runtime-values`, which bear on every finding that rests on
/// the inputs.)
fn run_time_file(path: &Word) -> Assumption {
    Assumption::new(
        AssumptionKind::MissingInput,
        format!(
            "`-f {path}` is given at run time; linted without it, so what the other inputs do \
             to it (an overlay's matches) is not judged"
        ),
    )
}

/// Whether a command of a pipeline prints Kubernetes manifests that the other inputs of the
/// ytt command overlay (`helm template`, `kustomize build`, `ko resolve`, `kubectl get -o
/// yaml`), by its name.
fn prints_manifests(producer: &str) -> bool {
    let first = producer.split_whitespace().next().unwrap_or("");
    let name = first.rsplit('/').next().unwrap_or(first);
    let name = name
        .trim_start_matches("$(")
        .trim_end_matches(')')
        .to_ascii_lowercase();
    ["helm", "kustomize", "ko", "kubectl", "oc", "kbld"].contains(&name.as_str())
}

/// Whether a command of a pipeline prints data values, by its name (`sops -d`, a script that
/// decrypts secrets).
fn gives_values(producer: &str) -> bool {
    let first = producer.split_whitespace().next().unwrap_or("");
    let name = first
        .rsplit('/')
        .next()
        .unwrap_or(first)
        .to_ascii_lowercase();
    [
        "sops", "decrypt", "secret", "vault", "values", "gopass", "lpass",
    ]
    .iter()
    .any(|w| name.contains(w))
}

/// `--data-values-file` arguments.
fn values_files(at: &mut Building, args: &YttArgs, cwd: &Word, b: &Binding, repo: &Repo, c: bool) {
    for v in &args.values_files {
        let (prefix, path) = split_values_prefix(v);
        if prefix.is_empty() && decrypted(at, &path, cwd, b, repo, c) {
            continue;
        }
        let placed = place(at, &path, cwd, b, repo, c);
        if let Place::Paths(found) = &placed {
            if let Some(m) = unfilled_dir::filler(found, repo.made, repo.index) {
                at.assume(Some(unfilled_dir::assumption(&found[0], m)));
                at.inv.unknown.push(format!("--data-values-file {v}"));
                continue;
            }
        }
        match placed {
            Place::Paths(found) => at
                .inv
                .values_files
                .extend(found.into_iter().map(|p| format!("{prefix}{p}"))),
            Place::Absent(full) if prefix.is_empty() => {
                let shown = path.to_string();
                match missing::judge(&full, &shown, Given::ValuesFile, &[], repo, at.unattended) {
                    Absent::Instead(p, a) => {
                        at.inv.stand_ins.push(p.clone());
                        at.inv.values_files.push(p);
                        at.assume(a);
                    }
                    Absent::Text(doc, a) => {
                        at.inv.values_docs.push(doc);
                        at.assume(a);
                    }
                    Absent::Without(a) => {
                        at.assume(Some(a));
                        at.inv.unknown.push(format!("--data-values-file {v}"));
                    }
                    Absent::Missing(hint) => at.missing(&full, &path, cwd, hint, repo),
                    Absent::Doubtful(hint, a) => {
                        at.doubts.push(a);
                        at.missing(&full, &path, cwd, hint, repo);
                    }
                    Absent::Unknown | Absent::Skip(_) => at.inv.unknown.push(format!(
                        "--data-values-file {} {NOT_IN_REPOSITORY}",
                        shown_path(&full)
                    )),
                }
            }
            _ => at.inv.unknown.push(format!("--data-values-file {v}")),
        }
    }
}

/// `--data-values-file <(sops -d FILE)` (or `name=<(…)`) of a committed sops file: its keys,
/// the encrypted values given at run time (see [`sops_values`]). Whether it was one.
fn decrypted(
    at: &mut Building,
    path: &Word,
    cwd: &Word,
    b: &Binding,
    repo: &Repo,
    c: bool,
) -> bool {
    let Some(file) = sops_values::substitution(path).and_then(sops_values::decrypted_file) else {
        return false;
    };
    let Place::Paths(found) = place(at, &Word::lit(&file), cwd, b, repo, c) else {
        return false;
    };
    let ([one], Some(root)) = (found.as_slice(), repo.root) else {
        return false;
    };
    let Some(values) = super::scripts::read(root, one, sops_values::MAX_READ)
        .as_deref()
        .and_then(|text| sops_values::values(text, one))
    else {
        return false;
    };
    at.assume(Some(sops_values::assumption(one, &values)));
    at.inv.values.extend(values);
    true
}

/// `--data-value-file key=path` arguments.
fn value_files(at: &mut Building, args: &YttArgs, cwd: &Word, b: &Binding, repo: &Repo, c: bool) {
    for (key, path) in &args.value_files {
        let Some(k) = key.literal() else {
            at.inv
                .unknown
                .push(format!("--data-value-file {key}={path}"));
            continue;
        };
        let unknown = DataValue {
            kind: ValueKind::String,
            key: k.clone(),
            value: None,
            written: None,
        };
        // `openapi=<(ytt -f schema.yaml --data-values-schema-inspect -o openapi-v3)`: what
        // the inspection on the same line prints (see `inspected.rs`).
        if super::inspected::substituted(path) {
            at.inv.inspected.push((k.clone(), at.inv.origin.clone()));
            at.inv.values.push(unknown);
            continue;
        }
        match place(at, path, cwd, b, repo, c) {
            Place::Paths(found) if found.len() == 1 => {
                at.inv.value_files.push((k, found[0].clone()))
            }
            Place::Absent(full) => {
                if let Some(origin) = super::inspected::maker(&full, repo) {
                    at.inv.inspected.push((k.clone(), origin));
                }
                let shown = path.to_string();
                match missing::judge(&full, &shown, Given::ValueFile, &[], repo, at.unattended) {
                    Absent::Instead(p, a) => {
                        at.inv.stand_ins.push(p.clone());
                        at.inv.value_files.push((k, p));
                        at.assume(a);
                    }
                    Absent::Text(doc, a) => {
                        at.inv.values.push(DataValue {
                            value: Some(doc.text),
                            ..unknown
                        });
                        at.assume(a);
                    }
                    Absent::Missing(hint) => at.missing(&full, path, cwd, hint, repo),
                    Absent::Doubtful(hint, a) => {
                        at.doubts.push(a);
                        at.missing(&full, path, cwd, hint, repo);
                    }
                    Absent::Without(a) => {
                        at.assume(Some(a));
                        at.inv.values.push(unknown);
                    }
                    Absent::Unknown | Absent::Skip(_) => at.inv.values.push(unknown),
                }
            }
            _ => at.inv.values.push(unknown),
        }
    }
}

/// A `-f` input standing in for `shown`: by its own path, or named as the command names the
/// file it stands for when its name would not be read as YAML (`values.yaml.example` given
/// as `values.yaml=values.yaml.example`) or when a file mark of the command names it
/// (`marked`: `values.yaml.original=chart/values.yaml`).
fn stand_in(name: &str, shown: &str, path: &str, marked: bool) -> String {
    let yaml = |p: &str| [".yml", ".yaml"].iter().any(|e| p.ends_with(e));
    if !name.is_empty() || (!marked && (yaml(path) || !yaml(shown))) {
        return format!("{name}{path}");
    }
    let base = shown.rsplit('/').next().unwrap_or(shown);
    format!("{base}={path}")
}

/// A path word as a message shows it: the repository path, or the word.
fn shown_path(full: &Word) -> String {
    full.repo_path().unwrap_or_else(|| full.to_string())
}
