//! Data values as the schema of a file's root declares them: the schema is computed by the
//! engine for the root's first job (its inputs and flags, open buffers included), and a
//! dotted path is looked up in it.

use crate::lint::job::inputs::Names;
use crate::pos::Pos;
use crate::schema::types::{Kind, Type};
use crate::schema::Schema;
use crate::yaml::emit::value_to_yaml;
use crate::yaml::Value;

/// The schema of one root, with how its positions name files.
pub struct RootSchema {
    pub schema: Schema,
    pub names: Names,
    /// Every key the root's `@data/values` documents set.
    pub set: Vec<Set>,
    /// The final data values of each named scenario of the root (`--data-values-inspect`),
    /// in the configuration's order; a scenario whose values cannot be computed is left out.
    pub scenarios: Vec<(String, Value)>,
}

/// The final data values of every named scenario of the root of `job`: each scenario's
/// values files and flags over the root's defaults, as ytt's `--data-values-inspect` gives
/// them (without evaluating the templates).
pub fn scenario_values(
    project: &super::project::Project,
    job: &crate::lint::job::Job,
) -> Vec<(String, Value)> {
    project
        .scenario_jobs(job)
        .iter()
        .filter_map(|j| {
            let flags = j.flags.as_ref().ok()?;
            let prepared = {
                let expanded = crate::lint::job::shell_expanded::files(j);
                crate::lint::job::inputs::prepare(&j.repo, flags, &j.provided, &expanded).ok()?
            };
            let doc = prepared.workspace.data_values(prepared.external).ok()?;
            Some((j.scenario.clone()?, doc.value))
        })
        .collect()
}

/// A key a data values document sets.
pub struct Set {
    pub path: Vec<String>,
    pub pos: Pos,
    /// The value as YAML when it is a scalar, else its type (`map`, `array`).
    pub value: String,
}

/// The keys the `@data/values` documents of the workspace's files set (not those addressed
/// to a private library, nor those of a private library's own files: the library's values
/// are its own).
pub fn values_set(ws: &crate::library::Workspace) -> Vec<Set> {
    use crate::library::plain::doc_has_annotation;
    let mut out = Vec::new();
    for f in &ws.files {
        if f.file_type() != crate::files::FileType::Yaml || !f.is_template() {
            continue;
        }
        if in_private_library(&f.rel_path) {
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

/// Whether a workspace path is inside a private library (`_ytt_lib/` in it).
fn in_private_library(rel: &str) -> bool {
    rel.split('/').any(|part| part == "_ytt_lib")
}

fn keys_of(v: &Value, path: &mut Vec<String>, out: &mut Vec<Set>) {
    let Value::Map(m) = v else { return };
    for item in &m.items {
        path.push(key_text(&item.key));
        let value = match &item.value {
            Value::Map(_) | Value::Array(_) => item.value.type_name().to_string(),
            scalar => value_to_yaml(scalar).trim_end().to_string(),
        };
        out.push(Set {
            path: path.clone(),
            pos: item.pos.clone(),
            value,
        });
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

    /// The keys of the map at `path`, with their types (without a schema: the keys the data
    /// values documents set there, with the value's type).
    pub fn keys(&self, path: &[String]) -> Vec<(String, String)> {
        if self.schema.doc.is_none() {
            let mut out: Vec<(String, String)> = Vec::new();
            for s in self.set.iter().filter(|s| s.path.len() == path.len() + 1) {
                if s.path.starts_with(path) && !out.iter().any(|(k, _)| *k == s.path[path.len()]) {
                    out.push((s.path[path.len()].clone(), s.value.clone()));
                }
            }
            return out;
        }
        let Some(d) = self.lookup(path) else {
            return Vec::new();
        };
        d.ty.map_items()
            .unwrap_or(&[])
            .iter()
            .filter(|i| !i.any_key)
            .map(|i| (key_text(&i.key), type_text(&i.ty)))
            .collect()
    }

    /// The value at `path` in each scenario's final data values, as hover shows it (a
    /// scalar as YAML, else its type).
    pub fn scenario_values_at(&self, path: &[String]) -> Vec<(&str, String)> {
        self.scenarios
            .iter()
            .filter_map(|(name, values)| {
                let mut v = values;
                for seg in path {
                    let Value::Map(m) = v else { return None };
                    v = &m.items.iter().find(|i| key_text(&i.key) == *seg)?.value;
                }
                let shown = match v {
                    Value::Map(_) | Value::Array(_) => v.type_name().to_string(),
                    scalar => value_to_yaml(scalar).trim_end().to_string(),
                };
                Some((name.as_str(), shown))
            })
            .collect()
    }

    /// Where the data values documents set `path`, and to what.
    pub fn set_at<'a>(&'a self, path: &'a [String]) -> impl Iterator<Item = &'a Set> + 'a {
        self.set.iter().filter(move |s| s.path == path)
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
