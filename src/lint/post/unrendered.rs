//! Versions nothing renders. In a repository whose own commands render some of its ytt files
//! (a script, a Makefile, CI, a Package, a README: a certain source), a file that none of them
//! renders, that no tool wrapping ytt renders and that no command copies elsewhere is left over
//! (an old version beside the one the scripts render, a variant nobody uses): an error there,
//! even one in its text alone (a syntax error), fails no render. It is reported as a warning
//! that says so. A repository whose commands the linter does not see at all (everything
//! inferred from the layout) keeps its errors: how it is run is simply not written down.

use crate::files::paths::is_within;
use crate::lint::job::{Job, JobKind};
use crate::lint::plan::Planned;
use crate::report::{
    Assumption, AssumptionKind, Certainty, Diagnostic, Provenance, Severity, Source,
};

/// `found` with the errors in files no certain command renders made warnings.
pub fn settle(p: &Planned, jobs: &[Job], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let rendered: Vec<Vec<String>> = jobs
        .iter()
        .filter(|j| j.kind == JobKind::Root)
        .filter(|j| {
            j.provenance
                .as_ref()
                .is_some_and(|pr| pr.source != Source::Layout)
        })
        .map(|j| super::scope(p, j))
        .collect();
    if rendered.is_empty() {
        return found;
    }
    let elsewhere = |file: &str| p.discovery.around_of(file);
    found
        .into_iter()
        .map(|mut d| {
            if d.severity != Severity::Error || d.certainty.is_some() {
                return d;
            }
            let Some(file) = d.span.as_ref().map(|s| s.file.clone()) else {
                return d;
            };
            let read = rendered
                .iter()
                .any(|inputs| inputs.iter().any(|i| is_within(&file, i)));
            if read || elsewhere(&file) {
                return d;
            }
            let mut pr = Provenance::of(Source::Layout, None);
            pr.assume(Assumption::new(
                AssumptionKind::InferredCommand,
                format!(
                    "nothing in the repository renders {file}: its commands render other files (an old version, an unused variant?)"
                ),
            ));
            d.certainty = Some(Certainty {
                source: pr.source,
                origin: None,
                assumed: pr.assumptions,
            });
            d.severity = Severity::Warning;
            d
        })
        .collect()
}
