//! kube-linter's `job-ttl-seconds-after-finished`: a Job that does not set
//! `ttlSecondsAfterFinished` (it and its pods stay after it finished), or a CronJob whose job
//! template sets it (it then competes with the CronJob's `successfulJobsHistoryLimit` and
//! `failedJobsHistoryLimit`, and the stricter wins).
//!
//! ```yaml
//! kind: Job
//! spec:                       # no ttlSecondsAfterFinished
//!   template: ...
//! ```

use super::super::object::{field, steps};
use super::super::{Check, Found, Output};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::JobTtlSecondsAfterFinished,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        if o.is("batch", "Job") {
            let set = o
                .get(&["spec"])
                .and_then(|s| field(s, "ttlSecondsAfterFinished"));
            if set.is_none() {
                found.push(Found::new(
                    i,
                    steps(&["spec", "ttlSecondsAfterFinished"]),
                    "the Job does not set ttlSecondsAfterFinished: it stays after it finished",
                ));
            }
        } else if o.is("batch", "CronJob") {
            let path = ["spec", "jobTemplate", "spec", "ttlSecondsAfterFinished"];
            if o.get(&path).is_some() {
                found.push(Found::new(
                    i,
                    steps(&path),
                    "the CronJob's job template sets ttlSecondsAfterFinished, which competes with \
                     the CronJob's successfulJobsHistoryLimit and failedJobsHistoryLimit",
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::tests::found;
    use super::*;

    #[test]
    fn standalone_jobs_without_and_cronjobs_with() {
        let src = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: a}\nspec: {template: {}}\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: b}\nspec: {ttlSecondsAfterFinished: 60}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {jobTemplate: {spec: {ttlSecondsAfterFinished: 60}}}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: d}\nspec: {jobTemplate: {spec: {}}}\n";
        let got: Vec<String> = found(&CHECK, src).into_iter().map(|f| f.0).collect();
        assert_eq!(got, vec!["Job a", "CronJob c"]);
    }
}
