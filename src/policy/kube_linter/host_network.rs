//! kube-linter's `host-network`: a pod that shares the host's network namespace (`hostNetwork: true`), and
//! with it what the node's other processes can see or do.
//!
//! ```yaml
//! spec:
//!   hostNetwork: true
//! ```

use super::super::object::is_true;
use super::super::{Check, Found, Output};
use super::per_pod;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::HostNetwork,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_pod(out, &|_, t| match is_true(t.spec, "hostNetwork") {
        true => vec![(
            t.spec_field(&["hostNetwork"]),
            "the pod shares the host's network namespace (hostNetwork: true)".to_string(),
        )],
        false => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn only_true_is_reported() {
        let on = deployment("      hostNetwork: true\n      containers: []");
        let off = deployment("      hostNetwork: false\n      containers: []");
        assert_eq!(found(&CHECK, &on)[0].1, "spec.template.spec.hostNetwork");
        assert!(found(&CHECK, &off).is_empty());
    }
}
