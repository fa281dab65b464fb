//! A script whose argument only chooses one of the repository's values files
//! (`CLUSTER_CONFIG=clusters/$1.yaml`, then `ytt -f values.yaml -f "$CLUSTER_CONFIG"`): the
//! linter renders the command once for each file the path names (`alpha`, `beta`). Such a
//! choice is complete: every input is a file of the repository, and nothing else is left to
//! run time. A failure for a value the chosen file does not set is the repository's own, under
//! that choice (round thirty-two's R32-1: a `needs-input` note hid that `build.sh beta` fails),
//! so the command is judged as run, with a `bound-argument` assumption naming the choice: what
//! it finds is a warning.
//!
//! Strict: each bound value names exactly one input, a committed file with a `@data/values`
//! document (by `-f` or `--data-values-file`), and appears in no other input's path; the
//! command gives no other run-time input.

use std::path::Path;

use super::resolve::Invocation;
use super::scripts;
use crate::report::{Assumption, AssumptionKind};

/// The largest values file read.
const MAX: usize = 1 << 20;

/// Marks the invocations whose bindings only choose a values file (see the module).
pub fn settle(repo: &Path, invocations: &mut [Invocation]) {
    for inv in invocations.iter_mut() {
        if inv.binding.is_empty() || !inv.unknown.is_empty() || inv.inspect {
            continue;
        }
        if inv.values.iter().any(|v| v.value.is_none()) {
            continue;
        }
        let inputs: Vec<&str> = inv
            .inputs
            .iter()
            .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p))
            .chain(
                inv.values_files
                    .iter()
                    .map(|v| v.rsplit(':').next().unwrap_or(v)),
            )
            .collect();
        let mut chosen = Vec::new();
        for (var, value) in &inv.binding {
            let naming: Vec<&&str> = inputs.iter().filter(|p| names(p, value)).collect();
            let [file] = naming[..] else {
                chosen.clear();
                break;
            };
            let holds_values = scripts::read(repo, file, MAX).is_some_and(|t| {
                t.lines()
                    .any(|l| l.trim_start().starts_with("#@data/values") && !l.contains("schema"))
            });
            if !holds_values {
                chosen.clear();
                break;
            }
            chosen.push(format!("`{var}` is `{value}`, which chooses {file}"));
        }
        if chosen.is_empty() {
            continue;
        }
        inv.values_choice = true;
        inv.assumptions.push(Assumption::new(
            AssumptionKind::BoundArgument,
            format!(
                "{}: the command is linted once for each values file its path names, and run with this one",
                chosen.join(", ")
            ),
        ));
    }
}

/// Whether the path `p` names `value` as a path segment or a file's stem.
fn names(p: &str, value: &str) -> bool {
    !value.is_empty()
        && p.split('/')
            .any(|seg| seg == value || seg.rsplit_once('.').is_some_and(|(stem, _)| stem == value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_names_a_segment_or_a_stem() {
        assert!(names("clusters/beta.yaml", "beta"));
        assert!(names("envs/beta/values.yaml", "beta"));
        assert!(!names("clusters/beta-2.yaml", "beta"));
        assert!(!names("clusters/alpha.yaml", ""));
    }
}
