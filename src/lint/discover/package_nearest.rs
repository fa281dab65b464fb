//! Where the ytt paths of a Package or App lie when its fetch path is known only at run time
//! (a `subPath` written as a template, a fetch of an image or bundle, a git fetch whose
//! folder the resource does not name): the one directory of the repository, nearest to the
//! resource's file, under which all of them exist without holding that file. A resource's
//! step never renders the folder that holds the resource itself (a Package template beside
//! the package's own `src/`, rendered by a release script, is not part of what it fetches).
//!
//! The directory is a guess: the root made from it carries an `inferred-command` assumption
//! naming it ([`guessed`]), so nothing found there is a certain error.

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::index::Index;
use crate::report::{Assumption, AssumptionKind};

/// A repository path, without a leading `./` or trailing `/` (`.` for the top).
pub fn clean(p: &str) -> &str {
    let p = p.trim_start_matches("./").trim_matches('/');
    if p.is_empty() {
        "."
    } else {
        p
    }
}

/// `p` (a resource's path, cleaned) under directory `d`.
pub fn under(d: &str, p: &str) -> String {
    match clean(p) {
        "." => d.to_string(),
        rest => paths::join(d, rest),
    }
}

/// The directory nearest to `own` (sharing the most leading segments with it) under which
/// every path of `wanted` exists without holding `own`, when one is nearest (of several equally
/// near that share a leading folder with `own`, the one that holds all the others).
pub fn nearest_holding(index: &Index, wanted: &[&str], own: &str) -> Option<String> {
    if wanted.is_empty() {
        return None;
    }
    let holds = |d: &str| {
        wanted.iter().all(|p| {
            let full = under(d, p);
            index.exists(&full) && !is_within(own, &full)
        }) && !holds_copy(index, wanted, own, d)
    };
    let shared = |d: &str| {
        d.split('/')
            .zip(own.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut best: Vec<&str> = Vec::new();
    let mut most = 0;
    for d in index.dirs().filter(|d| holds(d)) {
        let n = if d == "." { 0 } else { shared(d) };
        if best.is_empty() || n > most {
            best = vec![d];
            most = n;
        } else if n == most {
            best.push(d);
        }
    }
    match best.as_slice() {
        [one] => Some(one.to_string()),
        [] => None,
        // Folders sharing nothing with the resource are not near it at all.
        _ if most == 0 => None,
        many => many
            .iter()
            .find(|top| many.iter().all(|d| is_within(d, top)))
            .map(|top| top.to_string()),
    }
}

/// Whether directory `d` holds a copy of the resource file `own` where its own paths would
/// hold it (`<d>/config/.managed/sync.yml` for `<x>/config/.managed/sync.yml`): `d` is another
/// variant of the same layout (a catalog keeping one copy per variant), not what it renders.
fn holds_copy(index: &Index, wanted: &[&str], own: &str, d: &str) -> bool {
    wanted.iter().map(|p| clean(p)).any(|p| {
        if p == "." || p.starts_with("..") {
            return false;
        }
        let tail = if own.starts_with(&format!("{p}/")) {
            Some(own)
        } else {
            own.rfind(&format!("/{p}/")).map(|at| &own[at + 1..])
        };
        tail.is_some_and(|t| index.is_file(&paths::join(d, t)))
    })
}

/// The assumption of a root whose directory `dir` was guessed for the ytt paths `wanted` of
/// the resource `kind name` at `origin`, whose fetch path is `why`.
pub fn guessed(
    kind: &str,
    name: &str,
    origin: &str,
    why: &str,
    wanted: &[&str],
    dir: &str,
) -> Assumption {
    let list: Vec<String> = wanted.iter().map(|w| format!("`{w}`")).collect();
    let what = match name {
        "" => kind.to_string(),
        name => format!("{kind} {name}"),
    };
    Assumption::new(
        AssumptionKind::InferredCommand,
        format!(
            "the ytt paths {} of the {what} at {origin}, whose fetch path {why}, were taken under {dir}, the folder nearest to it that holds them without the {kind} itself",
            list.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(files: &[&str]) -> Index {
        Index::new(files.iter().copied())
    }

    #[test]
    fn the_folder_holding_the_resource_is_never_chosen() {
        let i = index(&["pkgs/a/pkg.yml", "pkgs/a/meta.yml", "pkgs/a/src/main.yml"]);
        assert_eq!(
            nearest_holding(&i, &["./"], "pkgs/a/pkg.yml").as_deref(),
            Some("pkgs/a/src")
        );
    }

    #[test]
    fn of_equally_near_folders_the_one_holding_the_others_wins_else_none() {
        let i = index(&["pkgs/a/pkg.yml", "pkgs/a/src/x.yml", "pkgs/a/src/up/y.yml"]);
        assert_eq!(
            nearest_holding(&i, &["./"], "pkgs/a/pkg.yml").as_deref(),
            Some("pkgs/a/src")
        );
        let i = index(&["pkgs/a/pkg.yml", "pkgs/a/src/x.yml", "pkgs/a/test/y.yml"]);
        assert_eq!(nearest_holding(&i, &["./"], "pkgs/a/pkg.yml"), None);
        assert_eq!(nearest_holding(&i, &[], "pkgs/a/pkg.yml"), None);
    }

    #[test]
    fn the_assumption_names_the_folder_and_the_paths() {
        let a = guessed(
            "Package",
            "p",
            "pkgs/a/pkg.yml:3",
            "is a template",
            &["./"],
            "pkgs/a/src",
        );
        assert_eq!(a.kind, AssumptionKind::InferredCommand);
        assert!(a.message.contains("`./`"), "{}", a.message);
        assert!(a.message.contains("under pkgs/a/src"), "{}", a.message);
    }
}
