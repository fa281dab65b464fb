//! kube-linter's `host-ipc`: a pod that shares the host's IPC namespace (`hostIPC: true`), and
//! with it what the node's other processes can see or do.
//!
//! ```yaml
//! spec:
//!   hostIPC: true
//! ```

use super::super::object::is_true;
use super::super::{Check, Found, Output};
use super::per_pod;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::HostIpc,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_pod(out, &|_, t| match is_true(t.spec, "hostIPC") {
        true => vec![(
            t.spec_field(&["hostIPC"]),
            "the pod shares the host's IPC namespace (hostIPC: true)".to_string(),
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
        let on = deployment("      hostIPC: true\n      containers: []");
        let off = deployment("      hostIPC: false\n      containers: []");
        assert_eq!(found(&CHECK, &on)[0].1, "spec.template.spec.hostIPC");
        assert!(found(&CHECK, &off).is_empty());
    }
}
