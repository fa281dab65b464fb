//! The checks of a root's rendered objects taken together, on by default: what ytt renders
//! without a word but cannot deploy as meant. One check per file.

pub mod dangling_selector;
pub mod duplicate_object;
pub mod operator_pods;
pub mod unknown_target_port;

use super::object::Object;
use super::selector::Selector;
use super::workload::{any_pod_template, PodTemplate};
use super::{Check, Output};

/// The cross-object checks, in the order their findings are reported.
pub const CHECKS: &[&Check] = &[
    &duplicate_object::CHECK,
    &dangling_selector::CHECK,
    &unknown_target_port::CHECK,
];

/// Whether two objects may be in one namespace: the same namespace, or one of them without
/// a namespace of its own (it goes where the deploying tool puts it).
pub fn same_namespace(a: &Object<'_>, b: &Object<'_>) -> bool {
    match (a.namespace, b.namespace) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

/// The pod templates of the output (of workloads and of objects shaped like them) that
/// `selector` selects in the namespace of `by`.
pub fn selected<'a>(
    out: &Output<'a>,
    by: &Object<'_>,
    selector: &Selector,
) -> Vec<(usize, PodTemplate<'a>)> {
    out.objects
        .iter()
        .enumerate()
        .filter(|(_, o)| same_namespace(o, by))
        .filter_map(|(i, o)| any_pod_template(o).map(|t| (i, t)))
        .filter(|(_, t)| selector.matches_pod(t))
        .collect()
}

/// Whether the output has a pod template at all.
pub fn has_pods(out: &Output<'_>) -> bool {
    out.objects.iter().any(|o| any_pod_template(o).is_some())
}
