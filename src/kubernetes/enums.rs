//! The closed value sets of built-in fields. k8s-openapi's schemas give these fields as plain
//! strings (its generator drops the `enum` that Kubernetes' own OpenAPI v3 document derives
//! from the `+enum` markers of k8s.io/api), so the few that manifests most often get wrong are
//! listed here, each as the API server's validation accepts it. A field missing from this table
//! is only type-checked.

/// `(definition, property, accepted values)`. When the property is an array of strings the
/// values apply to its items.
pub const ENUMS: &[(&str, &str, &[&str])] = &[
    (CORE_CONTAINER, "imagePullPolicy", PULL_POLICY),
    (CORE_EPHEMERAL, "imagePullPolicy", PULL_POLICY),
    (CORE_CONTAINER, "terminationMessagePolicy", MESSAGE_POLICY),
    (CORE_EPHEMERAL, "terminationMessagePolicy", MESSAGE_POLICY),
    ("io.k8s.api.core.v1.ContainerPort", "protocol", PROTOCOL),
    ("io.k8s.api.core.v1.ServicePort", "protocol", PROTOCOL),
    ("io.k8s.api.discovery.v1.EndpointPort", "protocol", PROTOCOL),
    (
        "io.k8s.api.networking.v1.NetworkPolicyPort",
        "protocol",
        PROTOCOL,
    ),
    (
        "io.k8s.api.core.v1.PodSpec",
        "restartPolicy",
        &["Always", "OnFailure", "Never"],
    ),
    (
        "io.k8s.api.core.v1.PodSpec",
        "dnsPolicy",
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
    ),
    (
        "io.k8s.api.core.v1.ServiceSpec",
        "type",
        &["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"],
    ),
    (
        "io.k8s.api.core.v1.ServiceSpec",
        "sessionAffinity",
        &["ClientIP", "None"],
    ),
    (
        "io.k8s.api.core.v1.ServiceSpec",
        "externalTrafficPolicy",
        TRAFFIC,
    ),
    (
        "io.k8s.api.core.v1.ServiceSpec",
        "internalTrafficPolicy",
        TRAFFIC,
    ),
    (
        "io.k8s.api.apps.v1.DeploymentStrategy",
        "type",
        &["Recreate", "RollingUpdate"],
    ),
    (
        "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
        "type",
        &["RollingUpdate", "OnDelete"],
    ),
    (
        "io.k8s.api.apps.v1.StatefulSetUpdateStrategy",
        "type",
        &["RollingUpdate", "OnDelete"],
    ),
    (
        "io.k8s.api.apps.v1.StatefulSetSpec",
        "podManagementPolicy",
        &["OrderedReady", "Parallel"],
    ),
    (
        "io.k8s.api.batch.v1.CronJobSpec",
        "concurrencyPolicy",
        &["Allow", "Forbid", "Replace"],
    ),
    (
        "io.k8s.api.batch.v1.JobSpec",
        "completionMode",
        &["NonIndexed", "Indexed"],
    ),
    (
        "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
        "accessModes",
        ACCESS_MODES,
    ),
    (
        "io.k8s.api.core.v1.PersistentVolumeSpec",
        "accessModes",
        ACCESS_MODES,
    ),
    (
        "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
        "volumeMode",
        VOLUME_MODE,
    ),
    (
        "io.k8s.api.core.v1.PersistentVolumeSpec",
        "volumeMode",
        VOLUME_MODE,
    ),
    (
        "io.k8s.api.core.v1.Toleration",
        "operator",
        &["Exists", "Equal"],
    ),
    ("io.k8s.api.core.v1.Toleration", "effect", TAINT_EFFECT),
    ("io.k8s.api.core.v1.Taint", "effect", TAINT_EFFECT),
    (
        "io.k8s.api.core.v1.HTTPGetAction",
        "scheme",
        &["HTTP", "HTTPS"],
    ),
    (
        "io.k8s.api.core.v1.VolumeMount",
        "mountPropagation",
        &["None", "HostToContainer", "Bidirectional"],
    ),
    (
        "io.k8s.api.core.v1.SeccompProfile",
        "type",
        &["Unconfined", "RuntimeDefault", "Localhost"],
    ),
    (
        "io.k8s.api.core.v1.NodeSelectorRequirement",
        "operator",
        &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"],
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        "operator",
        &["In", "NotIn", "Exists", "DoesNotExist"],
    ),
    (
        "io.k8s.api.networking.v1.HTTPIngressPath",
        "pathType",
        &["Exact", "Prefix", "ImplementationSpecific"],
    ),
    (
        "io.k8s.api.networking.v1.NetworkPolicySpec",
        "policyTypes",
        &["Ingress", "Egress"],
    ),
    (
        "io.k8s.api.policy.v1.PodDisruptionBudgetSpec",
        "unhealthyPodEvictionPolicy",
        &["IfHealthyBudget", "AlwaysAllow"],
    ),
];

const CORE_CONTAINER: &str = "io.k8s.api.core.v1.Container";
const CORE_EPHEMERAL: &str = "io.k8s.api.core.v1.EphemeralContainer";
const PULL_POLICY: &[&str] = &["Always", "Never", "IfNotPresent"];
const MESSAGE_POLICY: &[&str] = &["File", "FallbackToLogsOnError"];
const PROTOCOL: &[&str] = &["TCP", "UDP", "SCTP"];
const TRAFFIC: &[&str] = &["Cluster", "Local"];
const ACCESS_MODES: &[&str] = &[
    "ReadWriteOnce",
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOncePod",
];
const VOLUME_MODE: &[&str] = &["Block", "Filesystem"];
const TAINT_EFFECT: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// The accepted values of `property` of the built-in `definition`, if the table has them.
pub fn of(definition: &str, property: &str) -> Option<&'static [&'static str]> {
    ENUMS
        .iter()
        .find(|(d, p, _)| *d == definition && *p == property)
        .map(|(_, _, values)| *values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_values_by_definition_and_property() {
        assert_eq!(of(CORE_CONTAINER, "imagePullPolicy"), Some(PULL_POLICY));
        assert_eq!(of(CORE_CONTAINER, "image"), None);
    }

    #[test]
    fn lists_each_field_once() {
        for (i, (d, p, _)) in ENUMS.iter().enumerate() {
            assert!(
                !ENUMS[..i].iter().any(|(d2, p2, _)| d2 == d && p2 == p),
                "{d}.{p} twice"
            );
        }
    }
}
