//! Tests of the schema through a whole library evaluation, on schemas taken from ytt's
//! conformance cases and documentation: inference, defaults, type checking and its messages,
//! schema errors, the OpenAPI export.

use crate::files::InputFile;
use crate::library::envelope::Envelope;
use crate::library::{EvalOpts, ExternalValues, Workspace};
use crate::schema::types::{Kind, ScalarKind};
use crate::schema::Schema;
use crate::yaml::emit::docset_to_yaml;
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{DocSet, Document};

/// Runs `f` on a thread with a large stack (the evaluator recurses deeply).
fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("join")
}

fn workspace(files: &[(&str, &str)]) -> Workspace {
    let files = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
    Workspace::new(files, EvalOpts::default())
}

fn yaml(doc: Document) -> String {
    docset_to_yaml(&DocSet {
        items: vec![doc],
        ..DocSet::default()
    })
}

/// The final data values of a library, or the error message.
fn values(files: &[(&str, &str)]) -> Result<String, String> {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, d)| (p.to_string(), d.to_string()))
        .collect();
    big_stack(move || {
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, d)| (p.as_str(), d.as_str()))
            .collect();
        let ws = workspace(&refs);
        ws.data_values(ExternalValues::default())
            .map(yaml)
            .map_err(|e| e.message)
    })
}

/// The final data values given one plain YAML document from outside.
fn values_with(files: &[(&str, &str)], extra: &str) -> Result<String, String> {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, d)| (p.to_string(), d.to_string()))
        .collect();
    let extra = extra.to_string();
    big_stack(move || {
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, d)| (p.as_str(), d.as_str()))
            .collect();
        let ws = workspace(&refs);
        let name = std::sync::Arc::from("dvs.yml");
        let ds = parse(&extra, &name, &ParseOpts::default()).expect("yaml");
        let doc = crate::overlay::plain_merge_overlay(&ds.items[0]).expect("plain");
        let external = ExternalValues {
            root: vec![Envelope::new(doc).expect("envelope")],
            sources: vec![("dvs.yml".into(), std::sync::Arc::from(extra.as_str()))],
            ..ExternalValues::default()
        };
        ws.data_values(external).map(yaml).map_err(|e| e.message)
    })
}

fn schema_of(src: &str) -> Result<Schema, String> {
    let src = src.to_string();
    big_stack(move || {
        workspace(&[("schema.yml", &src)])
            .data_values_schema()
            .map_err(|e| e.message)
    })
}

const DATABASES: &str = "#@data/values-schema
---
system_domain: \"\"
load_balancer:
  enabled: true
  static_ip: \"\"
#@schema/nullable
tls:
  cert: \"\"
ratio: 0.5
#@schema/type any=True
extra:
- 1
- two
databases:
- name: \"\"
  adapter: postgresql
  port: 5432
";

#[test]
fn infers_types_from_values() {
    let schema = schema_of(DATABASES).expect("schema");
    let doc = schema.doc.expect("a schema");
    let kind = |k: &str| doc.item(k).map(|i| i.ty.kind.clone()).expect("item");
    assert!(matches!(
        kind("system_domain"),
        Kind::Scalar(ScalarKind::String, _)
    ));
    assert!(matches!(kind("ratio"), Kind::Scalar(ScalarKind::Float, _)));
    assert!(matches!(kind("load_balancer"), Kind::Map(items) if items.len() == 2));
    assert!(matches!(kind("tls"), Kind::Null(_)));
    assert!(matches!(kind("extra"), Kind::Any(_)));
    let Kind::Array(item, _) = kind("databases") else {
        panic!("array expected")
    };
    assert!(matches!(&item.ty.kind, Kind::Map(items) if items.len() == 3));
    assert_eq!(doc.item("databases").map(|i| i.pos.line), Some(15));
}

#[test]
fn schema_defaults_are_the_first_data_values() {
    let got = values(&[("schema.yml", DATABASES)]).expect("values");
    assert_eq!(
        got,
        "system_domain: \"\"\nload_balancer:\n  enabled: true\n  static_ip: \"\"\ntls: null\n\
         ratio: 0.5\nextra:\n- 1\n- two\ndatabases: []\n"
    );
}

#[test]
fn array_items_added_by_data_values_get_their_defaults() {
    let dvs = "#@data/values\n---\ndatabases:\n- name: core\n- name: audit\n  port: 1\n";
    let got = values(&[("schema.yml", DATABASES), ("values.yml", dvs)]).expect("values");
    assert!(got.contains(
        "databases:\n- name: core\n  adapter: postgresql\n  port: 5432\n\
         - name: audit\n  port: 1\n  adapter: postgresql\n"
    ));
}

#[test]
fn schema_default_annotation_overrides_and_fills_array_items() {
    let src = "#@ def default_dbs():
- name: core
- name: audit
  user: observer
#@ end

#@data/values-schema
---
#@schema/default default_dbs()
databases:
- name: \"\"
  user: admin
#@schema/nullable
#@schema/default {'admin': 'root'}
users:
  admin: \"\"
  list:
  - \"\"
";
    let got = values(&[("schema.yml", src)]).expect("values");
    assert_eq!(
        got,
        "databases:\n- name: core\n  user: admin\n- name: audit\n  user: observer\n\
         users:\n  admin: root\n  list: []\n"
    );
}

#[test]
fn reports_every_mismatch_at_the_line_that_set_it() {
    let dvs = "---\nsystem_domain: 1\nload_balancer:\n  enabled: \"yes\"\nratio: 2\ndatabases:\n- port: x\n";
    let err = values_with(&[("schema.yml", DATABASES)], dvs).expect_err("mismatch");
    assert_eq!(
        err,
        "Overlaying data values (in following order: additional data values): \n\
         One or more data values were invalid\n\
         ====================================\n\n\
         dvs.yml:\n    |\n  2 | system_domain: 1\n    |\n\n\
         \x20   = found: integer\n    = expected: string (by schema.yml:3)\n\n\
         dvs.yml:\n    |\n  4 |   enabled: \"yes\"\n    |\n\n\
         \x20   = found: string\n    = expected: boolean (by schema.yml:5)\n\n\
         dvs.yml:\n    |\n  7 | - port: x\n    |\n\n\
         \x20   = found: string\n    = expected: integer (by schema.yml:18)\n\n"
    );
}

#[test]
fn reports_undeclared_keys_with_a_suggestion() {
    let dvs = "---\nload_balancer:\n  static_ipp: 10.0.0.1\n";
    let err = values_with(&[("schema.yml", DATABASES)], dvs).expect_err("undeclared");
    assert!(err.contains(
        "Given data value is not declared in schema\ndvs.yml:\n    |\n  3 |   static_ipp: 10.0.0.1\n"
    ));
    assert!(err.contains("= found: static_ipp\n"));
    assert!(err.contains("= expected: one of { enabled, static_ip } (from schema.yml:4)\n"));
    assert!(err.contains("= hint: did you mean \"static_ip\"?\n"));
}

#[test]
fn nullable_values_accept_null_and_their_type_only() {
    let ok = values_with(&[("schema.yml", DATABASES)], "---\ntls:\n  cert: abc\n").expect("ok");
    assert!(ok.contains("tls:\n  cert: abc\n"));
    let err = values_with(&[("schema.yml", DATABASES)], "---\ntls:\n  cert: 3\n");
    assert!(err
        .expect_err("int")
        .contains("= expected: string (by schema.yml:9)"));
}

#[test]
fn refuses_arrays_without_exactly_one_item() {
    let err = schema_of("#@data/values-schema\n---\nvpc:\n  subnet_ids:\n  - 0\n  - 1\n")
        .expect_err("two items");
    assert!(err.starts_with(
        "Overlaying data values schema (in following order: schema.yml): \n\
         Invalid schema - wrong number of items in array definition\n"
    ));
    assert!(err.contains("  4 |   subnet_ids:\n"));
    assert!(err.contains("= found: 2 array items\n"));
}

#[test]
fn refuses_null_without_nullable_and_annotations_inside_any() {
    let err = schema_of("#@data/values-schema\n---\nfoo: null\n").expect_err("null");
    assert!(err.contains("Invalid schema - null value not allowed here"));
    let src =
        "#@data/values-schema\n---\n#@schema/type any=True\nfoo:\n  #@schema/nullable\n  bar: 7\n";
    let err = schema_of(src).expect_err("nested");
    assert!(err.contains("Schema was specified within an \"any type\" fragment\nschema.yml:\n    |\n  5 |   #@schema/nullable\n  6 |   bar: 7\n"));
    assert!(err.contains("= found: @schema/nullable annotation(s)\n"));
}

#[test]
fn checks_the_type_of_schema_defaults() {
    let err = schema_of("#@data/values-schema\n---\n#@schema/default 1\nfoo: a string\n")
        .expect_err("wrong default");
    assert!(err.contains("Invalid schema - @schema/default is wrong type\n"));
    assert!(err.contains("= found: integer (at schema.yml:3)\n"));
    assert!(err.contains("= expected: string (by schema.yml:4)\n"));
}

#[test]
fn later_schema_documents_overlay_earlier_ones() {
    let dev =
        "#@data/values-schema\n---\n#@overlay/match missing_ok=True\ndev:\n  version: develop\n";
    let got = values(&[("schema.yml", DATABASES), ("dev.yml", dev)]).expect("values");
    assert!(got.ends_with("databases: []\ndev:\n  version: develop\n"));
}

#[test]
fn libraries_without_schema_are_unchanged() {
    let dvs = "#@data/values\n---\nanything: [1, 2]\n";
    assert_eq!(
        values(&[("values.yml", dvs)]).expect("values"),
        "anything:\n- 1\n- 2\n"
    );
}

#[test]
fn exports_openapi_as_ytt_does() {
    let src = "#@data/values-schema
---
#@schema/title \"Port\"
#@schema/desc \"The port\"
#@schema/examples (\"http\", 80)
port: 443
#@schema/nullable
#@schema/deprecated \"use port\"
ratio: 0.5
";
    let schema = schema_of(src).expect("schema");
    let got = yaml(crate::schema::openapi::document(&schema, false));
    assert_eq!(
        got,
        "openapi: 3.0.0
info:
  version: 0.1.0
  title: Schema for data values, generated by ytt
paths: {}
components:
  schemas:
    dataValues:
      type: object
      additionalProperties: false
      properties:
        port:
          title: Port
          type: integer
          description: The port
          x-example-description: http
          example: 80
          default: 443
        ratio:
          type: number
          format: float
          nullable: true
          deprecated: true
          default: null
"
    );
}
