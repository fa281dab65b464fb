//! A README's own `ytt` command that gives its data values in full, on its line (`-v
//! password=REPLACEME`, `--data-value-yaml replicas=2`) or as text on standard input (a
//! here-document): every reader who follows the page runs it with those values, so the command
//! and its inputs are as known as a script's. A failure for want of a value no file or flag
//! declares (`struct has no .harbor`) is ytt's failure for every such reader, not a value left
//! to run time (`needs-input`). The values still stand for the reader's own (a page's reader
//! may type others), so what rests on them assumes them: a warning that names them, never an
//! error (round nine's LA-4).

use crate::lint::discover::invocations::resolve::Invocation;
use crate::report::{Assumption, AssumptionKind, Subject};

/// At most this many keys are named in the assumption.
const NAMED: usize = 4;

/// Whether a command gives its data values in full: it names at least one, every one it names
/// has a value written out (none from a variable, none expanded by the shell), and nothing of
/// it is left to run time or assumed about its inputs (a missing or outside path, an example
/// for the user's copy, a bound argument).
pub fn given_in_full(inv: &Invocation) -> bool {
    (!inv.values.is_empty() || !inv.values_docs.is_empty())
        && inv.binding.is_empty()
        && inv.unknown.is_empty()
        && inv.assumptions.is_empty()
        && inv
            .values
            .iter()
            .all(|v| v.value.as_deref().is_some_and(written_out))
        && inv.values_docs.iter().all(|d| !d.expanded)
}

/// Whether a value is written out, not a placeholder another tool fills in before the shell
/// runs the line (Hugo's `{{< param x >}}` in a workshop page, a Go template's `{{ .x }}`).
fn written_out(value: &str) -> bool {
    !value.contains("{{")
}

/// The assumption a documented command given in full carries: the values it writes stand for
/// the reader's.
pub fn assumption(inv: &Invocation) -> Assumption {
    let mut keys: Vec<&str> = inv.values.iter().map(|v| v.key.as_str()).collect();
    keys.dedup();
    let mut shown: Vec<String> = keys.iter().take(NAMED).map(|k| format!("`{k}`")).collect();
    if keys.len() > NAMED {
        shown.push(format!("{} more", keys.len() - NAMED));
    }
    if !inv.values_docs.is_empty() {
        shown.push("the values on its standard input".to_string());
    }
    Assumption::new(
        AssumptionKind::ExampleValues,
        format!(
            "the data values {} gives on its command line ({}) are the reader's; linted with them",
            inv.origin,
            shown.join(", ")
        ),
    )
    .about(Subject::ReadersValues)
}

/// Whether `a` is the assumption of a documented command given in full. A finding at that
/// command (a value it writes that the schema does not declare, or rejects) is about what
/// every reader types: it does not rest on it.
pub fn is_own(a: &Assumption) -> bool {
    a.subject == Some(Subject::ReadersValues)
}
