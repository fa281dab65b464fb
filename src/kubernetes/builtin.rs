//! The built-in kinds of every Kubernetes version compiled in (`data/kubernetes.bin`, written
//! by `scripts/catalog/generate.py`): per version, the table from `(apiVersion, kind)` to the
//! definition of the kind and the definitions it may reach; each distinct definition is stored
//! once across versions. The data is one zlib stream of JSON, decompressed the first time a
//! process needs any built-in schema; a definition's JSON is parsed only when a schema that
//! reaches it is compiled. It also holds the table of deprecated and removed API versions
//! ([`super::apis`]).

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value as Json;

/// The Kubernetes versions whose built-in schemas are compiled in, newest first.
pub const VERSIONS: &[&str] = &[
    "1.37", "1.36", "1.35", "1.34", "1.33", "1.32", "1.31", "1.30", "1.29", "1.28",
];

/// The version used unless the configuration names one.
pub const DEFAULT_VERSION: &str = "1.37";

const DATA: &[u8] = include_bytes!("data/kubernetes.bin");

/// One version's kinds and definitions.
#[derive(Deserialize)]
pub struct Version {
    pub version: String,
    /// Where it comes from (`kubernetes-client/python v30.1.0`).
    pub source: String,
    /// `[apiVersion, kind, definition name]`, sorted.
    pub kinds: Vec<(String, String, String)>,
    /// Definition name → index into [`Data::definitions`].
    pub definitions: HashMap<String, usize>,
}

/// `[apiVersion, kind, deprecated in, removed in, replacement]`; a version is `""` when the
/// table does not say.
pub type ApiRow = (String, String, String, String, String);

/// Everything `kubernetes.bin` holds.
#[derive(Deserialize)]
pub struct Data {
    pub versions: Vec<Version>,
    definitions: Vec<Box<RawValue>>,
    pub apis: Vec<ApiRow>,
}

impl Data {
    /// The version as [`VERSIONS`] spells it (`v` prefix optional).
    pub fn version(&self, name: &str) -> Option<&Version> {
        let bare = name.strip_prefix('v').unwrap_or(name);
        self.versions.iter().find(|v| v.version == bare)
    }

    /// The definition `name` of `version`, parsed.
    pub fn definition(&self, version: &Version, name: &str) -> Option<Json> {
        let i = *version.definitions.get(name)?;
        serde_json::from_str(self.definitions.get(i)?.get()).ok()
    }

    /// Whether `group` is one of Kubernetes' own: a group of a built-in kind of any version
    /// compiled in, or of the table of removed APIs (`extensions`).
    pub fn is_kubernetes_group(&self, group: &str) -> bool {
        let of = |av: &str| av.rsplit_once('/').map_or("", |(g, _)| g) == group;
        self.versions
            .iter()
            .any(|v| v.kinds.iter().any(|(av, _, _)| of(av)))
            || self.apis.iter().any(|(av, _, _, _, _)| of(av))
    }
}

/// The data, decompressed and parsed once per process.
pub fn data() -> Result<&'static Data, String> {
    static DATA_CELL: OnceLock<Result<Data, String>> = OnceLock::new();
    DATA_CELL
        .get_or_init(|| parse(DATA))
        .as_ref()
        .map_err(Clone::clone)
}

fn parse(bytes: &[u8]) -> Result<Data, String> {
    let mut text = String::new();
    flate2::read::ZlibDecoder::new(bytes)
        .read_to_string(&mut text)
        .map_err(|e| format!("internal error: the built-in schemas do not decompress: {e}"))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("internal error: the built-in schemas are not valid: {e}"))
}

/// Whether `version` is one of [`VERSIONS`] (`v` prefix optional); the error lists them.
pub fn check_version(version: &str) -> Result<&'static str, String> {
    let bare = version.strip_prefix('v').unwrap_or(version);
    VERSIONS
        .iter()
        .copied()
        .find(|v| *v == bare)
        .ok_or_else(|| {
            format!(
                "no schemas for Kubernetes {version:?}; compiled in: {}",
                VERSIONS.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_holds_exactly_the_versions_listed() {
        let d = data().unwrap();
        let mut listed: Vec<&str> = d.versions.iter().map(|v| v.version.as_str()).collect();
        listed.reverse();
        assert_eq!(listed, VERSIONS);
        for v in &d.versions {
            assert!(v.kinds.len() > 70, "{}: {}", v.version, v.kinds.len());
            for (_, _, def) in &v.kinds {
                assert!(d.definition(v, def).is_some(), "{} {def}", v.version);
            }
        }
        assert_eq!(check_version("v1.30"), Ok("1.30"));
        assert!(check_version("1.20")
            .unwrap_err()
            .contains("compiled in: 1.37, 1.36"));
    }

    #[test]
    fn knows_kubernetes_groups_old_and_new() {
        let d = data().unwrap();
        for g in [
            "",
            "apps",
            "batch",
            "networking.k8s.io",
            "extensions",
            "policy",
        ] {
            assert!(d.is_kubernetes_group(g), "{g}");
        }
        assert!(!d.is_kubernetes_group("cert-manager.io"));
        assert!(!d.is_kubernetes_group("gateway.networking.k8s.io"));
    }
}
