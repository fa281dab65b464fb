//! A Kubernetes schema's check of a value's text (format, pattern, choices) that finds
//! placeholder text in a file a step of the command's script rewrites before ytt reads it
//! (round thirteen's R13A-1: `tls.crt: change-me-secret-crt1` in a template the script copies
//! and `sed`s into a base64 certificate; an in-place `sed -i` of the committed file alike).
//! The linter lints the committed text, which ytt never renders: the finding says nothing of
//! what the command renders, so it is a note that names the rewrite (a `changed-at-run-time`
//! assumption whose subject makes it a note). A check of text that is no placeholder, or in
//! a file no step rewrites, stays as it is (a warning that names the rewrite, for a rewritten
//! input: `discover/invocations/edits.rs`).

use crate::lint::job::certainty::is_placeholder;
use crate::lint::job::Job;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Subject};

/// `found` with each value check of placeholder text in a rewritten input marked.
pub fn settle(job: &Job, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let Some(p) = job.provenance.as_ref() else {
        return found;
    };
    let rewritten: Vec<(&str, &Assumption)> = p
        .assumptions
        .iter()
        .filter(|a| a.kind == AssumptionKind::ChangedAtRunTime)
        .filter_map(|a| match &a.subject {
            Some(Subject::Rewritten { file }) => Some((file.as_str(), a)),
            _ => None,
        })
        .collect();
    if rewritten.is_empty() {
        return found;
    }
    for d in &mut found {
        let Some(text) = super::example_text::checked_text(d).filter(|t| is_placeholder(t)) else {
            continue;
        };
        let Some(file) = d.span.as_ref().map(|s| s.file.as_str()) else {
            continue;
        };
        let Some((file, why)) = rewritten.iter().find(|(f, _)| *f == file) else {
            continue;
        };
        let a = Assumption::new(
            AssumptionKind::ChangedAtRunTime,
            format!("`{text}` is placeholder text that ytt never reads: {why}"),
        )
        .about(Subject::Replaced {
            file: (*file).to_string(),
        });
        // A field written literally rests on its text alone (no certainty of its own): the
        // text is what the step rewrites.
        d.assume(a, || Certainty::from(p.source, p.origin.clone()));
    }
    found
}
