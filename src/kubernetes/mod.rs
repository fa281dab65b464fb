//! Kubernetes schema checking of rendered documents (rule `k8s-schema`). ytt renders
//! `containers: [{imag: nginx}]` or `containerPort: "8080"` without complaint and kubectl
//! then rejects the object; this module finds such fields in ytt's output and points at the
//! template line that produced each one.
//!
//! A document is checked against the schema of its `(apiVersion, kind)` in a [`Registry`]:
//! the built-in kinds of one Kubernetes version ([`builtin`], generated with the catalog of the
//! ecosystem's CRDs, [`catalog`], by `scripts/catalog/generate.py`), the
//! CustomResourceDefinitions added to it, then the catalog. [`apis`] says which API versions a
//! Kubernetes version deprecated or removed. Schemas are made as
//! strict as kubectl's field validation ([`harden`]) and checked with the `jsonschema` crate;
//! the errors become [`Violation`]s: an unknown field (with "did you mean"), a value of the
//! wrong type, a missing required field, a value outside an enum, a bad format or range.
//!
//! ```ignore
//! let mut registry = Registry::builtin(DEFAULT_VERSION)?;
//! for doc in &output.docs.items { registry.add_crd(doc); }
//! for doc in &output.docs.items {
//!     for v in check(&registry, doc).violations() { /* a finding at v.pos */ }
//! }
//! ```

pub mod apis;
pub mod builtin;
pub mod catalog;
mod check;
pub mod enums;
mod go_pattern;
pub mod harden;
mod indent;
mod instance;
pub mod kept_crds;
mod message;
mod registry;

pub use check::{check, top_string};
pub use instance::{display_path, written_at, Step};
pub use registry::{crd_group_kind, group_of, Registry, DEFAULT_VERSION, VERSIONS};

/// The template position of the map item at `keys` (`["spec", "group"]`): its key's line, or
/// the nearest item above it that the document has.
pub fn item_pos(doc: &crate::yaml::Document, keys: &[&str]) -> Pos {
    let steps: Vec<instance::Step> = keys
        .iter()
        .map(|k| instance::Step::Key(k.to_string()))
        .collect();
    instance::locate(doc, &steps).item
}

/// What a CustomResourceDefinition document defines, without its descriptions: two documents
/// with the same definition give the same schemas. `None` for any other document.
pub fn crd_definition(doc: &crate::yaml::Document) -> Option<serde_json::Value> {
    let mut scratch = Registry::empty();
    if scratch.add_crd(doc) == 0 {
        return None;
    }
    Some(definition_of_crd(doc))
}

/// [`crd_definition`] of a document already known to define a kind (a registry it was added
/// to has the kind): the same value, without adding the document to a registry again.
pub fn definition_of_crd(doc: &crate::yaml::Document) -> serde_json::Value {
    instance::schema_json(doc)["spec"].take()
}

use crate::pos::Pos;

/// A field of a rendered object that the API server would reject.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The template node that produced it: an unknown field's key, the item holding a value
    /// of the wrong type, the map that lacks a required field.
    pub pos: Pos,
    /// The object: `Deployment default/app`.
    pub object: String,
    /// The field: `spec.template.spec.containers[0].imag`.
    pub path: String,
    pub message: String,
    /// `did you mean "image"?`
    pub help: Option<String>,
}

/// What checking one document gave.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckResult {
    /// Checked against its schema; the violations are sorted by position.
    Checked(Vec<Violation>),
    /// Not a Kubernetes object (no string `apiVersion` and `kind`).
    NotAnObject,
    /// No schema is known for the kind (a CRD not given to the registry, a removed API).
    NoSchema { api_version: String, kind: String },
    /// The kind's schema does not compile (a CRD's schema the validator refuses).
    BadSchema {
        api_version: String,
        kind: String,
        message: String,
    },
}

impl CheckResult {
    /// The violations found (none unless [`CheckResult::Checked`]).
    pub fn violations(&self) -> &[Violation] {
        match self {
            CheckResult::Checked(v) => v,
            _ => &[],
        }
    }
}
