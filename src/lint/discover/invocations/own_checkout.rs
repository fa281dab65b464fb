//! A documented command that names this repository through a workspace variable, beside a
//! sibling repository: `ytt -f ${WORKSPACE}/platform/config -f ${WORKSPACE}/ext/config`,
//! written in the `ext` repository. A path whose first part is unknown and whose next segment
//! is this checkout's name (the directory's name, or its part after `+` as copies of forks are
//! named `ORG+REPO`) is a path of this repository when the rest exists in it: `config` here.
//! The sibling's inputs stay unknown (given at run time, outside the repository), so what
//! they would give, a `load("/namespaces.star")` of the sibling's file, is left to them.

use super::resolve::Repo;
use super::shell::Call;
use super::word::{Piece, Word, REPO};

/// Whether a path segment names this checkout.
fn names_this(segment: &str, repo: &Repo) -> bool {
    let name = repo.name;
    !segment.is_empty()
        && (name == segment || name.rsplit_once('+').is_some_and(|(_, n)| n == segment))
}

/// `word` as a path of this repository, if it is `<unknown>/<this-name>[/rest]` and the rest
/// exists.
fn own_path(word: &Word, repo: &Repo) -> Option<Word> {
    let [Piece::Unknown(_), Piece::Lit { text, glob }, more @ ..] = word.0.as_slice() else {
        return None;
    };
    let after = text.strip_prefix('/')?;
    let (segment, rest) = after.split_once('/').unwrap_or((after, ""));
    if !names_this(segment, repo) {
        return None;
    }
    let first = rest.split('/').find(|s| !s.is_empty()).unwrap_or(".");
    if first != "." && !repo.index.exists(first) {
        return None;
    }
    let mut w = Word::default();
    w.push_lit(REPO, false);
    if !rest.is_empty() {
        w.push_lit("/", false);
        w.push_lit(rest, *glob);
    }
    w.0.extend(more.iter().cloned());
    Some(w.normalized())
}

/// `call` with each argument and its working directory that name this repository through a
/// workspace variable made repository paths.
pub fn mapped(call: &Call, repo: &Repo) -> Call {
    let mut out = call.clone();
    for a in &mut out.args {
        if let Some(w) = own_path(a, repo) {
            *a = w;
        }
    }
    if let Some(w) = out.cwd.as_ref().and_then(|c| own_path(c, repo)) {
        out.cwd = Some(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::index::Index;

    #[test]
    fn a_workspace_path_of_this_checkout_is_its_own() {
        let index = Index::new(["config/add.yml"]);
        let repo = Repo::new(&index, &[], "org+ext");
        let mut w = Word::unknown("$WORKSPACE");
        w.push_lit("/ext/config", false);
        let own = own_path(&w, &repo).unwrap_or_default();
        assert_eq!(own.repo_path().as_deref(), Some("config"));
        // The sibling, and a path of this name that the repository does not hold, are not.
        let mut other = Word::unknown("$WORKSPACE");
        other.push_lit("/platform/config", false);
        assert_eq!(own_path(&other, &repo), None);
        let mut gone = Word::unknown("$WORKSPACE");
        gone.push_lit("/ext/templates", false);
        assert_eq!(own_path(&gone, &repo), None);
    }
}
