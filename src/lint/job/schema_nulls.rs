//! A schema's null default that its user gives at install (round thirty-one's R31-1): a
//! `#@data/values-schema` declares `host:` null (`#@schema/type any=True`, or
//! `#@schema/nullable`) and a template writes it into a Kubernetes field that must not be null
//! (`fqdn: #@ data.values.host`). ytt renders `fqdn: null`; what is found on that field rests
//! on the value being left null, which the schema leaves for its user to give, not on the
//! command. Such a finding names that assumption (`left-to-user`) and is at most a warning, for
//! a root that no command of the repository runs with its values (inferred from the layout,
//! or written in `.yttlint.yaml` leaving its unset values to its user); a Package's null
//! defaults are said by `certainty.rs` already, and a command of the repository that leaves
//! the value null fails for certain.

use crate::library::Workspace;
use crate::lint::job::certainty::{place, walk};
use crate::lint::job::empty_defaults::{reads, trace};
use crate::lint::job::inputs::Names;
use crate::lint::job::Job;
use crate::pos::Pos;
use crate::report::Severity;
use crate::report::{Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Provenance, Source};
use crate::yaml::Value;

/// A final data value left null by a schema document: its dotted key and where it is set.
pub struct Null {
    key: String,
    place: String,
}

/// The null data values of the job's final values that a schema document sets, when the
/// root's command is not the repository's own: inferred from the layout, or written in
/// `.yttlint.yaml` with its unset values left to its user (`unset_values: needs-input`).
pub fn of(job: &Job, p: &Provenance, ws: &Workspace, names: &Names) -> Vec<Null> {
    let left = match p.source {
        Source::Layout => true,
        Source::Config => job.needs_input,
        _ => false,
    };
    if !left {
        return Vec::new();
    }
    let Some(values) = ws.evaluated_values() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk(&values.value, &mut Vec::new(), &mut |path, v, pos| {
        if matches!(v, Value::Null) && pos.is_some_and(|pos| in_schema(ws, pos)) {
            out.push(Null {
                key: path.to_string(),
                place: place(names, pos),
            });
        }
    });
    out
}

/// Makes `d` rest on the null defaults its trace reads (`data.values.KEY` in its message, its
/// related messages or its template line), when it rests on the inputs.
pub fn settle(nulls: &[Null], p: &Provenance, ws: &Workspace, names: &Names, d: &mut Diagnostic) {
    if nulls.is_empty() || d.severity == Severity::Info || d.basis() != Basis::Inputs {
        return;
    }
    let trace = trace(d, ws, names);
    for n in nulls.iter().filter(|n| reads(&trace, &n.key)) {
        let a = Assumption::new(
            AssumptionKind::LeftToUser,
            format!(
                "`{}`{} is null in the schema, for its user to give",
                n.key, n.place
            ),
        );
        d.assume(a, || Certainty::from(p.source, p.origin.clone()));
    }
}

/// Whether `pos` lies in a `#@data/values-schema` document of its file: the annotation on the
/// lines above the document's `---`.
fn in_schema(ws: &Workspace, pos: &Pos) -> bool {
    let Some(text) = pos.file.as_deref().and_then(|f| ws.source_of(f)) else {
        return false;
    };
    let lines: Vec<&str> = text.lines().collect();
    let at = (pos.line as usize).min(lines.len());
    let Some(start) = lines[..at].iter().rposition(|l| l.starts_with("---")) else {
        return false;
    };
    lines[..start]
        .iter()
        .rev()
        .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .any(|l| l.trim_start().starts_with("#@data/values-schema"))
}
