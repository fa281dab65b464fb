//! `@schema/validation-defaults-for-strings` (spec 000): before a schema document is overlaid,
//! the annotation is copied from where it is written onto every map and array item below it
//! (an item's own annotation taking over for its subtree), keeping the annotation's position.
//! After the overlay, the schema gives each string-typed item without `@schema/validation` the
//! copy it carries. Because overlays keep the left side's annotations, defaults written in a
//! schema overlay reach only the items that overlay adds, as the spec works out.

use super::STRING_DEFAULTS;
use crate::yaml::{Annotation, Annotations, Document, Value};

/// Deeper schema documents are not walked further (the parser bounds their nesting anyway).
const MAX_DEPTH: usize = 1000;

/// Distributes the annotation through `doc` (from the document or any item).
pub fn distribute(doc: &mut Document) {
    let inherited = doc.anns.get(STRING_DEFAULTS).cloned();
    walk(&mut doc.value, inherited.as_ref(), 0);
}

fn apply(anns: &mut Annotations, inherited: Option<&Annotation>) -> Option<Annotation> {
    if let Some(own) = anns.get(STRING_DEFAULTS) {
        return Some(own.clone());
    }
    let a = inherited?.clone();
    anns.set(a.clone());
    Some(a)
}

fn walk(v: &mut Value, inherited: Option<&Annotation>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Map(m) => {
            for item in &mut m.items {
                let here = apply(&mut item.anns, inherited);
                walk(&mut item.value, here.as_ref(), depth + 1);
            }
        }
        Value::Array(a) => {
            for item in &mut a.items {
                let here = apply(&mut item.anns, inherited);
                walk(&mut item.value, here.as_ref(), depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::yaml::{Map, MapItem};

    fn ann(line: u32) -> Annotation {
        Annotation {
            name: STRING_DEFAULTS.to_string(),
            args: Vec::new(),
            kwargs: Vec::new(),
            pos: Pos {
                line,
                ..Pos::default()
            },
        }
    }

    #[test]
    fn inner_annotations_override_for_their_subtree() {
        let mut inner = MapItem::new(
            Value::String("b".into()),
            Value::String("x".into()),
            Pos::default(),
        );
        inner.anns.set(ann(5));
        let nested = Value::Map(Box::new(Map {
            items: vec![inner],
            ..Map::default()
        }));
        let outer = MapItem::new(Value::String("a".into()), nested, Pos::default());
        let plain = MapItem::new(
            Value::String("c".into()),
            Value::String("y".into()),
            Pos::default(),
        );
        let mut doc = Document::new(
            Value::Map(Box::new(Map {
                items: vec![outer, plain],
                ..Map::default()
            })),
            Pos::default(),
        );
        doc.anns.set(ann(1));
        distribute(&mut doc);
        let Value::Map(m) = &doc.value else {
            panic!("map expected")
        };
        assert_eq!(
            m.items[1].anns.get(STRING_DEFAULTS).map(|a| a.pos.line),
            Some(1)
        );
        assert_eq!(
            m.items[0].anns.get(STRING_DEFAULTS).map(|a| a.pos.line),
            Some(1)
        );
        let Value::Map(n) = &m.items[0].value else {
            panic!("map expected")
        };
        assert_eq!(
            n.items[0].anns.get(STRING_DEFAULTS).map(|a| a.pos.line),
            Some(5)
        );
    }
}
