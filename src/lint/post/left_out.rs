//! Entries a script's loop leaves out by name. `for name in $(ls examples/); do if [ "$name"
//! != example-x ]; then ytt -f examples/$name; fi; done` renders every example but one: its
//! author says that one does not render alone (it needs a library fetched first, a value the
//! reader gives). The linter still checks it as a root inferred from the layout, but what
//! that root's evaluation finds rests on an assumption the script contradicts: the finding
//! names it ([`AssumptionKind::LeftOutEntry`]) and is a note. What a file's text alone shows
//! (syntax, a misplaced annotation) stays as it is, and so does what a command of the
//! repository finds in the entry (the layout gives a root only to what no command renders).

use crate::files::paths::is_within;
use crate::lint::plan::Planned;
use crate::report::{Assumption, AssumptionKind, Basis, Diagnostic, Source};

/// `found` with each finding of a layout root's evaluation in an entry a loop leaves out
/// resting on that entry's being rendered alone.
pub fn settle(p: &Planned, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let left: Vec<(&str, String)> = p
        .discovery
        .skipped
        .iter()
        .flat_map(|s| {
            s.left_out
                .iter()
                .map(move |e| (e.as_str(), format!("{}:{}", s.origin.file, s.origin.line)))
        })
        .collect();
    if left.is_empty() {
        return found;
    }
    for d in &mut found {
        if d.basis() == Basis::Text {
            continue;
        }
        let Some(file) = d.span.as_ref().map(|s| s.file.clone()) else {
            continue;
        };
        let Some(c) = d.certainty.as_mut().filter(|c| c.source == Source::Layout) else {
            continue;
        };
        let Some((entry, origin)) = left.iter().find(|(e, _)| is_within(&file, e)) else {
            continue;
        };
        c.add(assumption(entry, origin));
        d.fix = None;
    }
    found
}

/// What a finding in the entry `entry`, which the loop at `origin` leaves out, assumes.
fn assumption(entry: &str, origin: &str) -> Assumption {
    Assumption::new(
        AssumptionKind::LeftOutEntry,
        format!(
            "{entry} is rendered alone; the loop around {origin} renders its directory's other \
             entries and leaves this one out by a test of its name"
        ),
    )
}
