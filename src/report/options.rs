//! What the report formats need besides the report itself: colour, the tool's identity for
//! SARIF, and how paths are shown.

use std::path::Path;

use super::severity::Severity;

/// What the formats need besides the report itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// ANSI colors in the terminal format (never in the others).
    pub color: bool,
    /// yttlint's version, for SARIF's `tool.driver.version`.
    pub tool_version: String,
    /// yttlint's home page for SARIF's `tool.driver.informationUri` (and the base of each
    /// rule's `helpUri`); left out when `None`.
    pub information_uri: Option<String>,
    /// SARIF `automationDetails.id`, only when the user asks for one (`--sarif-category`):
    /// GitHub's upload-sarif ignores its own `category` when the file names one.
    pub automation_id: Option<String>,
    /// The absolute `file://` URI of the repository root, for SARIF's
    /// `originalUriBaseIds["%SRCROOT%"]`; left out when `None` (GitHub resolves `%SRCROOT%` to the
    /// checkout itself).
    pub source_root_uri: Option<String>,
    /// Prepended to repository-relative paths in the terminal format, so that they are
    /// relative to the working directory (`""` when it is the repository root, `../` from a
    /// subdirectory, `repo/` from its parent).
    pub path_base: String,
    /// The working directory relative to the repository, when it is a directory below it
    /// (`team/app`): the terminal then shows `c.yml` rather than `../../team/app/c.yml`.
    pub cwd_in_repo: Option<String>,
    /// Prepended to repository-relative paths in the machine formats (SARIF, GitHub, GitLab,
    /// JUnit, JSON, LCOV, Cobertura), so that they are relative to the root of the
    /// version-control checkout that holds the repository: `deploy/` when the configuration
    /// is in `deploy/` of a checkout, `""` when the repository is the checkout or in none.
    /// Annotations then attach to the diff, and links open the file.
    pub checkout_prefix: String,
    /// The summary line at the end of the terminal and GitHub formats (`--quiet` drops it).
    pub summary: bool,
    /// The lowest severity that fails the run (`--fail-on`): JUnit fails the cases of these
    /// findings and passes the others.
    pub fail_on: Severity,
    /// `--unsafe-fixes`: unsafe fixes count as fixable (the terminal marks them `[*]`).
    pub unsafe_fixes: bool,
    /// The URL of the checkout's files at the commit linted (`https://github.com/o/r/blob/SHA/`),
    /// which the GitHub job summary links each finding to; `None` outside GitHub Actions.
    pub blob_base: Option<String>,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        let homepage = env!("CARGO_PKG_HOMEPAGE");
        let repository = env!("CARGO_PKG_REPOSITORY");
        let information_uri = [homepage, repository]
            .into_iter()
            .find(|u| !u.is_empty())
            .map(str::to_string);
        RenderOptions {
            color: false,
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            information_uri,
            automation_id: None,
            source_root_uri: None,
            path_base: String::new(),
            cwd_in_repo: None,
            checkout_prefix: String::new(),
            summary: true,
            fail_on: Severity::Error,
            unsafe_fixes: false,
            blob_base: None,
        }
    }
}

impl RenderOptions {
    /// A repository-relative path as the terminal shows it.
    pub fn shown_path(&self, file: &str) -> String {
        match &self.cwd_in_repo {
            Some(cwd) => crate::files::paths::between(cwd, file),
            None => prefixed(&self.path_base, file),
        }
    }

    /// A repository-relative path as the machine formats give it: relative to the checkout.
    pub fn checkout_path(&self, file: &str) -> String {
        prefixed(&self.checkout_prefix, file)
    }
}

/// The repository-relative `file` behind `prefix` (a directory with a final `/`, or `""`).
fn prefixed(prefix: &str, file: &str) -> String {
    if prefix.is_empty() {
        file.to_string()
    } else if file == "." {
        prefix.trim_end_matches('/').to_string()
    } else {
        format!("{prefix}{file}")
    }
}

/// The prefix of [`RenderOptions::checkout_prefix`] for the repository `repo` (absolute):
/// its path in the version-control work tree that holds it, with a final `/`.
pub fn checkout_prefix(repo: &Path) -> String {
    match crate::files::paths::work_tree(repo)
        .and_then(|top| crate::files::paths::relative(&top, repo))
    {
        Some(rel) if rel != "." => format!("{rel}/"),
        _ => String::new(),
    }
}

/// The prefix that makes paths relative to `repo` relative to `cwd` instead (both absolute):
/// `""`, `sub/dir/`, `../../` or `../other/`.
pub fn path_base(cwd: &Path, repo: &Path) -> String {
    let parts = |p: &Path| -> Vec<String> {
        p.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    let (from, to) = (parts(cwd), parts(repo));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut base = String::new();
    for _ in common..from.len() {
        base.push_str("../");
    }
    for part in &to[common..] {
        base.push_str(part);
        base.push('/');
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_the_working_directory() {
        assert_eq!(path_base(Path::new("/r"), Path::new("/r")), "");
        assert_eq!(path_base(Path::new("/r/a/b"), Path::new("/r")), "../../");
        assert_eq!(
            path_base(Path::new("/w"), Path::new("/w/fx/demo")),
            "fx/demo/"
        );
        assert_eq!(path_base(Path::new("/w/x"), Path::new("/w/y")), "../y/");
        let options = RenderOptions {
            path_base: "../".into(),
            ..RenderOptions::default()
        };
        assert_eq!(options.shown_path("c/a.yml"), "../c/a.yml");
        assert_eq!(options.shown_path("."), "..");
        let options = RenderOptions {
            path_base: "../../".into(),
            cwd_in_repo: Some("team/app".into()),
            ..RenderOptions::default()
        };
        assert_eq!(options.shown_path("team/app/c.yml"), "c.yml");
        assert_eq!(options.shown_path("team/lib/l.star"), "../lib/l.star");
        assert_eq!(options.shown_path("team/app"), ".");
    }
}
