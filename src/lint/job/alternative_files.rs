//! A directory the layout makes a root (`ytt -f examples/eirini`: nothing in the repository
//! runs it) whose files each render the same objects, with the same content: the files are
//! alternatives of one example (a template, another way to write it, the expected output),
//! each meant to be rendered on its own (ytt's own end-to-end test renders them one by one and
//! compares the output). A `duplicate-object` between two such files rests only on the
//! inferred command giving them together: a note that names the files (`inferred-command`,
//! about `alternatives`). A root a command of the repository renders keeps its level: there
//! the files are given together for certain. Two plain manifests named from one stem that
//! define the same objects are alternatives too, whatever their content (see
//! `variant_manifests.rs`).

use std::sync::Arc;

use crate::library::{Output, OutputContent};
use crate::lint::job::engine::SpanOf;
use crate::lint::job::split_output::duplicate_files;
use crate::lint::job::variant_manifests::variants;
use crate::lint::job::Job;
use crate::policy::cross::duplicate_object::same;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Rule, Source, Subject};
use crate::yaml::{Document, Value};

/// `found`, each duplicate between two alternative files of a root inferred from the layout
/// a note. `text_of` gives a file's source text by its repository path.
pub fn settle(
    job: &Job,
    output: Option<&Output>,
    span_of: SpanOf<'_>,
    text_of: &dyn Fn(&str) -> Option<Arc<str>>,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let inferred = job
        .provenance
        .as_ref()
        .is_some_and(|p| p.source == Source::Layout);
    let Some(output) = output.filter(|_| inferred) else {
        return found;
    };
    if !found.iter().any(|d| d.rule == Rule::DuplicateObject) {
        return found;
    }
    let files = rendered(output, span_of);
    for d in found.iter_mut().filter(|d| d.rule == Rule::DuplicateObject) {
        let Some((first, second)) = duplicate_files(d) else {
            continue;
        };
        let docs = |f: &str| files.iter().find(|(p, _)| p == f).map(|(_, d)| d);
        let (Some(a), Some(b)) = (docs(&first), docs(&second)) else {
            continue;
        };
        if first == second {
            continue;
        }
        let why = if alike(a, b) {
            "each render the same objects, with the same content: alternatives of one \
             example, each rendered on its own"
        } else {
            let (Some(ta), Some(tb)) = (text_of(&first), text_of(&second)) else {
                continue;
            };
            if !variants((&first, a, &ta), (&second, b, &tb)) {
                continue;
            }
            "are plain manifests of the same objects named from one stem: variants of one \
             example, each applied on its own"
        };
        let assumed = Assumption::new(
            AssumptionKind::InferredCommand,
            format!(
                "{first} and {second} {why}; only the command inferred from the layout gives \
                 them together"
            ),
        )
        .about(Subject::Alternatives {
            files: vec![first.clone(), second.clone()],
        });
        d.assume(assumed, || match &job.provenance {
            Some(p) => Certainty::from(p.source, p.origin.clone()),
            None => Certainty::from(Source::Layout, None),
        });
    }
    found
}

/// The objects each output file holds (its documents that are maps), by repository path.
fn rendered<'o>(output: &'o Output, span_of: SpanOf<'_>) -> Vec<(String, Vec<&'o Document>)> {
    output
        .files
        .iter()
        .filter_map(|f| match &f.content {
            OutputContent::Docs(range) => {
                let docs: Vec<&Document> = output
                    .docs
                    .items
                    .get(range.clone())?
                    .iter()
                    .filter(|d| matches!(d.value, Value::Map(_)))
                    .collect();
                let file = span_of(&docs.first()?.pos)?.file;
                Some((file, docs))
            }
            OutputContent::Text(_) => None,
        })
        .collect()
}

/// Whether two files render the same objects with the same content, each all of them.
fn alike(a: &[&Document], b: &[&Document]) -> bool {
    let within = |x: &[&Document], y: &[&Document]| {
        x.iter().all(|d| y.iter().any(|e| same(&d.value, &e.value)))
    };
    !a.is_empty() && a.len() == b.len() && within(a, b) && within(b, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(src: &str) -> Vec<Document> {
        crate::policy::object::tests::docs(src)
    }

    #[test]
    fn files_alike_render_the_same_objects_each_all_of_them() {
        let a =
            docs("kind: Role\nmetadata: {name: r}\n---\nkind: RoleBinding\nmetadata: {name: b}\n");
        let b =
            docs("kind: RoleBinding\nmetadata: {name: b}\n---\nkind: Role\nmetadata: {name: r}\n");
        let part = docs("kind: Role\nmetadata: {name: r}\n");
        let other =
            docs("kind: Role\nmetadata: {name: r}\n---\nkind: RoleBinding\nmetadata: {name: c}\n");
        fn refs(d: &[Document]) -> Vec<&Document> {
            d.iter().collect()
        }
        assert!(alike(&refs(&a), &refs(&b)));
        assert!(!alike(&refs(&a), &refs(&part)));
        assert!(!alike(&refs(&a), &refs(&other)));
        assert!(!alike(&[], &[]));
    }
}
