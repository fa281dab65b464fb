//! Keys declared `@schema/key-may-be-present` (the `schema-key-may-be-present` extension) are
//! absent from the defaults; before a data values document is overlaid, each such key it sets
//! is added to the values so far with its type's default, so that the overlay merges into it
//! (and fills the defaults below it) as it does for any declared key.

use super::types::{Kind, Type};
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
        let Some(t) = items.iter().find(|t| equal(&t.key, &r_item.key)) else {
            continue;
        };
        match l.items.iter_mut().find(|i| equal(&i.key, &r_item.key)) {
            Some(l_item) => open(&t.ty, &mut l_item.value, &r_item.value, depth + 1),
            None if t.may_be_absent => l.items.push(t.default_item()),
            None => {}
        }
    }
}
