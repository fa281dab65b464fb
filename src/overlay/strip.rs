//! Removing `@overlay/...` annotations from a result tree, as ytt does after `overlay.apply`
//! and after exact (data values) overlays. Iterative, so any depth is fine.

use crate::yaml::node::{Annotations, DocSet, Value};

fn strip(anns: &mut Annotations) {
    anns.0.retain(|a| !a.name.starts_with("overlay/"));
}

/// Removes overlay annotations from a document set, its documents and everything inside.
pub fn strip_overlay_annotations_docset(ds: &mut DocSet) {
    strip(&mut ds.anns);
    for doc in &mut ds.items {
        strip(&mut doc.anns);
        strip_overlay_annotations(&mut doc.value);
    }
}

/// Removes overlay annotations from a value and everything inside it.
pub fn strip_overlay_annotations(v: &mut Value) {
    let mut stack: Vec<&mut Value> = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Map(m) => {
                strip(&mut m.anns);
                for item in &mut m.items {
                    strip(&mut item.anns);
                    stack.push(&mut item.value);
                }
            }
            Value::Array(a) => {
                strip(&mut a.anns);
                for item in &mut a.items {
                    strip(&mut item.anns);
                    stack.push(&mut item.value);
                }
            }
            _ => {}
        }
    }
}
