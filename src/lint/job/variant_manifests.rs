//! Two plain manifests of a folder the layout makes a root (`ytt -f clusters`: nothing in the
//! repository runs it), no ytt annotation in either, whose names share a stem (`c1.yaml` and
//! `c1-extra-storage.yaml`) and that define the same objects: variants of one example, each
//! applied on its own (`kubectl apply -f clusters/c1.yaml`, or the other), whatever their
//! content (round twenty-five's R25-4). A `duplicate-object` between them rests only on the
//! inferred command giving them together. Strict on purpose: a template (any `#@` in either
//! file) or a name that only looks alike (`c1.yaml`, `c10.yaml`) keeps the finding's level.

use std::collections::BTreeSet;

use crate::files::paths;
use crate::policy::object::Object;
use crate::yaml::Document;

/// Whether `first` and `second` (repository paths, with their rendered documents and source
/// texts) are variants of one plain manifest.
pub fn variants(first: (&str, &[&Document], &str), second: (&str, &[&Document], &str)) -> bool {
    let plain = |text: &str| !text.contains("#@");
    plain(first.2)
        && plain(second.2)
        && paths::parent(first.0) == paths::parent(second.0)
        && share_stem(first.0, second.0)
        && identities(first.1).is_some_and(|a| Some(a) == identities(second.1))
}

/// Whether one file's stem is the other's followed by a separator (`c1` of `c1-extra-storage`,
/// `app` of `app.tmc`).
fn share_stem(a: &str, b: &str) -> bool {
    let stem = |p: &str| {
        let name = p.rsplit('/').next().unwrap_or(p);
        name.strip_suffix(".yaml")
            .or_else(|| name.strip_suffix(".yml"))
            .unwrap_or(name)
            .to_string()
    };
    let (a, b) = (stem(a), stem(b));
    let extends = |long: &str, short: &str| {
        !short.is_empty()
            && long
                .strip_prefix(short)
                .is_some_and(|rest| rest.len() > 1 && rest.starts_with(['-', '_', '.']))
    };
    extends(&a, &b) || extends(&b, &a)
}

/// The objects a file defines (API group, kind, namespace, name), when each document is a
/// named object.
fn identities(docs: &[&Document]) -> Option<BTreeSet<(String, String, String, String)>> {
    let mut out = BTreeSet::new();
    for d in docs {
        let o = Object::new(d).filter(|o| !o.name.is_empty())?;
        out.insert((
            o.group().to_string(),
            o.kind.to_string(),
            o.namespace.unwrap_or("").to_string(),
            o.name.to_string(),
        ));
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(src: &str) -> Vec<Document> {
        crate::policy::object::tests::docs(src)
    }

    #[test]
    fn plain_manifests_of_the_same_objects_named_from_one_stem_are_variants() {
        let a = docs("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1, namespace: ns}\n");
        let b = docs(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1, namespace: ns}\ndata: {x: y}\n",
        );
        let other = docs("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2, namespace: ns}\n");
        let (a, b, other): (Vec<&Document>, Vec<&Document>, Vec<&Document>) = (
            a.iter().collect(),
            b.iter().collect(),
            other.iter().collect(),
        );
        let text = "kind: ConfigMap\n";
        let v = |p: &str, q: &str, d: &[&Document], t: &str| variants((p, &a, text), (q, d, t));
        assert!(v("k/c1.yaml", "k/c1-extra-storage.yaml", &b, text));
        assert!(v("k/c1-tmc.yml", "k/c1.yml", &b, text));
        // A template, names that only look alike, another folder, other objects.
        assert!(!v(
            "k/c1.yaml",
            "k/c1-extra.yaml",
            &b,
            "#@ load(\"x.star\", \"x\")\n"
        ));
        assert!(!v("k/c1.yaml", "k/c10.yaml", &b, text));
        assert!(!v("k/c1.yaml", "k/c1-.yaml", &b, text));
        assert!(!v("k/c1.yaml", "j/c1-extra.yaml", &b, text));
        assert!(!v("k/c1.yaml", "k/c1-extra.yaml", &other, text));
    }
}
