//! kube-linter's 31 checks that are on by default there, under kube-linter's names, one per
//! file. Here they are a category off by default (`policies: {checks: [kube-linter]}` in
//! .yttlint.yaml, a level under `rules:`, or `--select` turns them on).
//!
//! Each check follows kube-linter's meaning (stackrox/kube-linter, Apache-2.0: its
//! `pkg/templates` and `pkg/builtinchecks`), read from its documentation and code and written
//! anew; where one differs, its file says how. As in kube-linter, the workload checks read
//! the pod templates of Pods, ReplicationControllers, Deployments, DaemonSets, StatefulSets,
//! ReplicaSets, Jobs, CronJobs and DeploymentConfigs (see [`super::workload`]), and an
//! object annotated `ignore-check.kube-linter.io/ID` (or `kube-linter.io/ignore-all`) is not
//! reported for check ID.

pub mod dangling_service;
pub mod deprecated_service_account_field;
pub mod docker_sock;
pub mod drop_net_raw_capability;
pub mod duplicate_env_var;
pub mod env_var_secret;
pub mod host_ipc;
mod host_mount;
pub mod host_network;
pub mod host_pid;
pub mod invalid_target_ports;
pub mod job_ttl_seconds_after_finished;
pub mod latest_tag;
pub mod liveness_port;
pub mod mismatching_selector;
pub mod no_anti_affinity;
pub mod no_extensions_v1beta;
pub mod no_read_only_root_fs;
pub mod non_existent_service_account;
pub mod pdb_max_unavailable;
pub mod pdb_min_available;
pub mod pdb_unhealthy_pod_eviction_policy;
pub mod privilege_escalation_container;
pub mod privileged_container;
mod probe_port;
pub mod readiness_port;
pub mod run_as_non_root;
pub mod sensitive_host_mounts;
pub mod ssh_port;
pub mod startup_port;
pub mod unsafe_sysctls;
pub mod unset_cpu_requirements;
pub mod unset_memory_requirements;

use super::object::Object;
use super::workload::{Container, PodTemplate};
use super::{Check, Found, Output};
use crate::kubernetes::Step;
use crate::report::Rule;

/// The checks, in kube-linter's alphabetical order.
pub const CHECKS: &[&Check] = &[
    &dangling_service::CHECK,
    &deprecated_service_account_field::CHECK,
    &docker_sock::CHECK,
    &drop_net_raw_capability::CHECK,
    &duplicate_env_var::CHECK,
    &env_var_secret::CHECK,
    &host_ipc::CHECK,
    &host_network::CHECK,
    &host_pid::CHECK,
    &invalid_target_ports::CHECK,
    &job_ttl_seconds_after_finished::CHECK,
    &latest_tag::CHECK,
    &liveness_port::CHECK,
    &mismatching_selector::CHECK,
    &no_anti_affinity::CHECK,
    &no_extensions_v1beta::CHECK,
    &no_read_only_root_fs::CHECK,
    &non_existent_service_account::CHECK,
    &pdb_max_unavailable::CHECK,
    &pdb_min_available::CHECK,
    &pdb_unhealthy_pod_eviction_policy::CHECK,
    &privilege_escalation_container::CHECK,
    &privileged_container::CHECK,
    &readiness_port::CHECK,
    &run_as_non_root::CHECK,
    &sensitive_host_mounts::CHECK,
    &ssh_port::CHECK,
    &startup_port::CHECK,
    &unsafe_sysctls::CHECK,
    &unset_cpu_requirements::CHECK,
    &unset_memory_requirements::CHECK,
];

/// The annotation that keeps every kube-linter check off an object.
const IGNORE_ALL: &str = "kube-linter.io/ignore-all";
/// The prefix of the annotation that keeps one check off an object.
const IGNORE_PREFIX: &str = "ignore-check.kube-linter.io/";

/// Whether `obj` asks kube-linter not to check it with `rule` (only kube-linter's rules).
pub fn ignored(rule: Rule, obj: &Object<'_>) -> bool {
    if !Rule::KUBE_LINTER.contains(&rule) {
        return false;
    }
    obj.annotations()
        .iter()
        .any(|(k, _)| k == IGNORE_ALL || k.strip_prefix(IGNORE_PREFIX) == Some(rule.id()))
}

/// What a check says about one place: the steps from the top of the object, and the message.
pub type Said = (Vec<Step>, String);

/// Runs `f` over the pod template of every workload.
pub fn per_pod(
    out: &Output<'_>,
    f: &dyn Fn(&Object<'_>, &PodTemplate<'_>) -> Vec<Said>,
) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, t) in out.workloads() {
        for (at, message) in f(&out.objects[i], &t) {
            found.push(Found::new(i, at, message));
        }
    }
    found
}

/// A finding for every container whose quantity at `path` (`resources.requests.cpu`) is
/// missing or 0, `what` naming it ("CPU request").
pub fn unset_quantity(out: &Output<'_>, path: &[&str], what: &str) -> Vec<Found> {
    per_container(out, false, &|c| {
        let why = match super::object::at(c.value, path).map(super::quantity::is_zero) {
            None => "has no",
            Some(Some(true)) => "has 0 as its",
            Some(_) => return Vec::new(),
        };
        vec![(
            c.field(path),
            format!("{} {why} {what} ({})", c.describe(), path.join(".")),
        )]
    })
}

/// Runs `f` over every container of every workload (init and ephemeral ones too, unless
/// `long_running_only`).
pub fn per_container(
    out: &Output<'_>,
    long_running_only: bool,
    f: &dyn Fn(&Container<'_>) -> Vec<Said>,
) -> Vec<Found> {
    per_pod(out, &|_, t| {
        t.containers()
            .iter()
            .filter(|c| !(long_running_only && c.init))
            .flat_map(f)
            .collect()
    })
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::policy::object::tests::docs;
    use crate::yaml::Document;

    /// `(object, path, message)` of what `check` finds in `src`.
    pub fn found(check: &Check, src: &str) -> Vec<(String, String, String)> {
        let d = docs(src);
        let refs: Vec<&Document> = d.iter().collect();
        let out = Output::new(&refs);
        (check.run)(&out)
            .into_iter()
            .map(|f| {
                (
                    out.objects[f.object].describe(),
                    crate::kubernetes::display_path(&f.at),
                    f.message,
                )
            })
            .collect()
    }

    /// The messages of what `check` finds in `src`, in order.
    pub fn messages(check: &Check, src: &str) -> Vec<String> {
        found(check, src).into_iter().map(|f| f.2).collect()
    }

    /// The paths of what `check` finds in `src`, in order.
    pub fn paths(check: &Check, src: &str) -> Vec<String> {
        found(check, src).into_iter().map(|f| f.1).collect()
    }

    /// A Deployment `web` whose pod spec is `spec` (YAML flow or block, indented by 6).
    pub fn deployment(spec: &str) -> String {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n{spec}\n"
        )
    }

    #[test]
    fn the_annotations_keep_a_check_off_an_object() {
        let d = docs("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  annotations:\n    ignore-check.kube-linter.io/host-pid: \"ok\"\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: b\n  annotations: {kube-linter.io/ignore-all: \"\"}\n");
        let a = Object::new(&d[0]).unwrap();
        let b = Object::new(&d[1]).unwrap();
        assert!(ignored(Rule::HostPid, &a) && !ignored(Rule::HostIpc, &a));
        assert!(ignored(Rule::HostIpc, &b));
        assert!(!ignored(Rule::DuplicateObject, &b));
        assert_eq!(CHECKS.len(), Rule::KUBE_LINTER.len());
    }
}
