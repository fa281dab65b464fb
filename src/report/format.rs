//! The report formats and the one entry point that renders a [`Report`] in any of them. Each
//! format lives in its own file (`terminal.rs`, `json.rs`, …) with a `render` function of the
//! same shape; this file names them, parses their names and holds the options they share.

use std::path::PathBuf;

use super::diagnostic::{Report, Severity};
use super::sources::Sources;

/// An output format for `--format` and `--report FORMAT=PATH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Code frames for people (codespan-reporting).
    Terminal,
    /// DESIGN.md's JSON report, what tests and scripts read.
    Json,
    /// JUnit XML for CI test reports.
    Junit,
    /// SARIF 2.1.0 for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// GitLab Code Quality (Code Climate subset).
    Gitlab,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 6] = [
        Format::Terminal,
        Format::Json,
        Format::Junit,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Terminal => "terminal",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Gitlab => "gitlab",
        }
    }

    /// Parses a format name; the error quotes what was given and lists the valid names.
    pub fn parse(text: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown report format \"{text}\". expected one of {}",
                    names.join(", ")
                )
            })
    }

    /// The format for standard output when `--format` is not given: `github` when running under
    /// GitHub Actions (`GITHUB_ACTIONS=true`), `terminal` otherwise.
    pub fn default_for(github_actions: Option<&str>) -> Format {
        match github_actions {
            Some("true") => Format::Github,
            _ => Format::Terminal,
        }
    }

    /// [`Format::default_for`] with this process's `GITHUB_ACTIONS` variable.
    pub fn default_from_env() -> Format {
        Format::default_for(std::env::var("GITHUB_ACTIONS").ok().as_deref())
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Parses the value of `--report FORMAT=PATH`.
pub fn parse_report_arg(text: &str) -> Result<(Format, PathBuf), String> {
    let Some((name, path)) = text.split_once('=') else {
        return Err(format!(
            "--report expects FORMAT=PATH (for example sarif=yttlint.sarif), got \"{text}\""
        ));
    };
    if path.is_empty() {
        return Err(format!("--report \"{text}\" names no file after ="));
    }
    Ok((Format::parse(name)?, PathBuf::from(path)))
}

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
pub fn path_base(cwd: &std::path::Path, repo: &std::path::Path) -> String {
    let parts = |p: &std::path::Path| -> Vec<String> {
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

/// Renders `report` in `format`. Every format ends with a newline (the JSON ones included) and
/// is the same for the same report, whatever order the jobs finished in, when the report was
/// normalized first ([`Report::normalize`]).
pub fn render(
    format: Format,
    report: &Report,
    sources: &Sources,
    options: &RenderOptions,
) -> String {
    match format {
        Format::Terminal => super::terminal::render(report, sources, options),
        Format::Json => super::json::render(report, sources, options),
        Format::Junit => super::junit::render(report, sources, options),
        Format::Sarif => super::sarif::render(report, sources, options),
        Format::Github => super::github::render(report, sources, options),
        Format::Gitlab => super::gitlab::render(report, sources, options),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.name()), Ok(f));
            assert_eq!(f.to_string(), f.name());
        }
    }

    #[test]
    fn unknown_name_lists_the_choices() {
        let err = Format::parse("xml").unwrap_err();
        assert_eq!(
            err,
            "unknown report format \"xml\". expected one of terminal, json, junit, sarif, github, gitlab"
        );
    }

    #[test]
    fn github_actions_selects_annotations() {
        assert_eq!(Format::default_for(Some("true")), Format::Github);
        assert_eq!(Format::default_for(Some("false")), Format::Terminal);
        assert_eq!(Format::default_for(None), Format::Terminal);
    }

    #[test]
    fn paths_relative_to_the_working_directory() {
        use std::path::Path;
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

    #[test]
    fn report_arg() {
        assert_eq!(
            parse_report_arg("sarif=out/yttlint.sarif"),
            Ok((Format::Sarif, PathBuf::from("out/yttlint.sarif")))
        );
        assert_eq!(
            parse_report_arg("junit=a=b.xml"),
            Ok((Format::Junit, PathBuf::from("a=b.xml")))
        );
        assert!(parse_report_arg("sarif").is_err());
        assert!(parse_report_arg("sarif=").is_err());
        assert!(parse_report_arg("html=x").unwrap_err().contains("\"html\""));
    }
}
