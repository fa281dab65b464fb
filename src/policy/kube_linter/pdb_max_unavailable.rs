//! kube-linter's `pdb-max-unavailable`: a PodDisruptionBudget whose `maxUnavailable` is 0 (or
//! `0%`): no pod it guards may ever be evicted, so node drains and cluster upgrades hang.
//!
//! ```yaml
//! kind: PodDisruptionBudget
//! spec:
//!   maxUnavailable: 0
//! ```

use super::super::object::{field, steps};
use super::super::{Check, Found, Output};
use crate::report::Rule;
use crate::yaml::Value;

pub const CHECK: Check = Check {
    rule: Rule::PdbMaxUnavailable,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        if !o.is("policy", "PodDisruptionBudget") {
            continue;
        }
        let zero = match o.get(&["spec"]).and_then(|s| field(s, "maxUnavailable")) {
            Some(Value::Int(0)) => true,
            Some(Value::String(s)) => s
                .strip_suffix('%')
                .and_then(|n| n.parse::<i64>().ok())
                .is_some_and(|n| n == 0),
            _ => false,
        };
        if zero {
            found.push(Found::new(
                i,
                steps(&["spec", "maxUnavailable"]),
                "maxUnavailable is 0: no pod may ever be evicted (node drains hang)",
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::tests::found;
    use super::*;

    #[test]
    fn zero_as_number_or_percentage() {
        let pdb = |name: &str, v: &str| {
            format!("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: {name}}}\nspec: {{maxUnavailable: {v}}}\n---\n")
        };
        let src = [
            pdb("a", "0"),
            pdb("b", "\"0%\""),
            pdb("c", "1"),
            pdb("d", "\"10%\""),
        ]
        .concat();
        let got: Vec<String> = found(&CHECK, &src).into_iter().map(|f| f.0).collect();
        assert_eq!(got, vec!["PodDisruptionBudget a", "PodDisruptionBudget b"]);
    }
}
