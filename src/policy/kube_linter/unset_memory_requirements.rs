//! kube-linter's `unset-memory-requirements`: a container without a memory limit (`resources.limits.memory`
//! left out, or 0).
//!
//! ```yaml
//! containers:
//! - name: web
//!   resources: {}          # no limits.memory
//! ```
//!
//! A value that is not a quantity is left to `k8s-schema`. Init and ephemeral containers are
//! checked too, as in kube-linter.

use super::super::{Check, Found, Output};
use super::unset_quantity;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::UnsetMemoryRequirements,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    unset_quantity(out, &["resources", "limits", "memory"], "memory limit")
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, messages};
    use super::*;

    #[test]
    fn missing_or_zero() {
        let spec = "      containers:\n      - name: a\n      - name: b\n        resources: {limits: {memory: 0}}\n      - name: c\n        resources: {limits: {memory: 100Mi}}";
        let got = messages(&CHECK, &deployment(spec));
        assert_eq!(
            got,
            vec![
                "container \"a\" has no memory limit (resources.limits.memory)",
                "container \"b\" has 0 as its memory limit (resources.limits.memory)",
            ]
        );
    }
}
