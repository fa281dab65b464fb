//! A template nothing runs, beside the entry file of a known command (`ytt -f settings-test.yaml
//! -f shared`, a README's; `settings-prod.yaml` beside it loads the same helpers). The layout
//! would render it with the files left over in its directory, where its `load()`s find nothing;
//! the command's shape, with the template in the place of its sibling, is where they resolve.
//! That command is a root of its own, still inferred (the layout's `inferred-command`, and an
//! assumption naming the command it was modelled on), and the template leaves the layout root.

use std::path::Path;

use crate::files::paths;
use crate::lint::config::ScenarioConfig;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::invocations::scripts;
use crate::lint::discover::loads::{normalize, relative_loads};
use crate::lint::discover::{Reason, Root};
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::{Assumption, AssumptionKind};

/// The largest template read for its loads.
const MAX_TEMPLATE_BYTES: usize = 1 << 20;

/// At most this many roots modelled on commands: a repository of hundreds of siblings is not
/// a set of variants of one command.
const MAX_MODELLED: usize = 64;

/// The layout roots of `top` with each template that fits a command of `known` taken out into
/// a root of its own, modelled on that command.
pub fn modelled(
    repo: &Path,
    files: &[RepoFile],
    index: &Index,
    known: &[Root],
    top: Vec<Root>,
) -> Vec<Root> {
    let mut out = Vec::new();
    let mut added: Vec<Root> = Vec::new();
    for mut root in top {
        if !matches!(root.reason, Reason::Topmost) {
            out.push(root);
            continue;
        }
        let layout = std::mem::take(&mut root.inputs);
        for input in &layout {
            let fits = (added.len() < MAX_MODELLED)
                .then(|| model(repo, files, index, known, &layout, input))
                .flatten();
            match fits {
                Some(r) => added.push(r),
                None => root.inputs.push(input.clone()),
            }
        }
        if !root.inputs.is_empty() {
            out.push(root);
        }
    }
    out.extend(added);
    out
}

/// The root modelled on a command of `known` for `template`, an input of a layout root given
/// `layout`, when its loads resolve there and not in `layout`.
fn model(
    repo: &Path,
    files: &[RepoFile],
    index: &Index,
    known: &[Root],
    layout: &[String],
    template: &str,
) -> Option<Root> {
    let file = files.iter().find(|f| f.path == template)?;
    if file.kind != Kind::YttYaml {
        return None;
    }
    let text = scripts::read(repo, template, MAX_TEMPLATE_BYTES)?;
    let modules: Vec<String> = relative_loads(&text, false)
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    if modules.is_empty() || modules.iter().all(|m| resolves(m, layout, index)) {
        return None;
    }
    let dir = paths::parent(template);
    known.iter().find_map(|command| {
        let Reason::Invocation { origins } = &command.reason else {
            return None;
        };
        let origin = origins.first()?;
        let sibling = command.inputs.iter().find(|i| {
            i.as_str() != template
                && paths::parent(i) == dir
                && files
                    .iter()
                    .any(|f| &f.path == *i && f.kind == Kind::YttYaml)
        })?;
        // Named inputs, or flags that name the sibling, are not a shape to copy.
        let name = sibling.rsplit('/').next().unwrap_or(sibling);
        let names_it = |a: &String| a.contains(name) || a.contains('=');
        if command.args.iter().any(names_it)
            || command
                .scenarios
                .iter()
                .any(|s| s.args.iter().any(|a| a.contains(name)))
        {
            return None;
        }
        let inputs: Vec<String> = command
            .inputs
            .iter()
            .map(|i| match i == sibling {
                true => template.to_string(),
                false => i.clone(),
            })
            .collect();
        if !modules.iter().all(|m| resolves(m, &inputs, index)) {
            return None;
        }
        let assumption = Assumption::new(
            AssumptionKind::InferredCommand,
            format!(
                "modelled on the command `{}` ({origin}), with {template} in the place of {sibling}: nothing runs {template}, and its loads resolve in that command's inputs",
                shown(&command.inputs)
            ),
        );
        let scenarios = match command.scenarios.is_empty() {
            true => vec![ScenarioConfig {
                name: origin.clone(),
                origin: Some(origin.clone()),
                assumptions: vec![assumption],
                ..ScenarioConfig::default()
            }],
            false => command
                .scenarios
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    s.origin.get_or_insert_with(|| origin.clone());
                    s.assumptions.push(assumption.clone());
                    s
                })
                .collect(),
        };
        Some(Root {
            name: inputs.join(" + "),
            path: template.to_string(),
            inputs,
            reason: Reason::Topmost,
            args: command.args.clone(),
            scenarios,
            needs_input: true,
        })
    })
}

/// `ytt -f A -f B`.
fn shown(inputs: &[String]) -> String {
    let flags: Vec<String> = inputs.iter().map(|i| format!("-f {i}")).collect();
    format!("ytt {}", flags.join(" "))
}

/// Whether the relative load `module` of a file given on its own (`-f FILE`, at the top of
/// the files ytt reads) finds a file among `inputs`: a file given by its name, or a file of a
/// directory given, by its path inside it.
fn resolves(module: &str, inputs: &[String], index: &Index) -> bool {
    let Some(m) = normalize(module).filter(|m| !m.starts_with("..")) else {
        return false;
    };
    inputs.iter().any(|i| match index.is_dir(i) {
        true => index.is_file(&paths::join(i, &m)),
        false => i.rsplit('/').next() == Some(m.as_str()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_resolves_in_a_directory_given_or_by_a_file_s_name() {
        let index = Index::new(["app.yaml", "shared/base.lib.yml", "lib/x/y.star"]);
        let given = |i: &[&str]| i.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(resolves("base.lib.yml", &given(&["shared"]), &index));
        assert!(resolves("./base.lib.yml", &given(&["shared"]), &index));
        assert!(resolves("x/y.star", &given(&["lib"]), &index));
        assert!(resolves(
            "base.lib.yml",
            &given(&["shared/base.lib.yml"]),
            &index
        ));
        assert!(!resolves("base.lib.yml", &given(&["app.yaml"]), &index));
        assert!(!resolves("../base.lib.yml", &given(&["shared"]), &index));
    }
}
