//! The linter's read policy for the repository being linted, and the repository's real path,
//! made once per thread and repository: discovery reads thousands of the repository's files,
//! and the untrusted-input check tests every path a root's flags give; resolving the
//! repository's real path again for each resolved every component of it.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use super::ReadPolicy;

/// The policy of [`ReadPolicy::repository`] for `repo`, kept for the last repository this
/// thread asked for.
pub fn of(repo: &Path) -> ReadPolicy {
    thread_local! {
        static LAST: RefCell<Option<ReadPolicy>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match last.as_ref() {
            Some(policy) if policy.repository.as_ref().is_some_and(|(d, _)| d == repo) => {
                policy.clone()
            }
            _ => {
                let policy = ReadPolicy::repository(repo);
                *last = Some(policy.clone());
                policy
            }
        }
    })
}

/// The real path of the repository `repo` (every symlink on the way resolved); a path that
/// cannot be resolved is its own.
pub fn real(repo: &Path) -> PathBuf {
    of(repo)
        .repository
        .map_or_else(|| repo.to_path_buf(), |(_, real)| real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_path_is_resolved_and_kept_per_repository() {
        let base = std::env::temp_dir().join(format!("yttlint-repo-policy-{}", std::process::id()));
        let repo = base.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        let real_base = std::fs::canonicalize(&base).unwrap();
        assert_eq!(real(&repo), real_base.join("repo"));
        assert_eq!(real(&repo.join("..").join("repo")), real_base.join("repo"));
        assert_eq!(
            of(&repo).repository,
            Some((repo.clone(), real_base.join("repo")))
        );
        let missing = base.join("missing");
        assert_eq!(real(&missing), missing);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
