//! Writes the schemas of Kubernetes' built-in kinds of one version as
//! `scripts/catalog/generate.py` reads them (for the versions kubernetes-client/python has no
//! OpenAPI document of yet): every definition k8s-openapi's `schemars` impls
//! produce for the resource types below, without descriptions, plus the table from
//! `(apiVersion, kind)` to the definition of the kind. Nothing else is changed: the strictness
//! yttlint adds (`additionalProperties: false`, int-or-string types, ...) is applied when a
//! schema is compiled, so built-in kinds and CRDs go through the same code.
//!
//! Usage, from this directory, once per Kubernetes version k8s-openapi supports:
//!
//!     cargo run --release --features v1_37 > /tmp/k8s-1.37.json
//!     scripts/catalog/generate.py --mirrors DIR --k8s-openapi 1.37=/tmp/k8s-1.37.json
//!
//! The list of kinds is every type of k8s-openapi that implements `Resource`, except the
//! discovery types of apimachinery (APIGroup, Status, ...), which are not applied as manifests.

use k8s_openapi as k8s;
use k8s_openapi::Resource;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value};
use std::fmt::Write;

/// The version of the schemas this build writes.
const VERSION: &str = "1.37";

/// `(apiVersion, kind, definition name)` of each kind, its schema added to the generator.
struct Collector {
    generator: SchemaGenerator,
    kinds: Vec<(String, String, String)>,
}

impl Collector {
    fn add<T: Resource + JsonSchema>(&mut self) {
        self.generator.subschema_for::<T>();
        self.kinds.push((
            T::API_VERSION.to_string(),
            T::KIND.to_string(),
            T::schema_name().into_owned(),
        ));
    }
}

macro_rules! collect {
    ($c:expr; $($t:ty,)*) => { $($c.add::<$t>();)* };
}

/// Removes the `description` of a schema and of every schema inside it (not a property that
/// happens to be named `description`).
fn strip(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    map.remove("description");
    for key in ["items", "additionalProperties", "not"] {
        if let Some(s) = map.get_mut(key) {
            strip(s);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = map.get_mut(key) {
            list.iter_mut().for_each(strip);
        }
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.values_mut().for_each(strip);
    }
}

fn main() {
    let mut c = Collector {
        generator: SchemaGenerator::new(schemars::generate::SchemaSettings::draft07()),
        kinds: Vec::new(),
    };
    collect!(c;
    k8s::api::admissionregistration::v1::MutatingAdmissionPolicy,
    k8s::api::admissionregistration::v1::MutatingAdmissionPolicyBinding,
    k8s::api::admissionregistration::v1::MutatingWebhookConfiguration,
    k8s::api::admissionregistration::v1::ValidatingAdmissionPolicy,
    k8s::api::admissionregistration::v1::ValidatingAdmissionPolicyBinding,
    k8s::api::admissionregistration::v1::ValidatingWebhookConfiguration,
    k8s::api::admissionregistration::v1alpha1::MutatingAdmissionPolicy,
    k8s::api::admissionregistration::v1alpha1::MutatingAdmissionPolicyBinding,
    k8s::api::admissionregistration::v1beta1::MutatingAdmissionPolicy,
    k8s::api::admissionregistration::v1beta1::MutatingAdmissionPolicyBinding,
    k8s::api::apiserverinternal::v1alpha1::StorageVersion,
    k8s::api::apps::v1::ControllerRevision,
    k8s::api::apps::v1::DaemonSet,
    k8s::api::apps::v1::Deployment,
    k8s::api::apps::v1::ReplicaSet,
    k8s::api::apps::v1::StatefulSet,
    k8s::api::authentication::v1::SelfSubjectReview,
    k8s::api::authentication::v1::TokenRequest,
    k8s::api::authentication::v1::TokenReview,
    k8s::api::authorization::v1::LocalSubjectAccessReview,
    k8s::api::authorization::v1::SelfSubjectAccessReview,
    k8s::api::authorization::v1::SelfSubjectRulesReview,
    k8s::api::authorization::v1::SubjectAccessReview,
    k8s::api::autoscaling::v1::HorizontalPodAutoscaler,
    k8s::api::autoscaling::v1::Scale,
    k8s::api::autoscaling::v2::HorizontalPodAutoscaler,
    k8s::api::batch::v1::CronJob,
    k8s::api::batch::v1::Job,
    k8s::api::certificates::v1::CertificateSigningRequest,
    k8s::api::certificates::v1::ClusterTrustBundle,
    k8s::api::certificates::v1::PodCertificateRequest,
    k8s::api::certificates::v1beta1::ClusterTrustBundle,
    k8s::api::certificates::v1beta1::PodCertificateRequest,
    k8s::api::coordination::v1::Lease,
    k8s::api::coordination::v1alpha2::LeaseCandidate,
    k8s::api::coordination::v1beta1::LeaseCandidate,
    k8s::api::core::v1::Binding,
    k8s::api::core::v1::ComponentStatus,
    k8s::api::core::v1::ConfigMap,
    k8s::api::core::v1::Endpoints,
    k8s::api::core::v1::Event,
    k8s::api::core::v1::LimitRange,
    k8s::api::core::v1::Namespace,
    k8s::api::core::v1::Node,
    k8s::api::core::v1::PersistentVolume,
    k8s::api::core::v1::PersistentVolumeClaim,
    k8s::api::core::v1::Pod,
    k8s::api::core::v1::PodTemplate,
    k8s::api::core::v1::ReplicationController,
    k8s::api::core::v1::ResourceQuota,
    k8s::api::core::v1::Secret,
    k8s::api::core::v1::Service,
    k8s::api::core::v1::ServiceAccount,
    k8s::api::discovery::v1::EndpointSlice,
    k8s::api::events::v1::Event,
    k8s::api::flowcontrol::v1::FlowSchema,
    k8s::api::flowcontrol::v1::PriorityLevelConfiguration,
    k8s::api::lifecycle::v1alpha1::Eviction,
    k8s::api::lifecycle::v1alpha1::EvictionRequest,
    k8s::api::networking::v1::Ingress,
    k8s::api::networking::v1::IngressClass,
    k8s::api::networking::v1::IPAddress,
    k8s::api::networking::v1::NetworkPolicy,
    k8s::api::networking::v1::ServiceCIDR,
    k8s::api::node::v1::RuntimeClass,
    k8s::api::policy::v1::Eviction,
    k8s::api::policy::v1::PodDisruptionBudget,
    k8s::api::rbac::v1::ClusterRole,
    k8s::api::rbac::v1::ClusterRoleBinding,
    k8s::api::rbac::v1::Role,
    k8s::api::rbac::v1::RoleBinding,
    k8s::api::resource::v1::DeviceClass,
    k8s::api::resource::v1::DeviceTaintRule,
    k8s::api::resource::v1::ResourceClaim,
    k8s::api::resource::v1::ResourceClaimTemplate,
    k8s::api::resource::v1::ResourceSlice,
    k8s::api::resource::v1alpha3::DeviceTaintRule,
    k8s::api::resource::v1alpha3::ResourcePoolStatusRequest,
    k8s::api::resource::v1beta1::DeviceClass,
    k8s::api::resource::v1beta1::ResourceClaim,
    k8s::api::resource::v1beta1::ResourceClaimTemplate,
    k8s::api::resource::v1beta1::ResourceSlice,
    k8s::api::resource::v1beta2::DeviceClass,
    k8s::api::resource::v1beta2::DeviceTaintRule,
    k8s::api::resource::v1beta2::ResourceClaim,
    k8s::api::resource::v1beta2::ResourceClaimTemplate,
    k8s::api::resource::v1beta2::ResourceSlice,
    k8s::api::scheduling::v1::PriorityClass,
    k8s::api::scheduling::v1alpha3::CompositePodGroup,
    k8s::api::scheduling::v1alpha3::PodGroup,
    k8s::api::scheduling::v1alpha3::Workload,
    k8s::api::scheduling::v1beta1::PodGroup,
    k8s::api::scheduling::v1beta1::Workload,
    k8s::api::storage::v1::CSIDriver,
    k8s::api::storage::v1::CSINode,
    k8s::api::storage::v1::CSIStorageCapacity,
    k8s::api::storage::v1::StorageClass,
    k8s::api::storage::v1::VolumeAttachment,
    k8s::api::storage::v1::VolumeAttributesClass,
    k8s::api::storagemigration::v1::StorageVersionMigration,
    k8s::api::storagemigration::v1beta1::StorageVersionMigration,
    k8s::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    k8s::kube_aggregator::pkg::apis::apiregistration::v1::APIService,
    );
    let mut definitions: Map<String, Value> = c.generator.definitions().clone();
    definitions.values_mut().for_each(strip);
    c.kinds.sort();

    // One kind and one definition a line, so that an upgrade shows as a readable diff.
    let mut out = String::new();
    let _ = writeln!(out, "{{\"version\": {},", Value::from(VERSION));
    let _ = writeln!(out, "\"kinds\": [");
    for (i, (api_version, kind, name)) in c.kinds.iter().enumerate() {
        let sep = if i + 1 < c.kinds.len() { "," } else { "" };
        let row = Value::from(vec![api_version.as_str(), kind, name]);
        let _ = writeln!(out, "{row}{sep}");
    }
    let _ = writeln!(out, "],\n\"definitions\": {{");
    let mut names: Vec<&String> = definitions.keys().collect();
    names.sort();
    for (i, name) in names.iter().enumerate() {
        let sep = if i + 1 < names.len() { "," } else { "" };
        let _ = writeln!(
            out,
            "{}: {}{sep}",
            Value::from(name.as_str()),
            definitions[*name]
        );
    }
    let _ = writeln!(out, "}}}}");
    print!("{out}");
}
