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
    /// The summary line at the end of the terminal and GitHub formats (`--quiet` drops it).
    pub summary: bool,
    /// The lowest severity that fails the run (`--fail-on`): JUnit fails the cases of these
    /// findings and passes the others.
    pub fail_on: Severity,
    /// `--unsafe-fixes`: unsafe fixes count as fixable (the terminal marks them `[*]`).
    pub unsafe_fixes: bool,
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
            summary: true,
            fail_on: Severity::Error,
            unsafe_fixes: false,
        }
    }
}

impl RenderOptions {
    /// A repository-relative path as the terminal shows it.
    pub fn shown_path(&self, file: &str) -> String {
        if self.path_base.is_empty() {
            file.to_string()
        } else if file == "." {
            self.path_base.trim_end_matches('/').to_string()
        } else {
            format!("{}{file}", self.path_base)
        }
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
    }
}
