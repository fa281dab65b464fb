//! kube-linter's `no-read-only-root-fs`: a container whose root file system is writable (its
//! `securityContext.readOnlyRootFilesystem` is not `true`), so whoever takes over the process
//! can change its programs.
//!
//! ```yaml
//! containers:
//! - name: web              # no securityContext.readOnlyRootFilesystem: true
//! ```
//!
//! Init and ephemeral containers are checked too, as in kube-linter.

use super::super::object::{at, field, is_true};
use super::super::{Check, Found, Output};
use super::per_container;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::NoReadOnlyRootFs,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        let sc = field(c.value, "securityContext");
        if sc.is_some_and(|sc| is_true(sc, "readOnlyRootFilesystem")) {
            return Vec::new();
        }
        let set = at(c.value, &["securityContext", "readOnlyRootFilesystem"]).is_some();
        let why = match set {
            true => "sets readOnlyRootFilesystem to something other than true",
            false => "does not set securityContext.readOnlyRootFilesystem: true",
        };
        vec![(
            c.field(&["securityContext", "readOnlyRootFilesystem"]),
            format!("{} has a writable root file system: it {why}", c.describe()),
        )]
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, paths};
    use super::*;

    #[test]
    fn writable_root_file_systems() {
        let spec = "      containers:\n      - name: a\n      - name: b\n        securityContext: {readOnlyRootFilesystem: true}\n      - name: c\n        securityContext: {readOnlyRootFilesystem: false}";
        assert_eq!(
            paths(&CHECK, &deployment(spec)),
            vec![
                "spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem",
                "spec.template.spec.containers[2].securityContext.readOnlyRootFilesystem",
            ]
        );
    }
}
