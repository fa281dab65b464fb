//! Keys declared `@schema/key-may-be-present` (the `schema-key-may-be-present` extension), and
//! the keys of a map with an `@schema/any-key` item (the `schema-any-key` extension), are
//! absent from the defaults; before a data values document is overlaid, each such key it sets
//! is added to the values so far with its type's default (for an arbitrary key, the default of
//! the `_` item), so that the overlay merges into it (and fills the defaults below it) as it
//! does for any declared key.

use super::types::{declared_or_any, Kind, Type};
use crate::stdlib::golike::equal;
use crate::yaml::Value;

/// Adds to `left` the absent-by-default keys of `ty` that `right` sets.
pub fn open(ty: &Type, left: &mut Value, right: &Value, depth: usize) {
    if depth > super::MAX_DEPTH {
        return;
    }
    let (Kind::Map(items), Value::Map(l), Value::Map(r)) = (&ty.non_null().kind, left, right)
    else {
        return;
    };
    for r_item in &r.items {
        let exact = items.iter().find(|t| equal(&t.key, &r_item.key));
        let Some(t) = declared_or_any(items, exact) else {
            continue;
        };
        let at = match l.items.iter().position(|i| equal(&i.key, &r_item.key)) {
            Some(at) => at,
            None if t.may_be_absent || t.any_key => {
                let mut item = t.default_item();
                item.key = r_item.key.clone();
                l.items.push(item);
                l.items.len() - 1
            }
            None => continue,
        };
        open(&t.ty, &mut l.items[at].value, &r_item.value, depth + 1);
    }
}
