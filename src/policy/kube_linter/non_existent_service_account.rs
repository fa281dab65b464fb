//! kube-linter's `non-existent-service-account`: a pod spec that names a service account
//! (`serviceAccountName`, else the deprecated `serviceAccount`) that no ServiceAccount of the
//! root's output defines in its namespace. `default` always exists and is not reported.
//!
//! ```yaml
//! spec:
//!   serviceAccountName: builder    # no ServiceAccount "builder" is rendered
//! ```
//!
//! An object without a namespace may be in any namespace: a ServiceAccount and a workload
//! are in one namespace unless both name different ones.

use super::super::cross::same_namespace;
use super::super::object::text;
use super::super::{Check, Found, Output};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::NonExistentServiceAccount,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, t) in out.workloads() {
        let o = &out.objects[i];
        let (key, sa) = match text(t.spec, "serviceAccountName").filter(|s| !s.is_empty()) {
            Some(s) => ("serviceAccountName", s),
            None => match text(t.spec, "serviceAccount").filter(|s| !s.is_empty()) {
                Some(s) => ("serviceAccount", s),
                None => continue,
            },
        };
        if sa == "default" {
            continue;
        }
        let exists = out
            .objects
            .iter()
            .any(|a| a.is("", "ServiceAccount") && a.name == sa && same_namespace(a, o));
        if !exists {
            found.push(Found::new(
                i,
                t.spec_field(&[key]),
                format!("the service account \"{sa}\" is not rendered by this root"),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn accounts_the_output_does_not_define() {
        let missing = deployment("      serviceAccountName: builder\n      containers: []");
        assert_eq!(
            found(&CHECK, &missing)[0].1,
            "spec.template.spec.serviceAccountName"
        );
        let defined = format!(
            "{missing}---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: builder}}\n"
        );
        assert!(found(&CHECK, &defined).is_empty());
        let default = deployment("      serviceAccountName: default\n      containers: []");
        assert!(found(&CHECK, &default).is_empty());
    }
}
