//! kube-linter's `drop-net-raw-capability`: a container whose security context lists
//! capabilities without dropping `NET_RAW` (or `ALL`), or that adds it (or `ALL`) back.
//!
//! As in kube-linter, a container that sets no `securityContext.capabilities` at all is not
//! reported (its runtime's defaults apply), and a capability matches when its name contains
//! `NET_RAW` (`CAP_NET_RAW` too); `ALL` matches in any case.
//!
//! ```yaml
//! securityContext:
//!   capabilities:
//!     drop: [KILL]          # NET_RAW is kept
//! ```

use super::super::object::{at, field, item, items, join};
use super::super::{Check, Found, Output};
use super::{per_container, Said};
use crate::report::Rule;
use crate::yaml::{scalar_key_string, Value};

pub const CHECK: Check = Check {
    rule: Rule::DropNetRawCapability,
    run,
};

fn matches(cap: &str) -> bool {
    cap.contains("NET_RAW") || cap.eq_ignore_ascii_case("all")
}

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        let Some(caps @ Value::Map(_)) = at(c.value, &["securityContext", "capabilities"]) else {
            return Vec::new();
        };
        let caps_at = c.field(&["securityContext", "capabilities"]);
        let mut said: Vec<Said> = Vec::new();
        for (k, cap) in items(field(caps, "add")).enumerate() {
            let cap = scalar_key_string(cap);
            if matches(&cap) {
                said.push((
                    item(&caps_at, "add", k),
                    format!("{} adds the capability {cap}", c.describe()),
                ));
            }
        }
        let dropped = items(field(caps, "drop")).any(|cap| matches(&scalar_key_string(cap)));
        if !dropped {
            said.push((
                join(&caps_at, &["drop"]),
                format!("{} does not drop the capability NET_RAW", c.describe()),
            ));
        }
        said
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn drop_lists_without_net_raw_and_add_lists_with_it() {
        let spec = "      containers:\n      - name: a\n        securityContext: {capabilities: {drop: [KILL]}}\n      - name: b\n        securityContext: {capabilities: {drop: [all]}}\n      - name: c\n        securityContext: {capabilities: {drop: [NET_RAW], add: [NET_RAW]}}\n      - name: d\n        securityContext: {runAsNonRoot: true}";
        let got: Vec<(String, String)> = found(&CHECK, &deployment(spec))
            .into_iter()
            .map(|f| (f.1, f.2))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "spec.template.spec.containers[0].securityContext.capabilities.drop"
                        .to_string(),
                    "container \"a\" does not drop the capability NET_RAW".to_string()
                ),
                (
                    "spec.template.spec.containers[2].securityContext.capabilities.add[0]"
                        .to_string(),
                    "container \"c\" adds the capability NET_RAW".to_string()
                ),
            ]
        );
    }
}
