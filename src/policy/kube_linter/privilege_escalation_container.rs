//! kube-linter's `privilege-escalation-container`: a container that allows privilege
//! escalation: `allowPrivilegeEscalation: true`, `privileged: true` (which implies it), or the
//! `SYS_ADMIN` capability added.
//!
//! ```yaml
//! securityContext:
//!   allowPrivilegeEscalation: true
//! ```
//!
//! One finding per container, at the first of these it sets.

use super::super::object::{at, field, is_true, item, items};
use super::super::{Check, Found, Output};
use super::per_container;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::PrivilegeEscalationContainer,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        let Some(sc) = field(c.value, "securityContext") else {
            return Vec::new();
        };
        if is_true(sc, "allowPrivilegeEscalation") {
            return vec![(
                c.field(&["securityContext", "allowPrivilegeEscalation"]),
                format!("{} allows privilege escalation", c.describe()),
            )];
        }
        if is_true(sc, "privileged") {
            return vec![(
                c.field(&["securityContext", "privileged"]),
                format!(
                    "{} is privileged, which allows privilege escalation",
                    c.describe()
                ),
            )];
        }
        let add = at(sc, &["capabilities", "add"]);
        let sys_admin = items(add).position(|cap| cap.as_str() == Some("SYS_ADMIN"));
        match sys_admin {
            Some(k) => vec![(
                item(&c.field(&["securityContext", "capabilities"]), "add", k),
                format!(
                    "{} adds the capability SYS_ADMIN, which allows privilege escalation",
                    c.describe()
                ),
            )],
            None => Vec::new(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, paths};
    use super::*;

    #[test]
    fn escalation_privileged_or_sys_admin() {
        let spec = "      containers:\n      - name: a\n        securityContext: {allowPrivilegeEscalation: true}\n      - name: b\n        securityContext: {privileged: true}\n      - name: c\n        securityContext: {capabilities: {add: [NET_ADMIN, SYS_ADMIN]}}\n      - name: d\n        securityContext: {allowPrivilegeEscalation: false}";
        assert_eq!(
            paths(&CHECK, &deployment(spec)),
            vec![
                "spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation",
                "spec.template.spec.containers[1].securityContext.privileged",
                "spec.template.spec.containers[2].securityContext.capabilities.add[1]",
            ]
        );
    }
}
