//! Checks of where a Template's rules are placed: a Template-level `validations` that the
//! validator never applies, because the VM the Template creates carries its own
//! `vm.kubevirt.io/validations` (which wins), or because that VM lacks the
//! `vm.kubevirt.io/template` label that ties it back to the Template.

use crate::report::{Diagnostic, Severity};

use super::findings::{Written, ANNOTATION_INVALID};
use super::linkage::{object_id, Repo, VM_ANNOTATION};
use super::Locate;

fn warning(message: String, written: &Written, object: String, locate: &dyn Locate) -> Diagnostic {
    let mut d = Diagnostic::new(ANNOTATION_INVALID, message);
    d.span = locate.span(written.item);
    d.severity = Severity::Warning;
    d.object = Some(object);
    d
}

/// Warnings about Template-level rules that no VM created from the Template gets.
pub fn check(
    repo: &Repo,
    templates: &[Option<&Written>],
    own: &[Option<&Written>],
    locate: &dyn Locate,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (vm, own) in repo.vms.iter().zip(own) {
        let Some((t, k)) = vm.embedded else { continue };
        let Some(Some(tw)) = templates.get(t) else {
            continue;
        };
        if tw.text.trim().is_empty() || tw.text.trim() == "[]" {
            continue;
        }
        let tt = &repo.templates[t];
        let object = object_id("Template", &tt.namespace, &tt.name);
        if let Some(ow) = own.filter(|w| !w.text.is_empty()) {
            let m = format!(
                "annotation \"validations\" is not used for VirtualMachines created from this \
                 Template: objects[{k}] carries its own {VM_ANNOTATION:?}, which the validator \
                 uses instead"
            );
            let mut d = warning(m, tw, object, locate);
            if let Some(span) = locate.span(ow.item) {
                d = d.with_related(format!("objects[{k}]'s rules"), span);
            }
            out.push(d);
            continue;
        }
        let problem = match &vm.template_label {
            None => "has no \"vm.kubevirt.io/template\" label".to_string(),
            Some(name) if *name != tt.name => {
                format!(
                    "labels \"vm.kubevirt.io/template\" as {name:?}, not {:?}",
                    tt.name
                )
            }
            Some(_) => continue,
        };
        let m = format!(
            "annotation \"validations\" may never be applied: objects[{k}] {problem}, so the \
             VirtualMachines created from this Template do not lead the validator back to it"
        );
        let mut d = warning(m, tw, object, locate);
        if let Some(span) = locate.span(vm.pos) {
            d = d.with_related(format!("objects[{k}]"), span);
        }
        out.push(d);
    }
    out
}
