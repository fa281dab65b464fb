//! `unknown-target-port`: a Service port whose `targetPort` is a name that no container of
//! the pod templates the Service selects declares.
//!
//! A Service sends its traffic to the container port of that name; when no container has
//! one, the endpoints have no port for it and the Service's port goes nowhere. ytt renders
//! it without a word; it usually follows a port renamed in the Deployment only.
//!
//! ```yaml
//! kind: Service
//! spec:
//!   selector: {app: web}
//!   ports:
//!   - port: 80
//!     targetPort: http      # <- the container's port is named "web"
//! ```
//!
//! Checked only for Services that select at least one pod template of the output (one that
//! selects none is `dangling-selector`'s), and only for names: a number needs no declared
//! port. A name is known when any container (init containers included) of any selected pod
//! template declares it.

use super::super::object::{field, item, items, join, steps, text};
use super::super::ports::declared;
use super::super::selector::Selector;
use super::super::{Check, Found, Output};
use super::selected;
use crate::report::Rule;
use crate::yaml::Value;

pub const CHECK: Check = Check {
    rule: Rule::UnknownTargetPort,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        if !o.is("", "Service") {
            continue;
        }
        let Some(spec) = o.get(&["spec"]) else {
            continue;
        };
        if text(spec, "type") == Some("ExternalName") {
            continue;
        }
        let selector = Selector::plain(field(spec, "selector"));
        if selector.is_empty() {
            continue;
        }
        let pods = selected(out, o, &selector);
        if pods.is_empty() {
            continue;
        }
        let names: Vec<String> = pods
            .iter()
            .flat_map(|(_, t)| t.containers())
            .flat_map(|c| declared(&c))
            .filter_map(|d| d.name)
            .collect();
        for (p, port) in items(field(spec, "ports")).enumerate() {
            let Some(Value::String(name)) = field(port, "targetPort") else {
                continue;
            };
            if name.parse::<i64>().is_ok() || names.contains(name) {
                continue;
            }
            let mut f = Found::new(
                i,
                join(&item(&steps(&["spec"]), "ports", p), &["targetPort"]),
                format!(
                    "targetPort \"{name}\" names no port of the containers the Service selects"
                ),
            );
            if let Some((j, t)) = pods.first() {
                let message = match names.is_empty() {
                    true => "the pod template it selects declares no named port".to_string(),
                    false => format!("the named ports are: {}", short_list(&names)),
                };
                f.related.push((message, *j, t.spec_field(&["containers"])));
            }
            found.push(f);
        }
    }
    found
}

/// `"a", "b"`: at most eight names, sorted, each once.
fn short_list(names: &[String]) -> String {
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    sorted.dedup();
    let shown: Vec<String> = sorted.iter().take(8).map(|n| format!("\"{n}\"")).collect();
    let more = sorted.len().saturating_sub(8);
    match more {
        0 => shown.join(", "),
        n => format!("{}, and {n} more", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::object::tests::docs;
    use crate::yaml::Document;

    #[test]
    fn names_no_container_declares() {
        let src = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        ports: [{name: web, containerPort: 8080}, {name: metrics, containerPort: 9090}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
  - {port: 80, targetPort: http}
  - {port: 81, targetPort: web}
  - {port: 82, targetPort: 8080}
  - {port: 83, targetPort: \"8080\"}
---
apiVersion: v1
kind: Service
metadata: {name: other}
spec:
  selector: {app: other}
  ports: [{port: 80, targetPort: http}]
";
        let d = docs(src);
        let refs: Vec<&Document> = d.iter().collect();
        let found = run(&Output::new(&refs));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "targetPort \"http\" names no port of the containers the Service selects"
        );
        assert_eq!(
            crate::kubernetes::display_path(&found[0].at),
            "spec.ports[0].targetPort"
        );
        assert_eq!(
            found[0].related[0].0,
            "the named ports are: \"metrics\", \"web\""
        );
    }
}
