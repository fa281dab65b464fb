//! kube-linter's `pdb-unhealthy-pod-eviction-policy`: a `policy/v1` PodDisruptionBudget that
//! does not set `unhealthyPodEvictionPolicy`. By default a pod that never became ready still
//! counts against the budget, and a workload stuck in a crash loop can block node drains.
//!
//! ```yaml
//! apiVersion: policy/v1
//! kind: PodDisruptionBudget
//! spec:
//!   minAvailable: 1        # no unhealthyPodEvictionPolicy: AlwaysAllow
//! ```

use super::super::object::{field, steps};
use super::super::{Check, Found, Output};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::PdbUnhealthyPodEvictionPolicy,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    out.objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.api_version == "policy/v1" && o.kind == "PodDisruptionBudget")
        .filter(|(_, o)| {
            o.get(&["spec"])
                .and_then(|s| field(s, "unhealthyPodEvictionPolicy"))
                .is_none()
        })
        .map(|(i, _)| {
            Found::new(
                i,
                steps(&["spec", "unhealthyPodEvictionPolicy"]),
                "unhealthyPodEvictionPolicy is not set: pods that never became ready count \
                 against the budget",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::found;
    use super::*;

    #[test]
    fn v1_budgets_without_the_policy() {
        let src = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: a}\nspec: {minAvailable: 1}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: 1, unhealthyPodEvictionPolicy: AlwaysAllow}\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: c}\nspec: {minAvailable: 1}\n";
        let got: Vec<String> = found(&CHECK, src).into_iter().map(|f| f.0).collect();
        assert_eq!(got, vec!["PodDisruptionBudget a"]);
    }
}
