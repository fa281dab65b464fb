//! Indentation slips: an unknown field that is a field of the object one level down or one
//! level up. ytt renders a key moved by two spaces without a word, and the schema then sees an
//! unknown field; when the same name is a field of a sibling object (`selector:` dedented out
//! of `spec:`) or of the parent object (`replicas:` indented into `selector:`), the finding
//! says where the key belongs instead of suggesting a spelling.

use serde_json::Value as Json;

use super::check::resolve;
use super::instance::{display_path, node_at, Step};
use crate::yaml::{scalar_key_string, Document, Value};

/// The object schema at `steps` in the hardened `root`, `$ref`s followed, through arrays'
/// `items` and maps' `additionalProperties`.
fn object_at<'a>(root: &'a Json, steps: &[Step]) -> Option<&'a Json> {
    let mut node = resolve(root, root)?;
    for step in steps {
        node = match step {
            Step::Key(k) => match node.get("properties").and_then(|p| p.get(k.as_str())) {
                Some(p) => p,
                None => node.get("additionalProperties").filter(|a| a.is_object())?,
            },
            Step::Index(_) => node.get("items").filter(|i| i.is_object())?,
        };
        node = resolve(root, node)?;
    }
    Some(node)
}

/// Whether the object schema `node` declares `name`; an array's items are looked into.
fn declares(root: &Json, node: &Json, name: &str) -> bool {
    let node = match node.get("items") {
        Some(items) => resolve(root, items),
        None => Some(node),
    };
    node.and_then(|n| n.get("properties"))
        .is_some_and(|p| p.get(name).is_some())
}

/// The keys of the map at `steps` in the document.
fn keys_at(doc: &Document, steps: &[Step]) -> Vec<String> {
    match node_at(doc, steps) {
        Some(Value::Map(m)) => m.items.iter().map(|i| scalar_key_string(&i.key)).collect(),
        _ => Vec::new(),
    }
}

/// "did you mean to indent ..." when the unknown field `name` of the object at `steps`
/// belongs one level down (under one sibling key of the document that declares it) or one
/// level up (the parent object declares it and does not have it yet).
pub fn hint(doc: &Document, root: &Json, steps: &[Step], name: &str) -> Option<String> {
    let here = object_at(root, steps)?;
    let props = here.get("properties").and_then(Json::as_object);
    let siblings: Vec<String> = keys_at(doc, steps)
        .into_iter()
        .filter(|k| k != name)
        .filter(|k| {
            let Some(schema) = props.and_then(|p| p.get(k.as_str())) else {
                return false;
            };
            resolve(root, schema).is_some_and(|s| declares(root, s, name))
        })
        .collect();
    if let [under] = siblings.as_slice() {
        return Some(format!("did you mean to indent {name:?} under {under:?}?"));
    }
    // One level up: out of this object (and out of the array holding it).
    let mut up = steps.len().checked_sub(1)?;
    if matches!(steps.get(up), Some(Step::Index(_))) {
        up = up.checked_sub(1)?;
    }
    let parent_steps = &steps[..up];
    let parent = object_at(root, parent_steps)?;
    let has_it = keys_at(doc, parent_steps).iter().any(|k| k == name);
    if !declares(root, parent, name) || has_it {
        return None;
    }
    let owner = match steps.get(up) {
        Some(Step::Key(k)) => k.clone(),
        _ => return None,
    };
    let place = match parent_steps.is_empty() {
        true => "at the top level".to_string(),
        false => format!("in {:?}", display_path(parent_steps)),
    };
    Some(format!(
        "did you mean to move {name:?} one level up, beside {owner:?} {place}?"
    ))
}
