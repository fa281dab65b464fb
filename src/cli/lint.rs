//! `yttlint [PATH...]`: the linter's command line. Flags become validated [`Settings`] once;
//! then the run, the baseline, the reports and the exit status: 0 when nothing at or above the
//! failing severity was found, 1 when something was, 2 for usage, configuration and internal
//! errors (`--exit-zero` turns findings into 0, not usage errors). `--fix` lints and fixes until
//! nothing is left to fix, then reports; `--diff` prints what `--fix` would change and exits 1
//! when that is something (see [`super::lint_fix`]).

use crate::report::Rule;
use std::path::PathBuf;

use clap::Parser;

use super::lint_extra::{self, ExtraArgs};
use super::lint_fix::{self, FixArgs};
use super::lint_limits::LimitArgs;
use super::lint_output::{self, formats, render, render_coverage, render_with, COVERAGE_FORMATS};
use crate::lint::post::baseline::{self, Baseline};
use crate::lint::projects;
use crate::lint::session::{self, CacheSetting, Settings};
use crate::report::options::{checkout_prefix, path_base, RenderOptions};
use crate::report::{Report, Severity, Sources};

/// Lints Carvel ytt libraries: evaluates every root as ytt does and reports each problem at
/// its source position.
#[derive(Parser, Debug)]
#[command(
    name = "yttlint",
    version,
    args_override_self = true,
    after_help = "Other commands:\n  yttlint init [DIR]            writes .yttlint.yaml from the roots and scenarios found\n  yttlint template [ytt flags]  renders like ytt template\n  yttlint rule [ID]             explains a rule (without ID, lists them)\n  yttlint completions SHELL     prints a shell completion script\n  yttlint server                runs the language server (LSP) on stdin/stdout"
)]
struct LintArgs {
    /// Directories to lint, or files whose roots to lint (default: the working directory).
    paths: Vec<PathBuf>,
    /// Format of standard output (default: terminal; github under GitHub Actions).
    #[arg(long, value_parser = formats())]
    format: Option<String>,
    /// Also write a report: FORMAT=PATH (repeatable); FORMAT is a format of findings, or lcov
    /// or cobertura for the templates' coverage by the scenarios.
    #[arg(long = "report", value_name = "FORMAT=PATH")]
    reports: Vec<String>,
    /// Report findings but exit 0.
    #[arg(long)]
    exit_zero: bool,
    /// Exit 2 when the paths hold nothing to lint (no ytt file) instead of 0.
    #[arg(long)]
    error_on_empty: bool,
    /// Lowest severity that makes the exit status 1.
    #[arg(long, default_value = "error", value_parser = ["error", "warning", "info"])]
    fail_on: String,
    /// Number of roots evaluated at once (default: the number of CPUs).
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// The configuration file (default: .yttlint.yaml or .yttlint.yml found upward).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Print the roots and libraries that would be linted, and why, then exit.
    #[arg(long)]
    list_roots: bool,
    /// Do not report findings recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every current finding in this baseline file (and write the reports), then exit 0.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    #[command(flatten)]
    extra: ExtraArgs,
    #[command(flatten)]
    fixing: FixArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The linter's command line as clap describes it (for shell completions).
pub fn command() -> clap::Command {
    <LintArgs as clap::CommandFactory>::command()
}

const USAGE: i32 = 2;

/// Runs the linter over `args` (everything after the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let parsed = match LintArgs::try_parse_from(
        std::iter::once("yttlint".to_string()).chain(args.iter().cloned()),
    ) {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { USAGE } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match lint(&parsed) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("yttlint: {message}");
            USAGE
        }
    }
}

/// `--report FORMAT=PATH` pairs.
fn report_targets(specs: &[String]) -> Result<Vec<(String, PathBuf)>, String> {
    specs
        .iter()
        .map(|spec| match spec.split_once('=') {
            Some((f, p))
                if (formats().contains(&f) || COVERAGE_FORMATS.contains(&f)) && !p.is_empty() =>
            {
                Ok((f.to_string(), PathBuf::from(p)))
            }
            _ => Err(format!(
                "invalid --report \"{spec}\": expected FORMAT=PATH with FORMAT one of {}, {}",
                formats().join(", "),
                COVERAGE_FORMATS.join(", ")
            )),
        })
        .collect()
}

fn settings(a: &LintArgs) -> Result<Settings, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let jobs = match a.jobs {
        Some(n) => usize::from(n),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    Ok(Settings {
        cwd,
        paths: a.paths.clone(),
        config: a.config.clone(),
        jobs,
        progress: !a.extra.quiet,
        allow_env: a.extra.allow_env.clone(),
        cache: match (&a.extra.cache_dir, a.extra.no_cache) {
            (_, true) => CacheSetting::Off,
            (Some(dir), false) => CacheSetting::Dir(dir.clone()),
            (None, false) => CacheSetting::InRepository,
        },
        isolation: a.limits.isolation()?,
        memory: Some(a.limits.memory_limit),
        coverage: a.reports.iter().any(|r| {
            COVERAGE_FORMATS
                .iter()
                .any(|f| r.starts_with(&format!("{f}=")))
        }),
        // A baseline being written records every finding.
        baseline: match a.write_baseline {
            Some(_) => None,
            None => a.baseline.as_deref().map(Baseline::load).transpose()?,
        },
        cancel: None,
        spread: false,
        deadline: Some(a.limits.deadline()),
        tree: None,
    })
}

fn lint(a: &LintArgs) -> Result<i32, String> {
    let targets = report_targets(&a.reports)?;
    if let Some(path) = &a.write_baseline {
        crate::files::write::refuse_symlink(path, "baseline")?;
    }
    lint_output::clear_reports(&targets)?;
    let settings = settings(a)?;
    lint_extra::check_paths(&settings.cwd, &a.paths)?;
    let env = |name: &str| std::env::var(name).ok();
    let shard = lint_extra::shard(a.extra.shard.as_deref(), &env)?;
    let prepare = |config: &mut crate::lint::config::Config| -> Result<(), String> {
        lint_extra::apply_rule_filters(config, &a.extra.select, &a.extra.ignore)?;
        lint_extra::apply_kubernetes_version(config, a.extra.kubernetes_version.as_deref())
    };
    // The configuration closest above each path, and the sub-projects with their own.
    let load = || projects::find(&settings, &prepare);
    let found = load()?;
    let adjust = |planned: &mut crate::lint::plan::Planned| {
        if let Some(shard) = shard {
            crate::lint::plan::shard::apply(planned, shard);
        }
    };
    if a.list_roots {
        lint_output::stdout(&projects::list_roots(&settings, &found, &adjust)?)?;
        return Ok(0);
    }
    let repo = found.base.clone();
    let run = |settings: &Settings, found: &projects::Projects| {
        projects::lint(settings, found, &format!("{shard:?}"), &adjust)
    };
    let linted = run(&settings, &found)?;
    if a.fixing.diff {
        // Later passes lint the fixed texts in place of the files: not a result to cache.
        let uncached = Settings {
            cache: CacheSetting::Off,
            ..settings.clone()
        };
        return show_diff(a, &repo, linted, &|| run(&uncached, &load()?));
    }
    let linted = if a.fixing.fix {
        let mut fixer = lint_fix::Fixer::new(&repo, a.fixing.unsafe_fixes, false);
        fix_passes(a, &mut fixer, linted, &|_| run(&settings, &load()?))?
    } else {
        linted
    };
    // Nothing linted at all (a shard may have nothing to do when the repository has more
    // shards than roots: that is not an empty selection). The ytt documents written as
    // strings in other files were linted, when there are any (round fifty's N50-2).
    let no_root =
        shard.is_none() && linted.report.roots.is_empty() && linted.report.diagnostics.is_empty();
    let empty = no_root && linted.strings == 0;
    if !a.extra.quiet {
        for note in &linted.notes {
            eprintln!("yttlint: note: {note}");
        }
        if empty {
            eprintln!("yttlint: {}", empty_message(a, !linted.notes.is_empty()));
        } else if no_root {
            eprintln!("yttlint: {}", strings_message(a, linted.strings));
        }
        if let Some(path) = a.baseline.as_ref().filter(|_| a.write_baseline.is_none()) {
            let n = linted.hidden_by_baseline;
            eprintln!(
                "yttlint: the baseline {} hid {n} finding{}",
                path.display(),
                if n == 1 { "" } else { "s" }
            );
        }
    }
    let mut report = linted.report;
    // Reports are the same every run: times only when asked for.
    if !a.extra.timings {
        for root in &mut report.roots {
            root.duration_ms = 0;
        }
    }
    let coverage = Covered {
        roots: &linted.coverage,
        unchecked_kinds: &linted.unchecked_kinds,
    };
    let options = render_options(a, &settings.cwd, &repo);
    if let Some(path) = &a.write_baseline {
        baseline::write(path, &report.diagnostics, &linted.sources)?;
        if !a.extra.quiet {
            eprintln!(
                "yttlint: recorded {} findings in {}",
                report.diagnostics.len(),
                path.display()
            );
        }
        emit(a, &targets, &report, &linted.sources, &options, &coverage)?;
        return Ok(0);
    }
    emit(a, &targets, &report, &linted.sources, &options, &coverage)?;
    if empty && a.error_on_empty {
        if a.extra.quiet {
            eprintln!("yttlint: {}", empty_message(a, false));
        }
        return Ok(USAGE);
    }
    Ok(status(a, &report))
}

/// What a run that linted nothing says: no ytt file under the paths given, or (when discovery
/// left notes) nothing it could lint there.
fn empty_message(a: &LintArgs, noted: bool) -> String {
    let under = under(a);
    if noted {
        format!("nothing to lint under {under}: the notes above say why")
    } else {
        format!("no ytt files found under {under}")
    }
}

/// What a run whose only ytt is written as strings in other files says: no ytt file, and
/// how many strings were checked.
fn strings_message(a: &LintArgs, strings: usize) -> String {
    let what = match strings {
        1 => "1 ytt document written as a string in another file was".to_string(),
        n => format!("{n} ytt documents written as strings in other files were"),
    };
    format!("no ytt files found under {}; {what} checked", under(a))
}

/// The paths a run was given, as its messages name them (`.` for none).
fn under(a: &LintArgs) -> String {
    if a.paths.is_empty() {
        ".".to_string()
    } else {
        let shown: Vec<String> = a.paths.iter().map(|p| p.display().to_string()).collect();
        shown.join(", ")
    }
}

/// `--diff`: the unified diff of what `--fix` would change; 1 when there is one. Each pass
/// after the first lints the fixed texts in place of the files (nothing is written).
fn show_diff(
    a: &LintArgs,
    repo: &std::path::Path,
    linted: session::Linted,
    again: &dyn Fn() -> Result<session::Linted, String>,
) -> Result<i32, String> {
    use crate::files::overlay;
    let mut fixer = lint_fix::Fixer::new(repo, a.fixing.unsafe_fixes, true);
    let passes = fix_passes(a, &mut fixer, linted, &|fixer| {
        overlay::set(fixer.buffers());
        again()
    });
    overlay::set(overlay::Buffers::new());
    passes?;
    let diff = fixer.diff();
    lint_output::stdout(&diff)?;
    Ok(i32::from(!diff.is_empty()))
}

/// `--fix` and `--diff`: fixes and lints again (`again`, given the fixer) until nothing is
/// left to fix, at most [`lint_fix::MAX_PASSES`] passes; the last run's findings.
fn fix_passes(
    a: &LintArgs,
    fixer: &mut lint_fix::Fixer<'_>,
    mut linted: session::Linted,
    again: &dyn Fn(&lint_fix::Fixer<'_>) -> Result<session::Linted, String>,
) -> Result<session::Linted, String> {
    let mut per_rule = std::collections::BTreeMap::new();
    let mut files = std::collections::BTreeSet::new();
    for passes in 1.. {
        let pass = fixer.pass(&linted.report);
        for (file, why) in pass.failed {
            eprintln!("yttlint: cannot fix {file}: {why}");
        }
        if pass.files.is_empty() {
            break;
        }
        for (rule, n) in pass.per_rule {
            *per_rule.entry(rule).or_default() += n;
        }
        files.extend(pass.files);
        linted = again(fixer)?;
        if passes == lint_fix::MAX_PASSES {
            let left = if fixer.dry {
                "the diff shows what they change"
            } else {
                "run yttlint --fix again"
            };
            eprintln!("yttlint: fixes still left after {passes} passes; {left}");
            break;
        }
    }
    if !a.extra.quiet {
        let summary = lint_fix::summary(&per_rule, files.len(), fixer.dry);
        eprintln!("yttlint: {summary}");
    }
    Ok(linted)
}

/// What the flags ask of the output: colour, paths from the working directory, the summary
/// line, the SARIF category.
fn render_options(a: &LintArgs, cwd: &std::path::Path, repo: &std::path::Path) -> RenderOptions {
    use std::io::IsTerminal;
    let env = |name: &str| std::env::var(name).ok();
    RenderOptions {
        color: a.extra.color.resolve(&env, std::io::stdout().is_terminal()),
        path_base: path_base(cwd, repo),
        cwd_in_repo: crate::files::paths::relative(repo, cwd).filter(|r| r != "."),
        checkout_prefix: checkout_prefix(repo),
        summary: !a.extra.quiet,
        fail_on: Severity::parse(&a.fail_on).unwrap_or(Severity::Error),
        unsafe_fixes: a.fixing.unsafe_fixes,
        automation_id: a.extra.sarif_category.as_ref().map(|c| {
            if c.ends_with('/') {
                c.clone()
            } else {
                format!("{c}/")
            }
        }),
        ..RenderOptions::default()
    }
}

/// The roots' coverage.
struct Covered<'a> {
    roots: &'a [crate::report::coverage::RootCoverage],
    /// The kinds no schema was known for (`--statistics` names them).
    unchecked_kinds: &'a [String],
}

fn emit(
    a: &LintArgs,
    targets: &[(String, PathBuf)],
    report: &Report,
    sources: &Sources,
    options: &RenderOptions,
    coverage: &Covered,
) -> Result<(), String> {
    for (format, path) in targets {
        let text = match render_coverage(format, coverage.roots, options) {
            Some(text) => text,
            None => render(format, report, sources, options)?,
        };
        lint_output::write_report(path, &text)?;
    }
    let format = a.format.clone().unwrap_or_else(|| {
        let on_github = std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true");
        (if on_github { "github" } else { "terminal" }).to_string()
    });
    if a.extra.statistics {
        lint_output::stdout(&crate::report::statistics::render(report, options))?;
        let unchecked_kinds = coverage.unchecked_kinds;
        if options.summary && !unchecked_kinds.is_empty() {
            lint_output::stdout(&format!(
                "not checked against a schema (no CustomResourceDefinition for them in the \
                 repository; `kubernetes: {{schemas: [DIR]}}` adds a directory of CRDs): {}\n",
                unchecked_kinds.join(", ")
            ))?;
        }
    } else {
        lint_output::stdout(&render_with(&format, report, sources, options)?)?;
        // The coverage line closes the terminal summary when a coverage report is written.
        let coverage_asked = targets
            .iter()
            .any(|(f, _)| COVERAGE_FORMATS.contains(&f.as_str()));
        if format == "terminal" && options.summary && coverage_asked {
            lint_output::stdout(&crate::report::coverage::summary(coverage.roots))?;
        }
        if format == "terminal" && options.summary {
            let text = unchecked_summary(&report.roots, a.extra.verbose);
            lint_output::stdout(&text)?;
        }
    }
    if format == "github" {
        write_step_summary(report, options)?;
    }
    Ok(())
}

/// `N objects of K kinds had no schema` (with `--verbose`, each kind, its number of objects and
/// the roots that render it), or nothing when every object was checked.
fn unchecked_summary(roots: &[crate::report::RootStatus], verbose: bool) -> String {
    let mut kinds: std::collections::BTreeMap<&str, (usize, Vec<&str>)> = Default::default();
    for root in roots {
        for u in &root.unchecked {
            let (objects, in_roots) = kinds.entry(&u.kind).or_default();
            *objects += u.objects;
            if !in_roots.contains(&root.path.as_str()) {
                in_roots.push(&root.path);
            }
        }
    }
    if kinds.is_empty() {
        return String::new();
    }
    let objects: usize = kinds.values().map(|(n, _)| n).sum();
    let plural = |n: usize, word: &str| match n {
        1 => format!("{n} {word}"),
        _ => format!("{n} {word}s"),
    };
    let mut text = format!(
        "{} of {} had no schema, not checked ({}; see `yttlint rule k8s-crd-ignored`)\n",
        plural(objects, "object"),
        plural(kinds.len(), "kind"),
        match verbose {
            true => "add their CRDs with `kubernetes: {schemas: [DIR]}`",
            false => "--verbose lists them",
        }
    );
    if verbose {
        for (kind, (n, in_roots)) in &kinds {
            text.push_str(&format!(
                "  {kind}: {} in {}\n",
                plural(*n, "object"),
                in_roots.join(", ")
            ));
        }
    }
    text
}

/// Under GitHub Actions, the findings GitHub cannot show as annotations go to the job summary.
fn write_step_summary(report: &Report, options: &RenderOptions) -> Result<(), String> {
    let env = |name: &str| std::env::var(name).ok();
    let options = RenderOptions {
        blob_base: crate::report::step_summary::blob_base(&env),
        ..options.clone()
    };
    let (Some(path), Some(markdown)) = (
        std::env::var_os("GITHUB_STEP_SUMMARY"),
        crate::report::step_summary::render(report, &options),
    ) else {
        return Ok(());
    };
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(markdown.as_bytes()))
        .map_err(|e| {
            format!(
                "cannot write the step summary {}: {e}",
                path.to_string_lossy()
            )
        })
}

fn status(a: &LintArgs, report: &Report) -> i32 {
    if a.exit_zero {
        return 0;
    }
    if report
        .diagnostics
        .iter()
        .any(|d| d.rule == Rule::InternalError)
    {
        return USAGE;
    }
    let fail_on = Severity::parse(&a.fail_on).unwrap_or(Severity::Error);
    match report.worst() {
        Some(worst) if worst >= fail_on => 1,
        _ => 0,
    }
}
