//! A rendered Kubernetes object as the checks read it: its identity (API group, kind,
//! namespace, name) and plain accessors over its YAML tree. A check names a field by the
//! [`Step`]s that lead to it; the layer turns them into the template line that wrote it.

use crate::kubernetes::Step;
use crate::yaml::{scalar_key_string, Document, Value};

/// One object of a root's output.
#[derive(Clone, Debug)]
pub struct Object<'a> {
    pub doc: &'a Document,
    pub api_version: &'a str,
    pub kind: &'a str,
    /// `metadata.name` (or `generateName`).
    pub name: &'a str,
    /// `metadata.namespace`, when set to a non-empty string.
    pub namespace: Option<&'a str>,
}

impl<'a> Object<'a> {
    /// The object of `doc`, when it is one: a map with string `apiVersion` and `kind`.
    pub fn new(doc: &'a Document) -> Option<Object<'a>> {
        let top = &doc.value;
        let api_version = field(top, "apiVersion")?.as_str()?;
        let kind = field(top, "kind")?.as_str()?;
        let meta = field(top, "metadata");
        let text = |k: &str| meta.and_then(|m| field(m, k)).and_then(Value::as_str);
        let name = text("name")
            .filter(|n| !n.is_empty())
            .or_else(|| text("generateName"))
            .unwrap_or("");
        Some(Object {
            doc,
            api_version,
            kind,
            name,
            namespace: text("namespace").filter(|n| !n.is_empty()),
        })
    }

    /// The API group (`apps` of `apps/v1`; empty for the core group's `v1`).
    pub fn group(&self) -> &'a str {
        self.api_version.rsplit_once('/').map_or("", |(g, _)| g)
    }

    /// Whether the object is of `kind` in `group`, whatever its version.
    pub fn is(&self, group: &str, kind: &str) -> bool {
        self.kind == kind && self.group() == group
    }

    /// `Deployment prod/web`, `ClusterRole admin`, or the kind alone.
    pub fn describe(&self) -> String {
        match (self.namespace, self.name) {
            (_, "") => self.kind.to_string(),
            (Some(ns), name) => format!("{} {ns}/{name}", self.kind),
            (None, name) => format!("{} {name}", self.kind),
        }
    }

    /// The value at `path` from the top of the object.
    pub fn get(&self, path: &[&str]) -> Option<&'a Value> {
        at(&self.doc.value, path)
    }

    /// The object's annotations, as strings.
    pub fn annotations(&self) -> Vec<(String, String)> {
        string_map(self.get(&["metadata", "annotations"]))
    }
}

/// The value of `key` in the map `v`.
pub fn field<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    let Value::Map(m) = v else { return None };
    m.items
        .iter()
        .find(|i| matches!(&i.key, Value::String(k) if k == key))
        .map(|i| &i.value)
}

/// The value at `path` of keys under `v`.
pub fn at<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |node, key| field(node, key))
}

/// The items of the array `v` (none for anything else).
pub fn items(v: Option<&Value>) -> impl Iterator<Item = &Value> {
    let items = match v {
        Some(Value::Array(a)) => a.items.as_slice(),
        _ => &[],
    };
    items.iter().map(|i| &i.value)
}

/// The string at `key` of the map `v`.
pub fn text<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    field(v, key).and_then(Value::as_str)
}

/// Whether `key` of the map `v` is `true` (not merely truthy: the API server takes only a
/// boolean).
pub fn is_true(v: &Value, key: &str) -> bool {
    matches!(field(v, key), Some(Value::Bool(true)))
}

/// The integer at `key` of the map `v`.
pub fn int(v: &Value, key: &str) -> Option<i64> {
    match field(v, key)? {
        Value::Int(i) => Some(*i),
        Value::Uint(u) => i64::try_from(*u).ok(),
        _ => None,
    }
}

/// A map of strings (labels, annotations, a Service's selector): each key with its value as
/// YAML writes it (a label value written as a number is still that text).
pub fn string_map(v: Option<&Value>) -> Vec<(String, String)> {
    let Some(Value::Map(m)) = v else {
        return Vec::new();
    };
    m.items
        .iter()
        .filter(|i| !matches!(i.value, Value::Map(_) | Value::Array(_)))
        .map(|i| {
            let value = match &i.value {
                Value::Null => String::new(),
                other => scalar_key_string(other),
            };
            (scalar_key_string(&i.key), value)
        })
        .collect()
}

/// The steps of a path of keys.
pub fn steps(keys: &[&str]) -> Vec<Step> {
    keys.iter().map(|k| Step::Key(k.to_string())).collect()
}

/// `base` followed by the keys `more`.
pub fn join(base: &[Step], more: &[&str]) -> Vec<Step> {
    let mut out = base.to_vec();
    out.extend(more.iter().map(|k| Step::Key(k.to_string())));
    out
}

/// `base` followed by the item `index` of the array at `key`.
pub fn item(base: &[Step], key: &str, index: usize) -> Vec<Step> {
    let mut out = join(base, &[key]);
    out.push(Step::Index(index));
    out
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    /// The documents of `src`, parsed as a file `t.yml`.
    pub fn docs(src: &str) -> Vec<Document> {
        parse(src, &Arc::from("t.yml"), &ParseOpts::default())
            .unwrap()
            .items
    }

    #[test]
    fn identity_and_accessors() {
        let d = docs("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\n  labels: {app: web, tier: 3}\nspec: {replicas: 2, paused: true}\n");
        let o = Object::new(&d[0]).unwrap();
        assert_eq!((o.group(), o.kind, o.name), ("apps", "Deployment", "web"));
        assert!(o.is("apps", "Deployment") && !o.is("", "Deployment"));
        assert_eq!(o.describe(), "Deployment prod/web");
        assert_eq!(
            string_map(o.get(&["metadata", "labels"])),
            vec![("app".into(), "web".into()), ("tier".into(), "3".into())]
        );
        let spec = o.get(&["spec"]).unwrap();
        assert_eq!(int(spec, "replicas"), Some(2));
        assert!(is_true(spec, "paused") && !is_true(spec, "replicas"));
        let core = docs("apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: x-}\n");
        let o = Object::new(&core[0]).unwrap();
        assert_eq!((o.group(), o.name, o.namespace), ("", "x-", None));
        assert!(Object::new(&docs("a: 1\n")[0]).is_none());
    }
}
