//! A committed copy of a data values file is a starting point, not a move: `cp
//! ./multus/config/values.yaml multus-cni-values.yaml` before `tanzu package install
//! --values-file multus-cni-values.yaml` leaves the bundle's `values.yaml` where it is, the
//! defaults of the templates beside it, which ytt reads whenever it renders that folder
//! (`ytt -f config`). Such a copy claims nothing: the folder stays whole, with its private
//! libraries (`config/_ytt_lib`), which a root narrowed to the folder's other files loses,
//! since ytt finds a private library only under a directory it is given.
//!
//! A template copied to another folder (round twenty-three's R23-1) still moves: only a file
//! of data values alone, beside a file of the same folder that is no data values alone, is
//! kept where it lies.

use std::path::Path;

use crate::files::paths;
use crate::lint::discover::copied::Copied;
use crate::lint::discover::topmost::in_private_dir;
use crate::lint::repo::supplementary::supplement;
use crate::lint::repo::walk::RepoFile;

/// The copies of `copied` that take a template out of its folder: without those of a data
/// values file that is the defaults of the templates beside it.
pub fn moved(dir: &Path, files: &[RepoFile], copied: Vec<Copied>) -> Vec<Copied> {
    copied
        .into_iter()
        .filter(|c| !defaults_beside_templates(dir, files, &c.path))
        .collect()
}

/// Whether the file at `path` holds data values alone and its folder holds a ytt file that
/// does not.
fn defaults_beside_templates(dir: &Path, files: &[RepoFile], path: &str) -> bool {
    let kind = |p: &str| {
        crate::files::repo_text::read_repo_text(dir, p).and_then(|text| supplement(p, &text))
    };
    if !files.iter().any(|f| f.path == path && f.kind.is_ytt()) {
        return false;
    }
    if !kind(path).is_some_and(|k| k.only_values()) {
        return false;
    }
    let folder = paths::parent(path);
    files.iter().any(|f| {
        f.path != path
            && f.kind.is_ytt()
            && paths::parent(&f.path) == folder
            && !in_private_dir(&f.path)
            && !kind(&f.path).is_some_and(|k| k.only_values())
    })
}
