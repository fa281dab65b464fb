//! Versions nothing renders. When the repository's own commands (a script, a Makefile, CI, a
//! Package, a README: a certain source) render files next to a file but not the file itself
//! (`v1.4/` and `v1.5/` rendered beside `v1.3/`, `replace.yml` rendered beside `remove.yml` in
//! one directory), and no tool wrapping ytt renders it and no command copies it elsewhere, the
//! file is left over: an error there, even one in its text alone (a syntax error), fails no
//! render. Beside means in the file's directory, beside the directory of its root, or in a
//! sibling of the file's directory (`v1.4/` rendered beside `v1.3/x.yml`). It is reported as a warning that says so. A file with nothing rendered beside it
//! keeps its errors: how it is run is simply not written down.
//!
//! But for an invalid schema document in a root inferred from the layout that no command of
//! the repository renders (round forty's R40-1: a program renders the folder's other files
//! with the ytt library, and never gives it the schema). The document is invalid whatever
//! command gives it, yet only a command that gives it fails, and that the folder is one
//! command's input is the layout's guess: a warning naming that guess; alone in its root, the
//! schema fails whatever renders the folder, and keeps its error. A syntax error (YAML,
//! Starlark) or another finding of the file's own text stays an error: the file is broken
//! for whoever reads it.

use crate::files::paths::{self, is_within};
use crate::lint::job::{Job, JobKind};
use crate::lint::plan::Planned;
use crate::lint::repo::walk::Kind;
use crate::report::{
    Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Provenance, Rule, Severity, Source,
    Subject,
};

/// `found` with the errors in files no certain command renders made warnings.
pub fn settle(p: &Planned, jobs: &[Job], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let rendered = rendered(p, jobs);
    found
        .into_iter()
        .map(|mut d| {
            if d.severity != Severity::Error || d.certainty.is_some() {
                return d;
            }
            let Some(file) = d.span.as_ref().map(|s| s.file.clone()) else {
                return d;
            };
            if read_elsewhere(p, &rendered, &file) {
                return d;
            }
            let why = if beside_rendered(&rendered, &file, d.root.as_deref()) {
                format!(
                    "nothing in the repository renders {file}: its commands render other files (an old version, an unused variant?)"
                )
            } else if let Some(root) = schema_of_layout_root(p, jobs, &d) {
                format!(
                    "nothing in the repository renders {file}: that ytt is given {root} whole is inferred from the layout (a program or a person may give it other files)"
                )
            } else {
                return d;
            };
            let mut pr = Provenance::of(Source::Layout, None);
            pr.assume(Assumption::new(AssumptionKind::InferredCommand, why));
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

/// The root of `d`, an invalid schema document (whatever the command: see
/// `job::engine::error_diagnostic`), when the root's command is inferred from the layout and
/// the root holds other files ytt reads: a command may give those without the schema. A
/// schema alone in its root (round twenty-eight's R28-1, a starter folder) fails whatever
/// renders the folder: it keeps its error.
fn schema_of_layout_root<'j>(p: &Planned, jobs: &'j [Job], d: &Diagnostic) -> Option<&'j str> {
    if d.rule != Rule::SchemaInvalid || d.basis() != Basis::Text {
        return None;
    }
    let root = d.root.as_deref()?;
    let file = d.span.as_ref()?.file.as_str();
    let job = jobs.iter().find(|j| {
        j.root == root
            && matches!(j.kind, JobKind::Root | JobKind::Library)
            && j.provenance
                .as_ref()
                .is_some_and(|pr| pr.source == Source::Layout)
    })?;
    let inputs = super::scope(p, job);
    let others = p.discovery.files.iter().any(|f| {
        f.path != file && f.kind != Kind::Other && inputs.iter().any(|i| is_within(&f.path, i))
    });
    others.then_some(job.root.as_str())
}

/// Whether a certain command (or one the linter could not run) reads `file`, or a tool
/// renders it elsewhere (`Discovery::around_of`).
pub(super) fn read_elsewhere(p: &Planned, rendered: &[Vec<String>], file: &str) -> bool {
    rendered
        .iter()
        .any(|inputs| inputs.iter().any(|i| is_within(file, i)))
        || p.discovery.around_of(file)
}

/// The inputs of each command of the repository that renders files certainly (a root whose
/// command is not only inferred from the layout), and the files each command the linter could
/// not run names.
pub(super) fn rendered(p: &Planned, jobs: &[Job]) -> Vec<Vec<String>> {
    let mut rendered: Vec<Vec<String>> = jobs
        .iter()
        .filter(|j| j.kind == JobKind::Root)
        .filter(|j| {
            // A page's command read with its old path corrected is a guess at what it renders.
            j.provenance.as_ref().is_some_and(|pr| {
                pr.source != Source::Layout
                    && !pr
                        .assumptions
                        .iter()
                        .any(|a| matches!(a.subject, Some(Subject::OldPath { .. })))
            })
        })
        .map(|j| super::scope(p, j))
        .collect();
    // The commands the linter could not run (their other inputs are pulled at run time) still
    // say which files the repository renders.
    rendered.extend(
        p.discovery
            .skipped
            .iter()
            .map(|s| s.claims.clone())
            .filter(|c| !c.is_empty()),
    );
    rendered
}

/// Whether the commands render something next to `file`: in its own directory, or beside the
/// directory of its root (below the repository's top).
fn beside_rendered(rendered: &[Vec<String>], file: &str, root: Option<&str>) -> bool {
    let own = paths::parent(file);
    let beside = root.map(paths::parent).filter(|d| *d != ".");
    // Beside the file's own directory: `v1.3/x.yml` when `v1.4/...` is rendered.
    let versions = Some(paths::parent(own)).filter(|d| own != "." && *d != ".");
    rendered.iter().flatten().any(|i| {
        (own != "." && paths::parent(i) == own)
            || beside.is_some_and(|b| is_within(i, b))
            || versions.is_some_and(|v| is_within(i, v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_the_commands_render_beside_makes_a_file_left_over() {
        let rendered = vec![
            vec!["ext/v1.4/registry".to_string()],
            vec!["kcp/replace.yml".to_string()],
        ];
        assert!(beside_rendered(
            &rendered,
            "ext/v1.3/bad.yml",
            Some("ext/v1.3")
        ));
        assert!(beside_rendered(
            &rendered,
            "kcp/remove.yml",
            Some("kcp/remove.yml")
        ));
        // The root a directory of supplementing files checked on its own: the file's
        // directory is a sibling of a rendered one.
        assert!(beside_rendered(&rendered, "ext/v1.3/bad.yml", Some("ext")));
        assert!(!beside_rendered(
            &rendered,
            "other/v1/bad.yml",
            Some("other")
        ));
        // At the top, a directory beside a rendered one is a root of its own.
        assert!(!beside_rendered(
            &rendered,
            "broken/app.yml",
            Some("broken")
        ));
        assert!(!beside_rendered(
            &rendered,
            "other/x/app.yml",
            Some("other/x")
        ));
    }
}
