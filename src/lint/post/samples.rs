//! Sample text of editor support. In a directory that is an editor extension's or a
//! grammar's (`discover::samples`: a VS Code extension contributing a grammar, a tree-sitter
//! grammar), the ytt files are there to be highlighted, folded and parsed by the project's
//! own tests: an undefined name, a `lambda: return` written to exercise a parser, a made-up
//! annotation fail no render, since nothing renders them. What the linter finds in such a file
//! rests on the assumption that ytt renders it at all: the finding names that assumption
//! ([`AssumptionKind::SampleText`]) and is a note, without its fix (a fix would change what
//! the project's tests read).
//!
//! Only ytt files (not one that holds a command), and only where no command of the
//! repository renders the file: a script, Makefile, CI job,
//! Package, document or configured root that gives it to ytt (or a command the linter could
//! not run that names it) keeps its findings as they are, and so does a file a tool wrapping
//! ytt renders or a command copies into another tool's tree.

use std::collections::{BTreeMap, BTreeSet};

use crate::files::paths::is_within;
use crate::lint::discover::samples::{self, SampleSet};
use crate::lint::job::{Job, JobKind};
use crate::lint::plan::Planned;
use crate::report::{Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Provenance, Source};

/// `found` with each finding in an editor's sample file that no command renders resting on
/// the assumption that ytt renders it.
pub fn settle(p: &Planned, jobs: &[Job], mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let sets = samples::find(&p.config.dir, &p.discovery.files);
    if sets.is_empty() {
        return found;
    }
    let rendered = super::unrendered::rendered(p, jobs);
    let provenance = root_provenance(jobs);
    // Only ytt files are samples: a script, Makefile or CI file beside them is the project's
    // own, and so is a ytt file that holds a command.
    let ytt: BTreeSet<&str> = p
        .discovery
        .files
        .iter()
        .filter(|f| f.kind.is_ytt())
        .map(|f| f.path.as_str())
        .filter(|f| !p.discovery.sources.iter().any(|s| s == f))
        .collect();
    for d in &mut found {
        let Some(file) = d.span.as_ref().map(|s| s.file.as_str()) else {
            continue;
        };
        if !ytt.contains(file) {
            continue;
        }
        let Some(set) = samples::holding(&sets, file) else {
            continue;
        };
        let read = rendered
            .iter()
            .any(|inputs| inputs.iter().any(|i| is_within(file, i)));
        if read || p.discovery.around_of(file) {
            continue;
        }
        let a = assumption(file, set);
        assume(d, a, provenance.get(d.root.as_deref().unwrap_or("")));
    }
    found
}

/// What a finding in `file`, a sample of `set`, assumes.
fn assumption(file: &str, set: &SampleSet) -> Assumption {
    Assumption::new(
        AssumptionKind::SampleText,
        format!(
            "{file} is a ytt input; it lies in {}, which keeps YAML for an editor to \
             highlight or parse, and no command of the repository renders it",
            set.what
        ),
    )
}

/// Makes `d` rest on `a` and on what its root's command assumes (`root`, the provenance of
/// the root's first scenario, when the finding has a root), and drops its fix.
fn assume(d: &mut Diagnostic, a: Assumption, root: Option<&&Provenance>) {
    d.assume(a, || match root {
        Some(pr) => pr.certainty(Basis::Command),
        None => Certainty::from(Source::Layout, None),
    });
    d.basis = Some(Basis::Command);
    d.fix = None;
}

/// The provenance of each root's first scenario.
fn root_provenance(jobs: &[Job]) -> BTreeMap<&str, &Provenance> {
    let mut out = BTreeMap::new();
    for j in jobs.iter().filter(|j| j.kind == JobKind::Root) {
        if let Some(pr) = j.provenance.as_ref() {
            out.entry(j.root.as_str()).or_insert(pr);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Rule, Severity, Span};

    #[test]
    fn a_text_finding_gets_the_root_s_command_and_the_sample_assumption() {
        let set = SampleSet {
            dir: ".".into(),
            what: "the tree-sitter grammar of grammar.js (src/parser.c)".into(),
        };
        let mut layout = Provenance::of(Source::Layout, None);
        layout.assume(Assumption::new(
            AssumptionKind::InferredCommand,
            "the command `ytt -f test`, inferred from the layout",
        ));
        let mut d = Diagnostic::new(Rule::UnusedLoad, "yaml is loaded but never used")
            .at(Span::point("test/a.yaml", 1, 1));
        let a = assumption("test/a.yaml", &set);
        assume(&mut d, a.clone(), Some(&&layout));
        let c = d.certainty.clone().unwrap();
        assert_eq!(c.source, Source::Layout);
        let kinds: Vec<AssumptionKind> = c.assumed.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [AssumptionKind::InferredCommand, AssumptionKind::SampleText]
        );
        assert_eq!(
            a.message,
            "test/a.yaml is a ytt input; it lies in the tree-sitter grammar of grammar.js \
             (src/parser.c), which keeps YAML for an editor to highlight or parse, and no \
             command of the repository renders it"
        );
        // Once: a second pass adds nothing; the note is decided by `post::certainty`.
        assume(&mut d, a, Some(&&layout));
        assert_eq!(d.certainty.as_ref().unwrap().assumed.len(), 2);
        d.severity = Severity::Error;
        let out = crate::lint::post::certainty::apply(vec![d]);
        assert_eq!(out[0].severity, Severity::Info);
    }
}
