//! Questions asked of parsed, not yet evaluated YAML: does a file use templating at all (plain
//! files are not compiled, their repeated keys simply override), and which documents carry a
//! given annotation in their comments (`@data/values`, `@data/values-schema`).

use crate::yaml::{Array, Comment, DocSet, Map, Value};

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

/// Keeps, for each repeated key of every map, one item: at the first item's place, with the
/// last item's value (what ytt does to plain YAML files).
pub fn override_map_keys(ds: &mut DocSet) {
    for d in &mut ds.items {
        override_value(&mut d.value, 0);
    }
}

fn override_value(v: &mut Value, depth: usize) {
    if depth > 10_000 {
        return;
    }
    match v {
        Value::Map(m) => {
            let mut kept: Vec<crate::yaml::MapItem> = Vec::with_capacity(m.items.len());
            for item in std::mem::take(&mut m.items) {
                match kept.iter_mut().find(|k| k.key == item.key) {
                    Some(slot) => *slot = item,
                    None => kept.push(item),
                }
            }
            for item in &mut kept {
                override_value(&mut item.value, depth + 1);
            }
            m.items = kept;
        }
        Value::Array(a) => {
            for item in &mut a.items {
                override_value(&mut item.value, depth + 1);
            }
        }
        _ => {}
    }
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
        let mut d = ds("a: 1\nb: 2\na: 3\n");
        override_map_keys(&mut d);
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
}
