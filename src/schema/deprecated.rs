//! Data values that an input sets although the schema marks them `@schema/deprecated` or
//! `@schema/removed` (the `schema-removed` extension): ytt says nothing; the linter reports
//! each (`data-value-deprecated`, `data-value-removed`), and with the extension on a removed
//! value stops the evaluation.

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
    /// The deprecation notice, or the removal's reason.
    pub notice: String,
    /// `@schema/removed` rather than `@schema/deprecated`.
    pub removed: bool,
}

impl DeprecatedUse {
    /// The evaluation error of a removed value set while the `schema-removed` extension is on.
    pub fn removed_error(&self) -> String {
        let reason = if self.notice.is_empty() {
            String::new()
        } else {
            format!(": {}", self.notice)
        };
        format!(
            "Setting data value '{}' (from {}): it was removed from the schema (by {}){reason}",
            self.path,
            self.value_pos.as_compact(),
            self.schema_pos.as_compact()
        )
    }
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
                let exact = items.iter().find(|t| equal(&t.key, &item.key));
                let Some(t) = super::types::declared_or_any(items, exact) else {
                    continue;
                };
                let key = str_of(&item.key);
                let child = if path.is_empty() {
                    key
                } else {
                    format!("{path}.{key}")
                };
                let docs = &t.ty.docs;
                let marks = [(&docs.deprecated, false), (&docs.removed, true)];
                for (notice, removed) in marks {
                    if let (Some(notice), true) = (notice, item.pos != t.pos) {
                        out.push(DeprecatedUse {
                            path: child.clone(),
                            value_pos: item.pos.clone(),
                            schema_pos: t.pos.clone(),
                            notice: notice.clone(),
                            removed,
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
