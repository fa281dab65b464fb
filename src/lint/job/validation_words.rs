//! A data value's failed validation in ytt's words. ytt (0.48) reports every value that
//! fails a `@schema/validation` or `@assert/validate` rule under "Validating final data
//! values:", the value's path and where it came from, then per rule `- must be: DESCRIPTION
//! (by: FILE:LINE)` and, when the rule said why, `found: WHY`. One finding per rule says the
//! same on one line: `Validating final data values: app.name (from: schema.yaml:5): must be:
//! a short name (by: schema.yaml:4); found: abcdef is too long`. A default that fails
//! (`required-value`) reads the same, as ytt does not tell the two apart; the rule id does.
//!
//! A value read from a committed file that ytt names by a path nobody can use (`sops -d` in a
//! process substitution: ytt says `from: 63:4` for `/dev/fd/63`) is said to come from that
//! file and the line of its key there (`from: values.sops.yaml:4`, [`name_files`]).

use crate::library::Workspace;
use crate::lint::job::Job;
use crate::pos::Pos;
use crate::report::Diagnostic;
use crate::validate::{Invalidation, Violation};

/// What ytt's error begins with.
const HEADING: &str = "Validating final data values";

/// The finding's message for `v`, a rule `inv`'s value fails. A message template of spec
/// 000's (the tuple's third item, which ytt does not have) is kept as the rule writes it.
pub fn message(inv: &Invalidation, v: &Violation) -> String {
    worded(inv, v, place(&inv.value_pos))
}

/// [`message`] with the value's source named `from`.
fn worded(inv: &Invalidation, v: &Violation, from: Option<String>) -> String {
    if !v.message.is_empty() && v.found == v.message {
        return v.message.clone();
    }
    let mut out = format!("{HEADING}: {}", inv.path);
    if let Some(from) = from {
        out.push_str(&format!(" (from: {from})"));
    }
    out.push_str(&format!(": must be: {}", v.description));
    if let Some(by) = place(&v.rule_pos) {
        out.push_str(&format!(" (by: {by})"));
    }
    if !v.found.is_empty() {
        out.push_str(&format!("; found: {}", v.found));
    }
    out
}

/// The findings of `found` about a value whose flag `job` knows to be read from a committed
/// file ([`Job::values_written`]) name that file and line as the value's source, where ytt's
/// name would be the flag's own (`(data-value-yaml arg):1`).
pub fn name_files(job: &Job, ws: &Workspace, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if job.values_written.is_empty() {
        return found;
    }
    let mut renamed: Vec<(String, String)> = Vec::new();
    for (_library, inv) in ws.violations.borrow().iter() {
        let flag = ws.line_at(&inv.value_pos);
        let Some((_, at)) = job.values_written.iter().find(|(f, _)| *f == flag) else {
            continue;
        };
        for v in &inv.violations {
            let from = worded(inv, v, Some(at.clone()));
            renamed.push((message(inv, v), from));
        }
    }
    for d in &mut found {
        if let Some((_, to)) = renamed.iter().find(|(from, _)| *from == d.message) {
            d.message = to.clone();
        }
    }
    found
}

/// The dotted path of the value a [`message`] is about (`app.ports[0]`).
pub fn path_of(message: &str) -> Option<&str> {
    let rest = message.strip_prefix(HEADING)?.strip_prefix(": ")?;
    let end = [" (from: ", ": must be: "]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()?;
    Some(&rest[..end])
}

/// `FILE:LINE` as ytt names a position.
fn place(pos: &Pos) -> Option<String> {
    let file = pos.file.as_deref().filter(|f| !f.is_empty())?;
    (pos.line > 0).then(|| format!("{file}:{}", pos.line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn pos(file: &str, line: u32) -> Pos {
        Pos::new(&Arc::from(file), line, 1, 0)
    }

    fn violation(description: &str, found: &str, message: &str) -> Violation {
        Violation {
            rule_pos: pos("schema.yaml", 4),
            description: description.into(),
            found: found.into(),
            rule: None,
            message: message.into(),
        }
    }

    fn invalidation(path: &str) -> Invalidation {
        Invalidation {
            path: path.into(),
            value_pos: pos("schema.yaml", 5),
            from_default: true,
            violations: Vec::new(),
        }
    }

    #[test]
    fn reads_as_ytt_s_lines_on_one_line() {
        let inv = invalidation("app.name");
        let v = violation(
            "a short name",
            "abcdef is too long",
            "\"name\" requires a valid value: a short name; abcdef is too long.",
        );
        assert_eq!(
            message(&inv, &v),
            "Validating final data values: app.name (from: schema.yaml:5): must be: a short name (by: schema.yaml:4); found: abcdef is too long"
        );
        assert_eq!(path_of(&message(&inv, &v)), Some("app.name"));
        // A rule that returned False says only what the value must be: "must be" once.
        let v = violation("must be positive", "", "x");
        let said = message(&invalidation("replicas"), &v);
        assert_eq!(
            said,
            "Validating final data values: replicas (from: schema.yaml:5): must be: must be positive (by: schema.yaml:4)"
        );
        assert_eq!(said.matches("must be").count(), 2);
    }

    #[test]
    fn a_message_of_the_rule_s_own_is_kept() {
        let v = violation("a port", "port 0 is not allowed", "port 0 is not allowed");
        assert_eq!(message(&invalidation("port"), &v), "port 0 is not allowed");
        assert_eq!(path_of("port 0 is not allowed"), None);
    }
}
