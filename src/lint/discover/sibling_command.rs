//! A template nothing runs, beside the entry file of a known command (`ytt -f settings-test.yaml
//! -f shared`, a README's; `settings-prod.yaml` beside it loads the same helpers). The layout
//! would render it with the files left over in its directory, where its `load()`s find nothing;
//! the command's shape, with the template in the place of its sibling, is where they resolve.
//! An overlay file nothing runs, beside the overlay a known command applies to the inputs of
//! another directory (`app-cert-staging.yml` beside `app-cert-prod.yml`), is its alternative:
//! alone it has nothing to match, so it is modelled on that command too.
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
pub(super) const MAX_MODELLED: usize = 64;

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
    // An overlay with no loads of its own (`app-cert-staging.yml` beside the
    // `app-cert-prod.yml` a script applies to `config/app/`) has nothing to match alone: its
    // command is its sibling's, with the base (R30-2).
    let overlay = modules.is_empty() && is_overlay(&text);
    if !overlay && (modules.is_empty() || modules.iter().all(|m| resolves(m, layout, index))) {
        return None;
    }
    let dir = paths::parent(template);
    known.iter().find_map(|command| {
        let Reason::Invocation { origins } = &command.reason else {
            return None;
        };
        let origin = origins.first()?;
        let mut siblings = command.inputs.iter().filter(|i| {
            i.as_str() != template
                && paths::parent(i) == dir
                && files
                    .iter()
                    .any(|f| &f.path == *i && f.kind == Kind::YttYaml)
        });
        // An overlay stands in for the sibling whose name it shares most of
        // (`cf-workloads-…-staging.yml` for `cf-workloads-…-prod.yml`, not for
        // `cf-system-…-prod.yml` beside it, which the command still needs).
        let sibling = match overlay {
            true => closest(siblings, template)?,
            false => siblings.next()?,
        };
        // An overlay's sibling is an overlay too, applied to inputs of another directory.
        if overlay
            && !(scripts::read(repo, sibling, MAX_TEMPLATE_BYTES).is_some_and(|t| is_overlay(&t))
                && command.inputs.iter().any(|i| paths::parent(i) != dir))
        {
            return None;
        }
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
        let why = match overlay {
            true => format!("an overlay as {sibling} is, of that command's other inputs"),
            false => "its loads resolve in that command's inputs".to_string(),
        };
        let assumption = Assumption::new(
            AssumptionKind::InferredCommand,
            format!(
                "modelled on the command `{}` ({origin}), with {template} in the place of {sibling}: nothing runs {template}, and {why}",
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

/// The first of `paths` that shares the most leading characters with `template`.
fn closest<'a>(
    paths: impl DoubleEndedIterator<Item = &'a String>,
    template: &str,
) -> Option<&'a String> {
    paths.rev().max_by_key(|p| shared_prefix(p, template))
}

/// How many leading characters two paths share.
fn shared_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// Whether a template's text holds an overlay (`#@overlay/match` over a document).
fn is_overlay(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_start().starts_with("#@overlay/match "))
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

    #[test]
    fn an_overlay_takes_the_place_of_the_sibling_named_most_alike() {
        let inputs =
            ["o/cf-system-cert-prod.yml", "o/cf-workloads-cert-prod.yml"].map(String::from);
        let best = closest(inputs.iter(), "o/cf-workloads-cert-staging.yml");
        assert_eq!(
            best.map(String::as_str),
            Some("o/cf-workloads-cert-prod.yml")
        );
        // Alike in nothing but the folder: the first.
        let best = closest(inputs.iter(), "o/label-ns.yml");
        assert_eq!(best.map(String::as_str), Some("o/cf-system-cert-prod.yml"));
    }
}
