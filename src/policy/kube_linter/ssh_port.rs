//! kube-linter's `ssh-port`: a container that declares TCP port 22, the port of SSH. An SSH
//! server in a container is a way in that bypasses the cluster's access control; a port 22
//! that is not SSH is at least confusing.
//!
//! ```yaml
//! ports:
//! - containerPort: 22
//! ```

use super::super::object::item;
use super::super::ports::declared;
use super::super::{Check, Found, Output};
use super::per_container;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::SshPort,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        declared(c)
            .into_iter()
            .filter(|d| d.number == Some(22) && d.protocol == "TCP")
            .map(|d| {
                (
                    item(&c.at, "ports", d.index),
                    format!("{} exposes port 22 (SSH)", c.describe()),
                )
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn tcp_port_22_only() {
        let spec = "      containers:\n      - name: a\n        ports: [{containerPort: 22}, {containerPort: 22, protocol: UDP}, {containerPort: 2222}]";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, "spec.template.spec.containers[0].ports[0]");
    }
}
