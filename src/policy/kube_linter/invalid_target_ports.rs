//! kube-linter's `invalid-target-ports`: a container port whose `name` is not a valid port
//! name, or a Service port whose `targetPort` is an invalid name or a number outside
//! 1-65535. A port name is an IANA service name: 1 to 15 lower-case letters, digits and `-`,
//! at least one letter, no `--`, no `-` at either end.
//!
//! ```yaml
//! ports:
//! - name: http_metrics     # `_` is not allowed
//!   containerPort: 9090
//! ```

use super::super::object::{field, item, items, join, steps};
use super::super::ports::invalid_name;
use super::super::{Check, Found, Output};
use super::per_container;
use crate::report::Rule;
use crate::yaml::Value;

pub const CHECK: Check = Check {
    rule: Rule::InvalidTargetPorts,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut found = per_container(out, false, &|c| {
        items(field(c.value, "ports"))
            .enumerate()
            .filter_map(|(k, port)| {
                let Some(Value::String(name)) = field(port, "name") else {
                    return None;
                };
                let why = invalid_name(name).filter(|_| !name.is_empty())?;
                Some((
                    join(&item(&c.at, "ports", k), &["name"]),
                    format!("the port name \"{name}\" of {} {why}", c.describe()),
                ))
            })
            .collect()
    });
    for (i, o) in out.objects.iter().enumerate() {
        if !o.is("", "Service") {
            continue;
        }
        let ports = o.get(&["spec"]).and_then(|s| field(s, "ports"));
        for (k, port) in items(ports).enumerate() {
            let why = match field(port, "targetPort") {
                Some(Value::String(name)) => invalid_name(name).map(|w| format!("\"{name}\" {w}")),
                Some(Value::Int(0)) | None => None,
                Some(Value::Int(n)) if !(1..=65535).contains(n) => {
                    Some(format!("{n} must be between 1 and 65535"))
                }
                _ => None,
            };
            if let Some(why) = why {
                found.push(Found::new(
                    i,
                    join(&item(&steps(&["spec"]), "ports", k), &["targetPort"]),
                    format!("the targetPort {why}"),
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, messages};
    use super::*;

    #[test]
    fn bad_port_names_and_target_ports() {
        let spec = "      containers:\n      - name: c\n        ports: [{name: http_metrics, containerPort: 1}, {name: http, containerPort: 2}, {containerPort: 3}]";
        let src = format!(
            "{}---\napiVersion: v1\nkind: Service\nmetadata: {{name: s}}\nspec:\n  ports: [{{port: 1, targetPort: Http}}, {{port: 2, targetPort: 70000}}, {{port: 3, targetPort: http}}, {{port: 4}}]\n",
            deployment(spec)
        );
        let got = messages(&CHECK, &src);
        assert_eq!(
            got,
            vec![
                "the port name \"http_metrics\" of container \"c\" may hold only lower-case letters, digits and '-'",
                "the targetPort \"Http\" may hold only lower-case letters, digits and '-'",
                "the targetPort 70000 must be between 1 and 65535",
            ]
        );
    }
}
