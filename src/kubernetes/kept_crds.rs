//! The kinds of CustomResourceDefinitions kept from one job to the next, schemas compiled. A
//! job adds the CRDs of its own output to its registry, and every schema it checks with is
//! compiled the first time (see [`super::registry`]): without this, a run after an edit in the
//! language server compiles the same CRDs again and drops them after (a tenth of a run on
//! cf-for-k8s, whose output defines about twenty). A CRD is found by its whole document (as
//! the schemas read it) and the built-in version of the registry (its `metadata` comes from
//! there), compared in full, so a kept kind is the one `add_crd` would make. Nothing is kept
//! unless the process asks ([`keep`]: the language server); the command line's jobs each add
//! their CRDs as before.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value as Json;

use super::registry::Entry;

/// Whether any CRD document is kept (read without the lock).
static KEEPING: AtomicBool = AtomicBool::new(false);

/// The kinds one CRD document adds: `(apiVersion, kind, entry)` in the order it adds them.
pub(super) type Kinds = Vec<(String, String, Arc<Entry>)>;

/// What a store keeps for one document.
struct Kept<V> {
    builtin: Option<&'static str>,
    crd: Json,
    value: V,
}

/// Values kept by CRD document, at most `limit` documents.
struct Store<V> {
    limit: usize,
    /// By the CRD's `metadata.name`.
    by_name: HashMap<String, Vec<Kept<V>>>,
    /// Names in the order their documents were kept (the oldest is dropped first).
    order: VecDeque<String>,
}

impl<V: Clone> Store<V> {
    fn new(limit: usize) -> Store<V> {
        Store {
            limit,
            by_name: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    fn find(&self, builtin: Option<&'static str>, crd: &Json) -> Option<V> {
        self.by_name
            .get(&name_of(crd))?
            .iter()
            .find(|k| k.builtin == builtin && k.crd == *crd)
            .map(|k| k.value.clone())
    }

    fn put(&mut self, builtin: Option<&'static str>, crd: Json, value: V) {
        if self.limit == 0 || self.find(builtin, &crd).is_some() {
            return;
        }
        while self.order.len() >= self.limit {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(all) = self.by_name.get_mut(&oldest) {
                if !all.is_empty() {
                    all.remove(0);
                }
                if all.is_empty() {
                    self.by_name.remove(&oldest);
                }
            }
        }
        let name = name_of(&crd);
        self.order.push_back(name.clone());
        self.by_name.entry(name).or_default().push(Kept {
            builtin,
            crd,
            value,
        });
    }
}

fn store() -> &'static Mutex<Store<Kinds>> {
    static STORE: OnceLock<Mutex<Store<Kinds>>> = OnceLock::new();
    STORE.get_or_init(|| Mutex::new(Store::new(0)))
}

/// Makes the registries of this process keep the kinds of up to `documents` CRD documents.
pub fn keep(documents: usize) {
    if let Ok(mut s) = store().lock() {
        s.limit = documents;
    }
    KEEPING.store(documents > 0, Ordering::Relaxed);
}

/// Whether kinds are kept at all (the caller then keeps a copy of each document).
pub fn keeping() -> bool {
    KEEPING.load(Ordering::Relaxed)
}

fn name_of(crd: &Json) -> String {
    crd["metadata"]["name"].as_str().unwrap_or("").to_string()
}

/// The kinds kept for the CRD document `crd` (as [`super::instance::schema_json`] reads it)
/// added to a registry of the built-in version `builtin`.
pub(super) fn find(builtin: Option<&'static str>, crd: &Json) -> Option<Kinds> {
    if !keeping() {
        return None;
    }
    store().lock().ok()?.find(builtin, crd)
}

/// Keeps the kinds `crd` added to a registry of the built-in version `builtin`.
pub(super) fn put(builtin: Option<&'static str>, crd: Json, kinds: Kinds) {
    if let Ok(mut s) = store().lock() {
        s.put(builtin, crd, kinds);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_by_the_whole_document_and_the_builtin_version_and_the_oldest_go_first() {
        let mut s: Store<u32> = Store::new(2);
        let a = serde_json::json!({"metadata": {"name": "a"}, "spec": {"x": 1}});
        let a2 = serde_json::json!({"metadata": {"name": "a"}, "spec": {"x": 2}});
        let b = serde_json::json!({"metadata": {"name": "b"}});
        let c = serde_json::json!({"metadata": {"name": "c"}});
        assert_eq!(s.find(Some("1.37"), &a), None);
        s.put(Some("1.37"), a.clone(), 1);
        assert_eq!(s.find(Some("1.37"), &a), Some(1));
        // Another document of the same name, or another built-in version: not the same.
        assert_eq!(s.find(Some("1.37"), &a2), None);
        assert_eq!(s.find(None, &a), None);
        s.put(Some("1.37"), a2.clone(), 2);
        assert_eq!(s.find(Some("1.37"), &a2), Some(2));
        assert_eq!(s.find(Some("1.37"), &a), Some(1));
        // A third document drops the oldest.
        s.put(Some("1.37"), b.clone(), 3);
        assert_eq!(s.find(Some("1.37"), &a), None);
        assert_eq!(s.find(Some("1.37"), &a2), Some(2));
        s.put(Some("1.37"), c.clone(), 4);
        assert_eq!(s.find(Some("1.37"), &a2), None);
        assert_eq!(
            (s.find(Some("1.37"), &b), s.find(Some("1.37"), &c)),
            (Some(3), Some(4))
        );
        assert_eq!(s.order.len(), 2);
    }

    #[test]
    fn nothing_is_kept_without_a_limit() {
        let mut s: Store<u32> = Store::new(0);
        let a = serde_json::json!({"metadata": {"name": "a"}});
        s.put(None, a.clone(), 1);
        assert_eq!(s.find(None, &a), None);
    }
}
