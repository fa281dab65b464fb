//! The check of a root's rendered Kubernetes objects (see [`crate::kubernetes`]):
//! `k8s-schema`, each object against the schema of its kind; `k8s-api-removed` and
//! `k8s-api-deprecated`, its apiVersion against the Kubernetes version configured;
//! `k8s-crd-ignored`, the CRDs whose schema cannot be used. The built-in schemas of a version
//! and the catalog are read once per process and shared by every job it runs (a clone of a
//! registry shares what it compiled). A kind of a group Kubernetes owns has only its built-in
//! schema. Any other kind is looked up in the CRDs of the job's own output, then in the
//! repository's CustomResourceDefinitions (only the files that may define the kind are read,
//! and only when every definition of it in the repository is the same one: a repository that
//! vendors two releases of an operator has two schemas for one kind, and checking an object
//! against the wrong one would be a false finding), then in the built-in catalog. The kinds no
//! schema was found for are returned with their number of objects.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::kubernetes::apis::{self, ApiStatus};
use crate::kubernetes::{
    check, definition_of_crd, item_pos, kept_crds, top_string, CheckResult, Registry,
};
use crate::lint::job::crd_source;
use crate::lint::job::elided::{self, SourceOf};
use crate::lint::job::engine::SpanOf;
use crate::lint::job::repo_crds::RepoCrds;
use crate::report::{Assumption, Diagnostic, Rule, Severity, Span, Unchecked};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{DocSet, Document, Value};

/// What a job needs to check its objects: the Kubernetes version of the built-in kinds, and
/// the repository's CustomResourceDefinition documents (one list shared by the run's jobs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KubeCheck {
    pub version: String,
    /// Whether the user named the version (see `KubernetesConfig::version_given`).
    pub version_given: bool,
    pub crds: RepoCrds,
    /// The directories `kubernetes.schemas` names (repository-relative): their CRDs are the
    /// user's choice of schema, certain (`crd_source`).
    #[serde(default)]
    pub schemas: Vec<String>,
}

/// The registry of one job and where its CRDs came from (for a finding at a CRD).
struct JobRegistry<'a> {
    check_with: &'a KubeCheck,
    repo: &'a Path,
    docs: &'a DocSet,
    registry: Registry,
    /// `(apiVersion, kind)` → the repository CRD document that defines it.
    from_repository: HashMap<(String, String), Arc<Document>>,
    /// `(apiVersion, kind)` → what a finding checked against that repository CRD assumes,
    /// when something says the cluster gets the kind elsewhere (`crd_source`).
    doubts: HashMap<(String, String), Assumption>,
    /// The kinds already looked up in the repository's CRDs.
    looked_up: HashSet<(String, String)>,
}

impl JobRegistry<'_> {
    /// Makes the schema of `(api_version, kind)` known when a CRD of the output or of the
    /// repository defines it (they come before the catalog).
    fn find_crd(&mut self, api_version: &str, kind: &str) {
        if self.registry.is_builtin_group(api_version) || self.registry.has_crd(api_version, kind) {
            return;
        }
        let key = (api_version.to_string(), kind.to_string());
        if !self.looked_up.insert(key) {
            return;
        }
        // The output's own CRDs of the kind (only those: most outputs define many, and their
        // schemas are long).
        let group = crate::kubernetes::group_of(api_version);
        for crd in self.docs.items.iter().filter(|d| applied(d)) {
            if crate::kubernetes::crd_group_kind(crd).is_some_and(|(g, k)| g == group && k == kind)
            {
                self.registry.add_crd(crd);
            }
        }
        if self.registry.has_crd(api_version, kind) {
            return;
        }
        if let Some((doc, kinds)) = repository_crd(self.check_with, self.repo, api_version, kind) {
            self.registry.adopt(&kinds, api_version, kind);
            let key = (api_version.to_string(), kind.to_string());
            let file = doc.pos.file.as_deref().unwrap_or_default();
            let doubt = crd_source::doubt(self.check_with, self.repo, file, &doc, group, kind);
            if let Some(a) = doubt {
                self.doubts.insert(key.clone(), a);
            }
            self.from_repository.insert(key, doc);
        }
    }

    /// Where the CRD of `(api_version, kind)` is: its `spec.group` line.
    fn crd_span(&self, api_version: &str, kind: &str, span_of: SpanOf<'_>) -> Option<Span> {
        let key = (api_version.to_string(), kind.to_string());
        if let Some(doc) = self.from_repository.get(&key) {
            let pos = item_pos(doc, &["spec", "group"]);
            return Some(Span::point(pos.file.as_deref()?, pos.line, pos.col.max(1)));
        }
        let group = crate::kubernetes::group_of(api_version);
        let own = self.docs.items.iter().find(|d| {
            crate::kubernetes::crd_group_kind(d).is_some_and(|(g, k)| g == group && k == kind)
        })?;
        span_of(&item_pos(own, &["spec", "group"]))
    }
}

/// The findings of the objects in `docs`, and the kinds it could not check, with their
/// number of objects.
pub fn findings(
    check_with: &KubeCheck,
    repo: &Path,
    docs: &DocSet,
    span_of: SpanOf<'_>,
    source_of: SourceOf<'_>,
) -> (Vec<Diagnostic>, Vec<Unchecked>) {
    let Some(base) = builtin(&check_with.version) else {
        return (Vec::new(), Vec::new());
    };
    if check_with.crds.docs().is_none() {
        let lost = Diagnostic::new(
            Rule::InternalError,
            "the repository's CustomResourceDefinitions did not reach the worker process: \
             this root's Kubernetes objects were not checked"
                .to_string(),
        );
        return (vec![lost], Vec::new());
    }
    let mut job = JobRegistry {
        check_with,
        repo,
        docs,
        registry: Registry::clone(&base),
        from_repository: HashMap::new(),
        doubts: HashMap::new(),
        looked_up: HashSet::new(),
    };
    let mut found = ignored_crds(&job.registry, docs, span_of);
    let mut unchecked: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad_schemas: Vec<(String, String)> = Vec::new();
    for doc in &docs.items {
        let (Some(api_version), Some(kind)) =
            (top_string(doc, "apiVersion"), top_string(doc, "kind"))
        else {
            continue;
        };
        if !looks_like_a_type(api_version, kind)
            || (!applied(doc) && !is_config_kind(&job.registry, api_version, kind))
        {
            continue;
        }
        match apis::status(&check_with.version, api_version, kind) {
            Some(status @ ApiStatus::Removed { .. }) => {
                found.push(api_finding(doc, &check_with.version, &status, span_of));
                continue;
            }
            Some(status) => found.push(api_finding(doc, &check_with.version, &status, span_of)),
            None => {}
        }
        job.find_crd(api_version, kind);
        let doubt = job
            .doubts
            .get(&(api_version.to_string(), kind.to_string()))
            .cloned();
        match check(&job.registry, doc) {
            CheckResult::Checked(violations) => {
                // Only a missing field is lowered by an elision: the document's text is
                // searched for one only then (most checked objects have no finding at all).
                let elision = violations
                    .iter()
                    .any(|v| elided::lowers(&v.object) || elided::lowers(&v.message))
                    .then(|| elided::elision_of(&doc.pos, source_of))
                    .flatten();
                found.extend(violations.into_iter().map(|v| {
                    let mut d =
                        Diagnostic::new(Rule::K8sSchema, format!("{}: {}", v.object, v.message));
                    if let Some(span) = span_of(&v.pos) {
                        d = d.at(span);
                    }
                    if let Some(help) = v.help {
                        d = d.with_help(help);
                    }
                    d.object = Some(v.object);
                    if let Some(line) = elision {
                        elided::lower(&mut d, line);
                    }
                    if let Some(a) = &doubt {
                        crd_source::assume(&mut d, a.clone());
                    }
                    d
                }));
            }
            CheckResult::NoSchema { api_version, kind } => {
                *unchecked
                    .entry(format!("{api_version} {kind}"))
                    .or_default() += 1;
            }
            CheckResult::BadSchema {
                api_version,
                kind,
                message,
            } => {
                let key = (api_version.clone(), kind.clone());
                if !bad_schemas.contains(&key) {
                    let text = format!(
                        "the CustomResourceDefinition of {kind} ({api_version}) cannot be used: \
                         {message}; objects of this kind are not checked"
                    );
                    let mut d = Diagnostic::new(Rule::K8sCrdIgnored, text);
                    if let Some(span) = job.crd_span(&api_version, &kind, span_of) {
                        d = d.at(span);
                    }
                    found.push(d);
                    bad_schemas.push(key);
                }
                *unchecked
                    .entry(format!("{api_version} {kind}"))
                    .or_default() += 1;
            }
            CheckResult::NotAnObject => {}
        }
    }
    let unchecked = unchecked
        .into_iter()
        .map(|(kind, objects)| Unchecked { kind, objects })
        .collect();
    (found, unchecked)
}

/// `k8s-api-removed` or `k8s-api-deprecated` at the template line of the object's
/// `apiVersion:`.
fn api_finding(
    doc: &Document,
    version: &str,
    status: &ApiStatus,
    span_of: SpanOf<'_>,
) -> Diagnostic {
    let api_version = top_string(doc, "apiVersion").unwrap_or_default();
    let kind = top_string(doc, "kind").unwrap_or_default();
    let object = object_name(doc, kind);
    let use_instead = |replacement: &str| match replacement.is_empty() {
        true => String::new(),
        false => format!("; use {replacement}"),
    };
    let (rule, message) = match status {
        ApiStatus::Removed {
            removed_in,
            replacement,
        } => (
            Rule::K8sApiRemoved,
            format!(
                "{object}: {api_version} {kind} was removed in Kubernetes {removed_in} and is not \
                 served by {version}{}",
                use_instead(replacement)
            ),
        ),
        ApiStatus::Deprecated {
            deprecated_in,
            removed_in,
            replacement,
        } => {
            let removal = match removed_in.is_empty() {
                true => String::new(),
                false => format!(", removed in {removed_in}"),
            };
            (
                Rule::K8sApiDeprecated,
                format!(
                    "{object}: {api_version} {kind} is deprecated since Kubernetes \
                     {deprecated_in}{removal}{}",
                    use_instead(replacement)
                ),
            )
        }
    };
    let mut d = Diagnostic::new(rule, message);
    if let Some(span) = span_of(&item_pos(doc, &["apiVersion"])) {
        d = d.at(span);
    }
    d.object = Some(object);
    d
}

/// `Ingress default/web`, as `k8s-schema` names objects.
fn object_name(doc: &Document, kind: &str) -> String {
    let Value::Map(top) = &doc.value else {
        return kind.to_string();
    };
    let meta = match field(top, "metadata") {
        Some(Value::Map(m)) => m,
        _ => return kind.to_string(),
    };
    let text = |k: &str| field(meta, k).and_then(Value::as_str);
    match (text("namespace"), text("name")) {
        (Some(ns), Some(name)) => format!("{kind} {ns}/{name}"),
        (None, Some(name)) => format!("{kind} {name}"),
        _ => kind.to_string(),
    }
}

/// A note at each CRD of the output that claims a group Kubernetes owns: it is ignored.
fn ignored_crds(registry: &Registry, docs: &DocSet, span_of: SpanOf<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for doc in docs.items.iter().filter(|d| applied(d)) {
        let Some(group) = registry.kubernetes_group_of_crd(doc) else {
            continue;
        };
        let (_, kind) = crate::kubernetes::crd_group_kind(doc).unwrap_or_default();
        let shown = if group.is_empty() { "core" } else { &group };
        let mut d = Diagnostic::new(
            Rule::K8sCrdIgnored,
            format!(
                "this CustomResourceDefinition claims {kind} of the {shown:?} group, which \
                 Kubernetes owns: it is ignored, and {kind} objects are checked against the \
                 built-in schema"
            ),
        );
        d.severity = Severity::Info;
        if let Some(span) = span_of(&item_pos(doc, &["spec", "group"])) {
            d = d.at(span);
        }
        out.push(d);
    }
    out
}

/// Whether `apiVersion` and `kind` can name a Kubernetes type (`group/version` or a version
/// alone, a kind of letters and digits): a document encrypted with SOPS (`kind: ENC[...]`) or
/// templated for another tool is not an object of an unknown kind.
fn looks_like_a_type(api_version: &str, kind: &str) -> bool {
    let name = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    };
    let version_ok = match api_version.split_once('/') {
        Some((group, version)) => name(group) && name(version),
        None => name(api_version),
    };
    let mut chars = kind.chars();
    let kind_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric());
    version_ok && kind_ok
}

/// A kind checked without a `metadata.name` (a tool's configuration file, such as kind's
/// `Cluster`).
fn is_config_kind(registry: &Registry, api_version: &str, kind: &str) -> bool {
    registry
        .catalog_kind(api_version, kind)
        .is_some_and(|k| k.config)
}

/// Whether the document is an object something applies: it has a name (`metadata.name` or
/// `metadata.generateName`; one without is input for another tool, a list of images for
/// kbld, a fragment) and kapp does not only wait for it (`kapp.k14s.io/exists`, a stub of a
/// CRD another package installs) or skip it (`kapp.k14s.io/noop`). Others are not checked.
fn field<'a>(m: &'a crate::yaml::Map, key: &str) -> Option<&'a Value> {
    m.items
        .iter()
        .find(|i| matches!(&i.key, Value::String(k) if k == key))
        .map(|i| &i.value)
}

pub fn applied(doc: &Document) -> bool {
    let Value::Map(top) = &doc.value else {
        return false;
    };
    let Some(Value::Map(meta)) = field(top, "metadata") else {
        return false;
    };
    let named = ["name", "generateName"]
        .iter()
        .any(|k| matches!(field(meta, k), Some(Value::String(s)) if !s.is_empty()));
    let kapp_only = match field(meta, "annotations") {
        Some(Value::Map(annotations)) => ["kapp.k14s.io/exists", "kapp.k14s.io/noop"]
            .iter()
            .any(|k| field(annotations, k).is_some()),
        _ => false,
    };
    named && !kapp_only
}

/// The built-in registry of `version`, made once per process.
fn builtin(version: &str) -> Option<Arc<Registry>> {
    static BUILTIN: OnceLock<Mutex<HashMap<String, Arc<Registry>>>> = OnceLock::new();
    let mut all = BUILTIN.get_or_init(Default::default).lock().ok()?;
    if let Some(r) = all.get(version) {
        return Some(Arc::clone(r));
    }
    let r = Arc::new(Registry::builtin(version).ok()?);
    all.insert(version.to_string(), Arc::clone(&r));
    Some(r)
}

/// The repository's one definition of `(api_version, kind)` and a registry of the job's
/// version with it added (its schema compiled there once per process), looked up once per
/// process and list of CRDs (a CRD file edited in the editor makes another list).
fn repository_crd(
    check_with: &KubeCheck,
    repo: &Path,
    api_version: &str,
    kind: &str,
) -> Option<(Arc<Document>, Registry)> {
    type Key = (PathBuf, String, String, String, String);
    type Found = Option<(Arc<Document>, Registry)>;
    static FOUND: OnceLock<Mutex<HashMap<Key, Found>>> = OnceLock::new();
    let key = (
        repo.to_path_buf(),
        check_with.crds.digest().to_string(),
        check_with.version.clone(),
        api_version.to_string(),
        kind.to_string(),
    );
    let found = FOUND.get_or_init(Default::default);
    if let Some(known) = found.lock().ok()?.get(&key) {
        return known.clone();
    }
    let crd = defined_once(check_with, repo, api_version, kind).and_then(|(doc, scratch)| {
        let mut registry = Registry::clone(&*builtin(&check_with.version)?);
        // The kind as the scratch registry made it from the document (the same entry
        // `add_crd` would make: a CRD's schema does not depend on the registry it is added
        // to, only its compiled form does, and that is made in the job's registry). The
        // language server's registries keep their CRDs by document: added as before there.
        if kept_crds::keeping() || !registry.adopt(&scratch, api_version, kind) {
            registry.add_crd(&doc);
        }
        Some((Arc::new(doc), registry))
    });
    if let Ok(mut all) = found.lock() {
        all.insert(key, crd.clone());
    }
    crd
}

/// The CRD document of `(api_version, kind)` when the repository defines it, and every
/// definition of it is the same, with a registry without built-in kinds that it was added to.
/// Only the documents of the kind's group and name are read (their bytes alone) and parsed,
/// identical copies (a release vendored twice) once, and two definitions are compared only
/// when there are two.
fn defined_once(
    check_with: &KubeCheck,
    repo: &Path,
    api_version: &str,
    kind: &str,
) -> Option<(Document, Registry)> {
    let policy = crate::files::repo_policy::of(repo);
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let mut seen_hashes = Vec::new();
    let mut first: Option<(Document, Registry)> = None;
    let mut first_definition: Option<serde_json::Value> = None;
    for (rel, crd) in check_with.crds.docs().unwrap_or_default() {
        if crd.group != group || crd.kind != kind || seen_hashes.contains(&crd.hash) {
            continue;
        }
        seen_hashes.push(crd.hash);
        let Some(bytes) =
            crate::files::read_allowed_range(&repo.join(rel), &policy, crd.start..crd.end)
        else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let Ok(set) = parse(&text, &Arc::from(rel.as_str()), &ParseOpts::default()) else {
            continue;
        };
        for doc in set.items {
            let mut scratch = Registry::empty();
            scratch.add_crd(&doc);
            if !scratch.has(api_version, kind) {
                continue;
            }
            // The registry has the kind: the document is a CRD `crd_definition` accepts.
            match &first {
                None => first = Some((doc, scratch)),
                Some((seen, _)) => {
                    let seen = first_definition.get_or_insert_with(|| definition_of_crd(seen));
                    if *seen != definition_of_crd(&doc) {
                        return None;
                    }
                }
            }
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};

    fn docs(src: &str) -> Vec<bool> {
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        ds.items.iter().map(applied).collect()
    }

    #[test]
    fn only_names_of_kubernetes_types_are_objects() {
        assert!(looks_like_a_type("v1", "ConfigMap"));
        assert!(looks_like_a_type("cert-manager.io/v1", "Certificate"));
        assert!(!looks_like_a_type(
            "ENC[AES256_GCM,data:1uE=]",
            "ENC[AES256_GCM,data:zn]"
        ));
        assert!(!looks_like_a_type("v1", "${KIND}"));
        assert!(!looks_like_a_type("a/b/c", "Widget"));
    }

    #[test]
    fn only_objects_something_applies_are_checked() {
        let src = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: kbld.k14s.io/v1alpha1
kind: Config
images: []
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: stubs.example.com
  annotations: {kapp.k14s.io/exists: \"\"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  generateName: b-
  annotations: {kapp.k14s.io/noop: \"\"}
---
apiVersion: v1
kind: ConfigMap
metadata: {generateName: c-}
";
        assert_eq!(docs(src), vec![true, false, false, false, true]);
    }
}
