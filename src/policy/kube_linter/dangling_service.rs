//! kube-linter's `dangling-service`: a Service with no selector, or whose selector matches
//! the pod template of no workload rendered in its namespace.
//!
//! Unlike `dangling-selector` (on by default), this one also reports a Service without a
//! selector, and a root that renders no workload at all, as kube-linter does. A Service of
//! `type: ExternalName` selects no pods and is not checked.
//!
//! ```yaml
//! kind: Service
//! spec:
//!   selector: {app: website}   # no workload's pod template has app=website
//! ```

use super::super::cross::same_namespace;
use super::super::object::{field, steps, text};
use super::super::selector::Selector;
use super::super::{Check, Found, Output};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::DanglingService,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        if !o.is("", "Service") {
            continue;
        }
        let spec = o.get(&["spec"]);
        if spec.and_then(|s| text(s, "type")) == Some("ExternalName") {
            continue;
        }
        let selector = Selector::plain(spec.and_then(|s| field(s, "selector")));
        if selector.is_empty() {
            found.push(Found::new(
                i,
                steps(&["spec", "selector"]),
                "the Service has no selector",
            ));
            continue;
        }
        let matched = out
            .workloads()
            .any(|(j, t)| same_namespace(o, &out.objects[j]) && selector.matches_pod(&t));
        if !matched {
            found.push(Found::new(
                i,
                steps(&["spec", "selector"]),
                format!(
                    "no pod template of a workload matches the Service's selector ({})",
                    selector.describe()
                ),
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
    fn services_without_selector_or_matching_pods() {
        let src = format!(
            "{}---\napiVersion: v1\nkind: Service\nmetadata: {{name: ok}}\nspec: {{selector: {{app: web}}}}\n---\napiVersion: v1\nkind: Service\nmetadata: {{name: typo}}\nspec: {{selector: {{app: webb}}}}\n---\napiVersion: v1\nkind: Service\nmetadata: {{name: none}}\nspec: {{ports: [{{port: 80}}]}}\n---\napiVersion: v1\nkind: Service\nmetadata: {{name: ext}}\nspec: {{type: ExternalName, externalName: example.com}}\n",
            deployment("      containers: [{name: web, image: nginx:1}]")
        );
        let got: Vec<String> = found(&CHECK, &src).into_iter().map(|f| f.0).collect();
        assert_eq!(got, vec!["Service typo", "Service none"]);
    }
}
