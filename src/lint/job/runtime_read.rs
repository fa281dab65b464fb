//! A value given at run time (`-v password=$PW_B64`) is linted with a stand-in: the linter's
//! placeholder, or the schema's default where the schema gives one. What a template line that
//! reads such a value renders is what the stand-in made it, not what the command will give:
//! a finding there (`"data.password" must be base64-encoded, found string "x"`, the default)
//! rests on the values given at run time, says which value, and is a note: it says nothing of
//! the value the command gives (round fifteen's R15B-5). Findings elsewhere keep their level:
//! only the line that reads the value is about it.

use std::sync::Arc;

use crate::library::Workspace;
use crate::lint::job::inputs::Names;
use crate::lint::job::Job;
use crate::pos::Pos;
use crate::report::{
    Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Provenance, Subject,
};

/// Makes `d` rest on the job's run-time values when its template line reads one of them.
pub fn settle(job: &Job, p: &Provenance, ws: &Workspace, names: &Names, d: &mut Diagnostic) {
    if job.provided.is_empty() || d.basis() != Basis::Inputs {
        return;
    }
    if !p
        .assumptions
        .iter()
        .any(|a| a.kind == AssumptionKind::RuntimeValues)
    {
        return;
    }
    let Some(span) = d.span.as_ref() else {
        return;
    };
    let Some(name) = names.name_of(&span.file) else {
        return;
    };
    let line = ws.line_at(&Pos::new(&Arc::from(name), span.line, 1, 0));
    if !line.contains("#@") {
        return;
    }
    let Some(key) = job.provided.iter().find(|k| reads(&line, k)) else {
        return;
    };
    let read = Assumption::new(
        AssumptionKind::RuntimeValues,
        format!(
            "this line reads `{key}`, which the command gives at run time: the linter checked \
             its stand-in, not the value given"
        ),
    )
    .about(Subject::StandInValue { key: key.clone() });
    d.assume(read, || Certainty::from(p.source, p.origin.clone()));
    d.fix = None;
}

/// Whether `line` reads `data.values.KEY` (the value, a field of it, or the struct holding
/// it), for a key of the root's own data values.
fn reads(line: &str, key: &str) -> bool {
    if key.starts_with('@') || key == "*" || key.is_empty() {
        return false;
    }
    let wanted = format!("data.values.{key}");
    line.match_indices(&wanted).any(|(i, m)| {
        let after = line[i + m.len()..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::reads;

    #[test]
    fn a_read_is_the_key_a_field_of_it_or_its_whole_struct() {
        assert!(reads("  password: #@ data.values.password", "password"));
        assert!(reads("url: #@ data.values.db.host + \":5432\"", "db"));
        assert!(reads("user: #@ data.values.db.user", "db.user"));
        assert!(!reads("user: #@ data.values.db_user", "db"));
        assert!(!reads("user: #@ data.values.passwords[0]", "password"));
        assert!(!reads("user: #@ data.values.x", "@lib:x"));
    }
}
