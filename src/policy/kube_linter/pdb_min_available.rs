//! kube-linter's `pdb-min-available`: a PodDisruptionBudget whose `minAvailable` allows no
//! disruption: `100%`, or at least the replicas of a workload it guards. Node drains then
//! hang on its pods.
//!
//! A workload is guarded when it is in the budget's namespace and the budget's selector
//! selects the labels of the workload's own selector (`matchLabels`). Its replicas are
//! `spec.replicas` (1 when left out); for a workload of one replica, the `minReplicas` of a
//! HorizontalPodAutoscaler (or KEDA ScaledObject) that scales it by name counts instead. A
//! percentage is taken of the replicas, rounded up. Kinds without replicas (DaemonSet, Job)
//! are not compared: kube-linter compares them as 0 replicas, so any budget over a DaemonSet
//! would be reported.
//!
//! ```yaml
//! kind: PodDisruptionBudget
//! spec:
//!   minAvailable: 2          # the Deployment it guards has 2 replicas
//! ```

use super::super::cross::same_namespace;
use super::super::object::{at, field, int, steps, Object};
use super::super::selector::Selector;
use super::super::{Check, Found, Output};
use super::no_anti_affinity::replicas;
use crate::report::Rule;
use crate::yaml::Value;

pub const CHECK: Check = Check {
    rule: Rule::PdbMinAvailable,
    run,
};

/// `minAvailable` as a number, or a percentage.
enum Min {
    Count(i64),
    Percent(i64),
}

fn min_available(v: &Value) -> Option<Min> {
    match v {
        Value::Int(n) => Some(Min::Count(*n)),
        Value::String(s) => match s.strip_suffix('%') {
            Some(p) => p.parse().ok().map(Min::Percent),
            None => s.parse().ok().map(Min::Count),
        },
        _ => None,
    }
}

/// The `minReplicas` of an autoscaler in the namespace of `o` that scales it by name.
fn autoscaled_min(out: &Output<'_>, o: &Object<'_>) -> Option<i64> {
    out.objects.iter().find_map(|a| {
        let autoscaler = a.kind == "HorizontalPodAutoscaler" || a.kind == "ScaledObject";
        let target = at(&a.doc.value, &["spec", "scaleTargetRef", "name"]).and_then(Value::as_str);
        if !autoscaler || target != Some(o.name) || !same_namespace(a, o) {
            return None;
        }
        let spec = a.get(&["spec"])?;
        match a.kind {
            "ScaledObject" => int(spec, "minReplicaCount").or(Some(0)),
            _ => int(spec, "minReplicas").or(Some(1)),
        }
    })
}

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, pdb) in out.objects.iter().enumerate() {
        if !pdb.is("policy", "PodDisruptionBudget") {
            continue;
        }
        let Some(spec) = pdb.get(&["spec"]) else {
            continue;
        };
        let Some(min) = field(spec, "minAvailable").and_then(min_available) else {
            continue;
        };
        let at_min = steps(&["spec", "minAvailable"]);
        if let Min::Percent(100..) = min {
            found.push(Found::new(
                i,
                at_min,
                "minAvailable is 100%: no pod may ever be evicted (node drains hang)",
            ));
            continue;
        }
        let Some(selector) = field(spec, "selector").and_then(Selector::label_selector) else {
            continue;
        };
        for (j, o) in out.objects.iter().enumerate() {
            if !same_namespace(o, pdb) {
                continue;
            }
            let Some(mut n) = replicas(o) else {
                continue;
            };
            let own = o.get(&["spec", "selector"]);
            let labels = match own.and_then(|s| field(s, "matchLabels")) {
                Some(m) => super::super::object::string_map(Some(m)),
                None => super::super::object::string_map(own),
            };
            if labels.is_empty() || !selector.matches(&labels) {
                continue;
            }
            if n == 1 {
                n = autoscaled_min(out, o).unwrap_or(n);
            }
            let floor = match min {
                Min::Count(c) => c,
                Min::Percent(p) => (n * p + 99) / 100,
            };
            if n <= floor {
                let mut f = Found::new(
                    i,
                    at_min.clone(),
                    format!(
                        "minAvailable allows no disruption of {}: it has {n} replicas",
                        o.describe()
                    ),
                );
                f.related
                    .push(("its replicas".to_string(), j, steps(&["spec", "replicas"])));
                found.push(f);
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
    fn budgets_at_or_above_the_replicas() {
        let src = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: []}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: tight}
spec: {minAvailable: 2, selector: {matchLabels: {app: web}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: loose}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: half}
spec: {minAvailable: \"50%\", selector: {matchLabels: {app: web}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: all}
spec: {minAvailable: \"100%\"}
";
        let got: Vec<String> = found(&CHECK, src).into_iter().map(|f| f.0).collect();
        assert_eq!(
            got,
            vec!["PodDisruptionBudget tight", "PodDisruptionBudget all"]
        );
    }
}
