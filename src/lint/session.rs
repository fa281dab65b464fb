//! One run of the linter from validated settings: find the configuration and the repository,
//! discover and select what to lint, run the jobs, then apply rule levels and suppression
//! comments. What the command line does with the result (baseline, formats, exit status) is
//! up to it.

use std::path::{Path, PathBuf};

use globset::GlobSet;

use crate::files::paths;
use crate::lint::config::{self, Config, RuleLevel};
use crate::lint::discover;
use crate::lint::discover::select;
use crate::lint::job::coverage;
use crate::lint::job::{JobKind, PLAIN_ROOT};
use crate::lint::plan;
use crate::lint::plan::Planned;
use crate::lint::post::baseline::Baseline;
use crate::lint::post::{self, never_evaluated};
use crate::lint::repo::walk;
use crate::lint::run;
use crate::lint::run::cache::{self, Cache};
use crate::lint::run::progress::Progress;
use crate::lint::run::run_cache::RunCache;
use crate::report::coverage::RootCoverage;
use crate::report::{Report, Sources};

/// What a run is asked to do, already validated.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The working directory (relative paths are taken from it).
    pub cwd: PathBuf,
    /// Paths on the command line.
    pub paths: Vec<PathBuf>,
    /// `--config`.
    pub config: Option<PathBuf>,
    /// Worker threads.
    pub jobs: usize,
    /// Show progress on a terminal.
    pub progress: bool,
    /// `--allow-env`: environment prefixes the configuration's flags may read.
    pub allow_env: Vec<String>,
    /// Where job outcomes are cached (`--cache-dir`, `--no-cache`).
    pub cache: CacheSetting,
    /// Run the jobs in worker processes with these limits (`None`: in threads of this process).
    pub isolation: Option<crate::lint::run::pool::Isolation>,
    /// `--memory-limit` (`None`: its default): besides the workers' shares, it bounds the
    /// findings the main process keeps ([`crate::lint::run::budget`]).
    pub memory: Option<u64>,
    /// A coverage report is asked for: record coverage even when `branch-never-evaluated` is
    /// off.
    pub coverage: bool,
    /// `--baseline`: findings accepted as they are.
    pub baseline: Option<Baseline>,
    /// Set when the run's results are no longer wanted (the language server's newer edit):
    /// the run stops early, and what it returns is meaningless.
    pub cancel: Option<crate::eval::cancel::Flag>,
    /// A job may hand parts of its work to the idle threads of the pool (the language server,
    /// which usually runs one job after an edit; see [`crate::eval::spread`]).
    pub spread: bool,
    /// When the run's time is up (`--timeout`): jobs not finished by then are `limit-exceeded`
    /// findings (see [`crate::lint::run::deadline`]).
    pub deadline: Option<crate::lint::run::deadline::Deadline>,
    /// The listing of the repository the search for sub-projects made (`lint::projects`): the
    /// repository walk uses it when it is the configuration's, rather than list again.
    pub tree: Option<std::sync::Arc<crate::lint::repo::tree::Tree>>,
}

/// Whether and where the result cache lives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CacheSetting {
    /// `.yttlint-cache/` in the repository.
    #[default]
    InRepository,
    /// `--cache-dir DIR`.
    Dir(PathBuf),
    /// `--no-cache`.
    Off,
}

/// What a run found.
pub struct Linted {
    /// Sorted, with levels and suppressions applied.
    pub report: Report,
    /// The repository's files, for renderers and fingerprints.
    pub sources: Sources,
    /// Jobs taken from the cache and jobs run, when the cache is on.
    pub cached: Option<(usize, usize)>,
    /// Each root's coverage by its scenarios, when recorded (sorted by root).
    pub coverage: Vec<RootCoverage>,
    /// The kinds of rendered objects no schema was known for (`apiVersion kind`), sorted.
    pub unchecked_kinds: Vec<String>,
    /// The ytt documents written as strings in other files (a Cartographer template's `ytt:
    /// |`, a Secret's values) that the run checked: a run with no root has linted these.
    pub strings: usize,
    /// What the run says about itself (a cache directory git tracks, not used).
    pub notes: Vec<String>,
    /// How many findings the baseline (`--baseline`) hid.
    pub hidden_by_baseline: usize,
}

/// Finds the configuration and so the repository of a run: `--config`, else the first
/// `.yttlint.yaml` upward from the first path given (the working directory when none is).
/// Without one, the repository is the version-control work tree that holds that path, else the
/// path itself (for a file, the working directory when it holds the file, as pre-commit runs,
/// else the file's directory): `yttlint some/dir` from a busy parent reads `some/dir` only.
pub fn load_config(s: &Settings) -> Result<Config, String> {
    if let Some(c) = &s.config {
        return load_config_file(s, &paths::absolute(&s.cwd, c));
    }
    let (start, itself) = search_start(s, s.paths.first().map(PathBuf::as_path));
    match config::find_upward(&start) {
        Some(f) => load_config_file(s, &f),
        None => Ok(Config::default_for(
            &paths::work_tree(&start).unwrap_or(itself),
        )),
    }
}

/// Reads the configuration file `f` (absolute), named in errors from the working directory.
pub fn load_config_file(s: &Settings, f: &Path) -> Result<Config, String> {
    let shown = paths::relative(&s.cwd, f).unwrap_or_else(|| f.to_string_lossy().into_owned());
    Config::load_with(f, &shown, &s.allow_env).map_err(|e| e.to_string())
}

/// Where the search for the configuration of the path `p` given (the working directory for
/// none) starts, and the repository when nothing above marks one.
pub fn search_start(s: &Settings, p: Option<&Path>) -> (PathBuf, PathBuf) {
    match p {
        Some(p) => {
            let abs = paths::absolute(&s.cwd, p);
            if abs.is_dir() {
                (abs.clone(), abs)
            } else {
                let dir = abs.parent().map(Path::to_path_buf).unwrap_or(abs.clone());
                let holder = if abs.starts_with(&s.cwd) {
                    s.cwd.clone()
                } else {
                    dir.clone()
                };
                (dir, holder)
            }
        }
        None => (s.cwd.clone(), s.cwd.clone()),
    }
}

/// Loads the configuration, discovers the repository and selects by the paths given.
pub fn plan(s: &Settings) -> Result<Planned, String> {
    plan_with(s, load_config(s)?)
}

/// The paths given, absolute; an error when one is outside the repository of `config`. With
/// none, the working directory when it is below the repository's directory: what a run lints
/// never reaches beyond the path given, even implicitly.
fn targets(s: &Settings, config: &Config) -> Result<Vec<PathBuf>, String> {
    // The engine names inputs by UTF-8 paths: under a path that is not, it could read nothing.
    if config.dir.to_str().is_none() {
        return Err(format!(
            "the repository's path {} is not UTF-8 (shown with U+FFFD for its invalid bytes): move or rename it to lint it",
            config.dir.display()
        ));
    }
    if s.paths.is_empty() {
        let below = s.cwd != config.dir && paths::relative(&config.dir, &s.cwd).is_some();
        return Ok(if below {
            vec![s.cwd.clone()]
        } else {
            Vec::new()
        });
    }
    let mut targets = Vec::new();
    for p in &s.paths {
        let abs = paths::absolute(&s.cwd, p);
        if paths::relative(&config.dir, &abs).is_none() {
            return Err(format!(
                "{} is outside the repository {} (run yttlint inside it, or name its configuration with --config)",
                p.display(),
                config.dir.display()
            ));
        }
        targets.push(abs);
    }
    Ok(targets)
}

/// Discovers the repository of `config` and selects by the paths given.
pub fn plan_with(s: &Settings, config: Config) -> Result<Planned, String> {
    let targets = targets(s, &config)?;
    let exclude: GlobSet = walk::exclude_set(&config.exclude)?;
    let discovery = discover::discover_listed(&config, s.tree.as_deref())?;
    let selection = select::select(&config, &discovery, &exclude, &targets);
    Ok(Planned {
        config,
        discovery,
        selection,
    })
}

/// Plans (with `adjust` applied to the plan, e.g. a shard) and lints, or takes the report of
/// an earlier run when nothing it depended on changed (see [`crate::lint::run::run_cache`]). `asked`
/// describes what `adjust` does.
pub fn plan_and_lint(
    s: &Settings,
    config: Config,
    asked: &str,
    adjust: impl FnOnce(&mut Planned),
) -> Result<Linted, String> {
    let mut linted = lint_unfinished(s, config, asked, adjust)?;
    linted.hidden_by_baseline =
        post::finish(&mut linted.report, &linted.sources, s.baseline.as_ref());
    Ok(linted)
}

/// [`plan_and_lint`] but for the last steps ([`post::finish`]: widened spans, the baseline,
/// statuses), which a run of several configurations takes once over all of them
/// (`lint::projects`).
pub fn lint_unfinished(
    s: &Settings,
    config: Config,
    asked: &str,
    adjust: impl FnOnce(&mut Planned),
) -> Result<Linted, String> {
    let targets = targets(s, &config)?;
    // A cache directory that git tracks came with the repository: neither read nor written.
    let tracked = cache_dir(s, &config.dir).and_then(|d| tracked_cache(&config.dir, &d));
    let untracked;
    let s = match tracked {
        Some(_) => {
            untracked = Settings {
                cache: CacheSetting::Off,
                ..s.clone()
            };
            &untracked
        }
        None => s,
    };
    let dir = cache_dir(s, &config.dir).filter(|d| cache::prepare(d).is_ok());
    let run_cache = dir.as_ref().and_then(|d| {
        let env: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| s.allow_env.iter().any(|a| k.starts_with(&format!("{a}_"))))
            .collect();
        let asked = format!(
            "{config:?}\0{targets:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{env:?}\0{asked}",
            s.allow_env, s.isolation, s.memory, s.coverage
        );
        RunCache::open(d, &config.dir, &asked)
    });
    let mut linted = match run_cache.as_ref().and_then(RunCache::get) {
        Some((report, extras)) => Linted {
            cached: Some((report.roots.len(), 0)),
            report,
            sources: Sources::new(&config.dir),
            coverage: extras.coverage,
            unchecked_kinds: extras.unchecked_kinds,
            strings: extras.strings,
            notes: Vec::new(),
            hidden_by_baseline: 0,
        },
        None => {
            let mut planned = plan_with(s, config)?;
            adjust(&mut planned);
            let mut linted = lint(s, &planned)?;
            linted.notes.extend(nothing_selected(&planned));
            for told in &planned.discovery.told {
                if !linted.notes.contains(told) {
                    linted.notes.push(told.clone());
                }
            }
            if let Some(rc) = &run_cache {
                rc.put(
                    &linted.report,
                    &linted.coverage,
                    &linted.unchecked_kinds,
                    linted.strings,
                );
            }
            linted
        }
    };
    linted.notes.extend(tracked);
    Ok(linted)
}

/// When the run has no root and no library to lint, discovery's notes about what it asks for
/// (design directories set aside, unreadable entries, skipped commands): they say why.
fn nothing_selected(p: &Planned) -> Vec<String> {
    let sel = &p.selection;
    if !(sel.roots.is_empty() && sel.libraries.is_empty() && sel.plain.is_empty()) {
        return Vec::new();
    }
    let skipped = p.discovery.skipped.iter();
    let skipped = skipped.map(|s| format!("skipped: {}: {}", s.origin, s.reason));
    let notes = p.discovery.notes.iter().cloned();
    notes.chain(skipped).filter(|n| sel.concerns(n)).collect()
}

/// The note for a cache directory `dir` inside the repository `repo` that git tracks (its
/// `.git/index` lists a path under it), if it is one.
fn tracked_cache(repo: &Path, dir: &Path) -> Option<String> {
    let rel = paths::relative(repo, dir).filter(|r| r != ".")?;
    crate::lint::repo::git_index::tracks_under(repo, &rel).then(|| {
        format!(
            "the cache directory {rel}/ is tracked by git, so it came with the repository and may be forged: it is neither read nor written in this run (untrack it: git rm -r --cached {rel})"
        )
    })
}

/// Runs the jobs of a plan and applies levels and suppressions (what the whole-run cache
/// stores; [`plan_and_lint`] finishes the report).
pub fn lint(s: &Settings, p: &Planned) -> Result<Linted, String> {
    let mut jobs = plan::jobs(&p.config, &p.discovery, &p.selection);
    if coverage_wanted(&p.config, s.coverage) {
        for job in jobs.iter_mut().filter(|j| j.kind == JobKind::Root) {
            job.coverage = true;
        }
    }
    let progress = Progress::new(jobs.len(), s.progress);
    let cache = open_cache(s, &p.config.dir);
    let memory = s.memory.unwrap_or(run::budget::DEFAULT_MEMORY);
    let how = run::Running {
        threads: s.jobs,
        isolation: s.isolation.as_ref(),
        progress: &progress,
        cache: cache.as_ref(),
        findings_bytes: run::budget::findings_bytes(memory),
        cancel: s.cancel.as_ref(),
        spread: s.spread,
        deadline: s.deadline,
    };
    let ran = run::run_jobs(&jobs, &how)?;
    let mut report = ran.report;
    let coverage = coverage::by_root(&jobs, &ran.coverage);
    if let Some(cache) = &cache {
        cache.finish();
    }
    let sources = Sources::new(&p.config.dir);
    post::findings(p, &jobs, &mut report, &coverage, &ran.usage, &sources);
    // The jobs' findings are bounded already; those made after them are bounded here.
    for d in &mut report.diagnostics {
        crate::report::bounds::bound(d);
    }
    report.normalize();
    Ok(Linted {
        report,
        sources,
        cached: cache.map(|c| c.counts()),
        coverage,
        unchecked_kinds: ran.unchecked_kinds,
        strings: post::embedded::count(&p.discovery),
        notes: Vec::new(),
        hidden_by_baseline: 0,
    })
}

/// Whether a run records coverage: a coverage report is written, or `branch-never-evaluated`
/// is on.
fn coverage_wanted(config: &Config, reports: bool) -> bool {
    reports || config.level(never_evaluated::RULE) != Some(RuleLevel::Off)
}

/// The cache of this run, if it is on and usable (a cache that cannot be used only costs
/// time: the run goes on without it, saying why once).
fn open_cache(s: &Settings, repo: &Path) -> Option<Cache> {
    let dir = cache_dir(s, repo)?;
    match Cache::open(&dir, repo) {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("yttlint: {e}");
            None
        }
    }
}

/// The default cache directory of the repository `repo`: `.yttlint-cache` in it, but in CI
/// (`CI=true`) outside the checkout, in the user's cache directory
/// (`~/.cache/yttlint/repos/<hash of the repository's path>`).
fn default_cache_dir(repo: &Path) -> PathBuf {
    use sha2::Digest;
    let in_ci = std::env::var_os("CI").is_some_and(|v| v == "true");
    let user = crate::lint::run::cache_auth::user_cache_dir().filter(|_| in_ci);
    match user {
        Some(dir) => {
            let real = std::fs::canonicalize(repo).unwrap_or_else(|_| repo.to_path_buf());
            let hash = sha2::Sha256::digest(real.as_os_str().as_encoded_bytes());
            let name = cache::hex(&hash[..16]);
            dir.join("yttlint").join("repos").join(name)
        }
        None => repo.join(cache::DIR_NAME),
    }
}

/// Where the cache of a run of the repository `repo` lives, if it is on.
fn cache_dir(s: &Settings, repo: &Path) -> Option<PathBuf> {
    match &s.cache {
        CacheSetting::Off => None,
        CacheSetting::InRepository => Some(default_cache_dir(repo)),
        CacheSetting::Dir(d) => Some(crate::files::lexical_absolute(&s.cwd, d)),
    }
}

/// `--list-roots`: the selected roots and libraries, each with why it was found, then the
/// repository's ytt commands the linter skips, then notes.
pub fn list_roots(p: &Planned) -> String {
    let mut out = String::new();
    for root in p
        .selection
        .roots
        .iter()
        .filter_map(|&i| p.discovery.roots.get(i))
    {
        out.push_str(&format!("{}\t{}", root.name, root.reason));
        if root.inputs != [root.name.clone()] {
            out.push_str(&format!("; inputs: {}", root.inputs.join(", ")));
        }
        if !root.args.is_empty() {
            out.push_str(&format!("; flags: {}", root.args.join(" ")));
        }
        if root.needs_input {
            out.push_str("; inputs unknown");
        }
        if !root.scenarios.is_empty() {
            let names: Vec<String> = root.scenarios.iter().map(scenario_line).collect();
            out.push_str(&format!("; scenarios: {}", names.join(", ")));
        }
        out.push('\n');
    }
    for lib in p
        .selection
        .libraries
        .iter()
        .filter_map(|&i| p.discovery.libraries.get(i))
    {
        match &lib.partial {
            Some(why) => out.push_str(&format!(
                "{}\tchecked on its own, not evaluated: {why}\n",
                lib.path
            )),
            None => out.push_str(&format!(
                "{}\tprivate library of {} (checked on its own)\n",
                lib.path, lib.parent
            )),
        }
    }
    let plain = &p.selection.plain;
    if p.config.kubevirt && !plain.is_empty() {
        out.push_str(&format!(
            "{PLAIN_ROOT}\tKubeVirt Templates and VirtualMachines outside the roots: {}\n",
            plain.join(", ")
        ));
    }
    let shown = |text: &str| p.selection.concerns(text);
    for s in &p.discovery.skipped {
        if shown(&s.origin.to_string()) || shown(&s.reason) {
            out.push_str(&format!("skipped: {}: {}\n", s.origin, s.reason));
        }
    }
    for note in p.discovery.notes.iter().filter(|n| shown(n)) {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}

/// A scenario as `--list-roots` shows it: its name, and what is given at run time.
fn scenario_line(s: &crate::lint::config::ScenarioConfig) -> String {
    let given: Vec<&str> = s
        .provided
        .iter()
        .map(String::as_str)
        .filter(|p| *p != "*")
        .collect();
    let mut line = s.name.clone();
    if !given.is_empty() {
        line.push_str(&format!(" (given at run time: {})", given.join(" ")));
    }
    if s.provided.iter().any(|p| p == "*") {
        line.push_str(" (more inputs given at run time)");
    }
    line
}
