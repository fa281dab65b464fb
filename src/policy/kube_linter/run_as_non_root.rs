//! kube-linter's `run-as-non-root`: a container that may run as root. The container's
//! `securityContext` decides, else the pod's: it is reported when its group is 0
//! (`runAsGroup: 0`), and when its user is not known to be above 0: neither `runAsUser`
//! above 0 nor `runAsNonRoot: true` (and `runAsNonRoot: true` with `runAsUser: 0` is a
//! contradiction the kubelet refuses at start).
//!
//! ```yaml
//! spec:
//!   containers:
//!   - name: web           # no runAsNonRoot: true, no runAsUser
//! ```
//!
//! Init and ephemeral containers are checked too, as in kube-linter.

use super::super::object::{field, Object};
use super::super::workload::{Container, PodTemplate};
use super::super::{Check, Found, Output};
use super::{per_pod, Said};
use crate::report::Rule;
use crate::yaml::Value;

pub const CHECK: Check = Check {
    rule: Rule::RunAsNonRoot,
    run,
};

/// The container's setting of `key`, else the pod's.
fn effective<'a>(t: &PodTemplate<'a>, c: &Container<'a>, key: &str) -> Option<&'a Value> {
    let own = field(c.value, "securityContext").and_then(|sc| field(sc, key));
    own.or_else(|| field(t.spec, "securityContext").and_then(|sc| field(sc, key)))
        .filter(|v| !matches!(v, Value::Null))
}

fn number(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

fn check(_: &Object<'_>, t: &PodTemplate<'_>) -> Vec<Said> {
    let mut said = Vec::new();
    for c in t.containers() {
        let at = c.field(&["securityContext", "runAsNonRoot"]);
        if number(effective(t, &c, "runAsGroup")) == Some(0) {
            said.push((
                c.field(&["securityContext", "runAsGroup"]),
                format!("{} runs with the root group (runAsGroup: 0)", c.describe()),
            ));
        }
        let user = number(effective(t, &c, "runAsUser"));
        if user.is_some_and(|u| u > 0) {
            continue;
        }
        let non_root = matches!(effective(t, &c, "runAsNonRoot"), Some(Value::Bool(true)));
        match (non_root, user) {
            (true, Some(0)) => said.push((
                c.field(&["securityContext", "runAsUser"]),
                format!("{} sets runAsNonRoot but runAsUser 0", c.describe()),
            )),
            (true, _) => {}
            (false, _) => said.push((
                at,
                format!(
                    "{} may run as root: neither runAsNonRoot: true nor a runAsUser above 0",
                    c.describe()
                ),
            )),
        }
    }
    said
}

fn run(out: &Output<'_>) -> Vec<Found> {
    per_pod(out, &check)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found, messages};
    use super::*;

    #[test]
    fn the_container_decides_else_the_pod() {
        let spec = "      securityContext: {runAsNonRoot: true}\n      containers:\n      - name: a\n      - name: b\n        securityContext: {runAsNonRoot: false}\n      - name: c\n        securityContext: {runAsUser: 0}\n      - name: d\n        securityContext: {runAsUser: 1000, runAsGroup: 0}";
        let got = messages(&CHECK, &deployment(spec));
        assert_eq!(
            got,
            vec![
                "container \"b\" may run as root: neither runAsNonRoot: true nor a runAsUser above 0",
                "container \"c\" sets runAsNonRoot but runAsUser 0",
                "container \"d\" runs with the root group (runAsGroup: 0)",
            ]
        );
        let bare = deployment("      containers: [{name: x}]");
        assert_eq!(found(&CHECK, &bare).len(), 1);
    }
}
