//! A root's job: its workspace evaluated with one scenario's data values as `ytt` evaluates it,
//! then the checks of what it rendered (Kubernetes objects, KubeVirt templates, overlays that
//! matched nothing), the static analysis of its files, and the findings settled into the job's
//! outcome. The check of the Kubernetes objects reads the output alone, so it may run on
//! another thread while the rest goes on (the language server's runs, see [`crate::eval::spread`]);
//! its findings take the same place in the outcome either way.

use crate::analysis::conditions::Tested;
use crate::analysis::Outside;
use crate::eval::spread;
use crate::library::{ExternalValues, Output, Workspace};
use crate::lint::job::elided::SourceOf;
use crate::lint::job::engine::SpanOf;
use crate::lint::job::usage::Usage;
use crate::lint::job::{
    alternative_files, bazel_outputs, bom, boolean_strings, certainty, compared_output, downloaded,
    empty_defaults, engine, example_blanks, findings, ignored_reads, kubernetes, library_hint,
    listed_choice, needs_input, number_flags, policy, replaced_text, rewritten_text, split_output,
    stand_in_checks, undefined, unmatched_overlays, usage,
};
use crate::lint::job::{finish, inputs::Names, Job, JobOutcome};
use crate::lint::job::{from_error, outside_values, reported_by_value, span_at, without_repeats};
use crate::pos::Pos;
use crate::report::{Diagnostic, RootOutcome, Severity, Span};

/// Evaluates the job's root and checks it.
pub(super) fn evaluate(
    job: &Job,
    workspace: Workspace,
    external: ExternalValues,
    names: &Names,
    not_read: Vec<Diagnostic>,
) -> JobOutcome {
    workspace.env.keep_asts.set(job.check_files && job.analysis);
    if job.coverage {
        workspace.env.coverage.enable();
    }
    let outside = if job.check_files && job.analysis {
        outside_values(job, &workspace, &external)
    } else {
        Outside::Unknown
    };
    let result = workspace.evaluate(external);
    if crate::eval::cancel::requested() {
        // Stopped, or finished too late: what is left is not wanted either.
        return JobOutcome::cancelled();
    }
    let span_of = |pos: &Pos| place(names, &job.config_spans, &|p| workspace.line_at(p), pos);
    let checked = |span_of: SpanOf<'_>, source_of: SourceOf<'_>| {
        let (mut found, unchecked) = match (&result, &job.kubernetes) {
            // Kubernetes objects against their schemas (k8s-schema).
            (Ok(output), Some(check)) => {
                kubernetes::findings(check, &job.repo, &output.docs, span_of, source_of)
            }
            _ => (Vec::new(), Vec::new()),
        };
        if let (Ok(output), Some(check)) = (&result, &job.policies) {
            // The policies over the rendered objects (crate::policy).
            found.extend(policy::findings(check, &output.docs, span_of));
        }
        (found, unchecked)
    };
    let rest = || {
        checks(
            job, &workspace, &result, names, &outside, not_read, &span_of,
        )
    };
    let ((k8s, unchecked_kinds), rest) = if spread::allowed() {
        // Placed from a copy of the workspace's lines: the workspace stays on this thread.
        let lines = workspace.lines();
        let side_span = |pos: &Pos| place(names, &job.config_spans, &|p| lines.line_at(p), pos);
        spread::both(|| checked(&side_span, &|f| lines.source_of(f)), rest)
    } else {
        (checked(&span_of, &|f| workspace.source_of(f)), rest())
    };
    let Some(rest) = rest else {
        return JobOutcome::cancelled();
    };
    let mut found = rest.before;
    found.extend(k8s);
    found.extend(rest.after);
    let failed = result.is_err();
    if let Err(e) = &result {
        // A validation failure is reported value by value (when those findings are there);
        // anything else as the one error that stopped the evaluation.
        let by_value = engine::reported_by_value(e.kind)
            && found
                .iter()
                .any(|d| reported_by_value(d.rule) && d.severity == Severity::Error);
        if !by_value {
            // Static analysis reports every undefined name (`analysis::undefined`): the one
            // that stopped the evaluation is among them, and is the evaluation's.
            let mut err = from_error(names, e);
            undefined::align(&workspace, names, e, &mut err);
            found.retain(|d| !same_error(d, &err));
            found.push(err);
        }
    }
    library_hint::add(&workspace, &mut found);
    let found = ignored_reads::settle(job, found);
    let found = bazel_outputs::settle(job, found);
    let found = downloaded::settle(job, found);
    let found = without_repeats(needs_input::settle(job, &workspace, found))
        .into_iter()
        .map(|d| engine::tidy(d, &span_of))
        .collect::<Vec<_>>();
    let found = stand_in_checks::settle(job, found);
    let (found, provenance) = certainty::settle(job, &workspace, names, found);
    let found = split_output::settle(job, found);
    let found = compared_output::settle(job, found);
    let text_of = |path: &str| names.name_of(path).and_then(|n| workspace.source_of(n));
    let found = alternative_files::settle(job, result.as_ref().ok(), &span_of, &text_of, found);
    let found = replaced_text::settle(job, &workspace, names, found);
    let found = rewritten_text::settle(job, found);
    let (found, provenance) = empty_defaults::settle(job, &workspace, names, found, provenance);
    let (found, provenance) = example_blanks::settle(job, &workspace, names, found, provenance);
    let (found, provenance) = listed_choice::settle(job, &workspace, names, found, provenance);
    let found = super::validation_words::name_files(job, &workspace, found);
    // A failure the inputs explain (a `needs-input` note) did not stop a root.
    let stopped = |d: &Diagnostic| d.severity == Severity::Error && !d.rule.is_static();
    let status = match (failed, found.is_empty()) {
        (true, _) if found.iter().any(stopped) => RootOutcome::Error,
        (_, true) => RootOutcome::Ok,
        _ => RootOutcome::Findings,
    };
    let mut outcome = finish(job, found, status);
    outcome.provenance = provenance;
    outcome.unchecked_kinds = unchecked_kinds;
    outcome.usage = rest.usage;
    if job.coverage {
        outcome.coverage = Some(crate::lint::job::coverage::of_job(
            &workspace, names, !failed,
        ));
    }
    spread::drop_later((workspace, result));
    outcome
}

/// Whether `d` says what the evaluation's error `err` says, at its line.
fn same_error(d: &Diagnostic, err: &Diagnostic) -> bool {
    let line = |d: &Diagnostic| d.span.as_ref().map(|s| (s.file.clone(), s.line));
    d.rule == err.rule && d.message == err.message && line(d).is_some() && line(d) == line(err)
}

/// Where a finding at `pos` is shown: its place in a file of the job, else the flag of the
/// configuration whose text `line_at` gives for it.
fn place(
    names: &Names,
    config_spans: &[(String, Span)],
    line_at: &dyn Fn(&Pos) -> String,
    pos: &Pos,
) -> Option<Span> {
    span_at(names, pos).or_else(|| {
        let line = line_at(pos);
        config_spans
            .iter()
            .find(|(flag, _)| *flag == line)
            .map(|(_, span)| span.clone())
    })
}

/// What the checks other than the Kubernetes one found: the findings that come before its
/// findings in the outcome and those after, and what the library reads.
struct Rest {
    before: Vec<Diagnostic>,
    after: Vec<Diagnostic>,
    usage: Option<Usage>,
}

/// The checks of the evaluated workspace besides the Kubernetes one (`None`: the run was
/// cancelled meanwhile).
fn checks(
    job: &Job,
    workspace: &Workspace,
    result: &Result<Output, crate::eval::run::EvalError>,
    names: &Names,
    outside: &Outside,
    not_read: Vec<Diagnostic>,
    span_of: SpanOf<'_>,
) -> Option<Rest> {
    let mut before = findings::engine(workspace, span_of, &job.provided);
    before.extend(not_read);
    if job.check_files {
        before.extend(findings::unknown_annotations(workspace, span_of));
        before.extend(bom::findings(workspace, span_of));
    }
    if let (Ok(output), true) = (result, job.kubevirt) {
        // KubeVirt Templates in the rendered output (spec 003).
        let input = crate::kubevirt::KvInput {
            file: &job.root,
            docs: &output.docs,
        };
        before.extend(crate::kubevirt::lint(
            &[input],
            &span_of,
            &crate::kubevirt::Options::default(),
        ));
    }
    let mut after = Vec::new();
    if result.is_ok() && job.check_files {
        // Overlays whose selector matched nothing (overlay-matches-nothing).
        after.extend(unmatched_overlays::findings(workspace, span_of));
    }
    if crate::eval::cancel::requested() {
        return None;
    }
    let mut usage = None;
    let mut tested: Vec<Tested> = Vec::new();
    if job.check_files && job.analysis {
        let (statics, used, conditions) = usage::static_findings(workspace, names, outside, true);
        after.extend(statics);
        usage = Some(used);
        tested = conditions;
    } else if job.reads_values && job.analysis {
        let (used, conditions) = usage::reads_only(workspace, names);
        usage = Some(used);
        tested = conditions;
    }
    if result.is_ok() {
        // Strings that spell false, tested as conditions (boolean-string).
        after.extend(boolean_strings::findings(workspace, &tested, span_of));
        // Numbers only ever tested as conditions (number-as-boolean).
        after.extend(number_flags::findings(workspace, &tested, span_of));
    }
    Some(Rest {
        before,
        after,
        usage,
    })
}
