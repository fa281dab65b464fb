//! `duplicate-object`: the same object (API group, kind, namespace, name) twice in one root's
//! output.
//!
//! ytt writes both documents without a word. With different content, kapp refuses the output
//! ("Found resource ... multiple times with different content") and `kubectl apply` applies
//! the second over the first, so one of them is silently lost: an overlay meant to replace a
//! document that adds a second one, a loop that renders one name twice: an error. Two
//! identical copies (a CRD or a Namespace in two bundles of one release) are a warning: kapp
//! keeps one of them and `kubectl apply` applies it twice to the same effect, but
//! `kubectl create` and kustomize refuse the second. (Every duplicate the corpus and 111
//! public repositories render is such a copy: 76 in all, in packages kapp deploys.)
//!
//! ```yaml
//! #! config/a.yml and config/b.yml both render:
//! apiVersion: v1
//! kind: ConfigMap
//! metadata: {name: app, namespace: prod}
//! ```
//!
//! The finding is at the second object's `metadata:` (its `name:` line), with the first as
//! related location; the message names both files. Objects named by `generateName` are
//! distinct by design and not compared; the version of the API does not matter (`apps/v1` and
//! `apps/v1beta2` Deployments are one object).

use std::collections::HashMap;

use super::super::object::{field, steps};
use super::super::{Check, Found, Output};
use crate::report::{Rule, Severity};
use crate::yaml::{scalar_key_string, Value};

pub const CHECK: Check = Check {
    rule: Rule::DuplicateObject,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    let mut first: HashMap<(&str, &str, &str, &str), usize> = HashMap::new();
    let mut found = Vec::new();
    for (i, o) in out.objects.iter().enumerate() {
        let Some(name) = o
            .get(&["metadata"])
            .and_then(|m| field(m, "name"))
            .and_then(|n| n.as_str())
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let key = (o.group(), o.kind, o.namespace.unwrap_or(""), name);
        match first.get(&key) {
            None => {
                first.insert(key, i);
            }
            Some(&earlier) => {
                let at = steps(&["metadata", "name"]);
                let identical = same(&out.objects[earlier].doc.value, &o.doc.value);
                let message = match identical {
                    false => {
                        "rendered twice in the root's output, with different content (kapp \
                         refuses it, kubectl keeps the last)"
                    }
                    true => {
                        "rendered twice in the root's output (identical copies: kapp keeps one, \
                         kubectl create and kustomize refuse the second)"
                    }
                };
                let mut f = Found::new(i, at.clone(), message);
                f.severity = identical.then_some(Severity::Warning);
                f.related
                    .push(("the same object rendered first".to_string(), earlier, at));
                f.cite_places = true;
                found.push(f);
            }
        }
    }
    found
}

/// Whether two values have the same content, as kapp compares objects: maps whatever the
/// order of their keys, positions and comments aside.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            x.items.len() == y.items.len()
                && x.items.iter().all(|i| {
                    let key = scalar_key_string(&i.key);
                    y.items
                        .iter()
                        .find(|j| scalar_key_string(&j.key) == key)
                        .is_some_and(|j| same(&i.value, &j.value))
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(i, j)| same(&i.value, &j.value))
        }
        (Value::Map(_) | Value::Array(_), _) | (_, Value::Map(_) | Value::Array(_)) => false,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::object::tests::docs;
    use crate::yaml::Document;

    /// `(object, the first of it, identical)` of each finding.
    fn found(src: &str) -> Vec<(usize, usize, bool)> {
        let d = docs(src);
        let refs: Vec<&Document> = d.iter().collect();
        run(&Output::new(&refs))
            .iter()
            .map(|f| {
                (
                    f.object,
                    f.related[0].1,
                    f.severity == Some(Severity::Warning),
                )
            })
            .collect()
    }

    #[test]
    fn the_same_group_kind_namespace_and_name_twice() {
        let src = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: app, namespace: prod}
data: {level: info}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app, namespace: dev}
data: {level: info}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: prod}
spec: {replicas: 1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app, namespace: prod}
data: {level: debug}
---
apiVersion: apps/v1beta2
kind: Deployment
metadata: {name: app, namespace: prod}
spec: {replicas: 2}
---
apiVersion: v1
kind: Pod
metadata: {generateName: x-}
---
apiVersion: v1
kind: Pod
metadata: {generateName: x-}
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: prod}
data: {a: YQ==, b: Yg==}
---
apiVersion: v1
kind: Secret
metadata: {namespace: prod, name: s}
data: {b: Yg==, a: YQ==}
";
        assert_eq!(found(src), vec![(3, 0, false), (4, 2, false), (8, 7, true)]);
    }
}
