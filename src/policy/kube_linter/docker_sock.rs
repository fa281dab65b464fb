//! kube-linter's `docker-sock`: a container that mounts a hostPath volume whose path ends
//! in `docker.sock`, which gives it the node's Docker daemon.
//!
//! ```yaml
//! volumes:
//! - name: docker
//!   hostPath: {path: /var/run/docker.sock}
//! ```
//!
//! Reported at each volume mount of such a volume, with the volume as related location.

use super::super::{Check, Found, Output};
use super::host_mount::mounted;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::DockerSock,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    mounted(out, |path| path.ends_with("docker.sock"))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn mounts_of_the_docker_socket() {
        let spec = "      volumes:\n      - {name: sock, hostPath: {path: /var/run/docker.sock}}\n      - {name: data, hostPath: {path: /data}}\n      containers:\n      - name: c\n        volumeMounts: [{name: data, mountPath: /d}, {name: sock, mountPath: /s}]";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, "spec.template.spec.containers[0].volumeMounts[1]");
        assert_eq!(
            got[0].2,
            "host path \"/var/run/docker.sock\" is mounted in container \"c\""
        );
    }
}
