//! Paths through symbolic links to directories committed in the repository
//! (`app/templates -> ../shared`, round thirty-six's R36-2). The shell and ytt go through a
//! directory link on a path's way without a word: `ytt -f templates/config.yaml` reads
//! `shared/config.yaml` (only a link `-f` names itself needs `--allow-symlink-destination`).
//! So a command's input through such a link exists, and is linted as the file it reaches: its
//! findings are at the real file's lines, which a reader can open whatever their checkout does
//! with links, and which the other commands and roots of the repository name the same way.
//!
//! Links are never followed to read: a link counts only when it names, relatively, a
//! directory the walk found inside the repository (so never `.git`, nor anything outside).
//! A link that leads elsewhere is not gone through, and a command whose input lies beyond it
//! is skipped with a note that says so (`file-outside-repository`, as a note: ytt may find the
//! file there), not called missing.

use std::path::Path;

use super::index::Index;
use super::links;
use super::resolve::{Invocation, MissingInput, Skipped};
use crate::files::paths;
use crate::report::{Diagnostic, Rule, Severity, Span};

/// `(link, target)` of each entry of `others` (repository paths of walked entries that are
/// neither files nor directories) that is a symbolic link whose relative target stays inside
/// the repository: the target as a repository path. Whether the target is a walked directory
/// is the index's to decide ([`Index::with_links`]).
pub fn dir_links(repo: &Path, others: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in others {
        let Some(to) = target(repo, p) else {
            continue;
        };
        if let Some(t) = links::inside(paths::parent(p), &to) {
            out.push((p.clone(), t));
        }
    }
    out
}

/// The links of `others` that do not lead to a place inside the repository, with their
/// targets as written: what a command's path cannot go through.
pub fn leaving(repo: &Path, others: &[String]) -> Vec<(String, String)> {
    others
        .iter()
        .filter_map(|p| {
            let to = target(repo, p)?;
            links::inside(paths::parent(p), &to)
                .is_none()
                .then(|| (p.clone(), to))
        })
        .collect()
}

/// The target of the symbolic link at repository path `p`, as written.
fn target(repo: &Path, p: &str) -> Option<String> {
    let at = repo.join(p);
    let meta = std::fs::symlink_metadata(&at).ok()?;
    if !crate::platform::fs::is_link(&meta) {
        return None;
    }
    std::fs::read_link(&at).ok()?.to_str().map(str::to_string)
}

/// Each input of `inv` named through a link of the index, renamed to the file it reaches
/// (an input's `name=` and a values file's `@lib:` and `+:` kept).
pub fn settle(inv: &mut Invocation, index: &Index) {
    let real = |arg: &mut String| {
        let path = crate::files::input::path_of(arg).to_string();
        let path = path
            .rsplit_once(':')
            .map_or(path.as_str(), |(_, p)| p)
            .to_string();
        if let Some(r) = index.through_links(&path) {
            let keep = arg.len() - path.len();
            arg.truncate(keep);
            arg.push_str(&r);
        }
    };
    inv.inputs.iter_mut().for_each(real);
    inv.values_files.iter_mut().for_each(real);
    for (_, p) in &mut inv.value_files {
        real(p);
    }
}

/// A command whose input lies beyond a link of the repository that leads outside it, which
/// the linter does not go through: the command is skipped (the reason), and said where it is
/// written (a note: ytt may read the file where the link leads, which the linter does not
/// know). Only the link's path is named, never where it leads.
pub fn beyond(m: &MissingInput, index: &Index) -> Option<(Skipped, Diagnostic)> {
    let (path, link) = m
        .paths
        .iter()
        .find_map(|(p, _)| Some((p, index.leaving_link_above(p)?.0)))?;
    let why = format!(
        "its input {path} lies under {link}, a symbolic link that leads outside the repository, which the linter does not read"
    );
    let at = m.written.as_ref().unwrap_or(&m.origin);
    let mut d = Diagnostic::new(
        Rule::FileOutsideRepository,
        format!("input {path} of the ytt command lies under {link}, a symbolic link that leads outside the repository: it was not read, and the command is not evaluated"),
    )
    .at(Span::point(&at.file, at.line, 1));
    d.severity = Severity::Info;
    d.root = Some(path.clone());
    let skip = Skipped {
        origin: m.origin.clone(),
        reason: why,
        claims: m.claims.clone(),
        placeholder: None,
        left_out: Vec::new(),
        got: None,
    };
    Some((skip, d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    #[test]
    fn inputs_through_a_link_are_the_files_they_reach() {
        let index = Index::new(["shared/config.yaml", "shared/values.yaml"])
            .with_links([("app/templates".to_string(), "shared".to_string())]);
        let mut inv = Invocation::new(Origin {
            file: "app/render.sh".into(),
            line: 3,
        });
        inv.inputs = vec![
            "app/schema.yaml".into(),
            "cfg=app/templates/config.yaml".into(),
        ];
        inv.values_files = vec!["+:app/templates/values.yaml".into()];
        settle(&mut inv, &index);
        assert_eq!(inv.inputs, ["app/schema.yaml", "cfg=shared/config.yaml"]);
        assert_eq!(inv.values_files, ["+:shared/values.yaml"]);
    }
}
