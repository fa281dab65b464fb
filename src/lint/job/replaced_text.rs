//! A Kubernetes schema's check of a value's text (format, pattern, choices) that finds a
//! placeholder the reader or the command's run-time values replace, so it is a note that
//! names the key and its placeholder (a `left-to-user` assumption whose subject makes it a
//! note):
//!
//! - a placeholder the committed data values hold, in a command that gets a values file at
//!   run time (round eleven's micropets: `base64_encoded_identity: ZZZZZ` in the defaults, and
//!   a Makefile target that writes `.secrets.yaml` with the real key's base64 just before `ytt
//!   -f supplychains --data-values-file .secrets.yaml`);
//! - a placeholder the command's own flag gives (`-v admin_password="<admin_password>"` in a
//!   page: the reader types their own; round twenty-four's R24-4).
//!
//! The placeholder's text says nothing of what the command renders. A check of a value that
//! is no placeholder, or of a committed one in a command whose values are all known, stays as
//! it is.

use crate::library::Workspace;
use crate::lint::job::certainty::{is_placeholder, place, walk};
use crate::lint::job::inputs::Names;
use crate::lint::job::Job;
use crate::report::{Assumption, AssumptionKind, Diagnostic, Subject};
use crate::yaml::Value;

/// `found` with each value check of a placeholder that the run-time values replace marked.
pub fn settle(
    job: &Job,
    ws: &Workspace,
    names: &Names,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    // A whole values file given at run time (`--data-values-file $F`, `-f $1`): its keys are
    // not known, and what it sets replaces the defaults.
    let whole = job.provided.iter().any(|k| k == "*");
    let checked: Vec<(usize, String)> = found
        .iter()
        .enumerate()
        .filter(|(_, d)| d.certainty.is_some())
        .filter_map(|(i, d)| Some((i, super::example_text::checked_text(d)?)))
        .filter(|(_, text)| is_placeholder(text))
        .collect();
    if checked.is_empty() {
        return found;
    }
    let Some(values) = ws.evaluated_values() else {
        return found;
    };
    // (text, key, where it is written: `None` for the command's own flag)
    let mut held: Vec<(String, String, Option<String>)> = Vec::new();
    walk(&values.value, &mut Vec::new(), &mut |path, v, pos| {
        let Value::String(s) = v else {
            return;
        };
        if !is_placeholder(s) || s == super::placeholder::TEXT {
            return;
        }
        let committed = pos.and_then(|p| names.repo_path_at(p)).is_some();
        if !committed || whole {
            let at = committed.then(|| place(names, pos));
            held.push((s.clone(), path.to_string(), at));
        }
    });
    for (i, text) in checked {
        let Some((_, key, at)) = held.iter().find(|(s, _, _)| *s == text) else {
            continue;
        };
        let why = match at {
            Some(at) => format!(
                "`{key}`{at} holds the placeholder `{text}`, which the values the command gets \
                 at run time replace"
            ),
            None => format!(
                "the command gives `{key}` the placeholder `{text}`, which its reader replaces \
                 with their own value"
            ),
        };
        let a = Assumption::new(AssumptionKind::LeftToUser, why).about(Subject::UserFills);
        if let Some(c) = found[i].certainty.as_mut() {
            c.add(a);
        }
    }
    found
}
