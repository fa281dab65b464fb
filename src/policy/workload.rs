//! Workloads: the objects that run pods, their pod template (labels and pod spec) and their
//! containers, each with the steps that lead to it. kube-linter calls these "deployment-like":
//! Pod and ReplicationController (core), Deployment, DaemonSet, StatefulSet and ReplicaSet
//! (apps, and the old extensions group), Job and CronJob (batch), DeploymentConfig
//! (apps.openshift.io). Any version of those counts.
//!
//! For the selectors of Services and the like, [`any_pod_template`] also takes an object of
//! another kind shaped like a workload (`spec.template.spec.containers`: an Argo Rollout, a
//! Knative Service), since its pods are real too.

use super::object::{field, item, items, join, steps, text, Object};
use crate::kubernetes::Step;
use crate::yaml::Value;

/// A pod template of an object: where its labels and spec are.
#[derive(Clone, Debug)]
pub struct PodTemplate<'a> {
    /// The steps to the template's `metadata` (the Pod's own for a Pod).
    pub meta_at: Vec<Step>,
    /// Its labels, as strings.
    pub labels: Vec<(String, String)>,
    /// The steps to the pod spec, and the spec.
    pub spec_at: Vec<Step>,
    pub spec: &'a Value,
    /// The labels the workload's controller adds to each of its pods, with their value when
    /// it is known before the pod exists (`job-name` of a Job is the Job's name;
    /// `pod-template-hash` is not known).
    pub controller_labels: Vec<(String, Option<String>)>,
}

/// One container of a pod spec.
#[derive(Clone, Debug)]
pub struct Container<'a> {
    pub at: Vec<Step>,
    pub value: &'a Value,
    /// Its name (empty when it has none).
    pub name: &'a str,
    /// An init container (or an ephemeral one): not a long-running one.
    pub init: bool,
}

/// Where the pod template of each workload kind is: `spec.template`, a CronJob's
/// `spec.jobTemplate.spec.template`, a Pod's own metadata and spec.
fn template_path(o: &Object<'_>) -> Option<(&'static [&'static str], &'static [&'static str])> {
    const TEMPLATE: (&[&str], &[&str]) = (
        &["spec", "template", "metadata"],
        &["spec", "template", "spec"],
    );
    const CRON: (&[&str], &[&str]) = (
        &["spec", "jobTemplate", "spec", "template", "metadata"],
        &["spec", "jobTemplate", "spec", "template", "spec"],
    );
    const POD: (&[&str], &[&str]) = (&["metadata"], &["spec"]);
    let found = match (o.group(), o.kind) {
        ("", "Pod") => POD,
        ("", "ReplicationController") => TEMPLATE,
        ("apps" | "extensions", "Deployment" | "DaemonSet" | "ReplicaSet") => TEMPLATE,
        ("apps", "StatefulSet") => TEMPLATE,
        ("batch", "Job") => TEMPLATE,
        ("batch", "CronJob") => CRON,
        ("apps.openshift.io", "DeploymentConfig") => TEMPLATE,
        _ => return None,
    };
    Some(found)
}

/// Whether the object is a workload kind (whether or not its template is filled in).
pub fn is_workload(o: &Object<'_>) -> bool {
    template_path(o).is_some()
}

/// The pod template of a workload.
pub fn pod_template<'a>(o: &Object<'a>) -> Option<PodTemplate<'a>> {
    let (meta, spec) = template_path(o)?;
    let mut t = template_at(o, meta, spec)?;
    t.controller_labels = controller_labels(o);
    Some(t)
}

/// The labels the controller of `o` adds to its pods (what Kubernetes' Job, Deployment,
/// StatefulSet and DaemonSet controllers and OpenShift's DeploymentConfig add).
fn controller_labels(o: &Object<'_>) -> Vec<(String, Option<String>)> {
    let name = Some(o.name.to_string());
    let any = |keys: &[&str]| {
        keys.iter()
            .map(|k| (k.to_string(), None))
            .collect::<Vec<_>>()
    };
    let mut out = match (o.group(), o.kind) {
        ("batch", "Job") => {
            let mut l = vec![
                ("job-name".to_string(), name.clone()),
                ("batch.kubernetes.io/job-name".to_string(), name),
            ];
            l.extend(any(&[
                "controller-uid",
                "batch.kubernetes.io/controller-uid",
            ]));
            l
        }
        ("batch", "CronJob") => any(&[
            "job-name",
            "batch.kubernetes.io/job-name",
            "controller-uid",
            "batch.kubernetes.io/controller-uid",
        ]),
        ("apps" | "extensions", "Deployment") => any(&["pod-template-hash"]),
        ("apps", "StatefulSet") => any(&[
            "controller-revision-hash",
            "statefulset.kubernetes.io/pod-name",
            "apps.kubernetes.io/pod-index",
        ]),
        ("apps" | "extensions", "DaemonSet") => {
            any(&["controller-revision-hash", "pod-template-generation"])
        }
        ("apps.openshift.io", "DeploymentConfig") => {
            let mut l = vec![("deploymentconfig".to_string(), name)];
            l.extend(any(&["deployment"]));
            l
        }
        _ => Vec::new(),
    };
    out.retain(|(k, _)| !k.is_empty());
    out
}

/// The pod template of a workload, or of an object of another kind that has one at
/// `spec.template` (with containers).
pub fn any_pod_template<'a>(o: &Object<'a>) -> Option<PodTemplate<'a>> {
    if is_workload(o) {
        return pod_template(o);
    }
    let t = template_at(
        o,
        &["spec", "template", "metadata"],
        &["spec", "template", "spec"],
    )?;
    matches!(field(t.spec, "containers"), Some(Value::Array(_))).then_some(t)
}

fn template_at<'a>(o: &Object<'a>, meta: &[&str], spec: &[&str]) -> Option<PodTemplate<'a>> {
    let spec_value = o.get(spec)?;
    if !matches!(spec_value, Value::Map(_)) {
        return None;
    }
    let labels = super::object::string_map(o.get(meta).and_then(|m| field(m, "labels")));
    Some(PodTemplate {
        meta_at: steps(meta),
        labels,
        spec_at: steps(spec),
        spec: spec_value,
        controller_labels: Vec::new(),
    })
}

impl<'a> PodTemplate<'a> {
    /// Whether the pods have the label `key` (of the template, or added by the controller).
    pub fn has_label(&self, key: &str) -> bool {
        self.labels.iter().any(|(k, _)| k == key)
            || self.controller_labels.iter().any(|(k, _)| k == key)
    }

    /// The containers of the pod: init containers first, then the containers, then the
    /// ephemeral containers (kube-linter's order).
    pub fn containers(&self) -> Vec<Container<'a>> {
        let mut out = Vec::new();
        for (key, init) in [
            ("initContainers", true),
            ("containers", false),
            ("ephemeralContainers", true),
        ] {
            for (i, c) in items(field(self.spec, key)).enumerate() {
                if !matches!(c, Value::Map(_)) {
                    continue;
                }
                out.push(Container {
                    at: item(&self.spec_at, key, i),
                    value: c,
                    name: text(c, "name").unwrap_or(""),
                    init,
                });
            }
        }
        out
    }

    /// The steps to a field of the pod spec.
    pub fn spec_field(&self, keys: &[&str]) -> Vec<Step> {
        join(&self.spec_at, keys)
    }

    /// The steps to the template's labels.
    pub fn labels_at(&self) -> Vec<Step> {
        join(&self.meta_at, &["labels"])
    }
}

impl Container<'_> {
    /// The steps to a field of the container.
    pub fn field(&self, keys: &[&str]) -> Vec<Step> {
        join(&self.at, keys)
    }

    /// `container "web"` (or "a container without a name"), for messages.
    pub fn describe(&self) -> String {
        match self.name {
            "" => "a container without a name".to_string(),
            name => format!("container \"{name}\""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubernetes::display_path;
    use crate::policy::object::tests::docs;

    #[test]
    fn templates_and_containers_of_each_shape() {
        let d = docs(
            "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        metadata: {labels: {app: c}}\n        spec:\n          initContainers: [{name: i}]\n          containers: [{name: a}, {name: b}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {x: y}}\nspec: {containers: [{name: p}]}\n---\napiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\nspec: {template: {metadata: {labels: {app: r}}, spec: {containers: []}}}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {template: {}}\n",
        );
        let objs: Vec<Object> = d.iter().filter_map(Object::new).collect();
        let cron = pod_template(&objs[0]).unwrap();
        assert_eq!(cron.labels, vec![("app".to_string(), "c".to_string())]);
        let names: Vec<(&str, bool, String)> = cron
            .containers()
            .iter()
            .map(|c| (c.name, c.init, display_path(&c.at)))
            .collect();
        assert_eq!(
            names[0],
            (
                "i",
                true,
                "spec.jobTemplate.spec.template.spec.initContainers[0]".to_string()
            )
        );
        assert_eq!(names.len(), 3);
        assert!(!names[2].1);
        let pod = pod_template(&objs[1]).unwrap();
        assert_eq!(display_path(&pod.labels_at()), "metadata.labels");
        assert!(pod_template(&objs[2]).is_none());
        assert!(any_pod_template(&objs[2]).is_some());
        assert!(any_pod_template(&objs[3]).is_none());
    }
}
