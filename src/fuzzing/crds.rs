//! The CRD fuzz target: CustomResourceDefinitions of a repository or a root's output are
//! hostile input (a fork's pull request can add one), compiled into validators and then used
//! on the objects of their kinds.

use std::sync::Arc;

use super::setup;
use crate::kubernetes::{check, crd_definition, Registry, DEFAULT_VERSION};
use crate::yaml::parse::{parse, ParseOpts};

/// A YAML stream of documents: each CustomResourceDefinition among them added to a registry
/// of the built-in kinds (and to one without), each kind it adds compiled, and every document
/// checked against the registry (the CRDs themselves against the built-in CRD schema).
pub fn crd_compile(data: &[u8]) {
    setup();
    let text = String::from_utf8_lossy(data);
    let name: Arc<str> = Arc::from("crds.yml");
    let Ok(docs) = parse(&text, &name, &ParseOpts::default()) else {
        return;
    };
    let Ok(mut registry) = Registry::builtin(DEFAULT_VERSION) else {
        return;
    };
    let mut scratch = Registry::empty();
    for doc in &docs.items {
        registry.add_crd(doc);
        scratch.add_crd(doc);
        let _ = registry.kubernetes_group_of_crd(doc);
        let _ = crd_definition(doc);
    }
    for r in [&registry, &scratch] {
        for (api_version, kind) in r.kinds() {
            if r.has_crd(api_version, kind) {
                let _ = r.compiled(api_version, kind);
            }
        }
        for doc in &docs.items {
            let _ = check(r, doc);
        }
    }
}
