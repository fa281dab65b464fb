//! A command that writes each input file's output to a file of its own (`ytt --output-files
//! DIR`) does not hand its objects over as one set: the files are applied as the repository
//! applies them, a directory at a time perhaps (a workshop's `kubectl apply -f step-1/`, then
//! `step-2/`). Two objects of one name whose files lie in different directories are one set
//! only if those directories are applied together, which the command does not say: such a
//! `duplicate-object` rests on that, and is a note naming it (round fifteen's R15B-4).
//! Duplicates within one directory keep their level: a directory of output files is applied
//! as one.

use crate::files::paths;
use crate::lint::job::Job;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Rule, Source};

/// The message of a duplicate's related location that names the first copy
/// ([`crate::policy`]'s `duplicate-object`).
pub const FIRST: &str = "the same object rendered first";

/// `found`, each duplicate in different directories of a split output resting on their being
/// applied together.
pub fn settle(job: &Job, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if !job.split_output {
        return found;
    }
    for d in found.iter_mut().filter(|d| d.rule == Rule::DuplicateObject) {
        let Some(second) = d.span.as_ref().map(|s| s.file.clone()) else {
            continue;
        };
        let Some(first) = d
            .related
            .iter()
            .find(|r| r.message == FIRST)
            .map(|r| r.span.file.clone())
        else {
            continue;
        };
        let (a, b) = (paths::parent(&first), paths::parent(&second));
        if a == b {
            continue;
        }
        let assumed = Assumption::new(
            AssumptionKind::SplitOutput,
            format!(
                "the command writes each file's output to a file of its own (--output-files), \
                 and these lie in {} and {}: one set only if both are applied together",
                shown(a),
                shown(b)
            ),
        );
        d.assume(assumed, || match &job.provenance {
            Some(p) => Certainty::from(p.source, p.origin.clone()),
            None => Certainty::from(Source::Config, None),
        });
    }
    found
}

/// A directory as the message names it.
fn shown(dir: &str) -> String {
    match dir {
        "." => "the top directory".to_string(),
        d => format!("`{d}/`"),
    }
}
