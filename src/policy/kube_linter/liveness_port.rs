//! kube-linter's `liveness-port`: a container whose liveness probe (`httpGet`, `tcpSocket` or
//! `grpc`) uses a port, by number or by name, that is not among the container's TCP
//! `ports`: usually a port renamed or renumbered on one side only.
//!
//! ```yaml
//! ports: [{name: web, containerPort: 8080}]
//! livenessProbe: {httpGet: {path: /healthz, port: http}}   # no port is named http
//! ```
//!
//! A string of digits counts as that number. Init containers are not checked.

use super::super::{Check, Found, Output};
use super::probe_port::unexposed;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::LivenessPort,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    unexposed(out, "livenessProbe")
}
