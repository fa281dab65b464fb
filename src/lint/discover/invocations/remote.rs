//! A URL of the repository's own files (`-f https://raw.githubusercontent.com/ORG/REPO/main/
//! config/app.yml`), which ytt downloads: the file is the repository's, so the command is
//! linted with the local copy.
//!
//! Which repository a URL names is decided from the checkout alone, never from its git remote
//! (`.git/config` belongs to whoever made the checkout, and the linter reads nothing of `.git`):
//! the URL's `REPO` is the name of the checked-out directory (or the directory is named
//! `ORG-REPO`, `ORG_REPO` or `ORG+REPO`, as copies of forks often are), or the repository's
//! `go.mod` declares the module `github.com/ORG/REPO`; and the path after the branch must exist
//! in the repository. A branch name may hold slashes: the first split whose path exists wins.

use super::resolve::Repo;

/// The repository path a URL of the repository's own files names.
pub fn own_file(url: &str, repo: &Repo) -> Option<String> {
    let url = url.split(['?', '#']).next()?;
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let segs: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    // The segments from the branch on.
    let (org, name, after) = match segs.as_slice() {
        ["raw.githubusercontent.com", org, name, after @ ..] => (*org, *name, after),
        ["github.com", org, name, "raw" | "blob", after @ ..] => (*org, *name, after),
        _ => return None,
    };
    if !names_this_repository(org, name, repo) {
        return None;
    }
    // `refs/heads/main/...` spells the branch out.
    let after = match after {
        ["refs", "heads" | "tags", rest @ ..] => rest,
        _ => after,
    };
    (1..after.len())
        .map(|i| after[i..].join("/"))
        .find(|p| repo.index.exists(p))
}

/// Whether `ORG/NAME` is the repository being linted.
pub(super) fn names_this_repository(org: &str, name: &str, repo: &Repo) -> bool {
    names_repository(org, name, repo.name, repo.module)
}

/// Whether `ORG/NAME` is the repository checked out as `checkout`, with the `go.mod` module
/// `module`.
pub(super) fn names_repository(
    org: &str,
    name: &str,
    checkout: &str,
    module: Option<&str>,
) -> bool {
    let dir = checkout.to_ascii_lowercase();
    let (org_l, name_l) = (org.to_ascii_lowercase(), name.to_ascii_lowercase());
    // A checkout named `NAME` is taken for any `ORG/NAME` (a fork's URL names the original's
    // org); so is one named `ANY+NAME`, the form mirrors give a checkout of `ANY`'s `NAME`
    // (`+` is in no repository name). `ORG-NAME` and `ORG_NAME` count for their own org only.
    let named = dir == name_l
        || dir
            .rsplit_once('+')
            .is_some_and(|(owner, rest)| !owner.is_empty() && rest == name_l)
        || ["-", "_"]
            .iter()
            .any(|sep| dir == format!("{org_l}{sep}{name_l}"));
    let module = module.is_some_and(|m| {
        m.to_ascii_lowercase()
            .trim_end_matches('/')
            .starts_with(&format!("github.com/{org_l}/{name_l}"))
    });
    named || module
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::index::Index;

    #[test]
    fn a_checkout_named_owner_plus_name_is_names_checkout() {
        assert!(names_repository("upstream", "shop", "acme+shop", None));
        assert!(names_repository("upstream", "shop", "shop", None));
        assert!(names_repository("acme", "shop", "acme-shop", None));
        assert!(!names_repository("upstream", "shop", "acme-shop", None));
        assert!(!names_repository("upstream", "shop", "+shop", None));
        assert!(!names_repository("upstream", "shop", "acme+shop2", None));
    }

    #[test]
    fn urls_of_the_repository_s_own_files_map_to_them() {
        let index = Index::new(["hack/pipeline.yaml", "config/app.yml"]);
        let repo = Repo::new(&index, &[], "tap-gitops");
        let raw = "https://raw.githubusercontent.com/org/tap-gitops/main/hack/pipeline.yaml";
        assert_eq!(own_file(raw, &repo).as_deref(), Some("hack/pipeline.yaml"));
        let slashed = "https://raw.githubusercontent.com/org/tap-gitops/feature/x/config/app.yml";
        assert_eq!(own_file(slashed, &repo).as_deref(), Some("config/app.yml"));
        let blob = "https://github.com/org/tap-gitops/blob/main/config/app.yml?raw=true";
        assert_eq!(own_file(blob, &repo).as_deref(), Some("config/app.yml"));
        // Another repository's file of the same path is not this one.
        let other = "https://raw.githubusercontent.com/org/other/main/config/app.yml";
        assert_eq!(own_file(other, &repo), None);
        let gone = "https://raw.githubusercontent.com/org/tap-gitops/main/config/gone.yml";
        assert_eq!(own_file(gone, &repo), None);
        // A checkout named otherwise, whose go.mod names the repository.
        let mut renamed = Repo::new(&index, &[], "checkout");
        assert_eq!(own_file(raw, &renamed), None);
        renamed.module = Some("github.com/org/tap-gitops");
        assert_eq!(
            own_file(raw, &renamed).as_deref(),
            Some("hack/pipeline.yaml")
        );
        let forked = Repo::new(&index, &[], "org+tap-gitops");
        assert!(own_file(raw, &forked).is_some());
    }
}
