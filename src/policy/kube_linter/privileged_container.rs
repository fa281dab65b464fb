//! kube-linter's `privileged-container`: a container that runs privileged
//! (`securityContext.privileged: true`), with every capability and device of the host.
//!
//! ```yaml
//! securityContext:
//!   privileged: true
//! ```

use super::super::object::{field, is_true};
use super::super::{Check, Found, Output};
use super::per_container;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::PrivilegedContainer,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| match field(c.value, "securityContext")
        .is_some_and(|sc| is_true(sc, "privileged"))
    {
        true => vec![(
            c.field(&["securityContext", "privileged"]),
            format!("{} is privileged", c.describe()),
        )],
        false => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn privileged_true_only() {
        let spec = "      containers:\n      - name: a\n        securityContext: {privileged: true}\n      - name: b\n        securityContext: {privileged: false}";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].2, "container \"a\" is privileged");
    }
}
