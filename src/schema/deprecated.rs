//! Data values that an input sets although the schema marks them `@schema/deprecated`: ytt
//! says nothing; the linter reports each (`data-value-deprecated`).

use super::types::{Kind, Type};
use crate::pos::Pos;
use crate::stdlib::golike::{equal, str_of};
use crate::yaml::Value;

/// A deprecated data value some input set.
#[derive(Clone, Debug, PartialEq)]
pub struct DeprecatedUse {
    pub path: String,
    /// Where the input set it.
    pub value_pos: Pos,
    /// Where the schema declared it.
    pub schema_pos: Pos,
    pub notice: String,
}

/// Every deprecated value in `value` (typed by `ty`) whose position is not the schema's own,
/// i.e. that an input set.
pub fn find(value: &Value, ty: &Type, out: &mut Vec<DeprecatedUse>) {
    walk(value, ty, "", out, 0);
}

fn walk(value: &Value, ty: &Type, path: &str, out: &mut Vec<DeprecatedUse>, depth: usize) {
    if depth > super::MAX_DEPTH {
        return;
    }
    let ty = ty.non_null();
    match (value, &ty.kind) {
        (Value::Map(m), Kind::Map(items)) => {
            for item in &m.items {
                let Some(t) = items.iter().find(|t| equal(&t.key, &item.key)) else {
                    continue;
                };
                let key = str_of(&item.key);
                let child = if path.is_empty() {
                    key
                } else {
                    format!("{path}.{key}")
                };
                if let Some(notice) = &t.ty.docs.deprecated {
                    if item.pos != t.pos {
                        out.push(DeprecatedUse {
                            path: child.clone(),
                            value_pos: item.pos.clone(),
                            schema_pos: t.pos.clone(),
                            notice: notice.clone(),
                        });
                    }
                }
                walk(&item.value, &t.ty, &child, out, depth + 1);
            }
        }
        (Value::Array(a), Kind::Array(item_ty, _)) => {
            for (i, item) in a.items.iter().enumerate() {
                walk(
                    &item.value,
                    &item_ty.ty,
                    &format!("{path}[{i}]"),
                    out,
                    depth + 1,
                );
            }
        }
        _ => {}
    }
}
