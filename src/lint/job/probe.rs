//! Probing a finding with the values a user would give. A finding may rest on a value the
//! inputs leave for their user (a Package's empty default, an example's blank): the job is
//! evaluated again with those keys set to a typical value, one value after the other. A
//! finding the evaluation then gets past without a new failure rests on the value; one that
//! each value still meets happens whatever the user gives. [`settle`] runs the probes for
//! [`super::empty_defaults`] and [`super::example_blanks`]; each says what the assumption is.

use crate::lint::job::inputs::prepare;
use crate::lint::job::Job;
use crate::report::{Assumption, Diagnostic, Provenance, Rule};
use crate::ytt_flags::TemplateArgs;

/// Findings that stop an evaluation: a new one under a probe leaves the question open (the
/// probe may have stopped the evaluation before it reached the finding).
pub(super) const STOPPING: [Rule; 6] = [
    Rule::TemplateError,
    Rule::OverlayError,
    Rule::LoadError,
    Rule::DataValueViolation,
    Rule::RequiredValue,
    Rule::NeedsInput,
];

/// Marks each finding of `open` (indices into `found`) that one of `probes`, given to every
/// key of `keys` on the job's command line, gets the evaluation past: the finding and the provenance `p` take the
/// assumption `assume` makes of it and of the probe that got past it.
pub(super) fn settle(
    job: &Job,
    keys: &[String],
    probes: &[&str],
    found: &mut [Diagnostic],
    mut open: Vec<usize>,
    p: &mut Provenance,
    assume: impl Fn(&Diagnostic, &str) -> Assumption,
) {
    let Ok(flags) = job.flags.as_ref() else {
        return;
    };
    for probe in probes {
        let Some(probed) = evaluate_with(job, flags, keys, probe, false) else {
            break;
        };
        let new_stop = probed
            .iter()
            .any(|q| STOPPING.contains(&q.rule) && !found.iter().any(|d| same(d, q)));
        if new_stop {
            continue;
        }
        open.retain(|&i| {
            let persists = |q: &Diagnostic| same(&found[i], q) && !moved_past(&found[i], q, probe);
            if probed.iter().any(persists) {
                return true;
            }
            let a = assume(&found[i], probe);
            if let Some(c) = found[i].certainty.as_mut() {
                c.assumed.push(a.clone());
            }
            p.assume(a);
            false
        });
        if open.is_empty() {
            break;
        }
    }
}

/// Whether the evaluation failed at the same place under the probe for another reason: the
/// probe got past the failure `d` and a later check of the same code failed on the probe's
/// own value (round twenty-four's R24-3: `… or assert.fail("the key should be provided")`
/// passes, `len(key) == 32 or assert.fail(…)` does not). The message may quote the value, so
/// the probe's text is left out of the comparison; only assertions count.
fn moved_past(d: &Diagnostic, q: &Diagnostic, probe: &str) -> bool {
    if !matches!(d.rule, Rule::LoadError | Rule::TemplateError) {
        return false;
    }
    // The first reason ytt gives (a load's message starts with where, then `reason:`).
    let reason = |m: &str| {
        let mut lines = m.lines().map(str::trim);
        let first = lines.clone().next().unwrap_or_default();
        lines
            .find(|l| l.starts_with("- "))
            .unwrap_or(first)
            .replace("\"\"", "")
    };
    // Only an assertion's failure: the author's check of the value (`… or assert.fail(…)`),
    // which a value the user gives gets past, whatever fails after it on the probe's value;
    // another failure at the same place is the same.
    let before = reason(&d.message);
    let after = reason(&q.message.replace(probe, ""));
    before.contains("assert.fail") && before != after
}

/// Whether `-v` can set the dotted data values key `path`: no list item, no empty segment, no
/// character a flag's key cannot hold.
pub(super) fn settable(path: &str) -> bool {
    path.split('.').all(|seg| {
        !seg.is_empty()
            && !seg.chars().all(|c| c.is_ascii_digit())
            && seg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    })
}

/// Whether the probe's finding `q` is the finding `d`: the same rule at the same line (the
/// message may quote the value), or, without a place, the same rule and summary.
pub(super) fn same(d: &Diagnostic, q: &Diagnostic) -> bool {
    if d.rule != q.rule {
        return false;
    }
    match (&d.span, &q.span) {
        (Some(a), Some(b)) => a.file == b.file && a.line == b.line,
        (None, None) => d.message.lines().next() == q.message.lines().next(),
        _ => false,
    }
}

/// The data values the job's run gives by key (`-v key=…`), each of which the linter set to a
/// placeholder: the keys a second evaluation sets to another value.
pub(super) fn runtime_keys(job: &Job) -> Vec<String> {
    job.provided
        .iter()
        .filter(|k| *k != "*" && !k.starts_with('@'))
        .cloned()
        .collect()
}

/// The findings of the job evaluated again with each of `keys` set to `probe`, as the
/// evaluation gives them: no failure folded into a `needs-input` note (`None`: it could not
/// be, or the run was cancelled meanwhile).
pub(super) fn evaluate_raw(job: &Job, keys: &[String], probe: &str) -> Option<Vec<Diagnostic>> {
    let flags = job.flags.as_ref().ok()?;
    evaluate_with(job, flags, keys, probe, true)
}

/// The findings of the job evaluated again with each of `keys` set to `probe` (`None`: it
/// could not be, or the run was cancelled meanwhile); `raw`: no failure folded into a
/// `needs-input` note.
fn evaluate_with(
    job: &Job,
    flags: &TemplateArgs,
    keys: &[String],
    probe: &str,
    raw: bool,
) -> Option<Vec<Diagnostic>> {
    let mut flags = flags.clone();
    if raw {
        // The probe's value is the key's only one: not after a flag of a later kind.
        let other = |f: &String| {
            keys.iter()
                .any(|k| f.split_once('=').is_some_and(|(n, _)| n == k))
        };
        flags.dv.retain(|f| !other(f));
        flags.dv_yaml.retain(|f| !other(f));
        flags.dv_file.retain(|f| !other(f));
    }
    flags.dv.extend(keys.iter().map(|k| format!("{k}={probe}")));
    // A probed key the command gives at run time takes the probe's value, not a placeholder.
    let provided: Vec<String> = match raw {
        true => job
            .provided
            .iter()
            .filter(|p| !keys.contains(p))
            .cloned()
            .collect(),
        false => job.provided.clone(),
    };
    let expanded = crate::lint::job::shell_expanded::files(job);
    let prepared = prepare(&job.repo, &flags, &provided, &expanded).ok()?;
    let mut again = job.clone();
    // Only the evaluation and the checks of what it renders: no provenance (so no probe of
    // its own), no checks of the files' text, no coverage.
    again.provenance = None;
    again.check_files = false;
    again.analysis = false;
    again.reads_values = false;
    again.coverage = false;
    again.flags = Ok(flags);
    if raw {
        again.needs_input = false;
        again.provided = Vec::new();
    }
    let outcome = super::root::evaluate(
        &again,
        prepared.workspace,
        prepared.external,
        &prepared.names,
        Vec::new(),
    );
    if crate::eval::cancel::requested() {
        return None;
    }
    Some(outcome.diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Span;

    #[test]
    fn a_probe_finding_is_the_same_at_the_same_line() {
        let at = |line| {
            let mut d = Diagnostic::new(Rule::TemplateError, "Index `1` is out of bound");
            d.span = Some(Span::point("pkg/cm.yml", line, 9));
            d
        };
        assert!(same(&at(8), &at(8)));
        assert!(!same(&at(8), &at(9)));
        let mut other = at(8);
        other.rule = Rule::K8sSchema;
        assert!(!same(&at(8), &other));
    }

    #[test]
    fn a_key_with_a_list_item_or_a_dot_too_many_is_not_settable() {
        assert!(settable("tls.cert-data"));
        assert!(settable("a_b.c1"));
        assert!(!settable("items.0.name"));
        assert!(!settable("a..b"));
        assert!(!settable("a.b c"));
    }
}
