//! kube-linter's `unsafe-sysctls`: a pod that sets a sysctl Kubernetes does not count as
//! safe, one under `kernel.msg`, `kernel.sem`, `kernel.shm`, `fs.mqueue.` or `net.`: such
//! settings can affect the node's other pods (and the kubelet refuses them unless allowed).
//!
//! ```yaml
//! securityContext:
//!   sysctls:
//!   - {name: net.core.somaxconn, value: "1024"}
//! ```
//!
//! The sysctls Kubernetes itself counts as safe (`kernel.shm_rmid_forced`,
//! `net.ipv4.ip_local_port_range`, `net.ipv4.tcp_syncookies`, ... see [`SAFE`]) are not
//! reported, though kube-linter's prefixes match them: the kubelet allows them in every pod.

use super::super::object::{at, item, items, text};
use super::super::{Check, Found, Output};
use super::per_pod;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::UnsafeSysctls,
    run,
};

const UNSAFE: &[&str] = &[
    "kernel.msg",
    "kernel.sem",
    "kernel.shm",
    "fs.mqueue.",
    "net.",
];

/// The sysctls Kubernetes allows in every pod (its "safe set", as of 1.32).
pub const SAFE: &[&str] = &[
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
    "net.ipv4.tcp_rmem",
    "net.ipv4.tcp_wmem",
];

fn run(out: &Output<'_>) -> Vec<Found> {
    per_pod(out, &|_, t| {
        let sysctls = at(t.spec, &["securityContext", "sysctls"]);
        items(sysctls)
            .enumerate()
            .filter_map(|(k, s)| {
                let name = text(s, "name")?;
                let unsafe_one =
                    UNSAFE.iter().any(|p| name.starts_with(p)) && !SAFE.contains(&name);
                unsafe_one.then(|| {
                    (
                        item(&t.spec_field(&["securityContext"]), "sysctls", k),
                        format!("the pod sets the unsafe sysctl {name}"),
                    )
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn unsafe_prefixes_only() {
        let spec = "      securityContext:\n        sysctls: [{name: kernel.shm_rmid_forced, value: \"1\"}, {name: net.core.somaxconn, value: \"1\"}, {name: vm.max_map_count, value: \"1\"}, {name: kernel.msgmax, value: \"1\"}]\n      containers: []";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1, "spec.template.spec.securityContext.sysctls[1]");
    }
}
