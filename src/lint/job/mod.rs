//! One job: a root evaluated with one scenario's flags (as `ytt` would evaluate it), or a
//! private library checked on its own; and the translation of what the engine reports into
//! diagnostics. This is the one place that decides which rule an engine error belongs to.

pub mod alternative_files;
pub mod annotation_fix;
pub mod annotations;
pub mod bazel_outputs;
pub mod bom;
pub mod boolean_strings;
pub mod certainty;
pub mod commented_keys;
pub mod committed_example;
pub mod compared_output;
pub mod copies;
pub mod coverage;
pub mod crd_source;
pub mod downloaded;
pub mod elided;
pub mod empty_defaults;
pub mod engine;
pub mod env_unset;
pub mod erb_markup;
pub mod example_blanks;
pub mod example_text;
pub mod findings;
pub mod follows_placeholder;
pub mod ignored_reads;
pub mod independent;
pub mod inputs;
pub mod kubernetes;
pub mod left_unset;
pub mod libcheck;
pub mod library_hint;
pub mod listed_choice;
pub mod loaded_example;
pub mod misspelt_key;
pub mod model;
pub mod needs_input;
pub mod number_flags;
pub mod other_key;
pub mod other_template;
pub mod placeholder;
pub mod plain_words;
pub mod policy;
pub mod probe;
pub mod replaced_text;
pub mod repo_crds;
pub mod rewritten_text;
pub mod root;
pub mod runtime_read;
pub mod same_cause;
pub mod schema_nulls;
pub mod shell_expanded;
pub mod split_output;
pub mod stand_in_checks;
pub mod undefined;
pub mod unmatched_overlays;
pub mod usage;
pub mod validation_words;
pub mod variant_manifests;

use crate::report::Rule;
use std::path::PathBuf;

use crate::analysis::Outside;
use crate::eval::run::EvalError;
use crate::library::{ExternalValues, Workspace};
use crate::lint::job::engine::error_diagnostic;
use crate::pos::Pos;
use crate::report::{Diagnostic, RootOutcome, Span};
use crate::ytt_flags::TemplateArgs;
use inputs::{prepare, Names, Prepared};

pub use model::{Job, JobKind, JobOutcome, OnFile, ValuesFrom, PLAIN_ROOT};

/// Runs one job. Every problem in the user's input becomes a diagnostic of this job.
pub fn run_job(job: &Job, on_file: OnFile) -> JobOutcome {
    match job.kind {
        JobKind::Plain => run_plain(job),
        JobKind::Notice => finish(job, job.notices.clone(), RootOutcome::Findings),
        JobKind::Root | JobKind::Library => run_ytt(job, on_file),
    }
}

/// KubeVirt Templates and VirtualMachines of plain YAML files (spec 003).
fn run_plain(job: &Job) -> JobOutcome {
    let paths: Vec<PathBuf> = job.plain_files.iter().map(|f| job.repo.join(f)).collect();
    let found =
        crate::kubevirt::lint_files(&job.repo, &paths, &crate::kubevirt::Options::default());
    let status = if found.is_empty() {
        RootOutcome::Ok
    } else {
        RootOutcome::Findings
    };
    finish(job, found, status)
}

fn run_ytt(job: &Job, on_file: OnFile) -> JobOutcome {
    let prepared = match job.flags.as_ref().map_err(String::clone).and_then(|f| {
        let expanded = shell_expanded::files(job);
        prepare(&job.repo, f, &job.provided, &expanded)
    }) {
        Ok(p) => p,
        Err(message) => {
            let d = Diagnostic::new(Rule::TemplateError, message.trim());
            return finish(job, vec![d], RootOutcome::Error);
        }
    };
    let Prepared {
        workspace,
        external,
        names,
        refused,
    } = prepared;
    let not_read = refused_findings(job, &refused);
    // A panic, or the end of a worker process, is reported where the evaluation was.
    let told = Told {
        files: names.clone(),
        on: on_file,
    };
    crate::eval::progress::watch(told, || {
        evaluate(job, workspace, external, &names, not_read)
    })
}

/// Tells `on` where the evaluation is, in repository paths.
struct Told {
    files: Names,
    on: OnFile,
}

impl crate::eval::progress::Watcher for Told {
    fn file(&self, file: Option<&str>, line: u32) {
        (self.on.file)(file.and_then(|f| self.files.repo_path(f)), line);
    }

    fn line(&self, line: u32) {
        (self.on.line)(line);
    }
}

/// Evaluates the job's workspace (a root) or checks it (a library).
fn evaluate(
    job: &Job,
    workspace: Workspace,
    external: ExternalValues,
    names: &Names,
    not_read: Vec<Diagnostic>,
) -> JobOutcome {
    match job.kind {
        JobKind::Root => root::evaluate(job, workspace, external, names, not_read),
        // (`Plain` and `Notice` jobs never get here: `run_job` handles them.)
        JobKind::Library | JobKind::Plain | JobKind::Notice => {
            // Identical copies of a library are checked once (see `copies`).
            let checks = format!(
                "{} {} {} {:?}",
                job.check_files,
                job.analysis,
                matches!(&job.values_from, ValuesFrom::Scenarios(o) if o.is_empty()),
                job.provided
            );
            let copy = not_read
                .is_empty()
                .then(|| crate::lint::job::copies::key(&workspace, &checks));
            if let Some((found, status, usage)) = copy
                .as_ref()
                .and_then(|k| crate::lint::job::copies::get(k, job))
            {
                let mut outcome = finish(job, found, status);
                outcome.usage = usage;
                return outcome;
            }
            workspace.env.keep_asts.set(job.check_files && job.analysis);
            let span_of = |pos: &Pos| span_at(names, pos);
            let mut found: Vec<Diagnostic> = libcheck::check(&workspace)
                .iter()
                .map(|e| engine::tidy(from_error(names, e), &span_of))
                .collect();
            found.extend(not_read);
            if job.check_files {
                found.extend(findings::unknown_annotations(&workspace, &span_of));
                found.extend(bom::findings(&workspace, &span_of));
            }
            let mut library_usage = None;
            if job.check_files && job.analysis {
                let outside = match &job.values_from {
                    ValuesFrom::Scenarios(others) if others.is_empty() => {
                        Outside::Known(Vec::new())
                    }
                    _ => Outside::Unknown,
                };
                let (statics, used, _) = usage::static_findings(&workspace, names, &outside, false);
                found.extend(statics);
                library_usage = Some(used);
            }
            let status = if found.is_empty() {
                RootOutcome::Ok
            } else {
                RootOutcome::Findings
            };
            if let Some(key) = copy {
                crate::lint::job::copies::keep(key, job, &found, status, library_usage.as_ref());
            }
            let mut outcome = finish(job, found, status);
            outcome.usage = library_usage;
            outcome
        }
    }
}

/// A finding for each file the job did not read: outside the repository (through a symlink)
/// or not a regular file. Only the path inside the repository is named, never where it leads.
fn refused_findings(job: &Job, refused: &[crate::files::Refused]) -> Vec<Diagnostic> {
    use crate::files::Refusal;
    refused
        .iter()
        .map(|r| {
            let rel = crate::files::paths::relative(&job.repo, &r.path);
            let shown = rel
                .clone()
                .unwrap_or_else(|| r.path.to_string_lossy().into_owned());
            let d = match r.why {
                Refusal::Outside => Diagnostic::new(
                    Rule::FileOutsideRepository,
                    format!("{shown} resolves to a file outside the repository; it was not read"),
                ),
                Refusal::NotRegular(kind) => Diagnostic::new(
                    Rule::SpecialFile,
                    format!("{shown} is {kind}, not a regular file; it was skipped"),
                ),
            };
            match rel {
                Some(file) => d.at(Span::point(file, 1, 1)),
                None => d,
            }
        })
        .collect()
}

/// The data values every scenario of the job's root gives it (its own `external` and the
/// other scenarios'), or unknown: a scenario reads the environment, gives values at run time
/// (`*`), or reads other files.
fn outside_values(job: &Job, ws: &Workspace, external: &ExternalValues) -> Outside {
    let (ValuesFrom::Scenarios(others), Ok(own)) = (&job.values_from, &job.flags) else {
        return Outside::Unknown;
    };
    let unsure = |f: &TemplateArgs, provided: &[String]| {
        !f.dv_env.is_empty() || !f.dv_env_yaml.is_empty() || provided.iter().any(|p| p == "*")
    };
    if unsure(own, &job.provided) {
        return Outside::Unknown;
    }
    let mut docs: Vec<crate::yaml::Value> =
        external.root.iter().map(|e| e.doc.value.clone()).collect();
    for (flags, provided) in others {
        if unsure(flags, provided) || flags.files != own.files || flags.file_marks != own.file_marks
        {
            return Outside::Unknown;
        }
        match crate::lint::job::inputs::external_values(
            &job.repo,
            ws,
            flags,
            provided,
            &mut Vec::new(),
        ) {
            Ok(ext) => docs.extend(ext.root.into_iter().map(|e| e.doc.value)),
            Err(_) => return Outside::Unknown,
        }
    }
    Outside::Known(docs)
}

/// Drops static findings at a line where the evaluation already reported an error: the same
/// problem, found by running it, and folds the uses of one missing value into one finding
/// ([`same_cause`]). An error without a fix takes the fix of the one name typo
/// dropped at its line (`data.values.prot` that stops the evaluation keeps the correction
/// `data-value-unknown-reference` knew; the error's column is only refined later).
fn without_repeats(found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let evaluated: Vec<(String, u32)> = found
        .iter()
        .filter(|d| !d.rule.is_static())
        .filter(|d| d.severity == crate::report::Severity::Error)
        .filter_map(|d| d.span.as_ref().map(|s| (s.file.clone(), s.line)))
        .collect();
    let repeats = |d: &Diagnostic| {
        d.rule.is_static()
            && d.span
                .as_ref()
                .is_some_and(|s| evaluated.contains(&(s.file.clone(), s.line)))
    };
    let (dropped, mut kept): (Vec<Diagnostic>, Vec<Diagnostic>) =
        found.into_iter().partition(|d| repeats(d));
    for d in kept
        .iter_mut()
        .filter(|d| !d.rule.is_static() && d.fix.is_none())
    {
        let Some(at) = &d.span else { continue };
        let mut fixes = dropped
            .iter()
            .filter(|s| TYPOS.contains(&s.rule))
            .filter(|s| s.span.as_ref().is_some_and(|s| same_line(s, at)))
            .filter_map(|s| s.fix.as_ref());
        if let (Some(fix), None) = (fixes.next(), fixes.next()) {
            d.fix = Some(fix.clone());
        }
        // The evaluation's error stands for a typo found without evaluating: it rests on what
        // that finding rests on (the text, the library's schema), not on the data values.
        let typo = dropped
            .iter()
            .filter(|s| TYPOS.contains(&s.rule) && s.severity == crate::report::Severity::Error)
            .find(|s| s.span.as_ref().is_some_and(|s| same_line(s, at)));
        if let Some(s) = typo {
            d.basis = Some(s.basis());
        }
    }
    same_cause::fold(kept, &dropped)
}

/// Static rules whose finding is the evaluation's error when the line runs: a name that is not
/// there, whose fix corrects the name.
const TYPOS: [Rule; 2] = [
    Rule::DataValueUnknownReference,
    Rule::UnknownModuleAttribute,
];

/// Whether two spans start on the same line of the same file.
fn same_line(a: &Span, b: &Span) -> bool {
    (a.file.as_str(), a.line) == (b.file.as_str(), b.line)
}

/// A position as a repository span (`None` for positions that name no file of the job).
pub(crate) fn span_at(names: &Names, pos: &Pos) -> Option<Span> {
    if !pos.is_known() {
        return None;
    }
    let file = names.repo_path_at(pos)?;
    let (line, col) = names.line_col_at(pos);
    Some(Span::point(file, line, col.max(1)))
}

/// An engine error as a diagnostic at its position (repository-relative).
fn from_error(names: &Names, e: &EvalError) -> Diagnostic {
    let span_of = |pos: &Pos| span_at(names, pos);
    error_diagnostic(e, &span_of)
}

/// Rules whose findings, one per value, replace the one error that stopped the evaluation.
fn reported_by_value(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::DataValueViolation
            | Rule::RequiredValue
            | Rule::OutputViolation
            | Rule::SchemaTypeMismatch
            | Rule::DataValueUndeclared
            | Rule::DataValueRemoved
    )
}

fn finish(job: &Job, mut diagnostics: Vec<Diagnostic>, status: RootOutcome) -> JobOutcome {
    let policy = crate::files::ReadPolicy::repository(&job.repo);
    let read = |f: &str| {
        let bytes = crate::files::read_allowed(&job.repo.join(f), &policy)?;
        String::from_utf8(bytes).ok()
    };
    for d in &mut diagnostics {
        model::place(job, d);
        other_template::other_template(job, d, &read);
        // Findings made before the evaluation (inputs that cannot be read) rest on the job's
        // command as discovery found it.
        if let Some(p) = job.provenance.as_ref().filter(|_| d.certainty.is_none()) {
            certainty::attach(job, p, d);
        }
        certainty::target_version(job, d);
    }
    JobOutcome {
        diagnostics,
        status,
        coverage: None,
        duration_ms: 0,
        unchecked_kinds: Vec::new(),
        usage: None,
        provenance: job.provenance.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::config::{Config, RuleLevel};

    #[test]
    fn static_analysis_runs_unless_every_rule_of_it_is_off() {
        let mut config = Config::default_for(std::path::Path::new("/repo"));
        assert!(Job::new(&config, "r", Ok(TemplateArgs::default())).analysis);
        for rule in Rule::STATIC {
            config.rules.insert(*rule, RuleLevel::Off);
        }
        assert!(!Job::new(&config, "r", Ok(TemplateArgs::default())).analysis);
        config.rules.remove(&Rule::STATIC[3]);
        assert!(Job::new(&config, "r", Ok(TemplateArgs::default())).analysis);
    }
}
