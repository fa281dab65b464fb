//! What `liveness-port`, `readiness-port` and `startup-port` share: a probe's port (of
//! `httpGet`, `tcpSocket` or `grpc`) that is not among the container's TCP ports, by number
//! or by name. Only long-running containers are checked (not init containers), as in
//! kube-linter.

use super::super::object::{field, join};
use super::super::ports::{declared, PortRef};
use super::super::{Found, Output};
use super::per_container;

/// The findings of the probe `probe` (`livenessProbe`, ...) of every container.
pub fn unexposed(out: &Output<'_>, probe: &'static str) -> Vec<Found> {
    per_container(out, true, &|c| {
        let Some(p) = field(c.value, probe) else {
            return Vec::new();
        };
        let ports: Vec<_> = declared(c)
            .into_iter()
            .filter(|d| d.protocol == "TCP")
            .collect();
        let mut said = Vec::new();
        for handler in ["httpGet", "tcpSocket", "grpc"] {
            let Some(port) = field(p, handler).and_then(|h| field(h, "port")) else {
                continue;
            };
            let Some(wanted) = PortRef::of(port) else {
                continue;
            };
            if ports.iter().any(|d| wanted.is(d)) {
                continue;
            }
            said.push((
                join(&c.at, &[probe, handler, "port"]),
                format!(
                    "the {probe} of {} uses port {wanted}, which the container does not expose",
                    c.describe()
                ),
            ));
        }
        said
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::super::CHECKS;
    use crate::report::Rule;

    #[test]
    fn probes_on_undeclared_ports() {
        let spec = "      initContainers:\n      - name: i\n        livenessProbe: {tcpSocket: {port: 1}}\n      containers:\n      - name: c\n        ports: [{name: http, containerPort: 8080}, {name: dns, containerPort: 53, protocol: UDP}]\n        livenessProbe: {httpGet: {path: /, port: http}}\n        readinessProbe: {tcpSocket: {port: 53}}\n        startupProbe: {grpc: {port: 8080}}\n      - name: d\n        livenessProbe: {httpGet: {port: \"9000\"}}";
        let src = deployment(spec);
        let by = |rule: Rule| {
            let check = CHECKS.iter().find(|c| c.rule == rule).unwrap();
            found(check, &src)
                .into_iter()
                .map(|f| (f.1, f.2))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            by(Rule::LivenessPort),
            vec![(
                "spec.template.spec.containers[1].livenessProbe.httpGet.port".to_string(),
                "the livenessProbe of container \"d\" uses port 9000, which the container does not expose".to_string()
            )]
        );
        assert_eq!(by(Rule::ReadinessPort).len(), 1);
        assert!(by(Rule::StartupPort).is_empty());
    }
}
