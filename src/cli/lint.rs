//! `yttlint [PATH...]`: the linter's command line. Flags become validated [`Settings`] once;
//! then the run, the baseline, the reports and the exit status: 0 when nothing at or above the
//! failing severity was found, 1 when something was, 2 for usage, configuration and internal
//! errors (`--exit-zero` turns findings into 0, not usage errors).

use std::path::PathBuf;

use clap::Parser;

use crate::lint::baseline::{self, Baseline};
use crate::lint::output::{render, render_to, FORMATS};
use crate::lint::session::{self, Settings};
use crate::report::{Report, Severity, Sources};

/// Lints Carvel ytt libraries: evaluates every root as ytt does and reports each problem at
/// its source position.
#[derive(Parser, Debug)]
#[command(
    name = "yttlint",
    version,
    after_help = "Render like ytt instead: yttlint template [ytt flags]"
)]
struct LintArgs {
    /// Directories to lint, or files whose roots to lint (default: the whole repository).
    paths: Vec<PathBuf>,
    /// Format of standard output (default: terminal; github under GitHub Actions).
    #[arg(long, value_parser = FORMATS.to_vec())]
    format: Option<String>,
    /// Also write a report: FORMAT=PATH (repeatable).
    #[arg(long = "report", value_name = "FORMAT=PATH")]
    reports: Vec<String>,
    /// Report findings but exit 0.
    #[arg(long)]
    exit_zero: bool,
    /// Lowest severity that makes the exit status 1.
    #[arg(long, default_value = "error", value_parser = ["error", "warning", "info"])]
    fail_on: String,
    /// Number of roots evaluated at once (default: the number of CPUs).
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// The configuration file (default: .yttlint.yaml found upward).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Print the roots and libraries that would be linted, and why, then exit.
    #[arg(long)]
    list_roots: bool,
    /// Do not report findings recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every current finding in this baseline file, then exit 0.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
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
            Some((f, p)) if FORMATS.contains(&f) && !p.is_empty() => {
                Ok((f.to_string(), PathBuf::from(p)))
            }
            _ => Err(format!(
                "invalid --report \"{spec}\": expected FORMAT=PATH with FORMAT one of {}",
                FORMATS.join(", ")
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
        progress: true,
    })
}

fn lint(a: &LintArgs) -> Result<i32, String> {
    let targets = report_targets(&a.reports)?;
    let settings = settings(a)?;
    let planned = session::plan(&settings)?;
    if a.list_roots {
        print!("{}", session::list_roots(&planned));
        return Ok(0);
    }
    let linted = session::lint(&settings, &planned)?;
    let mut report = linted.report;
    if let Some(path) = &a.write_baseline {
        baseline::write(path, &report.diagnostics, &linted.sources)?;
        eprintln!(
            "yttlint: recorded {} findings in {}",
            report.diagnostics.len(),
            path.display()
        );
        return Ok(0);
    }
    if let Some(path) = &a.baseline {
        let accepted = Baseline::load(path)?;
        let all = std::mem::take(&mut report.diagnostics);
        report.diagnostics = accepted.filter(all, &linted.sources).0;
        crate::lint::run::settle_statuses(&mut report);
    }
    emit(a, &targets, &report, &linted.sources)?;
    Ok(status(a, &report))
}

fn emit(
    a: &LintArgs,
    targets: &[(String, PathBuf)],
    report: &Report,
    sources: &Sources,
) -> Result<(), String> {
    for (format, path) in targets {
        let text = render(format, report, sources)?;
        std::fs::write(path, text)
            .map_err(|e| format!("cannot write the report {}: {e}", path.display()))?;
    }
    let format = a.format.clone().unwrap_or_else(|| {
        let on_github = std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true");
        (if on_github { "github" } else { "terminal" }).to_string()
    });
    print!("{}", render_to(&format, report, sources, true)?);
    Ok(())
}

fn status(a: &LintArgs, report: &Report) -> i32 {
    if a.exit_zero {
        return 0;
    }
    if report
        .diagnostics
        .iter()
        .any(|d| d.rule == "internal-error")
    {
        return USAGE;
    }
    let fail_on = Severity::parse(&a.fail_on).unwrap_or(Severity::Error);
    match report.worst() {
        Some(worst) if worst >= fail_on => 1,
        _ => 0,
    }
}
