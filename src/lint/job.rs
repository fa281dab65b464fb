//! One job: a root evaluated with one scenario's flags (as `ytt` would evaluate it), or a
//! private library checked on its own; and the translation of what the engine reports into
//! diagnostics. This is the one place that decides which rule an engine error belongs to.

use std::path::PathBuf;

use super::inputs::{prepare, Names, Prepared};
use super::libcheck;
use crate::cli::template::TemplateArgs;
use crate::eval::run::EvalError;
use crate::report::{Diagnostic, RootOutcome, Span};

/// What a job evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum JobKind {
    /// A root with one scenario: full evaluation.
    Root,
    /// A private library on its own: parse, compile, schema.
    Library,
}

/// One unit of work.
#[derive(Debug)]
pub struct Job {
    pub kind: JobKind,
    /// The repository root (absolute).
    pub repo: PathBuf,
    /// The root's or library's repository-relative path.
    pub root: String,
    pub scenario: Option<String>,
    /// ytt flags with absolute paths (`-f` inputs, data values), or why they cannot be read.
    pub flags: Result<TemplateArgs, String>,
    /// Whether KubeVirt validations are checked.
    pub kubevirt: bool,
}

/// What a job found.
#[derive(Clone, Debug)]
pub struct JobOutcome {
    pub diagnostics: Vec<Diagnostic>,
    pub status: RootOutcome,
}

/// Runs one job. Every problem in the user's input becomes a diagnostic of this job.
pub fn run_job(job: &Job) -> JobOutcome {
    let prepared = match job
        .flags
        .as_ref()
        .map_err(String::clone)
        .and_then(|f| prepare(&job.repo, f))
    {
        Ok(p) => p,
        Err(message) => {
            let d = Diagnostic::new("template-error", message.trim());
            return finish(job, vec![d], RootOutcome::Error);
        }
    };
    let Prepared {
        workspace,
        external,
        names,
    } = prepared;
    match job.kind {
        JobKind::Root => match workspace.evaluate(external) {
            Ok(_output) => finish(job, Vec::new(), RootOutcome::Ok),
            Err(e) => finish(job, vec![from_error(&names, &e)], RootOutcome::Error),
        },
        JobKind::Library => {
            let found: Vec<Diagnostic> = libcheck::check(&workspace)
                .iter()
                .map(|e| from_error(&names, e))
                .collect();
            let status = if found.is_empty() {
                RootOutcome::Ok
            } else {
                RootOutcome::Findings
            };
            finish(job, found, status)
        }
    }
}

/// The rule an engine error belongs to.
fn rule_of(e: &EvalError) -> &'static str {
    const LIMITS: [&str; 4] = [
        "limit exceeded",
        "Evaluation cancelled",
        "Heap memory limit of",
        "Execution duration limit of",
    ];
    if LIMITS.iter().any(|m| e.message.contains(m)) {
        "limit-exceeded"
    } else {
        "template-error"
    }
}

/// An engine error as a diagnostic at its position (repository-relative).
fn from_error(names: &Names, e: &EvalError) -> Diagnostic {
    let d = Diagnostic::new(rule_of(e), e.message.trim());
    let span = e.pos.as_ref().filter(|pos| pos.is_known()).and_then(|pos| {
        let name = pos.file.as_deref()?;
        let file = names.repo_path(name)?;
        Some(Span::point(file, pos.line, pos.col.max(1)))
    });
    match span {
        Some(s) => d.at(s),
        None => d,
    }
}

fn finish(job: &Job, mut diagnostics: Vec<Diagnostic>, status: RootOutcome) -> JobOutcome {
    for d in &mut diagnostics {
        d.root = Some(job.root.clone());
        d.scenario = job.scenario.clone();
    }
    JobOutcome {
        diagnostics,
        status,
    }
}
