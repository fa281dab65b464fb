//! Turns a Kubernetes OpenAPI schema (a k8s-openapi definition or a CRD's `openAPIV3Schema`)
//! into the JSON Schema (draft 4, OpenAPI 3.0's dialect) that rejects what the API server
//! rejects, as kubeconform's `openapi2jsonschema` does for its strict mode, with Kubernetes'
//! extensions honoured:
//!
//! - an object with declared fields gets `additionalProperties: false` (kubectl's strict field
//!   validation), except under `x-kubernetes-preserve-unknown-fields: true`; in a CRD an
//!   object without fields prunes everything, so it is closed too. Subschemas of `allOf`,
//!   `anyOf`, `oneOf` and `not` are left open: structural schemas repeat their fields outside;
//! - `x-kubernetes-int-or-string: true` without a type accepts an integer or a string, and
//!   `Quantity` a number or a string (its JSON decoder takes both);
//! - `nullable: true` adds `null` to the type;
//! - `format: int32` becomes its range; of the string formats only those checked with
//!   Kubernetes' meaning stay (`byte`, `date-time`, `ipv4`, `ipv6`), the others (`duration` is
//!   Go's `1h30m` for Kubernetes but ISO 8601's `P1D` for JSON Schema) are dropped;
//! - a CRD's Go `pattern` with a leading `(?i)` is written for ECMA-262 (other Go-only syntax
//!   drops the pattern: [`super::go_pattern`]);
//! - `x-kubernetes-embedded-resource: true` declares `apiVersion`, `kind` and `metadata`;
//! - built-in definitions get the closed value sets of [`super::enums`].

use serde_json::{json, Map, Value};

use super::enums;

/// The definition k8s-openapi gives every resource's `metadata`.
pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/// Where a schema comes from: the rules differ a little.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Origin<'a> {
    /// A k8s-openapi definition, by name.
    Builtin(&'a str),
    /// A CRD's schema; `metadata` is the schema of embedded resources' metadata; `prune` is
    /// false when the CRD keeps unknown fields everywhere (`spec.preserveUnknownFields`).
    Crd { metadata: &'a Value, prune: bool },
}

/// The formats kept (the checker implements them with Kubernetes' meaning).
pub const FORMATS: [&str; 4] = ["byte", "date-time", "ipv4", "ipv6"];

/// Hardens `schema` in place (see the module's documentation).
pub fn harden(schema: &mut Value, origin: Origin) {
    if let Origin::Builtin(name) = origin {
        if name == QUANTITY {
            if let Value::Object(m) = schema {
                m.insert("type".into(), json!(["number", "string"]));
            }
        }
        add_enums(schema, name);
    }
    node(schema, origin, true);
}

/// One schema node; `structural` is false inside the logical junctors.
fn node(schema: &mut Value, origin: Origin, structural: bool) {
    let Value::Object(m) = schema else { return };
    let preserve = m.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
    if m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true))
        && !m.contains_key("type")
        && !m.contains_key("anyOf")
    {
        m.insert("type".into(), json!(["integer", "string"]));
    }
    if m.get("nullable") == Some(&Value::Bool(true)) {
        if let Some(Value::String(t)) = m.get("type") {
            let t = t.clone();
            m.insert("type".into(), json!([t, "null"]));
        }
    }
    format(m);
    pattern(m);
    if let Origin::Crd { metadata, .. } = origin {
        if m.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true)) {
            declare_type_meta(m, metadata);
        }
    }
    let is_object = m.contains_key("properties")
        || (matches!(origin, Origin::Crd { .. }) && m.get("type") == Some(&json!("object")));
    let prune = !matches!(origin, Origin::Crd { prune: false, .. });
    if structural && prune && is_object && !preserve && !m.contains_key("additionalProperties") {
        m.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        props.values_mut().for_each(|p| node(p, origin, structural));
    }
    for key in ["items", "additionalProperties"] {
        if let Some(s) = m.get_mut(key) {
            node(s, origin, structural);
        }
    }
    if let Some(s) = m.get_mut("not") {
        node(s, origin, false);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = m.get_mut(key) {
            list.iter_mut().for_each(|s| node(s, origin, false));
        }
    }
}

/// `format` as the checker applies it: `int32` as a range, unknown string formats dropped.
fn format(m: &mut Map<String, Value>) {
    let Some(f) = m.get("format").and_then(Value::as_str).map(str::to_string) else {
        return;
    };
    if f == "int32" {
        m.entry("minimum").or_insert(json!(i32::MIN));
        m.entry("maximum").or_insert(json!(i32::MAX));
    }
    if !FORMATS.contains(&f.as_str()) {
        m.remove("format");
    }
}

/// `pattern` as the checker can apply it: a Go pattern rewritten for ECMA-262, or dropped
/// (see [`super::go_pattern`]).
fn pattern(m: &mut Map<String, Value>) {
    let Some(p) = m.get("pattern").and_then(Value::as_str) else {
        return;
    };
    match super::go_pattern::ecma(p) {
        Some(e) if e == p => {}
        Some(e) => {
            m.insert("pattern".into(), Value::String(e));
        }
        None => {
            m.remove("pattern");
        }
    }
}

/// An embedded resource has `apiVersion`, `kind` and `metadata` whether or not its schema
/// lists them (the API server validates them itself).
fn declare_type_meta(m: &mut Map<String, Value>, metadata: &Value) {
    if !m.contains_key("properties") {
        return;
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        props
            .entry("apiVersion")
            .or_insert(json!({"type": "string"}));
        props.entry("kind").or_insert(json!({"type": "string"}));
        props.entry("metadata").or_insert(metadata.clone());
    }
}

/// Puts the table's values on the definition's properties (on the items of an array).
fn add_enums(schema: &mut Value, definition: &str) {
    let Some(Value::Object(props)) = schema.get_mut("properties") else {
        return;
    };
    for (name, prop) in props.iter_mut() {
        let Some(values) = enums::of(definition, name) else {
            continue;
        };
        let target = match prop.get("type") {
            Some(Value::String(t)) if t == "array" => prop.get_mut("items"),
            _ => Some(prop),
        };
        if let Some(Value::Object(t)) = target {
            t.insert("enum".into(), json!(values));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: Value = Value::Null;

    fn crd(mut v: Value) -> Value {
        harden(
            &mut v,
            Origin::Crd {
                metadata: &META,
                prune: true,
            },
        );
        v
    }

    #[test]
    fn closes_objects_unless_fields_are_preserved() {
        let v = crd(json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "open": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "map": {"type": "object", "additionalProperties": {"type": "string"}},
            "empty": {"type": "object"}
        }}));
        assert_eq!(v["additionalProperties"], json!(false));
        assert_eq!(v["properties"]["a"]["additionalProperties"], json!(false));
        assert!(v["properties"]["open"]
            .get("additionalProperties")
            .is_none());
        assert_eq!(
            v["properties"]["map"]["additionalProperties"],
            json!({"type": "string"})
        );
        assert_eq!(
            v["properties"]["empty"]["additionalProperties"],
            json!(false)
        );
    }

    #[test]
    fn leaves_builtin_objects_without_fields_open() {
        let mut v = json!({"type": "object"});
        harden(
            &mut v,
            Origin::Builtin("io.k8s.apimachinery.pkg.runtime.RawExtension"),
        );
        assert!(v.get("additionalProperties").is_none());
    }

    #[test]
    fn leaves_junctor_branches_open() {
        let v = crd(
            json!({"type": "object", "properties": {"a": {"type": "string"}},
            "anyOf": [{"properties": {"a": {"type": "string"}}}]}),
        );
        assert!(v["anyOf"][0].get("additionalProperties").is_none());
    }

    #[test]
    fn types_int_or_string_nullable_and_formats() {
        let v = crd(json!({"type": "object", "properties": {
            "port": {"x-kubernetes-int-or-string": true},
            "n": {"type": "string", "nullable": true},
            "i": {"type": "integer", "format": "int32"},
            "d": {"type": "string", "format": "duration"},
            "b": {"type": "string", "format": "byte"}
        }}));
        let p = &v["properties"];
        assert_eq!(p["port"]["type"], json!(["integer", "string"]));
        assert_eq!(p["n"]["type"], json!(["string", "null"]));
        assert_eq!(p["i"]["maximum"], json!(i32::MAX));
        assert!(p["i"].get("format").is_none() && p["d"].get("format").is_none());
        assert_eq!(p["b"]["format"], json!("byte"));
    }

    #[test]
    fn embedded_resources_declare_type_meta() {
        let meta = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
        let mut v = json!({"type": "object", "x-kubernetes-embedded-resource": true,
            "properties": {"spec": {"type": "object"}}});
        harden(
            &mut v,
            Origin::Crd {
                metadata: &meta,
                prune: true,
            },
        );
        assert_eq!(v["properties"]["kind"], json!({"type": "string"}));
        assert_eq!(v["properties"]["metadata"], meta);
    }

    #[test]
    fn builtin_enums_and_quantity() {
        let mut c = json!({"type": "object", "properties": {
            "imagePullPolicy": {"type": "string"}}});
        harden(&mut c, Origin::Builtin("io.k8s.api.core.v1.Container"));
        assert_eq!(
            c["properties"]["imagePullPolicy"]["enum"],
            json!(["Always", "Never", "IfNotPresent"])
        );
        let mut pvc = json!({"type": "object", "properties": {
            "accessModes": {"type": "array", "items": {"type": "string"}}}});
        harden(
            &mut pvc,
            Origin::Builtin("io.k8s.api.core.v1.PersistentVolumeClaimSpec"),
        );
        assert!(pvc["properties"]["accessModes"]["items"]["enum"].is_array());
        let mut q = json!({"x-kubernetes-int-or-string": true});
        harden(&mut q, Origin::Builtin(QUANTITY));
        assert_eq!(q["type"], json!(["number", "string"]));
    }
}
