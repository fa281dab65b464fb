//! Two Package or App resources whose first ytt path is the same (two here-document Apps of a
//! script, one per cluster folder; two committed Apps of one folder): each is linted as it
//! renders. With the same inputs and flags, the second is another scenario of the first's
//! root (as two commands of one root are two scenarios); with other inputs, a root of its own,
//! named by its inputs. A resource that renders exactly as the first adds nothing.

use crate::lint::config::ScenarioConfig;
use crate::lint::discover::{Reason, Root};

/// Adds `root`, made from a resource whose first ytt path another resource's root in `out`
/// already has.
pub fn add(out: &mut Vec<Root>, mut root: Root) {
    let same = out.iter_mut().find(|r| {
        r.path == root.path
            && r.inputs == root.inputs
            && r.args == root.args
            && r.needs_input == root.needs_input
    });
    if let Some(first) = same {
        merge(first, &root);
        return;
    }
    if out.iter().any(|r| r.name == root.name) {
        root.name = root.inputs.join(" + ");
    }
    if !out.iter().any(|r| r.name == root.name) {
        out.push(root);
    }
}

/// `other`'s scenarios added to `into`'s, each resource's default run a scenario named by
/// where the resource is, unless every one of them is the same.
fn merge(into: &mut Root, other: &Root) {
    let mut scenarios = own(into);
    let before = scenarios.len();
    for sc in own(other) {
        if !scenarios.iter().any(|s| same(s, &sc)) {
            scenarios.push(sc);
        }
    }
    if scenarios.len() > before {
        into.scenarios = scenarios;
    }
}

/// A root's scenarios, or its resource's default run as one.
fn own(root: &Root) -> Vec<ScenarioConfig> {
    if !root.scenarios.is_empty() {
        return root.scenarios.clone();
    }
    let Reason::Package { file, line, .. } = &root.reason else {
        return Vec::new();
    };
    let origin = format!("{file}:{line}");
    vec![ScenarioConfig {
        name: origin.clone(),
        origin: Some(origin),
        ..ScenarioConfig::default()
    }]
}

/// Whether two scenarios run the root the same way (whatever their names and origins).
fn same(a: &ScenarioConfig, b: &ScenarioConfig) -> bool {
    (
        &a.values_files,
        &a.data_values,
        &a.args,
        &a.provided,
        &a.assumptions,
        &a.stdin,
    ) == (
        &b.values_files,
        &b.data_values,
        &b.args,
        &b.provided,
        &b.assumptions,
        &b.stdin,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(line: u32, inputs: &[&str], values: &[&str]) -> Root {
        let mut root = Root::found(
            inputs[0],
            Reason::Package {
                kind: "App",
                file: "scripts/setup.sh".into(),
                line,
                name: "agent".into(),
            },
        );
        root.inputs = inputs.iter().map(|s| s.to_string()).collect();
        if !values.is_empty() {
            let origin = format!("scripts/setup.sh:{line}");
            root.scenarios.push(ScenarioConfig {
                name: origin.clone(),
                origin: Some(origin),
                values_files: values.iter().map(|s| s.to_string()).collect(),
                ..ScenarioConfig::default()
            });
        }
        root
    }

    #[test]
    fn the_same_inputs_are_one_root_with_a_scenario_per_resource() {
        let mut out = vec![app(5, &["common"], &[])];
        add(&mut out, app(30, &["common"], &["values/edge.yaml"]));
        assert_eq!(out.len(), 1);
        let names: Vec<&str> = out[0].scenarios.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["scripts/setup.sh:5", "scripts/setup.sh:30"]);
        assert!(out[0].scenarios[0].values_files.is_empty());
    }

    #[test]
    fn a_resource_that_renders_as_the_first_adds_nothing() {
        let mut out = vec![app(5, &["common"], &[])];
        add(&mut out, app(30, &["common"], &[]));
        assert_eq!(out.len(), 1);
        assert!(out[0].scenarios.is_empty());
    }

    #[test]
    fn other_inputs_are_a_root_of_their_own_named_by_them() {
        let mut out = vec![app(5, &["common", "clusters/core"], &[])];
        add(&mut out, app(5, &["common", "clusters/edge"], &[]));
        let names: Vec<&str> = out.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["common", "common + clusters/edge"]);
        add(&mut out, app(5, &["common", "clusters/edge"], &[]));
        assert_eq!(out.len(), 2);
    }
}
