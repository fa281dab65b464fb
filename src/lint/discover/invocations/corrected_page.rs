//! A page's own command that names its folder by the path the folder had before it moved
//! (round seventeen's LR17B-1: `$ ytt -f ./examples/playground/lib-demo` on
//! `examples/playground/basics/lib-demo/README.md`), linted as its reader would run it once
//! the path is corrected: the stale `-f` inputs replaced by the page's folder (or the file in
//! it) they now are, and the page's `mv`/`cp -r` steps whose paths are stale in the same way
//! read with the same correction (round seventeen's R17B-2 in the forks of carvel-dev/ytt:
//! `$ mv ./examples/playground/lib-demo/_ytt_lib{1,}` before the command). The command as
//! written still fails (`input-missing`, [`super::moved_page`]); the corrected one is a guess
//! about what the page meant, said as a `working-directory` assumption, so nothing found with
//! it is an error, and it is no certain render of the folder that makes the files beside it
//! left over (`lint/post/unrendered.rs`).

use super::resolve::Invocation;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// One stale `-f` input of a page's command: where it stood among the inputs found, the path
/// as written (a repository path) and the path it now is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    pub at: usize,
    pub stale: String,
    pub now: String,
}

/// The command with each stale input in its place, and the assumption that says so.
pub fn corrected(inv: &Invocation, corrections: &[Correction]) -> Invocation {
    let mut out = inv.clone();
    for (shift, c) in corrections.iter().enumerate() {
        let at = c.at.saturating_add(shift).min(out.inputs.len());
        out.inputs.insert(at, c.now.clone());
    }
    let said: Vec<String> = corrections
        .iter()
        .map(|c| format!("`{}` as `{}`", c.stale, c.now))
        .collect();
    let mut a = Assumption::new(
        AssumptionKind::WorkingDirectory,
        format!(
            "the page's command names its own folder by an old path: read {} (where the \
             page is now), with the page's steps on the old path read the same way",
            said.join(", ")
        ),
    );
    if let Some(c) = corrections.first() {
        a = a.about(Subject::OldPath {
            stale: c.stale.clone(),
            now: c.now.clone(),
        });
    }
    out.assumptions.push(a);
    out
}

/// The moves the corrections make (stale path, path now), for the page's steps.
pub fn moves(corrections: &[Correction]) -> Vec<(String, String)> {
    corrections
        .iter()
        .map(|c| (c.stale.clone(), c.now.clone()))
        .collect()
}

/// `path` with the stale part of the first move that holds it replaced by where it is now.
pub fn remapped(path: String, moves: &[(String, String)]) -> String {
    for (stale, now) in moves {
        if path == *stale {
            return now.clone();
        }
        if let Some(rest) = path
            .strip_prefix(stale.as_str())
            .and_then(|r| r.strip_prefix('/'))
        {
            return paths::join(now, rest);
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_on_the_old_path_is_read_where_the_folder_is_now() {
        let moves = vec![(
            "examples/playground/lib-demo".to_string(),
            "examples/playground/basics/lib-demo".to_string(),
        )];
        assert_eq!(
            remapped("examples/playground/lib-demo/_ytt_lib1".into(), &moves),
            "examples/playground/basics/lib-demo/_ytt_lib1"
        );
        assert_eq!(
            remapped("examples/playground/lib-demo".into(), &moves),
            "examples/playground/basics/lib-demo"
        );
        // Another folder whose name starts the same is not the stale one.
        assert_eq!(
            remapped("examples/playground/lib-demo2/x".into(), &moves),
            "examples/playground/lib-demo2/x"
        );
    }
}
