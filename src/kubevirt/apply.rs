//! Applies a specialised rule to the values its path yielded (every value must satisfy it) and
//! words the outcome as the validator does ("value 16 is higher than maximum [8]"), with the
//! linter's notes where the validator's view differs from the VM as written.

use crate::pos::Pos;

use super::convert::StrValue;
use super::evaluate::{list, shown_value, Looked, Outcome, Verdict};
use super::value::Node;

fn bound(b: Option<i64>) -> String {
    b.map(|v| v.to_string())
        .unwrap_or_else(|| "N/A".to_string())
}

fn within(v: i64, min: Option<i64>, max: Option<i64>) -> bool {
    min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m)
}

/// The outcome, placed at the first offending value and annotated when the values are not the
/// VM's own.
fn outcome<'a>(
    looked: &Looked<'a>,
    satisfied: bool,
    detail: String,
    first_bad: Option<&Node<'a>>,
) -> Outcome<'a> {
    let absent_at: Option<&'a Pos> = looked.absent.as_ref().and_then(|e| e.at);
    let at = match (&looked.absent, first_bad) {
        (Some(_), _) => absent_at,
        (None, Some(n)) => n.at,
        (None, None) => looked.vals.first().and_then(|n| n.at),
    };
    let verdict = if satisfied {
        Verdict::Satisfied
    } else {
        Verdict::Failed
    };
    let mut o = Outcome {
        verdict,
        detail,
        notes: Vec::new(),
        help: None,
        at,
    };
    if let (Some(_), false) = (&looked.absent, satisfied) {
        let n = looked.vals.len();
        let what = if n == 1 {
            "the zero value".to_string()
        } else {
            format!("the {n} zero values")
        };
        o.notes.push(format!(
            "`{}` is absent from the VirtualMachine, so the validator checks {what} of its \
             reference VM instead",
            looked.expr
        ));
    }
    if first_bad.is_some_and(|n| n.defaulted) && !satisfied {
        o.notes.push(
            "the value is the webhook's default: it sets sockets, cores and threads to 1 when \
             `cpu` leaves them out"
                .to_string(),
        );
    }
    o
}

pub(crate) fn integer<'a>(
    looked: &Looked<'a>,
    vals: &[(i64, Node<'a>)],
    min: Option<i64>,
    max: Option<i64>,
) -> Outcome<'a> {
    let bad = vals.iter().find(|(v, _)| !within(*v, min, max));
    if bad.is_none() {
        let shown: Vec<String> = vals.iter().map(|(v, _)| v.to_string()).collect();
        let detail = format!(
            "All values [{}] are in interval [{}, {}]",
            shown.join(" "),
            bound(min),
            bound(max)
        );
        return outcome(looked, true, detail, None);
    }
    let mut parts = Vec::new();
    for (v, _) in vals {
        let mut s = String::new();
        if let Some(m) = min.filter(|m| v < m) {
            s.push_str(&format!("value {v} is lower than minimum [{m}]"));
        }
        if let Some(m) = max.filter(|m| v > m) {
            s.push_str(&format!("value {v} is higher than maximum [{m}]"));
        }
        if !s.is_empty() {
            parts.push(s);
        }
    }
    outcome(looked, false, parts.join(", "), bad.map(|(_, n)| n))
}

fn rendered_note(vals: &[(StrValue, Node)]) -> Option<String> {
    let (s, n) = vals.iter().find(|(s, _)| s.rendered)?;
    Some(format!(
        "the validator compares Go's text {:?} of {}, not the value itself: this rule cannot \
         check a field that is not a string",
        s.text,
        shown_value(n)
    ))
}

fn texts(vals: &[(StrValue, Node)]) -> Vec<String> {
    vals.iter().map(|(s, _)| s.text.clone()).collect()
}

pub(crate) fn string<'a>(
    looked: &Looked<'a>,
    vals: &[(StrValue, Node<'a>)],
    min: Option<i64>,
    max: Option<i64>,
) -> Outcome<'a> {
    let bad = vals
        .iter()
        .find(|(s, _)| !within(s.text.len() as i64, min, max));
    let interval = format!("[{}, {}]", bound(min), bound(max));
    let Some((s, n)) = bad else {
        let detail = format!("Lengts of all strings are in interval {interval}");
        return outcome(looked, true, detail, None);
    };
    let detail = format!("Lengths of some strings are not in interval {interval}");
    let mut o = outcome(looked, false, detail, Some(n));
    o.notes
        .push(format!("{:?} is {} bytes long", s.text, s.text.len()));
    o.notes.extend(rendered_note(vals));
    o
}

pub(crate) fn enumeration<'a>(
    looked: &Looked<'a>,
    vals: &[(StrValue, Node<'a>)],
    allowed: &[String],
) -> Outcome<'a> {
    let bad = vals.iter().find(|(s, _)| !allowed.contains(&s.text));
    let current = list(&texts(vals), looked.absent.is_some());
    let allowed_list = list(allowed, false);
    let Some((_, n)) = bad else {
        let detail = format!("All {current} are in {allowed_list}");
        return outcome(looked, true, detail, None);
    };
    let detail = format!("Some of {current} are not in {allowed_list}");
    let mut o = outcome(looked, false, detail, Some(n));
    o.notes.extend(rendered_note(vals));
    o
}

pub(crate) fn regex<'a>(
    looked: &Looked<'a>,
    vals: &[(StrValue, Node<'a>)],
    re: &regex::Regex,
    pattern: &str,
) -> Outcome<'a> {
    let bad = vals.iter().find(|(s, _)| !re.is_match(&s.text));
    let current = list(&texts(vals), looked.absent.is_some());
    let Some((_, n)) = bad else {
        let detail = format!("All {current} match {pattern}");
        return outcome(looked, true, detail, None);
    };
    let detail = format!("Some of {current} do not match {pattern}");
    let mut o = outcome(looked, false, detail, Some(n));
    o.notes.extend(rendered_note(vals));
    o
}
