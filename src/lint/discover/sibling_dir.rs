//! A folder nothing runs, beside the folder a known command renders with shared inputs
//! (`ytt -f platform/schema.yaml -f clusters/demo/values.yaml -f components/gateway/base/`, a
//! page's; `components/policies/base/` is built the same way by the project's own tool). The
//! layout would render the folder alone, without the schema and values its templates read,
//! and stop at the first value nothing sets (a `needs-input` note that hides what else fails:
//! round twenty-eight's R28-2). The command's shape, with the folder in the place of its
//! sibling, is how it is rendered: that command is a root of its own, still inferred (the
//! layout's `inferred-command`, and an assumption naming the command it was modelled on).
//!
//! Strict: the folder is a layout root of its own, holds no schema or data values, reads data
//! values, and differs from the command's folder in one path segment only; the command gives
//! the folder with at least one other input that is a schema or data values file.

use std::path::Path;

use crate::lint::config::ScenarioConfig;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::invocations::scripts;
use crate::lint::discover::{Reason, Root};
use crate::lint::repo::supplementary::supplement;
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::{Assumption, AssumptionKind, Subject};

/// The largest file read.
const MAX_BYTES: usize = 1 << 20;
/// The most files of one folder read.
const MAX_FILES: usize = 64;
// At most as many roots modelled on commands as for templates.
use super::sibling_command::MAX_MODELLED;

/// The layout roots of `top`, each folder that fits a command of `known` replaced by a root
/// modelled on that command.
pub fn modelled(
    repo: &Path,
    files: &[RepoFile],
    index: &Index,
    known: &[Root],
    top: Vec<Root>,
) -> Vec<Root> {
    let mut made = 0;
    top.into_iter()
        .map(|root| {
            if made >= MAX_MODELLED {
                return root;
            }
            match model(repo, files, index, known, &root) {
                Some(r) => {
                    made += 1;
                    r
                }
                None => root,
            }
        })
        .collect()
}

/// The root modelled on a command of `known` for the layout root `root`, if one fits.
fn model(
    repo: &Path,
    files: &[RepoFile],
    index: &Index,
    known: &[Root],
    root: &Root,
) -> Option<Root> {
    if !matches!(root.reason, Reason::Topmost) || !root.scenarios.is_empty() {
        return None;
    }
    let [dir] = &root.inputs[..] else {
        return None;
    };
    if !index.is_dir(dir) || !reads_values_alone(repo, files, dir)? {
        return None;
    }
    known.iter().find_map(|command| {
        let Reason::Invocation { origins } = &command.reason else {
            return None;
        };
        let origin = origins.first()?;
        let sibling = command
            .inputs
            .iter()
            .find(|i| index.is_dir(i) && one_segment_apart(i, dir))?;
        let others: Vec<&String> = command.inputs.iter().filter(|i| *i != sibling).collect();
        if others.is_empty()
            || others.iter().any(|i| i.contains('=') || index.is_dir(i))
            || !others.iter().any(|i| gives_values(repo, i))
        {
            return None;
        }
        let inputs: Vec<String> = command
            .inputs
            .iter()
            .map(|i| if i == sibling { dir.clone() } else { i.clone() })
            .collect();
        let shown = format!(
            "ytt {}",
            command
                .inputs
                .iter()
                .map(|i| format!("-f {i}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let assumption = Assumption::new(
            AssumptionKind::InferredCommand,
            format!(
                "modelled on the command `{shown}` ({origin}), with {dir} in the place of {sibling}: nothing runs {dir}, and its templates read data values it does not hold"
            ),
        )
        .about(Subject::BorrowedSchema {
            command: origin.clone(),
        });
        Some(Root {
            name: inputs.join(" + "),
            path: dir.clone(),
            inputs,
            reason: Reason::Topmost,
            args: command.args.clone(),
            scenarios: vec![ScenarioConfig {
                name: origin.clone(),
                origin: Some(origin.clone()),
                assumptions: vec![assumption],
                ..ScenarioConfig::default()
            }],
            needs_input: true,
        })
    })
}

/// Whether `a` and `b` have as many segments and differ in exactly one.
fn one_segment_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    a.len() == b.len() && a.iter().zip(&b).filter(|(x, y)| x != y).count() == 1
}

/// Whether the folder's ytt files read data values and none of them gives any (no schema,
/// no data values); `None` when a file cannot be read or there are too many.
fn reads_values_alone(repo: &Path, files: &[RepoFile], dir: &str) -> Option<bool> {
    let mine: Vec<&RepoFile> = files
        .iter()
        .filter(|f| f.kind.is_ytt() && crate::files::paths::is_within(&f.path, dir))
        .collect();
    if mine.is_empty() || mine.len() > MAX_FILES {
        return None;
    }
    let mut reads = false;
    for f in mine {
        let text = scripts::read(repo, &f.path, MAX_BYTES)?;
        if supplement(&f.path, &text).is_some_and(|s| s.values || s.schema)
            || text.contains("@data/values")
        {
            return Some(false);
        }
        reads |= f.kind == Kind::YttYaml && text.contains("data.values");
    }
    Some(reads)
}

/// Whether the file `path` holds a schema or data values document.
fn gives_values(repo: &Path, path: &str) -> bool {
    scripts::read(repo, path, MAX_BYTES)
        .is_some_and(|text| supplement(path, &text).is_some_and(|s| s.values || s.schema))
}
