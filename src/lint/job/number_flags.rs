//! `number-as-boolean`: a data value that the library only ever tests as a condition (nothing
//! reads what it says beyond true or false) and whose final value is a number other than
//! zero and one. Every number but zero is true, so such a value is almost always a slip for a
//! boolean; ytt renders it silently. The finding is where the value is set, with the test as related
//! location.

use super::boolean_strings::{at_value, item_at};
use crate::analysis::conditions::Tested;
use crate::library::Workspace;
use crate::pos::Pos;
use crate::report::{Diagnostic, Rule, Span};
use crate::yaml::Value;

/// The findings of the job's final data values against the values only tested as conditions.
pub fn findings(
    ws: &Workspace,
    tested: &[Tested],
    span_of: &dyn Fn(&Pos) -> Option<Span>,
) -> Vec<Diagnostic> {
    if !tested.iter().any(|t| t.only) {
        return Vec::new();
    }
    let Some(values) = ws.evaluated_values() else {
        return Vec::new();
    };
    let mut out: Vec<Diagnostic> = Vec::new();
    for t in tested.iter().filter(|t| t.only) {
        let Some(item) = item_at(&values.value, &t.path) else {
            continue;
        };
        let shown = match &item.value {
            Value::Int(0 | 1) => continue,
            Value::Int(n) => n.to_string(),
            Value::Float(f) => f.to_string(),
            _ => continue,
        };
        let Some(condition) = span_of(&t.pos) else {
            continue;
        };
        let message = format!(
            "data.values.{} is the number {shown}, but the templates only test it as a condition (any number but 0 is true)",
            t.path.join(".")
        );
        // Reported once per value: at the value, else at its first test.
        let d = at_value(
            Rule::NumberAsBoolean,
            message,
            span_of(&item.pos),
            condition,
        )
        .with_help("write true or false; if the number is meant, use its value");
        if !out.iter().any(|o| o.message == d.message) {
            out.push(d);
        }
    }
    out
}
