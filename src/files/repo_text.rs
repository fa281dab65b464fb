//! The text of a file of the linted repository, read under the linter's policy (never outside
//! the repository, never a special file), for discovery's quick looks at files the walk listed:
//! whether a file holds an overlay, a resource, a `load(`. The repository's real path is
//! resolved once per thread, not once per file (`repo_policy`).

use std::path::Path;

use super::read_allowed;

/// The UTF-8 text of `rel` (relative to `repo`), `None` when it cannot be read, is refused by
/// the policy (a symlink swapped in that leaves the repository, a FIFO) or is not UTF-8.
pub fn read_repo_text(repo: &Path, rel: &str) -> Option<String> {
    String::from_utf8(read_allowed(
        &repo.join(rel),
        &super::repo_policy::of(repo),
    )?)
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_repository_is_not_read() {
        let base = std::env::temp_dir().join(format!("yttlint-repo-text-{}", std::process::id()));
        let repo = base.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::write(base.join("secret.txt"), "outside").unwrap();
        std::fs::write(repo.join("a.yml"), "a: 1\n").unwrap();
        crate::platform::fs::symlink(&base.join("secret.txt"), &repo.join("out.yml")).unwrap();
        crate::platform::fs::symlink(&repo.join("a.yml"), &repo.join("in.yml")).unwrap();
        assert_eq!(read_repo_text(&repo, "a.yml").as_deref(), Some("a: 1\n"));
        assert_eq!(read_repo_text(&repo, "in.yml").as_deref(), Some("a: 1\n"));
        assert_eq!(read_repo_text(&repo, "out.yml"), None);
        assert_eq!(read_repo_text(&repo, "../secret.txt"), None);
        assert_eq!(read_repo_text(&repo, "gone.yml"), None);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
