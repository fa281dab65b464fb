//! The report formats and the one entry point that renders a [`Report`] in any of them. Each
//! format lives in its own file (`terminal.rs`, `json.rs`, …) with a `render` function of the
//! same shape; this file names them, parses their names and holds the options they share.

use super::diagnostic::Report;
use super::options::RenderOptions;
use super::sources::Sources;

/// An output format for `--format` and `--report FORMAT=PATH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Code frames for people (codespan-reporting).
    Terminal,
    /// The JSON report (docs/json-report.md), what tests and scripts read.
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
}
