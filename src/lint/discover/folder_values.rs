//! A folder's data values file that a known command reads, kept in the layout root of the
//! folder's other templates (round forty-three's N43-3). A documented command renders
//! `argo/training.yaml` with `argo/values.yaml`; the layout root of the rest of `argo/` left
//! `values.yaml` out, as any file a known root covers, and then said that nothing sets the
//! values `argo/packaging.yaml` reads, while `ytt -f argo/packaging.yaml -f argo/values.yaml`
//! renders. A data values file is input shared by the folder's templates, not a template one
//! command takes for itself.
//!
//! Only a file that gives data values alone, directly in a folder that directly holds one of
//! the root's files, and the only such file there (two could be two environments' values,
//! which no command gives together), not an example a command takes for the user's copy of
//! it, and only to a root that has no schema of its own (values for another schema would fail
//! on keys this schema does not declare).

use std::collections::BTreeSet;
use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::files::repo_text::read_repo_text;
use crate::lint::discover::Root;
use crate::lint::repo::supplementary;
use crate::lint::repo::walk::{Kind, RepoFile};

/// The values files to add to a layout root's `inputs`: each the one data-values-only file
/// that `known` roots read (rendering it, not reading it only as data, `as_data`) beside a
/// file input of the root.
pub fn beside(
    repo: &Path,
    files: &[RepoFile],
    known: &[Root],
    as_data: &BTreeSet<(String, String)>,
    inputs: &[String],
) -> Vec<String> {
    let own: Vec<&RepoFile> = files
        .iter()
        .filter(|f| f.kind.is_ytt() && inputs.iter().any(|i| is_within(&f.path, i)))
        .collect();
    let kind = |p: &str| read_repo_text(repo, p).and_then(|t| supplementary::supplement(p, &t));
    if own
        .iter()
        .any(|f| f.kind == Kind::YttYaml && kind(&f.path).is_some_and(|k| k.schema))
    {
        return Vec::new();
    }
    let folders: BTreeSet<&str> = inputs
        .iter()
        .filter(|i| own.iter().any(|f| f.path == **i))
        .map(|i| paths::parent(i))
        .collect();
    let rendered_by_known = |p: &str| {
        known.iter().any(|r| {
            r.inputs.iter().any(|i| is_within(p, i))
                && !as_data.contains(&(r.name.clone(), p.to_string()))
        })
    };
    // An example that stands in for the user's copy is the known command's guess, not the
    // folder's values (round twenty-three's tap-gitops-ri: `values-template.yaml` for
    // `values.yaml`, given with other templates than the folder's).
    let stand_in = |p: &str| {
        known
            .iter()
            .flat_map(|r| &r.scenarios)
            .flat_map(|s| &s.assumptions)
            .any(|a| a.stand_in() == Some(p))
    };
    let mut out = Vec::new();
    for folder in folders {
        let values: Vec<&str> = files
            .iter()
            .filter(|f| f.kind == Kind::YttYaml && paths::parent(&f.path) == folder)
            .map(|f| f.path.as_str())
            .filter(|p| !inputs.iter().any(|i| i == p) && rendered_by_known(p) && !stand_in(p))
            .filter(|p| kind(p).is_some_and(|k| k.only_values()))
            .collect();
        let has_own = inputs
            .iter()
            .filter(|i| paths::parent(i) == folder)
            .any(|i| kind(i).is_some_and(|k| k.values));
        if let ([one], false) = (values.as_slice(), has_own) {
            out.push(one.to_string());
        }
    }
    out
}
