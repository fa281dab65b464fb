//! `dangling-selector`: a Service, NetworkPolicy or PodDisruptionBudget whose label selector
//! matches no pod template of the root's output, when the root renders pod templates at all.
//!
//! A label renamed on one side only (`app: web` in the Deployment's template, `app: website`
//! in the Service) renders without a word: the Service then has no endpoints, the
//! NetworkPolicy protects nothing, the PodDisruptionBudget guards nothing.
//!
//! ```yaml
//! kind: Service
//! spec:
//!   selector: {app: website}   # <- no pod template of the output has app=website
//! ```
//!
//! Only objects whose selector selects something specific are checked: a Service without a
//! selector (its endpoints are managed by hand) or of `type: ExternalName`, a NetworkPolicy
//! or PodDisruptionBudget with an empty selector (all pods of the namespace) are not. An
//! object is checked only when a pod template of its namespace in the root's output has every
//! label key the selector names (with other values: a label renamed on one side); otherwise
//! it selects pods rendered elsewhere (another component's, another product's), which one
//! root's output cannot tell. Pod templates of any kind count (a Deployment's, a CronJob's,
//! an Argo Rollout's), in the same namespace (an object without a namespace may be in any),
//! with the labels their controller adds to each pod (`job-name` of a Job, a StatefulSet's
//! `statefulset.kubernetes.io/pod-name`: a selector of one pod), and so do the pods an operator
//! makes from an object of the output (a Prometheus Operator `Alertmanager`'s
//! `spec.podMetadata`, `operator_pods.rs`).

use super::super::object::{field, steps, text, Object};
use super::super::selector::{describe_labels, Selector};
use super::super::workload::{any_pod_template, PodTemplate};
use super::super::{Check, Found, Output};
use super::{has_pods, same_namespace, selected};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::DanglingSelector,
    run,
};

/// At most this many pod templates are shown as related locations.
const SHOWN: usize = 3;

fn run(out: &Output<'_>) -> Vec<Found> {
    if !has_pods(out) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        let Some((selector, at)) = selector_of(o) else {
            continue;
        };
        if selector.is_empty() || !selected(out, o, &selector).is_empty() {
            continue;
        }
        // The pods an operator makes from an object of the output (`operator_pods`).
        let made = operated(out, o);
        if made.iter().any(|(_, t)| selector.matches_pod(t)) {
            continue;
        }
        // The pods it selects are rendered elsewhere when no pod template of the namespace
        // has the labels it names at all (an ingress gateway's Service beside another
        // product's workloads, a policy for the pods of another component): a dangling
        // selector names labels the root's pods have, with other values.
        let keys = selector.keys();
        let near = out.objects.iter().any(|w| {
            same_namespace(w, o)
                && any_pod_template(w).is_some_and(|t| keys.iter().all(|k| t.has_label(k)))
        }) || made
            .iter()
            .any(|(_, t)| keys.iter().all(|k| t.has_label(k)));
        if !near {
            continue;
        }
        let what = match o.kind {
            "Service" => "selects",
            "NetworkPolicy" => "applies to",
            _ => "guards",
        };
        let mut f = Found::new(
            i,
            steps(at),
            format!(
                "{what} no pod of the root's output: no pod template has the labels {}",
                selector.describe()
            ),
        );
        // The pods an operator makes first: their labels are the ones the selector names.
        for (j, t) in &made {
            if f.related.len() == SHOWN {
                break;
            }
            let message = format!(
                "the pods its operator makes from {} have the labels {}",
                out.objects[*j].describe(),
                describe_labels(&t.labels)
            );
            f.related.push((message, *j, t.labels_at()));
        }
        for (j, other) in out.objects.iter().enumerate() {
            if f.related.len() == SHOWN {
                break;
            }
            let Some(t) = any_pod_template(other).filter(|_| same_namespace(o, other)) else {
                continue;
            };
            let message = format!(
                "the pod template of {} has the labels {}",
                other.describe(),
                describe_labels(&t.labels)
            );
            f.related.push((message, j, t.labels_at()));
        }
        found.push(f);
    }
    found
}

/// The pods operators make from the objects of `o`'s namespace (see `operator_pods`), with
/// the index of the object each comes from.
fn operated<'a>(out: &Output<'a>, o: &Object<'_>) -> Vec<(usize, PodTemplate<'a>)> {
    out.objects
        .iter()
        .enumerate()
        .filter(|(_, w)| same_namespace(w, o))
        .filter_map(|(j, w)| super::operator_pods::of(w).map(|t| (j, t)))
        .collect()
}

/// The selector of a Service, NetworkPolicy or PodDisruptionBudget, and where it is.
fn selector_of(o: &Object<'_>) -> Option<(Selector, &'static [&'static str])> {
    let spec = o.get(&["spec"])?;
    match (o.group(), o.kind) {
        ("", "Service") => {
            if text(spec, "type") == Some("ExternalName") {
                return None;
            }
            Some((
                Selector::plain(field(spec, "selector")),
                &["spec", "selector"],
            ))
        }
        ("networking.k8s.io", "NetworkPolicy") => Some((
            Selector::label_selector(field(spec, "podSelector")?)?,
            &["spec", "podSelector"],
        )),
        ("policy", "PodDisruptionBudget") => Some((
            Selector::label_selector(field(spec, "selector")?)?,
            &["spec", "selector"],
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::object::tests::docs;
    use crate::yaml::Document;

    fn found(src: &str) -> Vec<String> {
        let d = docs(src);
        let refs: Vec<&Document> = d.iter().collect();
        let out = Output::new(&refs);
        run(&out)
            .iter()
            .map(|f| format!("{} {}", out.objects[f.object].describe(), f.message))
            .collect()
    }

    const DEPLOYMENT: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec: {containers: [{name: web, image: nginx}]}
";

    #[test]
    fn selectors_that_match_no_pod_template_of_their_namespace() {
        let src = format!(
            "{DEPLOYMENT}---
apiVersion: v1
kind: Service
metadata: {{name: ok, namespace: prod}}
spec: {{selector: {{app: web}}}}
---
apiVersion: v1
kind: Service
metadata: {{name: typo, namespace: prod}}
spec: {{selector: {{app: website}}}}
---
apiVersion: v1
kind: Service
metadata: {{name: elsewhere, namespace: dev}}
spec: {{selector: {{app: web}}}}
---
apiVersion: v1
kind: Service
metadata: {{name: manual}}
spec: {{ports: [{{port: 80}}]}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {{name: all, namespace: prod}}
spec: {{podSelector: {{}}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {{name: np, namespace: prod}}
spec: {{podSelector: {{matchExpressions: [{{key: tier, operator: In, values: [back]}}]}}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: pdb}}
spec: {{selector: {{matchLabels: {{app: web}}}}}}
"
        );
        assert_eq!(
            found(&src),
            vec![
                "Service prod/typo selects no pod of the root's output: no pod template has the labels app=website",
                "NetworkPolicy prod/np applies to no pod of the root's output: no pod template has the labels tier in (back)",
            ]
        );
    }

    #[test]
    fn labels_the_controllers_add_count() {
        let src = "\
apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec: {template: {spec: {containers: [{name: m}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec: {template: {metadata: {labels: {app: db}}, spec: {containers: [{name: d}]}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: migrate}
spec: {podSelector: {matchLabels: {job-name: migrate}}}
---
apiVersion: v1
kind: Service
metadata: {name: db-0}
spec: {selector: {statefulset.kubernetes.io/pod-name: db-0}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: other-job}
spec: {podSelector: {matchLabels: {job-name: seed}}}
";
        assert_eq!(
            found(src),
            vec!["NetworkPolicy other-job applies to no pod of the root's output: no pod template has the labels job-name=seed"]
        );
    }

    #[test]
    fn the_pods_an_operator_makes_count() {
        let src = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: grafana, namespace: obs}
spec: {template: {metadata: {labels: {team: obs, role: ui}}, spec: {containers: [{name: g}]}}}
---
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s, namespace: obs}
spec: {podMetadata: {labels: {team: obs, role: metrics}}}
---
apiVersion: v1
kind: Service
metadata: {name: prometheus, namespace: obs}
spec: {selector: {team: obs, role: metrics}}
---
apiVersion: v1
kind: Service
metadata: {name: by-operator, namespace: obs}
spec: {selector: {prometheus: k8s}}
---
apiVersion: v1
kind: Service
metadata: {name: typo, namespace: obs}
spec: {selector: {team: obs, role: metric}}
";
        assert_eq!(
            found(src),
            vec!["Service obs/typo selects no pod of the root's output: no pod template has the labels team=obs, role=metric"]
        );
    }

    #[test]
    fn a_root_without_pod_templates_is_not_checked() {
        let src =
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: {app: x}}\n";
        assert!(found(src).is_empty());
    }
}
