//! The schemas known for a run, by `(apiVersion, kind)`: the built-in kinds of one Kubernetes
//! version ([`super::builtin`]), the served versions of the CustomResourceDefinitions given to
//! it, and the catalog of the ecosystem's CRDs ([`super::catalog`]). A kind of a group
//! Kubernetes owns (`apps`, `batch`, the core group, ...) has only its built-in schema: a CRD
//! that claims such a group is ignored ([`Registry::kubernetes_group_of_crd`] tells which). For
//! any other kind a CRD given to the registry comes before the catalog.
//!
//! A schema is hardened and compiled the first time a document of its kind is checked, then
//! kept. The built-in and catalog kinds of a version are one table per process ([`Base`]),
//! shared by every registry of that version: each is compiled once per process. The registry
//! is `Send + Sync`, and a clone shares the schemas compiled so far and to come: a run makes
//! one registry and each job clones it and adds the CRDs of its own output (the language server
//! keeps those from one run to the next, see [`super::kept_crds`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Validator};
use serde_json::{json, Map, Value as Json};

use super::builtin::{self, Data, Version};
use super::catalog::{self, Catalog};
use super::check::top_string;
use super::harden::{harden, Origin, OBJECT_META};
use super::instance::schema_json;
use super::kept_crds;
use crate::yaml::Document;

pub use super::builtin::{DEFAULT_VERSION, VERSIONS};

/// A compiled schema and the hardened JSON Schema it was compiled from (read again to name
/// the fields of an object in "did you mean").
pub struct Compiled {
    pub validator: Validator,
    pub schema: Json,
}

enum Source {
    Builtin(String),
    Crd { schema: Arc<Json>, prune: bool },
    Catalog(&'static catalog::Kind),
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

type Table = HashMap<String, HashMap<String, Arc<Entry>>>;

/// The kinds of one Kubernetes version and of the catalog, shared by every registry of the
/// version in the process.
struct Base {
    name: &'static str,
    data: &'static Data,
    version: &'static Version,
    builtin: Table,
    catalog: Option<&'static Catalog>,
    /// The catalog's kinds, made the first time each is looked up.
    catalog_entries: Mutex<HashMap<(String, String), Arc<Entry>>>,
}

impl Base {
    /// The base of `version`, made once per process.
    fn of(version: &str) -> Result<Arc<Base>, String> {
        static BASES: OnceLock<Mutex<HashMap<&'static str, Arc<Base>>>> = OnceLock::new();
        let name = builtin::check_version(version)?;
        let bases = BASES.get_or_init(Default::default);
        if let Some(b) = bases.lock().ok().and_then(|all| all.get(name).cloned()) {
            return Ok(b);
        }
        let data = builtin::data()?;
        let v = data
            .version(name)
            .ok_or_else(|| format!("internal error: no built-in schemas for {name}"))?;
        let mut table = Table::new();
        for (api_version, kind, definition) in &v.kinds {
            table.entry(api_version.clone()).or_default().insert(
                kind.clone(),
                Arc::new(Entry::new(Source::Builtin(definition.clone()))),
            );
        }
        let base = Arc::new(Base {
            name,
            data,
            version: v,
            builtin: table,
            // A catalog that does not read is an internal error once, not a lost run.
            catalog: catalog::catalog().ok(),
            catalog_entries: Mutex::new(HashMap::new()),
        });
        if let Ok(mut all) = bases.lock() {
            return Ok(all.entry(name).or_insert(base).clone());
        }
        Ok(base)
    }

    fn catalog_entry(&self, api_version: &str, kind: &str) -> Option<Arc<Entry>> {
        let found = self.catalog?.get(api_version, kind)?;
        let key = (api_version.to_string(), kind.to_string());
        let mut all = self.catalog_entries.lock().ok()?;
        Some(
            all.entry(key)
                .or_insert_with(|| Arc::new(Entry::new(Source::Catalog(found))))
                .clone(),
        )
    }
}

/// The schemas known by `(apiVersion, kind)`. Cloning is cheap (the built-in and catalog
/// kinds are shared; only the CRDs added are copied) and shares the compiled schemas.
#[derive(Clone, Default)]
pub struct Registry {
    base: Option<Arc<Base>>,
    /// The CRDs added: apiVersion → kind → entry.
    kinds: Table,
}

/// The group of an apiVersion (`""` for the core group's `v1`).
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

impl Registry {
    /// No schema at all; CRDs added to it have an open `metadata`.
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// The built-in kinds of Kubernetes `version` (one of [`VERSIONS`], `v` prefix optional)
    /// and the catalog's kinds.
    pub fn builtin(version: &str) -> Result<Registry, String> {
        Ok(Registry {
            base: Some(Base::of(version)?),
            kinds: Table::new(),
        })
    }

    /// Whether `version` is one of [`VERSIONS`] (`v` prefix optional); the error lists them.
    pub fn check_version(version: &str) -> Result<(), String> {
        builtin::check_version(version).map(|_| ())
    }

    /// The Kubernetes version of the built-in kinds, if there are any.
    pub fn version(&self) -> Option<&str> {
        self.base.as_ref().map(|b| b.name)
    }

    /// Every `(apiVersion, kind)` with a built-in schema or a CRD added, sorted (the catalog's
    /// kinds are [`super::catalog::Catalog::kinds`]).
    pub fn kinds(&self) -> Vec<(&str, &str)> {
        let tables = self.base.iter().map(|b| &b.builtin).chain([&self.kinds]);
        let mut all: Vec<(&str, &str)> = tables
            .flat_map(|t| t.iter())
            .flat_map(|(a, kinds)| kinds.keys().map(move |k| (a.as_str(), k.as_str())))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// Whether the group of `api_version` is one of Kubernetes' own (some version compiled in
    /// has built-in kinds of it, or it is in the table of removed APIs): such a kind has only
    /// its built-in schema, and one without is an API the version does not serve.
    pub fn is_builtin_group(&self, api_version: &str) -> bool {
        self.base
            .as_ref()
            .is_some_and(|b| is_kubernetes_group(b.data, group_of(api_version)))
    }

    /// Whether a schema is known for `(api_version, kind)`.
    pub fn has(&self, api_version: &str, kind: &str) -> bool {
        self.entry(api_version, kind).is_some()
    }

    /// Whether a CRD added to this registry defines `(api_version, kind)`.
    pub fn has_crd(&self, api_version: &str, kind: &str) -> bool {
        self.kinds
            .get(api_version)
            .is_some_and(|k| k.contains_key(kind))
    }

    /// The catalog's entry for `(api_version, kind)`, when the kind has no other schema.
    pub fn catalog_kind(&self, api_version: &str, kind: &str) -> Option<&'static catalog::Kind> {
        let base = self.base.as_ref()?;
        if self.is_builtin_group(api_version) || self.has_crd(api_version, kind) {
            return None;
        }
        base.catalog?.get(api_version, kind)
    }

    /// Makes the kind `(api_version, kind)` that `from` has from a CRD this registry's too
    /// (sharing what `from` compiled); says whether `from` had it.
    pub fn adopt(&mut self, from: &Registry, api_version: &str, kind: &str) -> bool {
        let Some(entry) = from.kinds.get(api_version).and_then(|k| k.get(kind)) else {
            return false;
        };
        self.kinds
            .entry(api_version.to_string())
            .or_default()
            .insert(kind.to_string(), entry.clone());
        true
    }

    fn insert(&mut self, api_version: &str, kind: &str, source: Source) -> Arc<Entry> {
        let entry = Arc::new(Entry::new(source));
        self.kinds
            .entry(api_version.to_string())
            .or_default()
            .insert(kind.to_string(), entry.clone());
        entry
    }

    fn entry(&self, api_version: &str, kind: &str) -> Option<Arc<Entry>> {
        let Some(base) = &self.base else {
            return self.kinds.get(api_version)?.get(kind).cloned();
        };
        if is_kubernetes_group(base.data, group_of(api_version)) {
            return base.builtin.get(api_version)?.get(kind).cloned();
        }
        if let Some(own) = self.kinds.get(api_version).and_then(|k| k.get(kind)) {
            return Some(own.clone());
        }
        base.catalog_entry(api_version, kind)
    }

    /// The group of a CustomResourceDefinition document that claims a group Kubernetes owns
    /// (`apps`, ...): [`Registry::add_crd`] ignores it. `None` for any other document, and in
    /// a registry without built-in kinds.
    pub fn kubernetes_group_of_crd(&self, doc: &Document) -> Option<String> {
        let base = self.base.as_ref()?;
        let (group, _) = crd_group_kind(doc)?;
        is_kubernetes_group(base.data, &group).then_some(group)
    }

    /// Adds the served versions of a CustomResourceDefinition (`apiextensions.k8s.io/v1`, or
    /// `v1beta1` with its top-level `validation` and `version`); returns how many kinds it
    /// added (0 for any other document, and for a CRD of a group Kubernetes owns). A version
    /// without a schema accepts any field.
    pub fn add_crd(&mut self, doc: &Document) -> usize {
        let api_version = top_string(doc, "apiVersion").unwrap_or("");
        if !api_version.starts_with("apiextensions.k8s.io/")
            || top_string(doc, "kind") != Some("CustomResourceDefinition")
            || self.kubernetes_group_of_crd(doc).is_some()
        {
            return 0;
        }
        let mut crd = schema_json(doc);
        // Only a job's registry keeps them (a scratch one, without built-in kinds, is read once).
        let builtin = self.base.as_ref().map(|b| b.name);
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
        // Indexing to change a value panics on a value that is no map: every step is checked
        // (a `schema: "x"` of the repository made its root an internal error; found by
        // fuzzing `crd_compile`).
        let Some(spec) = crd.get_mut("spec").filter(|s| s.is_object()) else {
            return 0;
        };
        let (Some(group), Some(kind)) = (spec["group"].as_str(), spec["names"]["kind"].as_str())
        else {
            return 0;
        };
        let (group, kind) = (group.to_string(), kind.to_string());
        // v1beta1 keeps unknown fields unless told otherwise; v1 requires `false`.
        let prune = spec["preserveUnknownFields"] != json!(true)
            && !(api_version.ends_with("v1beta1") && spec["preserveUnknownFields"].is_null());
        let shared = Arc::new(schema_of(spec, "validation"));
        let mut versions: Vec<(String, Arc<Json>)> = Vec::new();
        if let Some(list) = spec.get_mut("versions").and_then(Json::as_array_mut) {
            for v in list {
                let (Some(name), served) = (v["name"].as_str(), &v["served"]) else {
                    continue;
                };
                if served == &json!(false) {
                    continue;
                }
                let name = name.to_string();
                let own = schema_of(v, "schema");
                let schema = if own.is_null() {
                    shared.clone()
                } else {
                    Arc::new(own)
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
            Source::Crd { schema, .. } if !(schema.is_object() || schema.is_null()) => {
                return Err(format!(
                    "the schema does not compile: its openAPIV3Schema is {}, not a map",
                    json_kind(schema)
                ));
            }
            Source::Crd { schema, prune } => self.crd_root(schema, *prune),
            Source::Catalog(kind) => {
                let catalog = catalog::catalog()?;
                self.crd_root(&catalog.schema(kind)?, kind.prune)
            }
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
        let metadata = match self.base {
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
        if self.base.is_some() {
            self.add_definitions(&mut root, OBJECT_META);
        }
        root
    }

    /// Puts under `definitions` the hardened built-in definition `name` and every one it
    /// reaches.
    fn add_definitions(&self, root: &mut Json, name: &str) {
        let Some(base) = &self.base else {
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
                _ => base
                    .data
                    .definition(base.version, &n)
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

/// Whether `group` is one of Kubernetes' own (the set is made once per process).
fn is_kubernetes_group(data: &'static Data, group: &str) -> bool {
    static GROUPS: OnceLock<Vec<String>> = OnceLock::new();
    let groups = GROUPS.get_or_init(|| {
        let mut all: Vec<String> = data
            .versions
            .iter()
            .flat_map(|v| v.kinds.iter().map(|(av, _, _)| av))
            .chain(data.apis.iter().map(|(av, _, _, _, _)| av))
            .map(|av| group_of(av).to_string())
            .collect();
        all.sort();
        all.dedup();
        all
    });
    groups.binary_search_by(|g| g.as_str().cmp(group)).is_ok()
}

/// `(spec.group, spec.names.kind)` of a CustomResourceDefinition document.
pub fn crd_group_kind(doc: &Document) -> Option<(String, String)> {
    use crate::yaml::Value;
    if top_string(doc, "kind") != Some("CustomResourceDefinition") {
        return None;
    }
    fn field<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
        let Value::Map(m) = v else { return None };
        m.items
            .iter()
            .find(|i| i.key.as_str() == Some(key))
            .map(|i| &i.value)
    }
    let spec = field(&doc.value, "spec")?;
    let group = field(spec, "group")?.as_str()?.to_string();
    let kind = field(field(spec, "names")?, "kind")?.as_str()?.to_string();
    Some((group, kind))
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

/// The `openAPIV3Schema` under `key` of the CRD part `v` (`validation` of the spec, `schema` of
/// a version), taken out: `null` when there is none. A `key` that holds something else than a
/// map is taken whole, so that its version's kind is said not to compile rather than accept
/// any field without a word.
fn schema_of(v: &mut Json, key: &str) -> Json {
    match v.get_mut(key) {
        None => Json::Null,
        Some(Json::Object(m)) => m.remove("openAPIV3Schema").unwrap_or(Json::Null),
        Some(other) => other.take(),
    }
}

/// What kind of JSON value `v` is, in words.
fn json_kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "a map",
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
        assert!(err.starts_with("no schemas for Kubernetes \"1.20\"; compiled in: 1.37, 1.36"));
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

    /// Every kind of the built-in CRD catalog compiles: a schema the validator refuses leaves
    /// its objects unchecked, with a warning about the linter's own data (round forty-four's
    /// R44-1: the Prometheus Operator's Go pattern `^(?i)(abort|warn)?$`).
    #[test]
    fn compiles_every_catalog_kind() {
        let r = Registry::builtin(DEFAULT_VERSION).unwrap();
        let catalog = catalog::catalog().unwrap();
        let kinds = catalog.kinds();
        assert!(kinds.len() > 100, "{}", kinds.len());
        let failed: Vec<String> = kinds
            .iter()
            .filter_map(|(api_version, kind)| match r.compiled(api_version, kind) {
                Some(Ok(_)) => None,
                other => Some(format!(
                    "{api_version} {kind}: {:?}",
                    other.map(|r| r.err())
                )),
            })
            .collect();
        assert!(failed.is_empty(), "{failed:#?}");
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
