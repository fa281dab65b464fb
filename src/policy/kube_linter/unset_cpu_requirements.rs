//! kube-linter's `unset-cpu-requirements`: a container without a CPU request (`resources.requests.cpu`
//! left out, or 0).
//!
//! ```yaml
//! containers:
//! - name: web
//!   resources: {}          # no requests.cpu
//! ```
//!
//! A value that is not a quantity is left to `k8s-schema`. Init and ephemeral containers are
//! checked too, as in kube-linter.

use super::super::{Check, Found, Output};
use super::unset_quantity;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::UnsetCpuRequirements,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    unset_quantity(out, &["resources", "requests", "cpu"], "CPU request")
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, messages};
    use super::*;

    #[test]
    fn missing_or_zero() {
        let spec = "      containers:\n      - name: a\n      - name: b\n        resources: {requests: {cpu: 0}}\n      - name: c\n        resources: {requests: {cpu: 100Mi}}";
        let got = messages(&CHECK, &deployment(spec));
        assert_eq!(
            got,
            vec![
                "container \"a\" has no CPU request (resources.requests.cpu)",
                "container \"b\" has 0 as its CPU request (resources.requests.cpu)",
            ]
        );
    }
}
