//! Data values as the schema of a file's root declares them: the schema is computed by the
//! engine for the root's first job (its inputs and flags, open buffers included), and a
//! dotted path is looked up in it.

use crate::lint::job::inputs::Names;
use crate::pos::Pos;
use crate::schema::types::{Kind, Type};
use crate::schema::Schema;
use crate::yaml::Value;

/// The schema of one root, with how its positions name files.
pub struct RootSchema {
    pub schema: Schema,
    pub names: Names,
    /// Every key the root's `@data/values` documents set: its path and position.
    pub set: Vec<(Vec<String>, Pos)>,
}

/// The keys the `@data/values` documents of the workspace's files set (not those addressed
/// to a private library).
pub fn values_set(ws: &crate::library::Workspace) -> Vec<(Vec<String>, Pos)> {
    use crate::library::plain::doc_has_annotation;
    let mut out = Vec::new();
    for f in &ws.files {
        if f.file_type() != crate::files::FileType::Yaml || !f.is_template() {
            continue;
        }
        let Ok(ds) = ws.parse(f, ws.opts.strict) else {
            continue;
        };
        for d in &ds.items {
            if doc_has_annotation(&d.comments, "data/values")
                && !doc_has_annotation(&d.comments, "library/ref")
            {
                keys_of(&d.value, &mut Vec::new(), &mut out);
            }
        }
    }
    out
}

fn keys_of(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Pos)>) {
    let Value::Map(m) = v else { return };
    for item in &m.items {
        path.push(key_text(&item.key));
        out.push((path.clone(), item.pos.clone()));
        keys_of(&item.value, path, out);
        path.pop();
    }
}

/// One declared data value.
pub struct Declared<'a> {
    pub ty: &'a Type,
    pub default: Value,
    /// Where the schema declares it.
    pub pos: Pos,
}

/// The key's text.
pub fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        other => crate::yaml::emit::value_to_yaml(other)
            .trim_end()
            .to_string(),
    }
}

impl RootSchema {
    /// The data value at `path` (below `data.values`).
    pub fn lookup(&self, path: &[String]) -> Option<Declared<'_>> {
        let doc = self.schema.doc.as_ref()?;
        let mut declared = Declared {
            ty: &doc.ty,
            default: doc.default.clone(),
            pos: doc.pos.clone(),
        };
        for seg in path {
            let items = declared.ty.map_items()?;
            let item = items
                .iter()
                .find(|i| !i.any_key && key_text(&i.key) == *seg)?;
            declared = Declared {
                ty: &item.ty,
                default: item.default.clone(),
                pos: item.pos.clone(),
            };
        }
        Some(declared)
    }

    /// The keys of the map at `path`, with their types.
    pub fn keys(&self, path: &[String]) -> Vec<(String, &Type)> {
        let Some(d) = self.lookup(path) else {
            return Vec::new();
        };
        d.ty.map_items()
            .unwrap_or(&[])
            .iter()
            .filter(|i| !i.any_key)
            .map(|i| (key_text(&i.key), &i.ty))
            .collect()
    }

    /// The repository path of a position's file.
    pub fn repo_path(&self, pos: &Pos) -> Option<String> {
        let file = pos.file.as_deref()?;
        Some(self.names.repo_path(file).unwrap_or(file).to_string())
    }
}

/// A type as hover shows it (`array of string`, `integer or null`).
pub fn type_text(ty: &Type) -> String {
    match &ty.kind {
        Kind::Array(item, _) => format!("array of {}", type_text(&item.ty)),
        Kind::Null(inner) => format!("{} or null", type_text(inner)),
        _ => ty.name().to_string(),
    }
}
