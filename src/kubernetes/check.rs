//! Checks one rendered document against the schema of its kind and turns the validator's
//! errors into [`Violation`]s at the template nodes that produced the offending values.

use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use jsonschema::ValidationError;
use serde_json::Value as Json;

use super::instance::{display_path, locate, null_keys, schema_json, to_json, Step};
use super::message;
use super::registry::Registry;
use super::{CheckResult, Violation};
use crate::yaml::{Document, Value};

/// Checks `doc` against the schema the registry has for its `apiVersion` and `kind`.
pub fn check(registry: &Registry, doc: &Document) -> CheckResult {
    let (Some(api_version), Some(kind)) = (top_string(doc, "apiVersion"), top_string(doc, "kind"))
    else {
        return CheckResult::NotAnObject;
    };
    let compiled = match registry.compiled(api_version, kind) {
        None => {
            return CheckResult::NoSchema {
                api_version: api_version.to_string(),
                kind: kind.to_string(),
            }
        }
        Some(Err(message)) => {
            return CheckResult::BadSchema {
                api_version: api_version.to_string(),
                kind: kind.to_string(),
                message,
            }
        }
        Some(Ok(c)) => c,
    };
    // A CRD's schema descriptions are most of its text and are strings wherever they are
    // allowed: the validator is spared them.
    let json = match kind == "CustomResourceDefinition" {
        true => schema_json(doc),
        false => to_json(doc),
    };
    // A key set to `null` is left out of the JSON (the decoder leaves its field unset), but
    // an unknown one is still an unknown field: looked up in the schema directly.
    let nulls: Vec<(Vec<Step>, String, Vec<String>)> = null_keys(doc)
        .into_iter()
        .filter_map(|(steps, key)| {
            let fields = undeclared(&compiled.schema, &steps, &key)?;
            Some((steps, key, fields))
        })
        .collect();
    if nulls.is_empty() && compiled.validator.is_valid(&json) {
        return CheckResult::Checked(Vec::new());
    }
    let ctx = Context {
        doc,
        schema: &compiled.schema,
        object: object_name(kind, &json),
    };
    let mut out = Vec::new();
    for e in compiled.validator.iter_errors(&json) {
        ctx.violations(&e, &mut out);
    }
    for (steps, key, fields) in &nulls {
        out.push(message::unknown_field(&ctx, steps, key, fields));
    }
    out.sort_by(|a, b| (&a.pos, &a.path, &a.message).cmp(&(&b.pos, &b.path, &b.message)));
    out.dedup();
    CheckResult::Checked(out)
}

/// The string at `key` of the document's top-level map.
pub fn top_string<'a>(doc: &'a Document, key: &str) -> Option<&'a str> {
    let Value::Map(m) = &doc.value else {
        return None;
    };
    m.items
        .iter()
        .find(|i| i.key.as_str() == Some(key))
        .and_then(|i| i.value.as_str())
}

/// `Deployment default/app`, `ClusterRole admin`, or the kind alone.
fn object_name(kind: &str, json: &Json) -> String {
    let meta = &json["metadata"];
    match (meta["namespace"].as_str(), meta["name"].as_str()) {
        (Some(ns), Some(name)) => format!("{kind} {ns}/{name}"),
        (None, Some(name)) => format!("{kind} {name}"),
        _ => kind.to_string(),
    }
}

/// What every violation of one document shares.
pub struct Context<'a> {
    pub doc: &'a Document,
    pub schema: &'a Json,
    pub object: String,
}

impl Context<'_> {
    /// The violation at the item of `steps` (or, `at_item` false, at the node itself).
    pub fn at(
        &self,
        steps: &[Step],
        at_item: bool,
        message: String,
        help: Option<String>,
    ) -> Violation {
        let located = locate(self.doc, steps);
        Violation {
            pos: if at_item { located.item } else { located.value },
            object: self.object.clone(),
            path: display_path(steps),
            message,
            help,
        }
    }

    /// The violations one validator error stands for.
    pub fn violations(&self, e: &ValidationError, out: &mut Vec<Violation>) {
        let steps = steps_of(e);
        match e.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let fields = self.fields_at(e);
                for name in unexpected {
                    out.push(message::unknown_field(self, &steps, name, &fields));
                }
            }
            ValidationErrorKind::AnyOf { context }
            | ValidationErrorKind::OneOfNotValid { context } => {
                match matching_branch(context, e.instance_path().as_str()) {
                    Some(branch) => branch.iter().for_each(|b| self.violations(b, out)),
                    None => out.push(message::no_branch(self, &steps, e, context)),
                }
            }
            _ => out.push(message::simple(self, &steps, e)),
        }
    }

    /// The declared fields of the object an `additionalProperties` error is about.
    fn fields_at(&self, e: &ValidationError) -> Vec<String> {
        let mut node = self.schema;
        let segments: Vec<LocationSegment> = e.evaluation_path().iter().collect();
        for seg in segments.iter().take(segments.len().saturating_sub(1)) {
            let next = match seg {
                LocationSegment::Property(p) if p == "$ref" => node
                    .get("$ref")
                    .and_then(Json::as_str)
                    .and_then(|r| r.strip_prefix("#/definitions/"))
                    .and_then(|name| self.schema.get("definitions")?.get(name)),
                LocationSegment::Property(p) => node.get(p.as_ref()),
                LocationSegment::Index(i) => node.get(i),
            };
            match next {
                Some(n) => node = n,
                None => return Vec::new(),
            }
        }
        let mut fields: Vec<String> = node
            .get("properties")
            .and_then(Json::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        fields.sort();
        fields
    }
}

/// The declared fields of the object at `steps` when that object is closed and does not
/// declare `key` (sorted), `None` when it declares it or the schema does not say (an open
/// object, `anyOf` and the like, a `$ref` not found).
fn undeclared(root: &Json, steps: &[Step], key: &str) -> Option<Vec<String>> {
    let mut node = resolve(root, root)?;
    for step in steps {
        node = match step {
            Step::Key(k) => match node.get("properties").and_then(|p| p.get(k.as_str())) {
                Some(p) => p,
                None => node.get("additionalProperties").filter(|a| a.is_object())?,
            },
            Step::Index(_) => node.get("items").filter(|i| i.is_object())?,
        };
        node = resolve(root, node)?;
    }
    if node.get("additionalProperties") != Some(&Json::Bool(false)) {
        return None;
    }
    let props = node.get("properties").and_then(Json::as_object);
    if props.is_some_and(|p| p.contains_key(key)) {
        return None;
    }
    let mut fields: Vec<String> = props
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    fields.sort();
    Some(fields)
}

/// `node` with its `$ref`s followed (a chain of them is cut after a few).
pub(super) fn resolve<'a>(root: &'a Json, mut node: &'a Json) -> Option<&'a Json> {
    for _ in 0..16 {
        match node.get("$ref").and_then(Json::as_str) {
            Some(r) => {
                let name = r.strip_prefix("#/definitions/")?;
                node = root.get("definitions")?.get(name)?;
            }
            None => return Some(node),
        }
    }
    None
}

/// The instance path of an error as steps.
fn steps_of(e: &ValidationError) -> Vec<Step> {
    e.instance_path()
        .iter()
        .map(|s| match s {
            LocationSegment::Property(p) => Step::Key(p.into_owned()),
            LocationSegment::Index(i) => Step::Index(i),
        })
        .collect()
}

/// Of the branches of an `anyOf`/`oneOf`, the one meant: the only branch whose type fits the
/// value (no type error at the value itself), so that its own errors are reported.
fn matching_branch<'a, 'e>(
    context: &'a [Vec<ValidationError<'e>>],
    at: &str,
) -> Option<&'a Vec<ValidationError<'e>>> {
    let fits = |branch: &&Vec<ValidationError>| {
        !branch.is_empty()
            && !branch.iter().any(|b| {
                b.instance_path().as_str() == at
                    && matches!(
                        b.kind(),
                        ValidationErrorKind::Type { .. } | ValidationErrorKind::FalseSchema
                    )
            })
    };
    let mut fitting = context.iter().filter(fits);
    let first = fitting.next()?;
    fitting.next().is_none().then_some(first)
}

/// Go's `encoding/json` decoding of a `[]byte`: standard base64 with padding, line breaks
/// ignored, trailing bits not checked.
pub fn is_base64(text: &str) -> bool {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    use base64::Engine;
    const GO_STD: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
    );
    let compact: String = text.chars().filter(|c| *c != '\n' && *c != '\r').collect();
    GO_STD.decode(compact).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_go_decodes_it() {
        assert!(is_base64("aGVsbG8="));
        assert!(is_base64("aGVs\nbG8="));
        assert!(is_base64(""));
        assert!(!is_base64("aGVsbG8"));
        assert!(!is_base64("hello world"));
        assert!(!is_base64("aGVsbG8-"));
    }

    #[test]
    fn names_objects_by_namespace_and_name() {
        let j = serde_json::json!({"metadata": {"name": "app", "namespace": "default"}});
        assert_eq!(object_name("Deployment", &j), "Deployment default/app");
        let j = serde_json::json!({"metadata": {"name": "admin"}});
        assert_eq!(object_name("ClusterRole", &j), "ClusterRole admin");
        assert_eq!(
            object_name("ConfigMap", &serde_json::json!({})),
            "ConfigMap"
        );
    }
}
