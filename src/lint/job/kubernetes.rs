//! `k8s-schema`: a root's rendered Kubernetes objects checked against the schemas of their
//! kinds (see [`crate::kubernetes`]). The built-in schemas of a version are read once per
//! process and shared by every job it runs (a clone of a registry shares what it compiled);
//! each job adds the CRDs its own output renders. An object whose kind has no schema then is
//! looked up in the repository's CustomResourceDefinitions: only the files that may define the
//! kind are read, and only when every definition of it in the repository is the same one (a
//! repository that vendors two releases of an operator has two schemas for one kind, and
//! checking an object against the wrong one would be a false finding).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::files::ReadPolicy;
use crate::kubernetes::{check, crd_definition, CheckResult, Registry};
use crate::lint::job::engine::SpanOf;
use crate::lint::job::repo_crds::RepoCrds;
use crate::report::{Diagnostic, Rule};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{DocSet, Document, Value};

/// What a job needs to check its objects: the Kubernetes version of the built-in kinds, and
/// the repository's CustomResourceDefinition documents (one list shared by the run's jobs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KubeCheck {
    pub version: String,
    pub crds: RepoCrds,
}

/// The findings of the objects in `docs`, and the kinds it could not check
/// (`apiVersion kind`).
pub fn findings(
    check_with: &KubeCheck,
    repo: &Path,
    docs: &DocSet,
    span_of: SpanOf<'_>,
) -> (Vec<Diagnostic>, Vec<String>) {
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
    let mut registry = Registry::clone(&base);
    // The CRDs of the job's own output come first, but are read (most are long, and most
    // outputs have no object of their kinds) only for a kind without a built-in schema.
    let mut own_crds_added = false;
    let mut found = Vec::new();
    let mut unchecked = Vec::new();
    for doc in docs.items.iter().filter(|d| applied(d)) {
        let mut result = check(&registry, doc);
        if matches!(result, CheckResult::NoSchema { .. }) && !own_crds_added {
            own_crds_added = true;
            for crd in docs.items.iter().filter(|d| applied(d)) {
                registry.add_crd(crd);
            }
            result = check(&registry, doc);
        }
        if let CheckResult::NoSchema { api_version, kind } = &result {
            if let Some(crd) = repository_crd(check_with, repo, api_version, kind) {
                registry.add_crd(&crd);
                result = check(&registry, doc);
            }
        }
        match result {
            CheckResult::Checked(violations) => {
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
                    d
                }));
            }
            CheckResult::NoSchema { api_version, kind }
            | CheckResult::BadSchema {
                api_version, kind, ..
            } => unchecked.push(format!("{api_version} {kind}")),
            CheckResult::NotAnObject => {}
        }
    }
    unchecked.sort();
    unchecked.dedup();
    (found, unchecked)
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

/// The repository's one definition of `(api_version, kind)`, looked up once per process and
/// list of CRDs (a CRD file edited in the editor makes another list).
fn repository_crd(
    check_with: &KubeCheck,
    repo: &Path,
    api_version: &str,
    kind: &str,
) -> Option<Document> {
    type Key = (PathBuf, String, String, String);
    static FOUND: OnceLock<Mutex<HashMap<Key, Option<Document>>>> = OnceLock::new();
    let key = (
        repo.to_path_buf(),
        check_with.crds.digest().to_string(),
        api_version.to_string(),
        kind.to_string(),
    );
    let found = FOUND.get_or_init(Default::default);
    if let Some(known) = found.lock().ok()?.get(&key) {
        return known.clone();
    }
    let crd = defined_once(check_with, repo, api_version, kind);
    if let Ok(mut all) = found.lock() {
        all.insert(key, crd.clone());
    }
    crd
}

/// The CRD document of `(api_version, kind)` when the repository defines it, and every
/// definition of it is the same. Only the documents of the kind's group and name are read and
/// parsed, and identical copies (a release vendored twice) once.
fn defined_once(
    check_with: &KubeCheck,
    repo: &Path,
    api_version: &str,
    kind: &str,
) -> Option<Document> {
    let policy = ReadPolicy::repository(repo);
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let mut seen_hashes = Vec::new();
    let mut first: Option<(Document, serde_json::Value)> = None;
    for (rel, crd) in check_with.crds.docs().unwrap_or_default() {
        if crd.group != group || crd.kind != kind || seen_hashes.contains(&crd.hash) {
            continue;
        }
        seen_hashes.push(crd.hash);
        let Some(bytes) = crate::files::read_allowed(&repo.join(rel), &policy) else {
            continue;
        };
        let Some(text) = bytes.get(crd.start..crd.end) else {
            continue;
        };
        let text = String::from_utf8_lossy(text);
        let Ok(set) = parse(&text, &Arc::from(rel.as_str()), &ParseOpts::default()) else {
            continue;
        };
        for doc in set.items {
            let mut scratch = Registry::empty();
            scratch.add_crd(&doc);
            if !scratch.has(api_version, kind) {
                continue;
            }
            let definition = crd_definition(&doc)?;
            match &first {
                None => first = Some((doc, definition)),
                Some((_, seen)) if *seen == definition => {}
                Some(_) => return None,
            }
        }
    }
    first.map(|(doc, _)| doc)
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
