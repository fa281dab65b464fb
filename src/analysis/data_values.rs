//! `data-value-unknown-reference` and `data-value-unused`: every reference to data values
//! (see [`super::value_refs`]) checked against the library's schema, in every branch; and
//! the schema's leaves that nothing in the library reads. A reference that uses a value whole
//! (passes it to a function, encodes it, iterates it, hands it to a library) counts as reading
//! everything below it. Libraries without a schema, and values typed `any`, are not checked.

use super::index::Index;
use super::value_refs::{refs, Ref, Seg};
use super::Finding;
use crate::schema::types::{declared_or_any, Kind, Type};
use crate::yaml::Value;

pub const UNKNOWN: &str = "data-value-unknown-reference";
pub const UNUSED: &str = "data-value-unused";

/// The findings of both rules for the library of `index`, whose schema is `schema`.
pub fn check(index: &Index<'_>, schema: &Type) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut used: Vec<Vec<String>> = Vec::new();
    for r in refs(index) {
        match resolve(schema, &r.segs) {
            Ok(path) => used.push(path),
            Err(miss) => found.extend(unknown(index, &r, &miss)),
        }
    }
    let mut leaves = Vec::new();
    collect_leaves(schema, &mut Vec::new(), &mut leaves);
    for (path, pos) in leaves {
        if used.iter().any(|u| path.starts_with(u)) {
            continue;
        }
        let dotted = path.join(".");
        let message = format!(
            "data value {dotted} is declared in the schema but nothing in the library reads it"
        );
        let width = path.last().map_or(0, |k| k.chars().count() as u32);
        found.push(Finding::new(UNUSED, message, pos).wide(width));
    }
    found
}

/// A key the schema does not declare.
struct Miss {
    /// The keys read before it.
    path: Vec<String>,
    key: String,
    candidates: Vec<String>,
    declared_at: crate::pos::Pos,
}

/// The schema path a chain reads (as far as the schema has structure), or the key it misses.
/// A key a map's `@schema/any-key` item types reads that item (`_` in the path).
fn resolve(schema: &Type, segs: &[Seg]) -> Result<Vec<String>, Miss> {
    let mut ty = schema;
    let mut path = Vec::new();
    // The keys as the chain spells them, for messages.
    let mut read = Vec::new();
    for seg in segs {
        while let Kind::Null(inner) = &ty.kind {
            ty = inner;
        }
        match (&ty.kind, seg) {
            (Kind::Map(items), Seg::Key(key)) => {
                let exact = items
                    .iter()
                    .find(|i| key_name(&i.key).as_deref() == Some(key));
                let Some(item) = declared_or_any(items, exact) else {
                    return Err(Miss {
                        path: read,
                        key: key.clone(),
                        candidates: items.iter().filter_map(|i| key_name(&i.key)).collect(),
                        declared_at: ty.pos.clone(),
                    });
                };
                match key_name(&item.key) {
                    Some(k) if item.any_key => path.push(k),
                    _ => path.push(key.clone()),
                }
                read.push(key.clone());
                ty = &item.ty;
            }
            // An array, a scalar, `any`, or a computed key: the rest is not the schema's.
            _ => break,
        }
    }
    Ok(path)
}

fn key_name(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

/// The schema's leaves: map items whose value is not a map with items of its own (values
/// marked `@schema/removed` left out).
fn collect_leaves(
    ty: &Type,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, crate::pos::Pos)>,
) {
    let mut ty = ty;
    while let Kind::Null(inner) = &ty.kind {
        ty = inner;
    }
    let Kind::Map(items) = &ty.kind else { return };
    for item in items {
        let Some(key) = key_name(&item.key) else {
            continue;
        };
        // A value removed from the schema is expected to be read by nothing.
        if item.ty.docs.removed.is_some() {
            continue;
        }
        path.push(key);
        let mut inner = &item.ty;
        while let Kind::Null(i) = &inner.kind {
            inner = i;
        }
        match &inner.kind {
            Kind::Map(children) if !children.is_empty() => collect_leaves(inner, path, out),
            _ => out.push((path.clone(), item.pos.clone())),
        }
        path.pop();
    }
}

fn unknown(index: &Index<'_>, r: &Ref, miss: &Miss) -> Option<Finding> {
    let unit = &index.all[r.unit];
    let dotted = format!(".{}", miss.key);
    let mut pos = unit.pos(r.span, &dotted)?;
    if unit.width(&pos, &dotted) > 0 {
        pos.col += 1;
    } else {
        pos = unit.pos(r.span, &miss.key)?;
    }
    let mut full = vec!["data.values".to_string()];
    full.extend(miss.path.iter().cloned());
    full.push(miss.key.clone());
    let hint = super::suggest(&miss.key, &miss.candidates)
        .map(|s| format!(" (did you mean {s}?)"))
        .unwrap_or_default();
    let under = if miss.path.is_empty() {
        "at the top".to_string()
    } else {
        format!("under {}", miss.path.join("."))
    };
    let message = format!(
        "{}: the schema declares no {} {under}{hint}",
        full.join("."),
        miss.key
    );
    let width = unit.width(&pos, &miss.key);
    let mut f = Finding::new(UNKNOWN, message, pos).wide(width);
    if miss.declared_at.is_known() {
        f.related.push((
            "the schema declares this map here".to_string(),
            miss.declared_at.clone(),
        ));
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    const SCHEMA: &str =
        "#@data/values-schema\n---\napp:\n  port: 80\n  name: web\n  debug: false\n\
                          labels:\n  tier: web\nextra:\n  a: 1\n";

    #[test]
    fn unknown_references_are_found_in_every_branch_and_through_aliases() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"v.star\", \"app\")\n\
                   #@ if False:\nport: #@ data.values.app.prot\n#@ end\n\
                   name: #@ data.values[\"app\"][\"name\"].upper()\nd: #@ app.debugg\n\
                   l: #@ data.values.labels\nx: #@ data.values.extra[key]\n";
        let star = "load(\"@ytt:data\", \"data\")\napp = data.values.app\n";
        let files = [("schema.yml", SCHEMA), ("t.yml", tpl), ("v.star", star)];
        assert_eq!(
            findings(&files, super::UNKNOWN),
            [
                "t.yml:4:26 data.values.app.prot: the schema declares no prot under app (did you mean port?)",
                "t.yml:7:11 data.values.app.debugg: the schema declares no debugg under app (did you mean debug?)",
            ]
        );
        // app.name, labels (whole) and extra (by a computed key) are read; the typos read
        // nothing.
        assert_eq!(
            findings(&files, super::UNUSED),
            [
                "schema.yml:4:3 data value app.port is declared in the schema but nothing in the library reads it",
                "schema.yml:6:3 data value app.debug is declared in the schema but nothing in the library reads it",
            ]
        );
    }

    #[test]
    fn leaves_nothing_reads_are_found_unless_a_map_is_used_whole() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n\
                   port: #@ data.values.app.port\nlabels: #@ yaml.encode(data.values.labels)\n";
        let files = [("schema.yml", SCHEMA), ("t.yml", tpl)];
        assert_eq!(
            findings(&files, super::UNUSED),
            [
                "schema.yml:5:3 data value app.name is declared in the schema but nothing in the library reads it",
                "schema.yml:6:3 data value app.debug is declared in the schema but nothing in the library reads it",
                "schema.yml:10:3 data value extra.a is declared in the schema but nothing in the library reads it",
            ]
        );
        assert!(findings(&files, super::UNKNOWN).is_empty());
    }

    #[test]
    fn libraries_without_a_schema_are_not_checked() {
        let values = "#@data/values\n---\na: 1\n";
        let tpl = "#@ load(\"@ytt:data\", \"data\")\nb: #@ data.values.b\n";
        let files = [("values.yml", values), ("t.yml", tpl)];
        assert!(findings(&files, super::UNKNOWN).is_empty());
        assert!(findings(&files, super::UNUSED).is_empty());
    }

    #[test]
    fn keys_of_an_any_key_map_are_read_through_its_underscore_item() {
        use crate::analysis::testing::findings_with;
        use crate::library::EvalOpts;
        use crate::schema::extensions::Extensions;
        let schema = "#@data/values-schema\n---\ndb:\n  #@schema/any-key\n  _:\n    host: \"\"\n    port: 0\n";
        let tpl = "#@ load(\"@ytt:data\", \"data\")\nh: #@ data.values.db.primary.host\n\
                   p: #@ data.values.db.replica.prot\n";
        let files = [("schema.yml", schema), ("t.yml", tpl)];
        let on = || EvalOpts {
            extensions: Extensions::from_names(&["schema-any-key"]).unwrap(),
            ..EvalOpts::default()
        };
        // Any key is declared; below it, the `_` item's keys are checked.
        assert_eq!(
            findings_with(&files, super::UNKNOWN, on()),
            ["t.yml:3:30 data.values.db.replica.prot: the schema declares no prot under db.replica (did you mean port?)"]
        );
        assert_eq!(
            findings_with(&files, super::UNUSED, on()),
            ["schema.yml:7:5 data value db._.port is declared in the schema but nothing in the library reads it"]
        );
        // Without the extension, `_` is a key like the others.
        assert_eq!(
            findings(&files, super::UNKNOWN),
            [
                "t.yml:2:22 data.values.db.primary: the schema declares no primary under db",
                "t.yml:3:22 data.values.db.replica: the schema declares no replica under db",
            ]
        );
    }

    #[test]
    fn removed_values_are_not_unused() {
        let schema = "#@data/values-schema\n---\n#@schema/removed \"use service.port\"\nport: 0\n\
                      service:\n  port: 80\n";
        let tpl = "#@ load(\"@ytt:data\", \"data\")\nport: #@ data.values.service.port\n";
        let files = [("schema.yml", schema), ("t.yml", tpl)];
        assert!(findings(&files, super::UNUSED).is_empty());
    }
}
