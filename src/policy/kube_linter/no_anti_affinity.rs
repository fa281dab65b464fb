//! kube-linter's `no-anti-affinity`: a workload of 2 or more replicas without a pod
//! anti-affinity term that spreads its own pods over nodes, so all of them may land on one
//! node and go down with it.
//!
//! A term counts when its `topologyKey` is `kubernetes.io/hostname`, its `labelSelector`
//! selects the pod template's labels, and its `namespaces` (if any) include the workload's.
//! Preferred terms (`preferredDuringSchedulingIgnoredDuringExecution[].podAffinityTerm`)
//! count as well as required ones. Only kinds with `replicas` are checked (Deployment,
//! StatefulSet, ReplicaSet, ReplicationController, DeploymentConfig); `replicas` left out is
//! 1.
//!
//! ```yaml
//! spec:
//!   replicas: 3
//!   template:
//!     spec:
//!       containers: [...]      # no affinity.podAntiAffinity
//! ```

use super::super::object::{at, field, int, items, Object};
use super::super::selector::Selector;
use super::super::workload::PodTemplate;
use super::super::{Check, Found, Output};
use crate::report::Rule;
use crate::yaml::Value;

pub const CHECK: Check = Check {
    rule: Rule::NoAntiAffinity,
    run,
};

/// The replicas of a workload kind that has them.
pub fn replicas(o: &Object<'_>) -> Option<i64> {
    let has = matches!(
        (o.group(), o.kind),
        ("apps" | "extensions", "Deployment" | "ReplicaSet")
            | ("apps", "StatefulSet")
            | ("", "ReplicationController")
            | ("apps.openshift.io", "DeploymentConfig")
    );
    if !has {
        return None;
    }
    let spec = o.get(&["spec"])?;
    match field(spec, "replicas") {
        None | Some(Value::Null) => Some(1),
        Some(_) => int(spec, "replicas"),
    }
}

/// Why `term` does not spread the pods of `t` over nodes, if it does not.
fn fails(term: &Value, o: &Object<'_>, t: &PodTemplate<'_>) -> Option<String> {
    let namespaces: Vec<&str> = items(field(term, "namespaces"))
        .filter_map(Value::as_str)
        .collect();
    if let (false, Some(ns)) = (namespaces.is_empty(), o.namespace) {
        if !namespaces.contains(&ns) {
            return Some(format!("its namespaces do not include \"{ns}\""));
        }
    }
    let key = field(term, "topologyKey")
        .and_then(Value::as_str)
        .unwrap_or("");
    if key != "kubernetes.io/hostname" {
        return Some(format!(
            "its topologyKey is \"{key}\", not kubernetes.io/hostname"
        ));
    }
    let selects = field(term, "labelSelector")
        .and_then(Selector::label_selector)
        .is_some_and(|s| s.matches(&t.labels));
    (!selects).then(|| "its labelSelector does not select the pod template's labels".to_string())
}

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, t) in out.workloads() {
        let o = &out.objects[i];
        let Some(n) = replicas(o).filter(|n| *n >= 2) else {
            continue;
        };
        let anti = at(t.spec, &["affinity", "podAntiAffinity"]);
        let terms: Vec<&Value> = anti
            .map(|a| {
                let preferred = items(field(a, "preferredDuringSchedulingIgnoredDuringExecution"))
                    .filter_map(|p| field(p, "podAffinityTerm"));
                let required = items(field(a, "requiredDuringSchedulingIgnoredDuringExecution"));
                preferred.chain(required).collect()
            })
            .unwrap_or_default();
        let why = match (anti, terms.is_empty()) {
            (None, _) => "but no pod anti-affinity".to_string(),
            (Some(_), true) => "but no pod anti-affinity term".to_string(),
            (Some(_), false) => {
                let reasons: Vec<Option<String>> =
                    terms.iter().map(|term| fails(term, o, &t)).collect();
                if reasons.iter().any(Option::is_none) {
                    continue;
                }
                let first = reasons.into_iter().flatten().next().unwrap_or_default();
                format!("but no anti-affinity term spreads them over nodes: {first}")
            }
        };
        found.push(Found::new(
            i,
            t.spec_field(&["affinity", "podAntiAffinity"]),
            format!("the workload has {n} replicas {why}"),
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::tests::found;
    use super::*;

    fn deployment(name: &str, replicas: u32, affinity: &str) -> String {
        format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n  replicas: {replicas}\n  template:\n    metadata: {{labels: {{app: {name}}}}}\n    spec:\n      containers: []\n{affinity}---\n")
    }

    #[test]
    fn replicated_workloads_without_a_spreading_term() {
        let good = "      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 1\n            podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: good}}}\n";
        let zone = "      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: zone}}}\n";
        let src = [
            deployment("one", 1, ""),
            deployment("bare", 3, ""),
            deployment("good", 3, good),
            deployment("zone", 2, zone),
        ]
        .concat();
        let got: Vec<(String, String)> = found(&CHECK, &src)
            .into_iter()
            .map(|f| (f.0, f.2))
            .collect();
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0].1,
            "the workload has 3 replicas but no pod anti-affinity"
        );
        assert!(
            got[1]
                .1
                .contains("topologyKey is \"topology.kubernetes.io/zone\""),
            "{}",
            got[1].1
        );
    }
}
