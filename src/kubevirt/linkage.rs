//! Finds the Templates and VirtualMachines among the documents and ties each VM to the rules the
//! validator would use for it: none with `vm.kubevirt.io/skip-validations`, else its own
//! `vm.kubevirt.io/validations`, else the `validations` of the Template named by
//! `vm.kubevirt.io/template` and `vm.kubevirt.io/template.namespace` (or the older
//! `template-namespace`), both from the labels or both from the annotations.

use crate::pos::Pos;
use crate::yaml::{DocSet, MapItem, Value};

pub const TEMPLATE_ANNOTATION: &str = "validations";
pub const VM_ANNOTATION: &str = "vm.kubevirt.io/validations";
pub const SKIP_ANNOTATION: &str = "vm.kubevirt.io/skip-validations";
const NAME_KEY: &str = "vm.kubevirt.io/template";
const NAMESPACE_KEY: &str = "vm.kubevirt.io/template.namespace";
const OLD_NAMESPACE_KEY: &str = "vm.kubevirt.io/template-namespace";

/// A validations annotation in a document.
#[derive(Clone, Copy, Debug)]
pub struct Site<'a> {
    pub item: &'a MapItem,
    /// Which document set holds it (an index into the inputs).
    pub input: usize,
}

impl<'a> Site<'a> {
    /// The annotation's text, when it is a string.
    pub fn text(&self) -> Option<&'a str> {
        match &self.item.value {
            Value::String(s) => Some(s),
            Value::Null => Some(""),
            _ => None,
        }
    }
}

/// An OpenShift Template.
#[derive(Debug)]
pub struct Template<'a> {
    pub name: String,
    pub namespace: String,
    pub pos: &'a Pos,
    pub rules: Option<Site<'a>>,
}

/// A VirtualMachine, in its own document or in a Template's `objects`.
#[derive(Debug)]
pub struct Vm<'a> {
    pub name: String,
    pub namespace: String,
    pub value: &'a Value,
    pub pos: &'a Pos,
    pub own_rules: Option<Site<'a>>,
    pub skip: bool,
    /// The parent template key and where it is written.
    pub link: Option<(String, String, &'a Pos)>,
    /// The `vm.kubevirt.io/template` label, if any.
    pub template_label: Option<String>,
    /// For a VM in `objects`: the template's index and the VM's index in `objects`.
    pub embedded: Option<(usize, usize)>,
    pub input: usize,
}

/// Everything found.
#[derive(Debug, Default)]
pub struct Repo<'a> {
    pub templates: Vec<Template<'a>>,
    pub vms: Vec<Vm<'a>>,
}

pub fn get<'a>(v: &'a Value, key: &str) -> Option<&'a MapItem> {
    let Value::Map(m) = v else { return None };
    m.items.iter().find(|i| i.key.as_str() == Some(key))
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    get(v, key).and_then(|i| i.value.as_str())
}

fn meta_text(v: &Value, key: &str) -> String {
    get(v, "metadata")
        .and_then(|m| text(&m.value, key))
        .unwrap_or("")
        .to_string()
}

fn meta_map<'a>(v: &'a Value, which: &str) -> Option<&'a Value> {
    get(v, "metadata")
        .and_then(|m| get(&m.value, which))
        .map(|i| &i.value)
}

fn is_template(v: &Value) -> bool {
    let api = text(v, "apiVersion").unwrap_or("");
    text(v, "kind") == Some("Template")
        && (api.starts_with("template.openshift.io/") || api == "v1")
}

fn is_vm(v: &Value) -> bool {
    text(v, "kind") == Some("VirtualMachine")
        && text(v, "apiVersion").is_some_and(|a| a.starts_with("kubevirt.io/"))
}

/// `labels.GetTemplateKeys(...).Get()`: the key from the labels if complete, else the annotations.
fn template_key(v: &Value) -> Option<(String, String, &Pos)> {
    for which in ["labels", "annotations"] {
        let Some(map) = meta_map(v, which) else {
            continue;
        };
        let name = get(map, NAME_KEY).filter(|i| i.value.as_str().is_some_and(|s| !s.is_empty()));
        let ns = [NAMESPACE_KEY, OLD_NAMESPACE_KEY]
            .iter()
            .find_map(|k| text(map, k).filter(|s| !s.is_empty()));
        if let (Some(item), Some(ns)) = (name, ns) {
            let name = item.value.as_str().unwrap_or("").to_string();
            return Some((name, ns.to_string(), &item.pos));
        }
    }
    None
}

fn vm<'a>(v: &'a Value, pos: &'a Pos, input: usize, embedded: Option<(usize, usize)>) -> Vm<'a> {
    let annotations = meta_map(v, "annotations");
    let own_rules = annotations
        .and_then(|a| get(a, VM_ANNOTATION))
        .map(|item| Site { item, input });
    Vm {
        name: meta_text(v, "name"),
        namespace: meta_text(v, "namespace"),
        value: v,
        pos,
        own_rules,
        skip: annotations.is_some_and(|a| get(a, SKIP_ANNOTATION).is_some()),
        link: template_key(v),
        template_label: meta_map(v, "labels")
            .and_then(|l| text(l, NAME_KEY))
            .map(str::to_string),
        embedded,
        input,
    }
}

/// Collects the Templates and VirtualMachines of the document sets.
pub fn collect<'a>(inputs: &[&'a DocSet]) -> Repo<'a> {
    let mut repo = Repo::default();
    for (input, docs) in inputs.iter().enumerate() {
        for doc in &docs.items {
            let v = &doc.value;
            if is_vm(v) {
                repo.vms.push(vm(v, &doc.pos, input, None));
            } else if is_template(v) {
                let t = repo.templates.len();
                let rules = meta_map(v, "annotations")
                    .and_then(|a| get(a, TEMPLATE_ANNOTATION))
                    .map(|item| Site { item, input });
                repo.templates.push(Template {
                    name: meta_text(v, "name"),
                    namespace: meta_text(v, "namespace"),
                    pos: &doc.pos,
                    rules,
                });
                if let Some(Value::Array(objects)) = get(v, "objects").map(|i| &i.value) {
                    for (k, obj) in objects.items.iter().enumerate() {
                        if text(&obj.value, "kind") == Some("VirtualMachine") {
                            repo.vms.push(vm(&obj.value, &obj.pos, input, Some((t, k))));
                        }
                    }
                }
            }
        }
    }
    repo
}

impl<'a> Repo<'a> {
    /// The template a key names: same namespace, or a template that names none (the linter does
    /// not know where such a template is installed).
    pub fn find_template(&self, name: &str, namespace: &str) -> Option<usize> {
        let same = |t: &&Template| t.name == name;
        let exact = self
            .templates
            .iter()
            .position(|t| same(&t) && t.namespace == namespace);
        exact.or_else(|| {
            self.templates
                .iter()
                .position(|t| same(&t) && t.namespace.is_empty())
        })
    }
}

/// `kind/namespace/name`.
pub fn object_id(kind: &str, namespace: &str, name: &str) -> String {
    format!("{kind}/{namespace}/{name}")
}

/// `namespace/name`, or `name` without a namespace.
pub fn key_text(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    const DOCS: &str = "\
apiVersion: template.openshift.io/v1
kind: Template
metadata: {name: t, namespace: ns, annotations: {validations: '[]'}}
objects:
- apiVersion: kubevirt.io/v1
  kind: VirtualMachine
  metadata: {name: x, annotations: {vm.kubevirt.io/validations: '[]'}}
---
apiVersion: template.openshift.io/v1
kind: Template
metadata: {name: anywhere}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: a
  labels: {vm.kubevirt.io/template: t}
  annotations: {vm.kubevirt.io/template: t, vm.kubevirt.io/template-namespace: ns}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: b
  labels: {vm.kubevirt.io/template: t}
  annotations: {vm.kubevirt.io/template.namespace: ns, vm.kubevirt.io/skip-validations: ''}
";

    #[test]
    fn finds_templates_vms_and_keys() {
        let f: Arc<str> = Arc::from("a.yaml");
        let ds = parse(DOCS, &f, &ParseOpts::default()).unwrap();
        let repo = collect(&[&ds]);
        assert_eq!(repo.templates.len(), 2);
        assert_eq!(repo.vms.len(), 3);
        let embedded = &repo.vms[0];
        assert_eq!(embedded.embedded, Some((0, 0)));
        assert!(embedded.own_rules.is_some());
        // labels lack the namespace, so the key comes from the annotations (old namespace key)
        let (name, ns, _) = repo.vms[1].link.clone().unwrap();
        assert_eq!((name.as_str(), ns.as_str()), ("t", "ns"));
        // name in the labels, namespace in the annotations: no key at all
        assert!(repo.vms[2].link.is_none());
        assert!(repo.vms[2].skip);
        assert_eq!(repo.find_template("t", "ns"), Some(0));
        assert_eq!(repo.find_template("t", "other"), None);
        assert_eq!(repo.find_template("anywhere", "other"), Some(1));
    }
}
