//! A page's command that gives some data values at run time (`-v team=$TEAM`) and nothing
//! else (no run-time values file, no `--data-values-env`): a failure on a key none of them is
//! (`struct has no .address`) is not for its run to fix, since no value of `$TEAM` adds the
//! key (round twenty-nine's R29-1). `needs_input` keeps it as a finding; this module says
//! whether it is certain. The job is evaluated again with another value for each run-time key:
//! when the evaluation fails the same way there, the failure does not depend on what the run
//! gives and stays certain (an error); when it does not, the read is reached only for some
//! values, and the finding is a warning that says so.

use crate::lint::job::{placeholder, probe, Job};
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic};

/// A value no placeholder of the linter's uses, for the second evaluation.
const OTHER: &str = "other-value";

/// `d`, a failure on data values none of the job's run-time keys is, with an assumption when
/// another value of those keys does not meet it.
pub fn judge(job: &Job, mut d: Diagnostic) -> Diagnostic {
    let keys = probe::runtime_keys(job);
    if keys.is_empty() {
        return d;
    }
    let again = probe::evaluate_raw(job, &keys, OTHER);
    let same = again
        .as_ref()
        .is_some_and(|found| found.iter().any(|q| probe::same(&d, q)));
    if same {
        return d;
    }
    let named: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    let a = Assumption::new(
        AssumptionKind::RuntimeValues,
        format!(
            "the run gives {} a value for which the evaluation reaches this read (with the \
             linter's `{}` it does; with `{OTHER}` it does not fail here)",
            named.join(", "),
            placeholder::TEXT
        ),
    );
    let (source, origin) = match &job.provenance {
        Some(p) => (p.source, p.origin.clone()),
        None => (crate::report::Source::Config, None),
    };
    d.assume(a, || Certainty::from(source, origin));
    d
}
