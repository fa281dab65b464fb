//! After the jobs, once, in this order: the findings that need every job (`data-value-unused`
//! over every reader, `data-value-undeclared` for a values file several roots share, stale findings only where no root runs the code, static warnings in
//! copies vendir writes and in tool-managed directories as info), no machine paths in
//! messages, `branch-never-evaluated` from the roots' coverage, what an editor's sample files
//! give as notes (`samples`), the configured rule levels,
//! suppression comments (and the ones that suppressed nothing), findings about a file's text
//! once per file ([`findings`]); then, after the whole-run cache, spans widened to what they
//! are about, the baseline's findings dropped, every root's status settled and identical
//! findings made one ([`finish`]).

pub mod accelerated;
pub mod accelerator;
pub mod appended;
pub mod baseline;
pub mod bound_names;
pub mod certainty;
pub mod concatenated;
pub mod embedded;
pub mod embedded_templated;
pub mod every_scenario;
pub mod left_out;
pub mod levels;
pub mod machine_paths;
pub mod managed;
pub mod merge;
pub mod never_evaluated;
pub mod preamble;
pub mod program_rendered;
pub mod samples;
pub mod shared_values;
pub mod sibling_inputs;
pub mod stale;
pub mod suppress;
pub mod suppress_folded;
pub mod unrendered;
pub mod unused_values;
pub mod vendored;

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::files::paths::is_within;
use crate::lint::config::RuleLevel;
use crate::lint::job::usage::Usage;
use crate::lint::job::{Job, JobKind};
use crate::lint::plan::Planned;
use crate::report::coverage::RootCoverage;
use crate::report::{Diagnostic, Report, RootOutcome, Rule, Sources};
use baseline::Baseline;
use suppress::Suppression;

/// Replaces the jobs' findings in `report` (one status per job, in job order; `usage` per job)
/// with what every job's usage, the configuration and the suppression comments leave of them.
pub fn findings(
    p: &Planned,
    jobs: &[Job],
    report: &mut Report,
    coverage: &[RootCoverage],
    usage: &[Option<Usage>],
    sources: &Sources,
) {
    let scopes: Vec<(Vec<String>, RootOutcome)> = jobs
        .iter()
        .zip(&report.roots)
        .map(|(j, r)| (scope(p, j), r.status))
        .collect();
    let found = std::mem::take(&mut report.diagnostics);
    let found = unused_values::settle(&p.discovery, jobs, usage, found);
    let found = shared_values::settle(jobs, usage, found);
    let found = stale::settle(jobs, usage, found);
    let found = vendored::settle(&p.discovery.vendir, found);
    let found = managed::settle(found);
    let found = every_scenario::settle(jobs, found);
    let found = preamble::settle(&p.config.dir, &p.discovery.files, jobs, found);
    let found = appended::settle(&p.config.dir, &p.discovery.files, jobs, found);
    let found = concatenated::settle(&p.config.dir, &p.discovery.files, jobs, found);
    let mut found = sibling_inputs::settle(&p.config.dir, jobs, found);
    let lenient = embedded::comments_ignored(&p.discovery.roots);
    found.extend(embedded::findings(&p.discovery, lenient));
    machine_paths::settle(&p.config.dir, &mut found);
    found.extend(never_evaluated::findings(coverage, sources));
    let found = bound_names::settle(&p.discovery.wrappers, found);
    let found = samples::settle(p, jobs, found);
    let found = left_out::settle(p, found);
    // Lines an App Accelerator rewrites are not what ytt reads in the project it generates.
    let found = accelerated::settle(&p.config.dir, &p.discovery.files, found);
    let found = certainty::apply(levels::apply(&p.config, found));
    let found = unrendered::settle(p, jobs, found);
    let found = program_rendered::settle(p, jobs, found);
    let sups = scan_suppressions(p, &scopes, &found, sources);
    let mut folded_used = suppress::Used::new();
    let found = suppress_folded::settle(found, &sups, &mut folded_used);
    let (kept, mut used) = suppress::apply(found, &sups);
    used.extend(folded_used);
    let checked = |s: &Suppression, rule: &str| {
        let level_on =
            Rule::from_id(rule).is_none_or(|r| p.config.level(r) != Some(RuleLevel::Off));
        let in_scope: Vec<&RootOutcome> = scopes
            .iter()
            .filter(|(inputs, _)| inputs.iter().any(|i| is_within(&s.file, i)))
            .map(|(_, st)| st)
            .collect();
        level_on && !in_scope.is_empty() && in_scope.iter().all(|st| **st != RootOutcome::Error)
    };
    let unused = suppress::unused(&sups, &used, checked);
    report.diagnostics = once_per_file(kept);
    report.diagnostics.extend(levels::apply(&p.config, unused));
    // The findings about files no root reads are kept; their paths are no roots.
    if jobs.len() == report.roots.len() {
        let statuses = std::mem::take(&mut report.roots);
        report.roots = jobs
            .iter()
            .zip(statuses)
            .filter(|(j, _)| !j.uncounted)
            .map(|(_, r)| r)
            .collect();
    }
}

/// The last step of a run, on a report fresh or from the whole-run cache: spans widened, the
/// findings `baseline` accepts dropped, statuses settled, everything in its stable order.
pub fn finish(report: &mut Report, sources: &Sources, baseline: Option<&Baseline>) -> usize {
    crate::report::widen::widen_all(&mut report.diagnostics, sources);
    let mut hidden = 0;
    if let Some(baseline) = baseline {
        let all = std::mem::take(&mut report.diagnostics);
        (report.diagnostics, hidden) = baseline.filter(all, sources);
    }
    levels::settle_statuses(report);
    report.diagnostics = merge::once(std::mem::take(&mut report.diagnostics));
    report.normalize();
    hidden
}

/// Findings about a file's text (an annotation ytt ignores, a byte-order mark) once, under the first root that
/// reads the file, not once per root.
fn once_per_file(found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    found
        .into_iter()
        .filter(|d| {
            !matches!(
                d.rule,
                Rule::UnknownAnnotation | Rule::AnnotationTypo | Rule::YamlBom
            ) || seen.insert((d.rule, d.span.clone(), d.message.clone()))
        })
        .collect()
}

/// The repository paths a job reads.
fn scope(p: &Planned, job: &Job) -> Vec<String> {
    match job.kind {
        JobKind::Library | JobKind::Notice => vec![job.root.clone()],
        JobKind::Plain => job.plain_files.clone(),
        JobKind::Root => p
            .discovery
            .roots
            .iter()
            .find(|r| r.name == job.root)
            .map(|r| r.inputs.clone())
            .unwrap_or_else(|| vec![job.root.clone()]),
    }
}

/// Suppression comments of the files the jobs read and of the files findings point at.
fn scan_suppressions(
    p: &Planned,
    scopes: &[(Vec<String>, RootOutcome)],
    found: &[Diagnostic],
    sources: &Sources,
) -> Vec<Suppression> {
    // Files with findings are kept for the report; the others are read, scanned and dropped.
    let with_findings: BTreeSet<&str> = found
        .iter()
        .filter_map(|d| d.span.as_ref().map(|s| s.file.as_str()))
        .collect();
    let mut files = with_findings.clone();
    // Discovery read every ytt file: only those with a directive are read again.
    for f in &p.discovery.files {
        if f.directives
            && scopes
                .iter()
                .any(|(inputs, _)| inputs.iter().any(|i| is_within(&f.path, i)))
        {
            files.insert(&f.path);
        }
    }
    let files: Vec<&str> = files.into_iter().collect();
    files
        .par_iter()
        .filter_map(|&f| {
            let text = if with_findings.contains(f) {
                sources.text(f)
            } else {
                sources.text_once(f)
            };
            text.map(|text| suppress::scan(f, &text))
        })
        .flatten()
        .collect()
}
