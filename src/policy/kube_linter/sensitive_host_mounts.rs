//! kube-linter's `sensitive-host-mounts`: a container that mounts a hostPath volume of one
//! of the host's system directories: `/`, `/boot`, `/dev`, `/etc`, `/lib`, `/proc`, `/sys`,
//! `/usr` (the directory itself, as kube-linter's patterns are anchored).
//!
//! ```yaml
//! volumes:
//! - name: etc
//!   hostPath: {path: /etc}
//! ```

use super::super::{Check, Found, Output};
use super::host_mount::mounted;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::SensitiveHostMounts,
    run,
};

const SENSITIVE: &[&str] = &[
    "/", "/boot", "/dev", "/etc", "/lib", "/proc", "/sys", "/usr",
];

fn run(out: &Output<'_>) -> Vec<Found> {
    mounted(out, |path| SENSITIVE.contains(&path))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn system_directories_only() {
        let spec = "      volumes:\n      - {name: etc, hostPath: {path: /etc}}\n      - {name: logs, hostPath: {path: /var/log}}\n      containers:\n      - name: c\n        volumeMounts: [{name: etc, mountPath: /host/etc}, {name: logs, mountPath: /l}]";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 1);
        assert!(got[0].2.starts_with("host path \"/etc\""));
    }
}
