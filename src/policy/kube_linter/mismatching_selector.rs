//! kube-linter's `mismatching-selector`: a workload whose `spec.selector` is empty, or does
//! not match the labels of its own pod template. The API server rejects a Deployment whose
//! selector does not select its template; for the others the controller creates pods it then
//! does not see as its own.
//!
//! ```yaml
//! spec:
//!   selector: {matchLabels: {app: web}}
//!   template:
//!     metadata: {labels: {app: website}}
//! ```
//!
//! Jobs and CronJobs may leave the selector out (it is generated). A missing selector is
//! reported only for `apps/v1` kinds (older API versions defaulted it from the template) and
//! DeploymentConfigs; a ReplicationController's selector defaults to its template's labels,
//! and a Pod has none, so neither is checked.

use super::super::object::{steps, Object};
use super::super::selector::{describe_labels, Selector};
use super::super::workload::pod_template;
use super::super::{Check, Found, Output};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::MismatchingSelector,
    run,
};

/// Where the selector is, whether it is a plain map of labels, and whether the kind must
/// have one.
fn selector_path(o: &Object<'_>) -> Option<(&'static [&'static str], bool, bool)> {
    let found: (&[&str], bool, bool) = match (o.group(), o.kind) {
        ("apps" | "extensions", "Deployment" | "DaemonSet" | "ReplicaSet")
        | ("apps", "StatefulSet") => (&["spec", "selector"], false, o.api_version == "apps/v1"),
        ("batch", "Job") => (&["spec", "selector"], false, false),
        ("batch", "CronJob") => (&["spec", "jobTemplate", "spec", "selector"], false, false),
        ("apps.openshift.io", "DeploymentConfig") => (&["spec", "selector"], true, true),
        _ => return None,
    };
    Some(found)
}

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        let (Some((path, plain, required)), Some(t)) = (selector_path(o), pod_template(o)) else {
            continue;
        };
        let value = o.get(path);
        let selector = match (plain, value) {
            (_, None) => Some(Selector::default()),
            (true, v) => Some(Selector::plain(v)),
            (false, Some(v)) => Selector::label_selector(v),
        };
        let Some(selector) = selector else {
            continue;
        };
        if selector.is_empty() {
            if required {
                found.push(Found::new(i, steps(path), "the workload has no selector"));
            }
            continue;
        }
        if selector.matches(&t.labels) {
            continue;
        }
        let mut f = Found::new(
            i,
            steps(path),
            format!(
                "the selector ({}) does not match the labels of the pod template ({})",
                selector.describe(),
                describe_labels(&t.labels)
            ),
        );
        f.related
            .push(("the pod template's labels".to_string(), i, t.labels_at()));
        found.push(f);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::tests::found;
    use super::*;

    #[test]
    fn selectors_that_miss_their_own_template() {
        let src = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: ok}
spec:
  selector: {matchLabels: {app: a}}
  template: {metadata: {labels: {app: a, v: \"1\"}}, spec: {containers: []}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: typo}
spec:
  selector: {matchLabels: {app: a}}
  template: {metadata: {labels: {app: b}}, spec: {containers: []}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: none}
spec:
  template: {metadata: {labels: {app: c}}, spec: {containers: []}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec:
  template: {metadata: {labels: {app: d}}, spec: {containers: []}}
";
        let got: Vec<(String, String)> =
            found(&CHECK, src).into_iter().map(|f| (f.0, f.2)).collect();
        assert_eq!(
            got,
            vec![
                (
                    "Deployment typo".to_string(),
                    "the selector (app=a) does not match the labels of the pod template (app=b)"
                        .to_string()
                ),
                (
                    "StatefulSet none".to_string(),
                    "the workload has no selector".to_string()
                ),
            ]
        );
    }
}
