//! The shape of a library's data values when it has no schema: the keys of its `@data/values`
//! documents (those not addressed to a private library with `@library/ref`), read without
//! evaluating, merged with the values given from outside. ytt infers nothing else: a key none
//! of them sets is not there.

use super::value_shape::{merge, Doc, Node};
use super::Outside;
use crate::files::FileType;
use crate::library::plain::doc_has_annotation;
use crate::library::Workspace;

/// The shape, or `None` when it is not known for sure: values come from outside unseen, a
/// file does not parse, or the library has no data values document.
pub fn shape(ws: &Workspace, dir: &str, outside: &Outside) -> Option<Node> {
    let Outside::Known(given) = outside else {
        return None;
    };
    let mut shape: Option<Node> = None;
    for f in ws.accessible(dir) {
        if f.file_type() != FileType::Yaml || !f.is_template() {
            continue;
        }
        let ds = ws.parse(f, ws.opts.strict).ok()?;
        for d in &ds.items {
            if !doc_has_annotation(&d.comments, "data/values")
                || doc_has_annotation(&d.comments, "library/ref")
            {
                continue;
            }
            let doc = Doc {
                value: &d.value,
                comments: &d.comments,
                pos: &d.pos,
            };
            shape = merge(shape, doc, true, true);
        }
    }
    shape.as_ref()?;
    let unknown = crate::pos::Pos::default();
    for v in given {
        let doc = Doc {
            value: v,
            comments: &[],
            pos: &unknown,
        };
        shape = merge(shape, doc, false, false);
    }
    shape
}
