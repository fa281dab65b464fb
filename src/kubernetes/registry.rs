//! The schemas known for a run, by `(apiVersion, kind)`: the built-in kinds of one Kubernetes
//! version (read from `data/k8s-VERSION.json`, written by `scripts/k8s-schemas` from
//! k8s-openapi) and the served versions of the CustomResourceDefinitions given to it. A schema
//! is hardened and compiled the first time a document of its kind is checked, then kept. The
//! registry is `Send + Sync`, and a clone shares the schemas compiled so far and to come: a
//! run makes one registry and each job clones it and adds the CRDs of its own output (the
//! language server keeps those from one run to the next, see [`super::kept_crds`]).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use jsonschema::{Draft, Validator};
use serde_json::{json, Map, Value as Json};

use super::check::top_string;
use super::harden::{harden, Origin, OBJECT_META};
use super::instance::schema_json;
use super::kept_crds;
use crate::yaml::Document;

/// The Kubernetes versions whose built-in schemas are compiled in, newest first.
pub const VERSIONS: &[&str] = &["1.37"];

/// The version [`Registry::builtin`] is usually given.
pub const DEFAULT_VERSION: &str = "1.37";

const DATA_1_37: &str = include_str!("data/k8s-1.37.json");

/// The generated data of one version.
struct Builtin {
    kinds: Vec<(String, String, String)>,
    definitions: Map<String, Json>,
}

static BUILTIN_1_37: OnceLock<Result<Builtin, String>> = OnceLock::new();

/// The version's name as [`VERSIONS`] spells it, and its data.
fn builtin_data(version: &str) -> Result<(&'static str, &'static Builtin), String> {
    let version = version.strip_prefix('v').unwrap_or(version);
    let (name, cell, text) = match version {
        "1.37" => (VERSIONS[0], &BUILTIN_1_37, DATA_1_37),
        _ => {
            return Err(format!(
                "no schemas for Kubernetes {version:?}; compiled in: {}",
                VERSIONS.join(", ")
            ))
        }
    };
    let data = cell.get_or_init(|| parse_builtin(text));
    data.as_ref().map(|d| (name, d)).map_err(Clone::clone)
}

fn parse_builtin(text: &str) -> Result<Builtin, String> {
    let bad = |what: &str| format!("internal error: the built-in schemas have no valid {what}");
    let mut data: Json = serde_json::from_str(text).map_err(|e| format!("{}: {e}", bad("JSON")))?;
    let Some(Json::Object(definitions)) = data.get_mut("definitions").map(Json::take) else {
        return Err(bad("definitions"));
    };
    let rows = data
        .get("kinds")
        .and_then(Json::as_array)
        .ok_or_else(|| bad("kinds"))?;
    let mut kinds = Vec::new();
    for row in rows {
        let field = |i: usize| row.get(i).and_then(Json::as_str).map(str::to_string);
        match (field(0), field(1), field(2)) {
            (Some(a), Some(k), Some(d)) => kinds.push((a, k, d)),
            _ => return Err(bad("kinds")),
        }
    }
    Ok(Builtin { kinds, definitions })
}

/// A compiled schema and the hardened JSON Schema it was compiled from (read again to name
/// the fields of an object in "did you mean").
pub struct Compiled {
    pub validator: Validator,
    pub schema: Json,
}

enum Source {
    Builtin(&'static str),
    Crd { schema: Arc<Json>, prune: bool },
}

pub(super) struct Entry {
    source: Source,
    compiled: OnceLock<Result<Arc<Compiled>, String>>,
}

impl Entry {
    fn new(source: Source) -> Entry {
        Entry {
            source,
            compiled: OnceLock::new(),
        }
    }
}

/// The schemas known by `(apiVersion, kind)`. Cloning is cheap (a map of about a hundred
/// shared entries) and shares the compiled schemas.
#[derive(Clone, Default)]
pub struct Registry {
    builtin: Option<(&'static str, &'static Builtin)>,
    /// apiVersion → kind → entry.
    kinds: HashMap<String, HashMap<String, Arc<Entry>>>,
}

impl Registry {
    /// No schema at all; CRDs added to it have an open `metadata`.
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// The built-in kinds of Kubernetes `version` (one of [`VERSIONS`], `v` prefix optional).
    pub fn builtin(version: &str) -> Result<Registry, String> {
        let (name, data) = builtin_data(version)?;
        let mut r = Registry {
            builtin: Some((name, data)),
            kinds: HashMap::new(),
        };
        for (api_version, kind, definition) in &data.kinds {
            r.insert(api_version, kind, Source::Builtin(definition));
        }
        Ok(r)
    }

    /// Whether `version` is one of [`VERSIONS`] (`v` prefix optional); the error lists them.
    pub fn check_version(version: &str) -> Result<(), String> {
        let bare = version.strip_prefix('v').unwrap_or(version);
        if VERSIONS.contains(&bare) {
            Ok(())
        } else {
            Err(format!(
                "no schemas for Kubernetes {version:?}; compiled in: {}",
                VERSIONS.join(", ")
            ))
        }
    }

    /// The Kubernetes version of the built-in kinds, if there are any.
    pub fn version(&self) -> Option<&str> {
        self.builtin.map(|(v, _)| v)
    }

    /// Every `(apiVersion, kind)` with a schema, sorted.
    pub fn kinds(&self) -> Vec<(&str, &str)> {
        let mut all: Vec<(&str, &str)> = self
            .kinds
            .iter()
            .flat_map(|(a, kinds)| kinds.keys().map(move |k| (a.as_str(), k.as_str())))
            .collect();
        all.sort_unstable();
        all
    }

    /// Whether the group of `api_version` is one of Kubernetes' own (some version of it has
    /// built-in kinds): a kind of such a group without a schema is an API the version no
    /// longer (or not yet) serves, such as `policy/v1beta1 PodSecurityPolicy`.
    pub fn is_builtin_group(&self, api_version: &str) -> bool {
        let group = |av: &str| av.rsplit_once('/').map_or("", |(g, _)| g).to_string();
        let wanted = group(api_version);
        self.builtin
            .is_some_and(|(_, data)| data.kinds.iter().any(|(av, _, _)| group(av) == wanted))
    }

    /// Whether a schema is known for `(api_version, kind)`.
    pub fn has(&self, api_version: &str, kind: &str) -> bool {
        self.entry(api_version, kind).is_some()
    }

    fn insert(&mut self, api_version: &str, kind: &str, source: Source) -> Arc<Entry> {
        let entry = Arc::new(Entry::new(source));
        self.kinds
            .entry(api_version.to_string())
            .or_default()
            .insert(kind.to_string(), entry.clone());
        entry
    }

    fn entry(&self, api_version: &str, kind: &str) -> Option<&Entry> {
        self.kinds.get(api_version)?.get(kind).map(|e| &**e)
    }

    /// Adds the served versions of a CustomResourceDefinition (`apiextensions.k8s.io/v1`, or
    /// `v1beta1` with its top-level `validation` and `version`); returns how many kinds it
    /// added (0 for any other document). A version without a schema accepts any field.
    pub fn add_crd(&mut self, doc: &Document) -> usize {
        let api_version = top_string(doc, "apiVersion").unwrap_or("");
        if !api_version.starts_with("apiextensions.k8s.io/")
            || top_string(doc, "kind") != Some("CustomResourceDefinition")
        {
            return 0;
        }
        let mut crd = schema_json(doc);
        // Only a job's registry keeps them (a scratch one, without built-in kinds, is read once).
        let builtin = self.builtin.map(|(v, _)| v);
        let kept = builtin.is_some() && kept_crds::keeping();
        if let Some(kinds) = kept.then(|| kept_crds::find(builtin, &crd)).flatten() {
            let added = kinds.len();
            for (api_version, kind, entry) in kinds {
                self.kinds
                    .entry(api_version)
                    .or_default()
                    .insert(kind, entry);
            }
            return added;
        }
        let key = kept.then(|| crd.clone());
        let spec = &mut crd["spec"];
        let (Some(group), Some(kind)) = (spec["group"].as_str(), spec["names"]["kind"].as_str())
        else {
            return 0;
        };
        let (group, kind) = (group.to_string(), kind.to_string());
        // v1beta1 keeps unknown fields unless told otherwise; v1 requires `false`.
        let prune = spec["preserveUnknownFields"] != json!(true)
            && !(api_version.ends_with("v1beta1") && spec["preserveUnknownFields"].is_null());
        let shared = Arc::new(spec["validation"]["openAPIV3Schema"].take());
        let mut versions: Vec<(String, Arc<Json>)> = Vec::new();
        if let Some(list) = spec["versions"].as_array_mut() {
            for v in list {
                let (Some(name), served) = (v["name"].as_str(), &v["served"]) else {
                    continue;
                };
                if served == &json!(false) {
                    continue;
                }
                let name = name.to_string();
                let own = v["schema"]["openAPIV3Schema"].take();
                let schema = if own.is_object() {
                    Arc::new(own)
                } else {
                    shared.clone()
                };
                versions.push((name, schema));
            }
        } else if let Some(name) = spec["version"].as_str() {
            versions.push((name.to_string(), shared));
        }
        let mut added: kept_crds::Kinds = Vec::new();
        for (version, schema) in &versions {
            let prune = prune && schema.is_object();
            let source = Source::Crd {
                schema: schema.clone(),
                prune,
            };
            let api_version = format!("{group}/{version}");
            let entry = self.insert(&api_version, &kind, source);
            added.push((api_version, kind.clone(), entry));
        }
        if let Some(key) = key {
            kept_crds::put(builtin, key, added);
        }
        versions.len()
    }

    /// The compiled schema of `(api_version, kind)`: `None` when none is known, an error
    /// when the schema does not compile (a CRD's pattern the validator refuses, ...).
    pub fn compiled(&self, api_version: &str, kind: &str) -> Option<Result<Arc<Compiled>, String>> {
        let entry = self.entry(api_version, kind)?;
        let compiled = entry.compiled.get_or_init(|| self.compile(&entry.source));
        Some(compiled.clone())
    }

    fn compile(&self, source: &Source) -> Result<Arc<Compiled>, String> {
        let schema = match source {
            Source::Builtin(name) => {
                let mut root = json!({ "$ref": reference(name) });
                self.add_definitions(&mut root, name);
                root
            }
            Source::Crd { schema, prune } => self.crd_root(schema, *prune),
        };
        let validator = jsonschema::options()
            .with_draft(Draft::Draft4)
            .should_validate_formats(true)
            .with_format("byte", super::check::is_base64)
            .build(&schema)
            .map_err(|e| format!("the schema does not compile: {e}"))?;
        Ok(Arc::new(Compiled { validator, schema }))
    }

    /// A CRD's schema with `apiVersion`, `kind` and the built-in `metadata` declared.
    fn crd_root(&self, schema: &Json, prune: bool) -> Json {
        let metadata = match self.builtin {
            Some(_) => json!({ "$ref": reference(OBJECT_META) }),
            None => json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        };
        let mut root = if schema.is_object() {
            schema.clone()
        } else {
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
        };
        if let Json::Object(m) = &mut root {
            m.remove("definitions");
            let props = m.entry("properties").or_insert_with(|| json!({}));
            if let Json::Object(props) = props {
                props.insert("apiVersion".into(), json!({"type": "string"}));
                props.insert("kind".into(), json!({"type": "string"}));
                props.insert("metadata".into(), metadata.clone());
                props.remove("status");
            }
        }
        let origin = Origin::Crd {
            metadata: &metadata,
            prune,
        };
        harden(&mut root, origin);
        if self.builtin.is_some() {
            self.add_definitions(&mut root, OBJECT_META);
        }
        root
    }

    /// Puts under `definitions` the hardened built-in definition `name` and every one it
    /// reaches.
    fn add_definitions(&self, root: &mut Json, name: &str) {
        let Some((_, data)) = self.builtin else {
            return;
        };
        let mut out = Map::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            if out.contains_key(&n) {
                continue;
            }
            let mut def = match n.as_str() {
                // Any JSON value (a CRD schema's `default`, `enum`, `example`); k8s-openapi
                // says "object".
                "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON" => json!({}),
                _ => data
                    .definitions
                    .get(&n)
                    .cloned()
                    .unwrap_or_else(|| json!({})),
            };
            harden(&mut def, Origin::Builtin(&n));
            references(&def, &mut todo);
            out.insert(n, def);
        }
        if let Json::Object(m) = root {
            m.insert("definitions".into(), Json::Object(out));
        }
    }
}

fn reference(name: &str) -> String {
    format!("#/definitions/{name}")
}

/// The definitions `schema` refers to.
fn references(schema: &Json, out: &mut Vec<String>) {
    match schema {
        Json::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("$ref", Json::String(r)) => {
                        if let Some(name) = r.strip_prefix("#/definitions/") {
                            out.push(name.to_string());
                        }
                    }
                    _ => references(v, out),
                }
            }
        }
        Json::Array(list) => list.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Registry>();
    }

    #[test]
    fn knows_the_builtin_kinds_of_a_compiled_in_version() {
        let r = Registry::builtin("v1.37").unwrap();
        assert_eq!(r.version(), Some("1.37"));
        assert!(r.has("apps/v1", "Deployment") && r.has("v1", "ConfigMap"));
        assert!(!r.has("apps/v1", "Nope") && !r.has("extensions/v1beta1", "Ingress"));
        assert!(r.is_builtin_group("policy/v1beta1") && r.is_builtin_group("v1beta1"));
        assert!(!r.is_builtin_group("example.com/v1"));
        let err = Registry::builtin("1.20").err().unwrap();
        assert_eq!(err, "no schemas for Kubernetes \"1.20\"; compiled in: 1.37");
    }

    #[test]
    fn clones_share_compiled_schemas_but_not_crds() {
        let base = Registry::builtin(DEFAULT_VERSION).unwrap();
        let Some(Ok(a)) = base.compiled("v1", "ConfigMap") else {
            panic!("no ConfigMap")
        };
        let mut job = base.clone();
        let Some(Ok(b)) = job.compiled("v1", "ConfigMap") else {
            panic!("no ConfigMap")
        };
        assert!(Arc::ptr_eq(&a, &b));
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
            spec: {group: example.com, names: {kind: W}, versions: [{name: v1, served: true}]}\n";
        let f: Arc<str> = Arc::from("crd.yml");
        let docs = crate::yaml::parse::parse(crd, &f, &Default::default()).unwrap();
        assert_eq!(job.add_crd(&docs.items[0]), 1);
        assert!(job.has("example.com/v1", "W") && !base.has("example.com/v1", "W"));
    }

    #[test]
    fn a_crd_kept_by_the_process_is_compiled_once_for_every_job() {
        // (The other tests of this process keep CRDs too from now on: their schemas are the
        // same either way.)
        super::kept_crds::keep(16);
        let base = Registry::builtin(DEFAULT_VERSION).unwrap();
        let crd = |kind: &str| {
            let text = format!(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
                 metadata: {{name: kept-{kind}}}\n\
                 spec: {{group: kept.example.com, names: {{kind: {kind}}}, versions: \
                 [{{name: v1, served: true, schema: {{openAPIV3Schema: {{type: object}}}}}}, \
                 {{name: v2, served: true}}]}}\n"
            );
            let f: Arc<str> = Arc::from("crd.yml");
            crate::yaml::parse::parse(&text, &f, &Default::default()).unwrap()
        };
        let compiled = |r: &Registry, kind: &str| match r.compiled("kept.example.com/v1", kind) {
            Some(Ok(c)) => c,
            _ => panic!("no {kind}"),
        };
        let (a, b) = (crd("A"), crd("B"));
        let mut first = base.clone();
        assert_eq!(first.add_crd(&a.items[0]), 2);
        let mut second = base.clone();
        assert_eq!(second.add_crd(&a.items[0]), 2);
        assert!(second.has("kept.example.com/v2", "A"));
        assert!(Arc::ptr_eq(&compiled(&first, "A"), &compiled(&second, "A")));
        assert_eq!(second.add_crd(&b.items[0]), 2);
        assert!(!first.has("kept.example.com/v1", "B"));
        let mut third = base.clone();
        assert_eq!(third.add_crd(&b.items[0]), 2);
        assert!(Arc::ptr_eq(&compiled(&second, "B"), &compiled(&third, "B")));
        // A registry without built-in kinds keeps nothing (its `metadata` differs).
        let mut scratch = Registry::empty();
        assert_eq!(scratch.add_crd(&a.items[0]), 2);
        assert!(!Arc::ptr_eq(
            &compiled(&scratch, "A"),
            &compiled(&first, "A")
        ));
    }

    #[test]
    fn compiles_every_builtin_kind() {
        let r = Registry::builtin(DEFAULT_VERSION).unwrap();
        assert!(r.kinds().len() > 90, "{}", r.kinds().len());
        for (api_version, kind) in r.kinds() {
            match r.compiled(api_version, kind) {
                Some(Ok(_)) => {}
                other => panic!("{api_version} {kind}: {:?}", other.map(|r| r.err())),
            }
        }
    }
}
