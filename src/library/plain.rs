//! Questions asked of parsed, not yet evaluated YAML: does a file use templating at all (plain
//! files are not compiled, their repeated keys simply override), and which documents carry a
//! given annotation in their comments (`@data/values`, `@data/values-schema`).

use crate::yaml::{Array, ArrayItem, Comment, DocSet, Document, Map, MapItem, Value};
use std::collections::HashMap;

/// Name of the annotation a `#@` comment starts with (`data/values` for
/// `#@data/values after_library_module=True`); `None` for code lines (`#@ x = 1`).
pub fn comment_annotation(c: &Comment) -> Option<&str> {
    let rest = c.data.strip_prefix('@')?;
    if rest.starts_with(' ') || rest.is_empty() {
        return None;
    }
    let end = rest
        .find(|ch: char| ch.is_whitespace() || ch == '(')
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

fn comments_template(cs: &[Comment]) -> bool {
    cs.iter().any(|c| c.data.starts_with('@'))
}

fn value_has_templating(v: &Value, depth: usize) -> bool {
    if depth > 10_000 {
        return true;
    }
    match v {
        Value::Map(m) => map_has_templating(m, depth),
        Value::Array(a) => array_has_templating(a, depth),
        _ => false,
    }
}

fn map_has_templating(m: &Map, depth: usize) -> bool {
    comments_template(&m.comments)
        || m.items
            .iter()
            .any(|i| comments_template(&i.comments) || value_has_templating(&i.value, depth + 1))
}

fn array_has_templating(a: &Array, depth: usize) -> bool {
    comments_template(&a.comments)
        || a.items
            .iter()
            .any(|i| comments_template(&i.comments) || value_has_templating(&i.value, depth + 1))
}

/// Whether any node carries a `#@` comment (ytt's `HasTemplating`).
pub fn has_templating(ds: &DocSet) -> bool {
    comments_template(&ds.comments)
        || ds
            .items
            .iter()
            .any(|d| comments_template(&d.comments) || value_has_templating(&d.value, 0))
}

/// Whether a document's comments carry the annotation `name`.
pub fn doc_has_annotation(comments: &[Comment], name: &str) -> bool {
    comments.iter().any(|c| comment_annotation(c) == Some(name))
}

/// A copy of the plain YAML `ds` in which each repeated key of every map keeps one item: at
/// the first item's place, the last item (what ytt does to plain YAML files). Made in one pass
/// over the parse, which stays as it is: a map without a repeated key (nearly every map) is
/// copied item by item, without moving its items again.
pub fn overridden(ds: &DocSet) -> DocSet {
    DocSet {
        items: ds
            .items
            .iter()
            .map(|d| Document {
                value: overridden_value(&d.value, 0),
                pos: d.pos.clone(),
                comments: d.comments.clone(),
                anns: d.anns.clone(),
                injected: d.injected,
            })
            .collect(),
        pos: ds.pos.clone(),
        comments: ds.comments.clone(),
        anns: ds.anns.clone(),
    }
}

/// A copy of `v` with the repeated keys of its maps overridden; below 10 000 levels a plain
/// copy (the parse refuses deeper nesting long before).
fn overridden_value(v: &Value, depth: usize) -> Value {
    if depth > 10_000 {
        return v.clone();
    }
    match v {
        Value::Map(m) => Value::Map(Box::new(overridden_map(m, depth))),
        Value::Array(a) => Value::Array(Box::new(Array {
            items: a
                .items
                .iter()
                .map(|i| ArrayItem {
                    value: overridden_value(&i.value, depth + 1),
                    pos: i.pos.clone(),
                    comments: i.comments.clone(),
                    anns: i.anns.clone(),
                })
                .collect(),
            pos: a.pos.clone(),
            comments: a.comments.clone(),
            anns: a.anns.clone(),
        })),
        other => other.clone(),
    }
}

fn overridden_map(m: &Map, depth: usize) -> Map {
    let copy = |i: &MapItem| MapItem {
        key: i.key.clone(),
        value: overridden_value(&i.value, depth + 1),
        pos: i.pos.clone(),
        comments: i.comments.clone(),
        anns: i.anns.clone(),
    };
    let items = match kept(&m.items) {
        Some(kept) => kept.into_iter().map(copy).collect(),
        None => m.items.iter().map(copy).collect(),
    };
    Map {
        items,
        pos: m.pos.clone(),
        comments: m.comments.clone(),
        anns: m.anns.clone(),
    }
}

/// A map key as a hash key: the scalars (a float by its value, `-0.0` as `0.0`). ytt's
/// `==` of two keys of different kinds is false, as `Value`'s is.
#[derive(Hash, PartialEq, Eq)]
enum Scalar<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(u64),
    Str(&'a str),
}

/// What a key is for the search of repeated keys.
enum Key<'a> {
    Hashed(Scalar<'a>),
    /// NaN, equal to nothing, itself included.
    Unique,
    /// A map or an array, compared with the other such keys one by one.
    Compared,
}

fn key_of(v: &Value) -> Key<'_> {
    Key::Hashed(match v {
        Value::Null => Scalar::Null,
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Int(i) => Scalar::Int(*i),
        Value::Uint(u) => Scalar::Uint(*u),
        Value::Float(f) if f.is_nan() => return Key::Unique,
        Value::Float(f) if *f == 0.0 => Scalar::Float(0),
        Value::Float(f) => Scalar::Float(f.to_bits()),
        Value::String(s) => Scalar::Str(s),
        Value::Map(_) | Value::Array(_) => return Key::Compared,
    })
}

/// The items of a map with each repeated key keeping one item, at the place of its first
/// occurrence with the value of its last; `None` when no key repeats. Scalar keys are found
/// by hash (a map of 60 000 keys was searched pairwise: quadratic), in a small map (nearly
/// every map) by comparing them one by one, which builds no table; only keys that are
/// collections are compared with each other one by one.
fn kept(items: &[MapItem]) -> Option<Vec<&MapItem>> {
    if items.len() < 2 {
        return None;
    }
    if items.len() <= SMALL_MAP {
        let mut scalars: Vec<(Scalar<'_>, usize)> = Vec::with_capacity(items.len());
        return kept_with(items, |k, at| {
            match scalars.iter().find(|(seen, _)| *seen == k) {
                Some((_, slot)) => Some(*slot),
                None => {
                    scalars.push((k, at));
                    None
                }
            }
        });
    }
    let mut slots: HashMap<Scalar<'_>, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(items.len(), Default::default());
    kept_with(items, |k, at| match slots.entry(k) {
        std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(at);
            None
        }
    })
}

/// The most items of a map whose scalar keys are compared one by one rather than hashed.
const SMALL_MAP: usize = 12;

/// [`kept`] with `slot_of(key, at)`, which gives the slot of a scalar key seen before, or
/// records `key` at the slot `at` and gives `None`.
fn kept_with<'a>(
    items: &'a [MapItem],
    mut slot_of: impl FnMut(Scalar<'a>, usize) -> Option<usize>,
) -> Option<Vec<&'a MapItem>> {
    let mut collections: Vec<usize> = Vec::new();
    let mut kept: Vec<&MapItem> = Vec::with_capacity(items.len());
    let mut repeated = false;
    for item in items {
        let slot = match key_of(&item.key) {
            Key::Hashed(k) => slot_of(k, kept.len()),
            Key::Unique => None,
            Key::Compared => {
                let found = collections
                    .iter()
                    .copied()
                    .find(|&s| kept.get(s).is_some_and(|k| k.key == item.key));
                if found.is_none() {
                    collections.push(kept.len());
                }
                found
            }
        };
        match slot.and_then(|s| kept.get_mut(s)) {
            Some(k) => {
                *k = item;
                repeated = true;
            }
            None => kept.push(item),
        }
    }
    repeated.then_some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};

    fn ds(src: &str) -> DocSet {
        parse(src, &"t.yml".into(), &ParseOpts::default()).unwrap()
    }

    #[test]
    fn detects_templating_and_annotations() {
        assert!(!has_templating(&ds("a: 1 #! note\n")));
        assert!(has_templating(&ds("a: #@ 1\n")));
        let d = ds("#@data/values\n---\na: 1\n");
        let marked: Vec<bool> = d
            .items
            .iter()
            .map(|doc| doc_has_annotation(&doc.comments, "data/values"))
            .collect();
        assert_eq!(marked.iter().filter(|m| **m).count(), 1, "{d:?}");
        assert!(!d
            .items
            .iter()
            .any(|doc| doc_has_annotation(&doc.comments, "data/values-schema")));
    }

    #[test]
    fn repeated_keys_keep_the_first_place_and_the_last_value() {
        let d = overridden(&ds("a: 1\nb: 2\na: 3\n"));
        let Value::Map(m) = &d.items[0].value else {
            panic!("map expected")
        };
        let items: Vec<(String, String)> = m
            .items
            .iter()
            .map(|i| (format!("{:?}", i.key), format!("{:?}", i.value)))
            .collect();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].1, "Int(3)");
    }

    #[test]
    fn keys_repeat_by_value_whatever_their_kind() {
        let d = overridden(&ds(
            "0.0: a\n1: b\n1.0: c\n\"1\": d\n-0.0: e\n.nan: f\n.nan: g\n\"1\": h\n",
        ));
        let Value::Map(m) = &d.items[0].value else {
            panic!("map expected")
        };
        let items: Vec<String> = m
            .items
            .iter()
            .map(|i| format!("{:?}={:?}", i.key, i.value))
            .collect();
        // A float zero of either sign, the same string, but not 1 and 1.0, "1" and 1, or NaN
        // and NaN; the item kept at the first place is the last.
        assert_eq!(
            items,
            [
                "Float(-0.0)=String(\"e\")",
                "Int(1)=String(\"b\")",
                "Float(1.0)=String(\"c\")",
                "String(\"1\")=String(\"h\")",
                "Float(NaN)=String(\"f\")",
                "Float(NaN)=String(\"g\")",
            ]
        );
    }

    /// What the copy used to be made by: the whole parse copied, then each map's items moved
    /// into a new vector with the repeated keys overridden.
    fn copied_then_overridden(ds: &DocSet) -> DocSet {
        fn go(v: &mut Value) {
            match v {
                Value::Map(m) => {
                    let mut kept: Vec<MapItem> = Vec::new();
                    for item in std::mem::take(&mut m.items) {
                        match kept.iter_mut().find(|k| k.key == item.key) {
                            Some(slot) => *slot = item,
                            None => kept.push(item),
                        }
                    }
                    kept.iter_mut().for_each(|i| go(&mut i.value));
                    m.items = kept;
                }
                Value::Array(a) => a.items.iter_mut().for_each(|i| go(&mut i.value)),
                _ => {}
            }
        }
        let mut copy = ds.clone();
        copy.items.iter_mut().for_each(|d| go(&mut d.value));
        copy
    }

    #[test]
    fn the_one_pass_copy_is_the_copy_with_keys_overridden() {
        let text = "\
# a release manifest, as vendored
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web #! the first name
  labels: {app: web, tier: front, app: web2}
  name: web-2
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: nginx
        env:
        - {name: A, value: \"1\", value: \"2\"}
        image: nginx:1.27
      - name: sidecar
---
kind: ConfigMap
data:
  1: one
  \"1\": string one
  1: uno
---
plain: [1, 2, {x: 1, y: 2}]
";
        let parsed = ds(text);
        let before = parsed.clone();
        let copy = overridden(&parsed);
        assert_eq!(copy, copied_then_overridden(&parsed));
        assert_eq!(parsed, before, "the parse is left as it was");
        let Value::Map(m) = &copy.items[0].value else {
            panic!("map expected")
        };
        let keys: Vec<String> = m.items.iter().map(|i| format!("{:?}", i.key)).collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
        let Value::Map(metadata) = &m.items[2].value else {
            panic!("metadata expected")
        };
        assert_eq!(metadata.items.len(), 2);
        assert_eq!(
            format!("{:?}", metadata.items[0].value),
            "String(\"web-2\")"
        );
        // Without a repeated key the copy is the parse.
        let unique = ds("a: 1\nb: [1, {c: 2}]\n---\nd: e\n");
        assert_eq!(overridden(&unique), unique);
    }

    #[test]
    fn small_and_large_maps_keep_the_same_items() {
        // The same keys in a map searched one by one and in one searched by hash (more than
        // `SMALL_MAP` items): scalars of every kind, a NaN, a key that is a collection.
        let keys = [
            "a", "1", "\"1\"", "1.0", "-0.0", "0.0", ".nan", ".nan", "true", "null", "~", "a",
            "[x]", "[x]", "{k: v}", "1", "true",
        ];
        for extra in [0, SMALL_MAP] {
            let mut text = String::new();
            for (n, k) in keys.iter().enumerate() {
                text.push_str(&format!("? {k}\n: {n}\n"));
            }
            for n in 0..extra {
                text.push_str(&format!("pad{n}: {n}\n"));
            }
            let parsed = ds(&text);
            // Compared as written out: a NaN is not equal to itself.
            assert_eq!(
                format!("{:?}", overridden(&parsed)),
                format!("{:?}", copied_then_overridden(&parsed)),
                "{text}"
            );
            let Value::Map(m) = &overridden(&parsed).items[0].value else {
                panic!("map expected")
            };
            // a, 1, "1", 1.0, 0.0 (both zeros), two NaNs, true, null (both), two `[x]` (keys
            // that are collections are compared with their places), {k: v}.
            assert_eq!(m.items.len(), 12 + extra, "{text}");
        }
    }
}
