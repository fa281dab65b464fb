//! kube-linter's `no-extensions-v1beta`: an object of an `extensions/v1beta*` API version.
//! Kubernetes stopped serving its workloads in 1.16 and its Ingress in 1.22: the cluster
//! refuses the object.
//!
//! ```yaml
//! apiVersion: extensions/v1beta1
//! kind: Deployment
//! ```

use super::super::object::steps;
use super::super::{Check, Found, Output};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::NoExtensionsV1beta,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    out.objects
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            o.api_version
                .strip_prefix("extensions/v1beta")
                .is_some_and(|rest| !rest.is_empty())
        })
        .map(|(i, o)| {
            Found::new(
                i,
                steps(&["apiVersion"]),
                format!(
                    "{} is no longer served: use the API group that replaced extensions",
                    o.api_version
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::found;
    use super::*;

    #[test]
    fn only_extensions_betas() {
        let src = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: a}\n---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: b}\n";
        let got = found(&CHECK, src);
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].0.as_str(), got[0].1.as_str()),
            ("Ingress a", "apiVersion")
        );
    }
}
