//! KubeVirt template validations (spec 003): checks the `validations` annotation of OpenShift
//! `Template`s and `vm.kubevirt.io/validations` of VirtualMachines, and evaluates the rules on
//! the VirtualMachines of the repository as KubeVirt's template validator (the admission webhook
//! of kubevirt/ssp-operator) does.
//!
//! Entry points: [`lint`] over parsed document sets (plain files or rendered ytt output) and
//! [`lint_files`] over plain YAML files on disk. Findings are `kubevirt-annotation-invalid` and
//! `kubevirt-rule-violation`; [`Options`] switches each off and holds the [`Policy`] for the
//! validator's implementation-defined behaviour.

pub mod annotation;
pub mod apply;
pub mod check;
pub mod convert;
pub mod evaluate;
#[cfg(test)]
mod evaluate_tests;
pub mod findings;
pub mod json;
pub mod jsonpath;
pub mod linkage;
#[cfg(test)]
mod lint_tests;
pub mod locate;
pub mod placement;
pub mod plain;
pub mod quantity;
pub mod re2;
pub mod schema;
pub mod typecheck;
pub mod value;

use crate::pos::Pos;
use crate::report::Rule;
use crate::report::{Diagnostic, Span};
use crate::yaml::DocSet;

pub use evaluate::Policy;
pub use findings::{ANNOTATION_INVALID, RULE_VIOLATION};
pub use plain::{lint_files, PlainFiles};

use annotation::Annotation;
use findings::{VmPlace, Written};
use linkage::{key_text, object_id, Repo, Site};
use schema::Schema;

/// What to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Report malformed annotations (`kubevirt-annotation-invalid`).
    pub check_annotations: bool,
    /// Evaluate the rules on the VirtualMachines (`kubevirt-rule-violation`).
    pub evaluate: bool,
    pub policy: Policy,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            check_annotations: true,
            evaluate: true,
            policy: Policy::default(),
        }
    }
}

/// Maps node positions to repository spans, and gives the source text behind a position (which
/// lets findings point inside an annotation's JSON).
pub trait Locate {
    fn span(&self, pos: &Pos) -> Option<Span>;

    fn source(&self, pos: &Pos) -> Option<&str> {
        let _ = pos;
        None
    }
}

impl<F: Fn(&Pos) -> Option<Span>> Locate for F {
    fn span(&self, pos: &Pos) -> Option<Span> {
        self(pos)
    }
}

/// One document set to lint: a plain YAML file, or the output of a ytt root.
pub struct KvInput<'a> {
    /// Repository-relative name of the file or root, for reference.
    pub file: &'a str,
    pub docs: &'a DocSet,
}

/// A read annotation and where it is written.
struct Read<'a> {
    ann: Annotation,
    written: Written<'a>,
}

fn read_site<'a>(site: &Site<'a>, key: &'a str, schema: &Schema, locate: &dyn Locate) -> Read<'a> {
    let pos = &site.item.pos;
    match site.text() {
        Some(text) => {
            let mut ann = annotation::read(text);
            if !ann.unusable() {
                check::check(&mut ann, schema);
            }
            Read {
                ann,
                written: Written::new(key, pos, text, locate),
            }
        }
        None => {
            let mut ann = Annotation::default();
            ann.issues.push(annotation::Issue {
                at: 0,
                severity: crate::report::Severity::Error,
                message: "must be a string holding a JSON array of rules".to_string(),
                help: Some(
                    "Kubernetes annotations are strings: write the JSON as a block scalar (`|`)"
                        .to_string(),
                ),
                fatal: true,
            });
            Read {
                ann,
                written: Written::new(key, pos, "", locate),
            }
        }
    }
}

/// Lints the Templates and VirtualMachines of the inputs.
pub fn lint(inputs: &[KvInput], locate: &dyn Locate, opts: &Options) -> Vec<Diagnostic> {
    let sets: Vec<&DocSet> = inputs.iter().map(|i| i.docs).collect();
    let repo = linkage::collect(&sets);
    // Most outputs hold neither a Template nor a VirtualMachine: nothing to check, and the
    // type table is not needed.
    if repo.templates.is_empty() && repo.vms.is_empty() {
        return Vec::new();
    }
    let schema = match Schema::shared() {
        Ok(s) => s,
        Err(e) => {
            return vec![Diagnostic::new(
                Rule::InternalError,
                format!("kubevirt types: {e}"),
            )];
        }
    };
    let mut out = Vec::new();
    let templates: Vec<Option<Read>> = repo
        .templates
        .iter()
        .map(|t| {
            t.rules
                .as_ref()
                .map(|s| read_site(s, linkage::TEMPLATE_ANNOTATION, schema, locate))
        })
        .collect();
    let own: Vec<Option<Read>> = repo
        .vms
        .iter()
        .map(|v| {
            v.own_rules
                .as_ref()
                .map(|s| read_site(s, linkage::VM_ANNOTATION, schema, locate))
        })
        .collect();
    if opts.check_annotations {
        for (t, read) in repo.templates.iter().zip(&templates) {
            if let Some(r) = read {
                let object = object_id("Template", &t.namespace, &t.name);
                out.extend(findings::annotation(&r.written, &r.ann, &object, locate));
            }
        }
        for (v, read) in repo.vms.iter().zip(&own) {
            if let Some(r) = read {
                let object = vm_place(&repo, v).object;
                out.extend(findings::annotation(&r.written, &r.ann, &object, locate));
            }
        }
        let t_written: Vec<Option<&Written>> = templates
            .iter()
            .map(|r| r.as_ref().map(|r| &r.written))
            .collect();
        let own_written: Vec<Option<&Written>> =
            own.iter().map(|r| r.as_ref().map(|r| &r.written)).collect();
        out.extend(placement::check(&repo, &t_written, &own_written, locate));
    }
    for i in 0..repo.vms.len() {
        out.extend(lint_vm(&repo, i, &templates, &own, schema, locate, opts));
    }
    out
}

fn vm_place<'a>(repo: &Repo<'a>, vm: &linkage::Vm<'a>) -> VmPlace<'a> {
    match vm
        .embedded
        .and_then(|(t, k)| repo.templates.get(t).map(|t| (t, k)))
    {
        Some((t, k)) => VmPlace {
            object: object_id("Template", &t.namespace, &t.name),
            prefix: format!("objects[{k}]: "),
            fallback: vm.pos,
        },
        None => VmPlace {
            object: object_id("VirtualMachine", &vm.namespace, &vm.name),
            prefix: String::new(),
            fallback: vm.pos,
        },
    }
}

fn lint_vm(
    repo: &Repo,
    i: usize,
    templates: &[Option<Read>],
    own: &[Option<Read>],
    schema: &Schema,
    locate: &dyn Locate,
    opts: &Options,
) -> Vec<Diagnostic> {
    let vm = &repo.vms[i];
    if vm.skip {
        return Vec::new();
    }
    let mut place = vm_place(repo, vm);
    let own_read = own[i]
        .as_ref()
        .filter(|r| !r.written.text.is_empty() || r.ann.unusable());
    let (read, source, from_template) = if let Some(r) = own_read {
        place.fallback = r.written.item;
        (r, format!("its {:?}", linkage::VM_ANNOTATION), false)
    } else {
        let t = match (vm.embedded, &vm.link) {
            (Some((t, _)), _) => Some(t),
            (None, Some((name, ns, at))) => {
                place.fallback = at;
                repo.find_template(name, ns)
            }
            (None, None) => None,
        };
        let Some(t) = t else { return Vec::new() };
        let Some(r) = templates.get(t).and_then(|r| r.as_ref()) else {
            return Vec::new();
        };
        let tt = &repo.templates[t];
        (
            r,
            format!("Template {}", key_text(&tt.namespace, &tt.name)),
            vm.embedded.is_none(),
        )
    };
    if read.ann.unusable() {
        if from_template && opts.check_annotations {
            return vec![findings::unusable(
                &place,
                &source,
                &read.written,
                &read.ann,
                locate,
            )];
        }
        return Vec::new();
    }
    if !opts.evaluate {
        return Vec::new();
    }
    let target = evaluate::Vm {
        value: vm.value,
        pos: vm.pos,
        params: vm.embedded.is_some(),
    };
    let outcomes = evaluate::evaluate(&read.ann.rules, &target, schema, &opts.policy);
    read.ann
        .rules
        .iter()
        .zip(&outcomes)
        .filter_map(|(rule, o)| findings::outcome(&place, &source, rule, o, &read.written, locate))
        .collect()
}
