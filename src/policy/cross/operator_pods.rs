//! The pods an operator makes from an object of the output that is no workload (round
//! forty-four's N44-4): the Prometheus Operator's `Alertmanager`, `Prometheus`,
//! `PrometheusAgent` and `ThanosRuler` each become a StatefulSet whose pods carry the labels of
//! the object's `spec.podMetadata.labels`, with the operator's own selector labels written
//! over them (`app.kubernetes.io/name: alertmanager`, `app.kubernetes.io/managed-by:
//! prometheus-operator`, `app.kubernetes.io/instance: NAME`, `alertmanager: NAME`), and labels
//! whose value only the cluster knows (`app.kubernetes.io/version` unless `podMetadata` sets
//! it, a Prometheus shard's number). A Service that selects them selects pods of the output,
//! which `dangling-selector` counts; its other checks of a pod template (its containers, its
//! ports) do not read these: the operator writes the pod spec.

use super::super::object::{steps, Object};
use super::super::workload::PodTemplate;

/// The operator's kinds (group `monitoring.coreos.com`), each with the value of
/// `app.kubernetes.io/name` on its pods and the label naming the object.
const KINDS: [(&str, &str, &str); 4] = [
    ("Alertmanager", "alertmanager", "alertmanager"),
    ("Prometheus", "prometheus", "prometheus"),
    ("PrometheusAgent", "prometheus-agent", "prometheus"),
    ("ThanosRuler", "thanos-ruler", "thanos-ruler"),
];

/// The pods the operator makes from `o`, as a pod template whose `spec` is the object's own
/// (never read as a pod spec), or `None` when `o` is not one of its kinds.
pub fn of<'a>(o: &Object<'a>) -> Option<PodTemplate<'a>> {
    let (_, app, own) = KINDS
        .iter()
        .find(|(kind, ..)| o.is("monitoring.coreos.com", kind))?;
    let spec = o.get(&["spec"])?;
    let mut labels = super::super::object::string_map(o.get(&["spec", "podMetadata", "labels"]));
    let prometheus = matches!(o.kind, "Prometheus" | "PrometheusAgent");
    let mut operator = vec![
        ("app.kubernetes.io/name", app.to_string()),
        (
            "app.kubernetes.io/managed-by",
            "prometheus-operator".to_string(),
        ),
        ("app.kubernetes.io/instance", o.name.to_string()),
        (own, o.name.to_string()),
    ];
    if prometheus {
        operator.push(("operator.prometheus.io/name", o.name.to_string()));
    }
    for (k, v) in operator {
        labels.retain(|(lk, _)| lk != k);
        labels.push((k.to_string(), v));
    }
    let mut unknown = vec![("app.kubernetes.io/version".to_string(), None)];
    if prometheus {
        labels.retain(|(lk, _)| lk != "operator.prometheus.io/shard");
        unknown.push(("operator.prometheus.io/shard".to_string(), None));
    }
    Some(PodTemplate {
        meta_at: steps(&["spec", "podMetadata"]),
        labels,
        spec_at: steps(&["spec"]),
        spec,
        controller_labels: unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::object::tests::docs;
    use crate::policy::selector::Selector;
    use crate::yaml::Document;

    #[test]
    fn an_alertmanager_s_pods_have_its_pod_labels_under_the_operator_s() {
        let d: Vec<Document> = docs(
            "\
apiVersion: monitoring.coreos.com/v1
kind: Alertmanager
metadata: {name: main, namespace: monitoring}
spec:
  podMetadata:
    labels: {tier: alerting, app.kubernetes.io/managed-by: ytt}
",
        );
        let o = Object::new(&d[0]).unwrap();
        let t = of(&o).unwrap();
        let sel = |src: &str| {
            let d = docs(src);
            Selector::label_selector(&d[0].value)
                .unwrap()
                .matches_pod(&t)
        };
        assert!(sel("matchLabels: {tier: alerting, alertmanager: main}"));
        assert!(sel("matchLabels: {app.kubernetes.io/version: v0.27.0}"));
        // The operator's own label is written over the one of `podMetadata`.
        assert!(!sel("matchLabels: {app.kubernetes.io/managed-by: ytt}"));
        assert!(!sel("matchLabels: {tier: web}"));
        // A Deployment is no operator's object.
        let d = docs("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {}\n");
        assert!(of(&Object::new(&d[0]).unwrap()).is_none());
    }
}
