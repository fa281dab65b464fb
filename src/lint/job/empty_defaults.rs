//! A Package's empty defaults. A Package is rendered with the values of its user's
//! PackageInstall (`tanzu package install -f values.yml`); its schema's defaults are only what
//! it renders with when the user gives nothing. An empty string default (`repo: ""`) is often a
//! value the user must give, and as often a real one (an optional suffix, a value a template
//! tests for): so an empty default counts as left to the user only for a finding that goes
//! away once the default holds a value.
//!
//! Such a finding (one that rests on the inputs, and is certain so far) is evaluated again
//! with every empty string default set to a value a user typically gives (a registry path, a
//! number, base64 text). When one of them gets the evaluation past the finding without a new
//! failure, the finding assumes that the user gives the value (`left-to-user`) and is a
//! warning that names it. A failure each value still meets (`"" + 1`, a field a string does
//! not have) stays an error: it happens whatever the user gives.

use std::sync::Arc;

use crate::library::Workspace;
use crate::lint::job::certainty::{is_left_null, place, walk, NAMED};
use crate::lint::job::inputs::Names;
use crate::lint::job::probe::{self, settable};
use crate::lint::job::Job;
use crate::pos::Pos;
use crate::report::Severity;
use crate::report::{Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Source};
use crate::yaml::Value;

/// Values a user typically gives for a string, tried in turn: a registry path with a host, a
/// port and a path (it splits on `/`, `:` and `.`), a number, base64 text.
const PROBES: [&str; 3] = [
    "registry.example.com:443/project/app",
    "1",
    "cGxhY2Vob2xkZXI=",
];

/// An empty string default: its dotted key, and ` (file:line)` of where it is set.
struct Empty {
    key: String,
    place: String,
}

/// `found` with the findings of a Package's root that its empty defaults explain marked as
/// assuming the user gives them, and the provenance with that assumption.
pub fn settle(
    job: &Job,
    ws: &Workspace,
    names: &Names,
    mut found: Vec<Diagnostic>,
    provenance: Option<Provenance>,
) -> (Vec<Diagnostic>, Option<Provenance>) {
    let Some(mut p) = provenance else {
        return (found, None);
    };
    // A PackageBuild's release renders with no values (its root needs none): nothing is
    // left to a user there.
    if p.source != Source::Package || !job.needs_input {
        return (found, Some(p));
    }
    let open: Vec<usize> = (0..found.len()).filter(|i| asked(&found[*i])).collect();
    if open.is_empty() {
        return (found, Some(p));
    }
    let empty = empty_defaults(ws, names);
    if empty.is_empty() {
        return (found, Some(p));
    }
    let keys: Vec<String> = empty.iter().map(|e| e.key.clone()).collect();
    probe::settle(job, &keys, &PROBES, &mut found, open, &mut p, |d, probe| {
        assumption(&trace(d, ws, names), &empty, probe)
    });
    // A finding that a value for an empty default gets past, the null defaults left as they
    // are, does not rest on those: its user's value for the empty one is what it assumes, and
    // the null ones are not named (round twenty-nine's R29-3).
    for d in &mut found {
        if let Some(c) = d.certainty.as_mut() {
            if c.assumed.iter().any(|a| a.message.contains(EMPTY_LEFT)) {
                c.assumed.retain(|a| !is_left_null(a));
            }
        }
    }
    (found, Some(p))
}

/// Whether a finding is one an empty default may explain: it rests on the inputs and nothing
/// else makes it uncertain, but for the null defaults its Package leaves to its user (which
/// the probe leaves null: a finding it gets past does not rest on them).
fn asked(d: &Diagnostic) -> bool {
    d.severity != Severity::Info
        && d.basis() == Basis::Inputs
        && d.certainty
            .as_ref()
            .is_some_and(|c| c.assumed.iter().all(is_left_null))
}

/// The root's final data values that are empty strings, by a key `-v` can set (no list item
/// on the way).
fn empty_defaults(ws: &Workspace, names: &Names) -> Vec<Empty> {
    let Some(values) = ws.evaluated_values() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk(&values.value, &mut Vec::new(), &mut |path, v, pos| {
        if matches!(v, Value::String(s) if s.is_empty()) && settable(path) {
            out.push(Empty {
                key: path.to_string(),
                place: place(names, pos),
            });
        }
    });
    out
}

/// The text of a finding's trace: its message, its related places' messages and the line it
/// is at.
pub(super) fn trace(d: &Diagnostic, ws: &Workspace, names: &Names) -> String {
    let mut text = d.message.clone();
    for r in &d.related {
        text.push('\n');
        text.push_str(&r.message);
    }
    let line = d.span.as_ref().and_then(|span| {
        let name = names.name_of(&span.file)?;
        let pos = Pos::new(&Arc::from(name), span.line, 1, 0);
        Some(ws.line_at(&pos))
    });
    if let Some(line) = line {
        text.push('\n');
        text.push_str(&line);
    }
    text
}

/// Whether a message's trace reads `data.values.KEY` (not a longer key that starts alike).
pub(super) fn reads(message: &str, key: &str) -> bool {
    let wanted = format!("data.values.{key}");
    message.match_indices(&wanted).any(|(i, _)| {
        message[i + wanted.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// The assumption that the user gives the empty defaults a finding rests on: those its trace
/// names, else all of them.
fn assumption(trace: &str, empty: &[Empty], probe: &str) -> Assumption {
    let named: Vec<&Empty> = empty.iter().filter(|e| reads(trace, &e.key)).collect();
    let shown: Vec<&Empty> = if named.is_empty() {
        empty.iter().collect()
    } else {
        named
    };
    let mut listed: Vec<String> = shown
        .iter()
        .take(NAMED)
        .map(|e| format!("`{}`{}", e.key, e.place))
        .collect();
    if shown.len() > NAMED {
        listed.push(format!("{} more", shown.len() - NAMED));
    }
    let which = match listed.len() {
        1 => listed.join(""),
        n => format!("{} and {}", listed[..n - 1].join(", "), listed[n - 1]),
    };
    Assumption::new(
        AssumptionKind::LeftToUser,
        format!(
            "the package's defaults leave {which}{EMPTY_LEFT}`{probe}` the evaluation gets past \
             this)"
        ),
    )
}

/// What [`assumption`]'s text says after the keys.
const EMPTY_LEFT: &str = " empty, for its user to give (with a value such as ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assumption_names_the_defaults_the_trace_reads() {
        let empty = vec![
            Empty {
                key: "repo".into(),
                place: " (pkg/values.yml:3)".into(),
            },
            Empty {
                key: "other".into(),
                place: String::new(),
            },
        ];
        let trace = "Index `1` is out of bound\n  path: #@ data.values.repo.split(\"/\", 1)[1]";
        let a = assumption(trace, &empty, PROBES[0]);
        assert_eq!(a.kind, AssumptionKind::LeftToUser);
        assert!(
            a.message
                .starts_with("the package's defaults leave `repo` (pkg/values.yml:3) empty"),
            "{}",
            a.message
        );
        let a = assumption("boom", &empty, PROBES[0]);
        assert!(a
            .message
            .contains("`repo` (pkg/values.yml:3) and `other` empty"));
        assert!(reads("x #@ data.values.repo.split", "repo"));
        assert!(!reads("x #@ data.values.repository", "repo"));
    }
}
