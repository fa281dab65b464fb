//! kube-linter's `deprecated-service-account-field`: a pod spec that sets the deprecated
//! `serviceAccount` field, without `serviceAccountName` or with a different value.
//!
//! ```yaml
//! spec:
//!   serviceAccount: builder    # use serviceAccountName
//! ```

use super::super::object::text;
use super::super::{Check, Found, Output};
use super::per_pod;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::DeprecatedServiceAccountField,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_pod(out, &|_, t| {
        let sa = text(t.spec, "serviceAccount").unwrap_or("");
        let san = text(t.spec, "serviceAccountName").unwrap_or("");
        if sa.is_empty() || sa == san {
            return Vec::new();
        }
        let message = match san {
            "" => format!(
                "serviceAccount \"{sa}\" is set, a deprecated field: use serviceAccountName"
            ),
            _ => format!(
                "serviceAccount \"{sa}\" (deprecated) and serviceAccountName \"{san}\" differ"
            ),
        };
        vec![(t.spec_field(&["serviceAccount"]), message)]
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn the_deprecated_field_alone_or_different() {
        let only = deployment("      serviceAccount: a\n      containers: []");
        let same = deployment(
            "      serviceAccount: a\n      serviceAccountName: a\n      containers: []",
        );
        let differ = deployment(
            "      serviceAccount: a\n      serviceAccountName: b\n      containers: []",
        );
        assert_eq!(
            found(&CHECK, &only)[0].1,
            "spec.template.spec.serviceAccount"
        );
        assert!(found(&CHECK, &same).is_empty());
        assert!(found(&CHECK, &differ)[0].2.contains("differ"));
    }
}
