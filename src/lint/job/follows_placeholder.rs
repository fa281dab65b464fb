//! Whether a failure moves with the linter's placeholder (round thirty-five's R35-2). A value
//! given at run time (`-v profile=$PROFILE`) is linted as the text `placeholder`; a template may
//! carry it anywhere before it fails (`#@ p = data.values.profile` then `getattr(s, p)`, a
//! function's argument, `"{}-x".format(p)`), so the trace need not show the key it read. The
//! job is evaluated again with another value for the run-time keys: when the failure is at the
//! same place and its message differs from the first only where the first names the
//! placeholder and the second names the other value, the failing value is the run's value,
//! and the failure is for the run to decide, not a certain error.

use crate::lint::job::{placeholder, probe, Job};
use crate::report::Diagnostic;

/// A value none of the linter's placeholders uses, for the second evaluation.
const OTHER: &str = "second-placeholder";

/// Whether `d`, a failure of `job` evaluated with placeholders, names the placeholder and
/// follows it to another value.
pub fn follows(job: &Job, d: &Diagnostic) -> bool {
    if !d.message.contains(placeholder::TEXT) {
        return false;
    }
    let keys = probe::runtime_keys(job);
    if keys.is_empty() {
        return false;
    }
    let Some(again) = probe::evaluate_raw(job, &keys, OTHER) else {
        return false;
    };
    again
        .iter()
        .any(|q| probe::same(d, q) && moved(&d.message, &q.message))
}

/// Whether the second message is the first with the placeholder's text replaced by the other
/// value (and nothing else changed), at least once.
fn moved(first: &str, second: &str) -> bool {
    // The evaluation's own message starts with ytt's `- `; the one the evaluation gives back
    // is tidied already.
    let head = |m: &str| {
        let line = m.lines().next().unwrap_or_default().trim();
        line.strip_prefix("- ").unwrap_or(line).to_string()
    };
    let (a, b) = (head(first), head(second));
    a.contains(placeholder::TEXT) && b.contains(OTHER) && a.replace(placeholder::TEXT, OTHER) == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_message_that_follows_the_value_moved() {
        assert!(moved(
            "getattr: struct has no .placeholder field or method\n  in <toplevel>",
            "getattr: struct has no .second-placeholder field or method\n  in <toplevel>"
        ));
        assert!(moved(
            "- getattr: struct has no .placeholder field or method",
            "getattr: struct has no .second-placeholder field or method"
        ));
        assert!(moved(
            "key \"eu-placeholder\" not in dict",
            "key \"eu-second-placeholder\" not in dict"
        ));
        // The same failure whatever the value: it does not follow it.
        assert!(!moved(
            "struct has no .address field or method",
            "struct has no .address field or method"
        ));
        // Another failure under the second value.
        assert!(!moved(
            "getattr: struct has no .placeholder field or method",
            "fail: profile second-placeholder is unknown"
        ));
    }
}
