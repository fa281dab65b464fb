//! Plain merge: turning a plain YAML document (a `--data-values-file`, or the values given to
//! `library.with_data_values(..., plain=True)`) into an overlay that adds missing keys and
//! replaces arrays and scalars wholesale: every document, map and map item gets
//! `@overlay/match missing_ok=True`, and every document or map item holding an array or a
//! scalar also `@overlay/replace or_add=True`. Array items are left alone (arrays are replaced
//! as a whole). The result is applied with [`super::apply_exact`].

use super::kwargs::{MATCH, REPLACE};
use crate::pos::Pos;
use crate::yaml::node::{AnnValue, Annotation, Annotations, Comment, Document, Value};

/// The message ytt gives for a plain-merge input that contains templating.
pub const NOT_PLAIN: &str =
    "Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)";

/// Whether a node carries templating: a `#@` comment or an annotation.
fn templated(comments: &[Comment], anns: &Annotations) -> bool {
    !anns.is_empty() || comments.iter().any(|c| c.data.starts_with('@'))
}

/// Whether a document contains templating anywhere (ytt's `HasTemplating`).
pub fn has_templating(doc: &Document) -> bool {
    if templated(&doc.comments, &doc.anns) {
        return true;
    }
    let mut stack = vec![&doc.value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Map(m) => {
                if templated(&m.comments, &m.anns) {
                    return true;
                }
                for item in &m.items {
                    if templated(&item.comments, &item.anns) {
                        return true;
                    }
                    stack.push(&item.value);
                }
            }
            Value::Array(a) => {
                if templated(&a.comments, &a.anns) {
                    return true;
                }
                for item in &a.items {
                    if templated(&item.comments, &item.anns) {
                        return true;
                    }
                    stack.push(&item.value);
                }
            }
            _ => {}
        }
    }
    false
}

fn annotation(name: &str, kwarg: &str) -> Annotation {
    Annotation {
        name: name.to_string(),
        args: Vec::new(),
        kwargs: vec![(kwarg.to_string(), AnnValue::Scalar(Value::Bool(true)))],
        pos: Pos::unknown(),
    }
}

/// The annotations for a node holding `value` (its own are discarded, as in ytt).
fn annotations_for(value: &Value) -> Annotations {
    let mut anns = Annotations(vec![annotation(MATCH, "missing_ok")]);
    if !matches!(value, Value::Map(_)) {
        anns.set(annotation(REPLACE, "or_add"));
    }
    anns
}

/// Annotates a copy of `doc` for a plain merge; fails if `doc` contains templating.
pub fn plain_merge_overlay(doc: &Document) -> Result<Document, String> {
    if has_templating(doc) {
        return Err(NOT_PLAIN.to_string());
    }
    let mut doc = doc.clone();
    doc.anns = annotations_for(&doc.value);
    let mut stack = vec![&mut doc.value];
    while let Some(v) = stack.pop() {
        if let Value::Map(m) = v {
            m.anns = Annotations(vec![annotation(MATCH, "missing_ok")]);
            for item in &mut m.items {
                item.anns = annotations_for(&item.value);
                stack.push(&mut item.value);
            }
        }
    }
    Ok(doc)
}
