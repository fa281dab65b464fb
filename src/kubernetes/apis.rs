//! Deprecated and removed API versions of Kubernetes' own kinds, as pluto reports them: which
//! `(apiVersion, kind)` the chosen Kubernetes version no longer serves (rule
//! `k8s-api-removed`, with the version that replaces it) and which it serves but has deprecated
//! (rule `k8s-api-deprecated`, with the version that removes it). The table is generated
//! (`scripts/catalog/generate.py`) from FairwindsOps/pluto's `versions.yaml` and from the kinds
//! each compiled-in version serves and the next does not.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::builtin;

/// What the target version says of an API version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiStatus {
    /// Not served since `removed_in`; `replacement` is the apiVersion to use (may be empty).
    Removed {
        removed_in: String,
        replacement: String,
    },
    /// Served, deprecated since `deprecated_in`, removed in `removed_in` (may be empty: no
    /// removal planned yet).
    Deprecated {
        deprecated_in: String,
        removed_in: String,
        replacement: String,
    },
}

/// `1.25` as a comparable pair; `None` for anything else.
fn minor(v: &str) -> Option<(u32, u32)> {
    let v = v.strip_prefix('v').unwrap_or(v);
    let mut parts = v.split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The table's rows by `(apiVersion, kind)`, made once per process (every rendered object is
/// looked up).
fn rows(data: &'static builtin::Data) -> &'static HashMap<(&'static str, &'static str), usize> {
    static ROWS: OnceLock<HashMap<(&'static str, &'static str), usize>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let by_key = data.apis.iter().enumerate();
        by_key
            .map(|(i, (av, k, _, _, _))| ((av.as_str(), k.as_str()), i))
            .collect()
    })
}

/// The status of `(api_version, kind)` in Kubernetes `version`, `None` when it is served and
/// not deprecated (or not one of Kubernetes' own).
pub fn status(version: &str, api_version: &str, kind: &str) -> Option<ApiStatus> {
    let data = builtin::data().ok()?;
    let (_, _, deprecated_in, removed_in, replacement) =
        data.apis.get(*rows(data).get(&(api_version, kind))?)?;
    let target = minor(version)?;
    let served = data.version(version).is_some_and(|v| {
        v.kinds
            .iter()
            .any(|(a, k, _)| a == api_version && k == kind)
    });
    let removed = minor(removed_in).is_some_and(|r| r <= target);
    if removed && !served {
        return Some(ApiStatus::Removed {
            removed_in: removed_in.clone(),
            replacement: replacement.clone(),
        });
    }
    if minor(deprecated_in).is_some_and(|d| d <= target) && !removed {
        return Some(ApiStatus::Deprecated {
            deprecated_in: deprecated_in.clone(),
            removed_in: removed_in.clone(),
            replacement: replacement.clone(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn removed(version: &str, av: &str, kind: &str) -> Option<String> {
        match status(version, av, kind) {
            Some(ApiStatus::Removed { replacement, .. }) => Some(replacement),
            _ => None,
        }
    }

    #[test]
    fn removed_apis_name_their_replacement() {
        let ingress = removed("1.30", "extensions/v1beta1", "Ingress");
        assert_eq!(ingress.as_deref(), Some("networking.k8s.io/v1"));
        let psp = status("1.30", "policy/v1beta1", "PodSecurityPolicy");
        assert!(matches!(psp, Some(ApiStatus::Removed { removed_in, .. }) if removed_in == "1.25"));
        assert_eq!(
            removed("1.30", "batch/v1beta1", "CronJob").as_deref(),
            Some("batch/v1")
        );
        assert_eq!(
            removed("1.30", "autoscaling/v2beta2", "HorizontalPodAutoscaler").as_deref(),
            Some("autoscaling/v2")
        );
        assert_eq!(status("1.30", "apps/v1", "Deployment"), None);
        assert_eq!(status("1.30", "cert-manager.io/v1", "Certificate"), None);
    }

    #[test]
    fn deprecated_until_the_version_that_removes_it() {
        // flowcontrol v1beta3: deprecated in 1.29, removed in 1.32.
        let at = |v: &str| status(v, "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema");
        assert!(at("1.28").is_none());
        assert!(
            matches!(at("1.30"), Some(ApiStatus::Deprecated { removed_in, .. }) if removed_in == "1.32")
        );
        assert!(matches!(at("1.32"), Some(ApiStatus::Removed { .. })));
    }
}
