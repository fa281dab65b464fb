//! `boolean-string`: a data value tested as a condition whose final value is a string that
//! spells false (`"false"`, `"no"`, `"off"`, `"0"`, `"null"`). Every non-empty string is true, so
//! the branch meant for false runs; ytt renders it silently. The finding is where the value is
//! set, with the condition as related location.

use crate::analysis::conditions::Tested;
use crate::library::Workspace;
use crate::pos::Pos;
use crate::report::{Diagnostic, Rule, Span};
use crate::yaml::{MapItem, Value};

/// Strings that read as false to a person and are true to Starlark (compared in lower case).
const READS_AS_FALSE: [&str; 5] = ["false", "no", "off", "0", "null"];

/// The findings of the job's final data values against the conditions that test them.
pub fn findings(
    ws: &Workspace,
    tested: &[Tested],
    span_of: &dyn Fn(&Pos) -> Option<Span>,
) -> Vec<Diagnostic> {
    if tested.is_empty() {
        return Vec::new();
    }
    let Some(values) = ws.evaluated_values() else {
        return Vec::new();
    };
    let mut out: Vec<Diagnostic> = Vec::new();
    for t in tested {
        let Some(item) = item_at(&values.value, &t.path) else {
            continue;
        };
        let Value::String(text) = &item.value else {
            continue;
        };
        if !READS_AS_FALSE.contains(&text.to_ascii_lowercase().as_str()) {
            continue;
        }
        let Some(condition) = span_of(&t.pos) else {
            continue;
        };
        let message = format!(
            "data.values.{} is the string \"{text}\", which is true when tested as a condition",
            t.path.join(".")
        );
        let d = at_value(Rule::BooleanString, message, span_of(&item.pos), condition);
        let d = d.with_help(
            "any non-empty string is true: write the value without quotes, or give it with --data-value-yaml (-v gives a string)",
        );
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// A finding where a tested value is set (`set`), with its test as related location; at the
/// test when the value's place is not in the repository.
pub(super) fn at_value(
    rule: Rule,
    message: String,
    set: Option<Span>,
    condition: Span,
) -> Diagnostic {
    match set {
        Some(set) => Diagnostic::new(rule, message)
            .at(set)
            .with_related("tested as a condition here", condition),
        None => Diagnostic::new(rule, message).at(condition),
    }
}

/// The map item at `path` of the data values `v`.
pub(super) fn item_at<'a>(v: &'a Value, path: &[String]) -> Option<&'a MapItem> {
    let (last, parents) = path.split_last()?;
    let mut map = v;
    for seg in parents {
        map = &item_in(map, seg)?.value;
    }
    item_in(map, last)
}

fn item_in<'a>(v: &'a Value, key: &str) -> Option<&'a MapItem> {
    let Value::Map(m) = v else { return None };
    m.items
        .iter()
        .rev()
        .find(|i| matches!(&i.key, Value::String(k) if k == key))
}
