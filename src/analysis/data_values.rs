//! `data-value-unknown-reference` and `data-value-unused`: every reference to data values
//! (see [`super::value_refs`]) checked against the shape of the library's data values (see
//! [`super::value_shape`]: its schema, or without one its `@data/values` documents merged with
//! the values given from outside), in every branch; and the declared leaves that nothing in the
//! library reads. A reference that uses a value whole (passes it to a function, encodes it,
//! iterates it, hands it to a library) counts as reading everything below it. Values typed
//! `any`, and open parts of the shape, are not checked.

use super::index::Index;
use super::value_refs::Ref;
use super::value_shape::{Miss, Node, Source};
use super::Finding;
use crate::pos::Pos;
use crate::report::Rule;

pub const UNKNOWN: Rule = Rule::DataValueUnknownReference;
pub const UNUSED: Rule = Rule::DataValueUnused;

/// The findings of both rules for the library of `index`, whose data values have `shape`,
/// and the path of each value of `data-value-unused` (the finding at the same position).
pub fn check(
    index: &Index<'_>,
    mut shape: Node,
    source: Source,
) -> (Vec<Finding>, Vec<(Vec<String>, Pos)>) {
    let mut found = Vec::new();
    let mut unused = Vec::new();
    let mut used: Vec<Vec<String>> = Vec::new();
    let all = index.value_refs();
    // What code probes may be there: references below it are not sure to fail.
    for r in all.iter().filter(|r| r.probe) {
        shape.open_at(&r.segs);
    }
    for r in all {
        match shape.resolve(&r.segs) {
            Ok(path) => used.push(path),
            // A private library's file is checked with its own library; here its reads count.
            Err(miss) if !r.probe && r.unit < index.own => {
                found.extend(unknown(index, r, &miss, source))
            }
            Err(_) => {}
        }
    }
    // A code file that does not compile may read any value: which are unused is not known
    // (the file's own error is reported; a warning for each value it reads would not be true).
    let leaves = if index.unparsed == 0 {
        shape.leaves()
    } else {
        Vec::new()
    };
    for (path, pos) in leaves {
        if used.iter().any(|u| path.starts_with(u)) {
            continue;
        }
        let dotted = path.join(".");
        let message = match source {
            Source::Schema => format!(
                "data value {dotted} is declared in the schema but nothing in the library reads it"
            ),
            Source::Values => format!(
                "data value {dotted} is set in a data values document but nothing in the library reads it"
            ),
        };
        let width = path.last().map_or(0, |k| k.chars().count() as u32);
        found.push(Finding::new(UNUSED, message, pos.clone()).wide(width));
        unused.push((path, pos));
    }
    (found, unused)
}

fn unknown(index: &Index<'_>, r: &Ref, miss: &Miss, source: Source) -> Option<Finding> {
    let unit = &index.all[r.unit];
    let dotted = format!(".{}", miss.key);
    let mut pos = unit.pos_within(r.span, &dotted)?;
    if unit.width(&pos, &dotted) > 0 {
        pos.col += 1;
    } else {
        pos = unit.pos_within(r.span, &miss.key)?;
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
    let (who, related) = match source {
        Source::Schema => ("the schema declares", "the schema declares this map here"),
        Source::Values => (
            "no data values document or input sets",
            "the data values set this map here",
        ),
    };
    let message = match source {
        Source::Schema => format!("{}: {who} no {} {under}{hint}", full.join("."), miss.key),
        Source::Values => format!("{}: {who} {} {under}{hint}", full.join("."), miss.key),
    };
    let width = unit.width(&pos, &miss.key);
    let fix = super::fixes::unique_suggestion(&miss.key, &miss.candidates)
        .filter(|_| width > 0)
        .and_then(|s| {
            let edit = super::fixes::replace_at(unit, &pos, 0, &miss.key, &s)?;
            let mut shown = full.clone();
            if let Some(last) = shown.last_mut() {
                *last = s;
            }
            let title = format!("Read `{}` instead", shown.join("."));
            Some(crate::fix::Fix::unsafe_(title, edit))
        });
    let mut f = Finding::new(UNKNOWN, message, pos).wide(width).fixed(fix);
    // Without a schema, what is declared is what the given values files set.
    f.on_inputs = matches!(source, Source::Values);
    if miss.declared_at.is_known() {
        f.related
            .push((related.to_string(), miss.declared_at.clone()));
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;
    use crate::report::Rule;

    const SCHEMA: &str =
        "#@data/values-schema\n---\napp:\n  port: 80\n  name: web\n  debug: false\n\
                          labels:\n  tier: web\nextra:\n  a: 1\n";

    #[test]
    fn unknown_references_are_found_in_every_branch_and_through_aliases() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"v.star\", \"app\")\n\
                   #@ if False:\nport: #@ data.values.app.prot\n#@ end\n\
                   name: #@ data.values[\"app\"][\"name\"].upper()\nd: #@ app.debugg\n\
                   l: #@ data.values.labels\nx: #@ data.values.extra[key]\n\
                   y: #@ data.values.app.prot or app.prot\n";
        let star = "load(\"@ytt:data\", \"data\")\napp = data.values.app\n";
        let files = [("schema.yml", SCHEMA), ("t.yml", tpl), ("v.star", star)];
        assert_eq!(
            findings(&files, super::UNKNOWN),
            [
                "t.yml:4:26 data.values.app.prot: the schema declares no prot under app (did you mean port?)",
                "t.yml:7:11 data.values.app.debugg: the schema declares no debugg under app (did you mean debug?)",
                "t.yml:10:23 data.values.app.prot: the schema declares no prot under app (did you mean port?)",
                "t.yml:10:35 data.values.app.prot: the schema declares no prot under app (did you mean port?)",
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
    fn a_reference_with_one_candidate_is_fixed() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\nport: #@ data.values.app.prot\n\
                   name: #@ data.values[\"app\"][\"nmae\"]\ntier: #@ data.values.labels.teir\n\
                   x: #@ data.values.extra.b\n";
        let files = [("t.yml", tpl), ("schema.yml", SCHEMA)];
        assert_eq!(
            crate::analysis::testing::fixed(&files, super::UNKNOWN),
            tpl.replace("prot", "port")
                .replace("nmae", "name")
                .replace("teir", "tier")
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

    /// The findings of `rule` for a library without a schema, `given` the documents (YAML)
    /// given from outside, `None`: unknown.
    fn schemaless(files: &[(&str, &str)], rule: Rule, given: Option<&str>) -> Vec<String> {
        use crate::analysis::testing::findings_outside;
        use crate::analysis::Outside;
        let outside = match given {
            None => Outside::Unknown,
            Some(text) => {
                let ds = crate::yaml::parse::parse(
                    text,
                    &"given.yml".into(),
                    &crate::yaml::parse::ParseOpts::default(),
                )
                .unwrap();
                Outside::Known(ds.items.into_iter().map(|d| d.value).collect())
            }
        };
        findings_outside(files, rule, Default::default(), &outside)
    }

    const VALUES: &str =
        "#@ load(\"@ytt:data\", \"data\")\n#@data/values\n---\napp:\n  port: 80\n  name: web\n\
                          labels: #@ {\"a\": 1}\nextra: null\nempty: {}\nlist: [1]\n";

    #[test]
    fn without_a_schema_references_are_checked_against_the_data_values_documents() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ if False:\np: #@ data.values.app.prot\n#@ end\n\
                   n: #@ data.values.app.name\nl: #@ data.values.labels.a\ne: #@ data.values.extra.x\n\
                   m: #@ data.values.empty.y\nz: #@ data.values.list[0]\nq: #@ data.values.missing\n\
                   #@ if hasattr(data.values, \"opt\") and \"b\" in data.values.app:\no: #@ data.values.opt.x + data.values.app.b\n#@ end\n\
                   #@ if \"c\" in dir(data.values):\nc: #@ data.values.c.d\n#@ end\n";
        let files = [("values.yml", VALUES), ("t.yml", tpl)];
        // Computed values, null and empty maps are open; probed keys may be there.
        assert_eq!(
            schemaless(&files, super::UNKNOWN, Some("")),
            [
                "t.yml:3:23 data.values.app.prot: no data values document or input sets prot under app (did you mean port?)",
                "t.yml:10:19 data.values.missing: no data values document or input sets missing at the top",
            ]
        );
        assert_eq!(
            schemaless(&files, super::UNUSED, Some("")),
            ["values.yml:5:3 data value app.port is set in a data values document but nothing in the library reads it"]
        );
        // Values given from outside (a scenario, a flag) may add keys.
        let given = "app:\n  prot: 1\nmissing: 2\n---\nfrom_flag: 3\n";
        assert!(schemaless(&files, super::UNKNOWN, Some(given)).is_empty());
        assert_eq!(schemaless(&files, super::UNUSED, Some(given)).len(), 1);
        // Values given at run time or by a caller: nothing is sure.
        assert!(schemaless(&files, super::UNKNOWN, None).is_empty());
        assert!(schemaless(&files, super::UNUSED, None).is_empty());
    }

    #[test]
    fn without_a_schema_every_data_values_document_adds_keys() {
        let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values\n---\napp:\n  #@overlay/match missing_ok=True\n  tls: true\n\
                       ---\n#@library/ref \"@lib\"\n#@data/values\n---\nfor_lib: 1\n";
        let tpl = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.app.tls\nb: #@ data.values.for_lib\n";
        let files = [
            ("values.yml", VALUES),
            ("more.yml", overlay),
            ("t.yml", tpl),
        ];
        assert_eq!(
            schemaless(&files, super::UNKNOWN, Some("")),
            ["t.yml:3:19 data.values.for_lib: no data values document or input sets for_lib at the top"]
        );
        // A document computed whole, or a map an expression fills, has no known keys.
        let computed = "#@ load(\"@ytt:template\", \"template\")\n#@data/values\n---\napp:\n  _: #@ template.replace({\"x\": 1})\n";
        let files = [
            ("values.yml", VALUES),
            ("more.yml", computed),
            ("t.yml", tpl),
        ];
        assert_eq!(schemaless(&files, super::UNKNOWN, Some("")).len(), 1);
        let tpl2 = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.app.anything\n";
        let files = [
            ("values.yml", VALUES),
            ("more.yml", computed),
            ("t.yml", tpl2),
        ];
        assert!(schemaless(&files, super::UNKNOWN, Some("")).is_empty());
        let templated =
            "#@data/values\n---\n#@yaml/text-templated-strings\n(@= \"for_\" + \"lib\" @): 1\n";
        let files = [
            ("values.yml", VALUES),
            ("more.yml", templated),
            ("t.yml", tpl),
        ];
        assert!(schemaless(&files, super::UNKNOWN, Some("")).is_empty());
        let whole = "#@data/values\n--- #@ {\"k\": 1}\n";
        let files = [("values.yml", VALUES), ("more.yml", whole), ("t.yml", tpl)];
        assert!(schemaless(&files, super::UNKNOWN, Some("")).is_empty());
    }

    #[test]
    fn a_library_without_data_values_documents_is_not_checked() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\nb: #@ data.values.b\n";
        let files = [("t.yml", tpl)];
        assert!(schemaless(&files, super::UNKNOWN, Some("")).is_empty());
    }

    #[test]
    fn probed_keys_are_no_error_with_a_schema_either() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n\
                   #@ if hasattr(data.values.app, \"extra\"):\nx: #@ data.values.app.extra.y\n#@ end\n\
                   p: #@ getattr(data.values.app, \"port\", 80)\n";
        let files = [("schema.yml", SCHEMA), ("t.yml", tpl)];
        assert!(findings(&files, super::UNKNOWN).is_empty());
        // A probe reads the key it names, not the whole map.
        let unused = findings(&files, super::UNUSED);
        assert!(!unused.iter().any(|f| f.contains("app.port")), "{unused:?}");
        assert!(unused.iter().any(|f| f.contains("app.name")), "{unused:?}");
    }

    #[test]
    fn a_probe_of_a_computed_key_leaves_keys_written_out_checked() {
        // As tanzu-framework's validate.star: `getattr(data.values, variable, None)`.
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n\
                   #@ def get(name):\n#@   return getattr(data.values, name, None)\n#@ end\n\
                   v: #@ get(\"app\")\n#@ if False:\nx: #@ data.values.app.nmae\n#@ end\n";
        let files = [("schema.yml", SCHEMA), ("t.yml", tpl)];
        let found = findings(&files, super::UNKNOWN);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("app.nmae"), "{found:?}");
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

    #[test]
    fn values_of_a_library_whose_reader_does_not_compile_are_not_unused() {
        // Two templates read the values; one of them has a syntax error further down, so
        // its reads are not in sight: no value is called unused (its error is reported).
        let values = "#@data/values\n---\napp:\n  name: web\n  port: 80\nextra: 1\n";
        let good = "#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.app.name\n";
        let broken = "#@ load(\"@ytt:data\", \"data\")\n#@ app = data.values.app\n\
                      port: #@ app.port\nextra: #@ data.values.extra +\n";
        let files = [("values.yml", values), ("a.yml", good), ("b.yml", broken)];
        assert!(findings(&files, super::UNUSED).is_empty());
        // The same library with the second template fixed: nothing unused either; with it
        // left out, the values only it reads are unused.
        let fixed = broken.replace("extra +", "extra");
        let files = [("values.yml", values), ("a.yml", good), ("b.yml", &fixed)];
        assert!(findings(&files, super::UNUSED).is_empty());
        let files = [("values.yml", values), ("a.yml", good)];
        assert_eq!(
            findings(&files, super::UNUSED),
            [
                "values.yml:5:3 data value app.port is set in a data values document but nothing in the library reads it",
                "values.yml:6:1 data value extra is set in a data values document but nothing in the library reads it",
            ]
        );
    }
}
