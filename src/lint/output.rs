//! Renders a report for the linter's command line with the formats of [`crate::report`]:
//! standard output with the options the flags chose (colour, paths from the working directory,
//! summary line), report files with the defaults (no colour, repository-relative paths).

use crate::report::format::{render as render_format, Format, RenderOptions};
use std::path::Path;

use crate::report::coverage::RootCoverage;
use crate::report::{Report, Sources};

/// Every format name the command line accepts.
pub const FORMATS: &[&str] = &["terminal", "json", "junit", "sarif", "github", "gitlab"];

/// Coverage formats: for `--report FORMAT=PATH` only (they hold coverage, not findings).
pub const COVERAGE_FORMATS: &[&str] = &["lcov", "cobertura"];

/// The roots' coverage in a coverage format (`None` for a format of findings); `repo` is the
/// repository's directory.
pub fn render_coverage(format: &str, roots: &[RootCoverage], repo: &Path) -> Option<String> {
    match format {
        "lcov" => Some(crate::report::lcov::render(roots)),
        "cobertura" => Some(crate::report::cobertura::render(
            roots,
            &repo.to_string_lossy(),
        )),
        _ => None,
    }
}

/// The report in `format` with `options`; colour and working-directory paths apply to the
/// terminal format only.
pub fn render_with(
    format: &str,
    report: &Report,
    sources: &Sources,
    options: &RenderOptions,
) -> Result<String, String> {
    let format = Format::parse(format)?;
    let mut options = options.clone();
    if format != Format::Terminal {
        options.color = false;
        options.path_base = String::new();
    }
    Ok(render_format(format, report, sources, &options))
}

/// The report in `format` for a file: `options` without colour, summary always on.
pub fn render(
    format: &str,
    report: &Report,
    sources: &Sources,
    options: &RenderOptions,
) -> Result<String, String> {
    let file_options = RenderOptions {
        color: false,
        path_base: String::new(),
        summary: true,
        ..options.clone()
    };
    render_with(format, report, sources, &file_options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Diagnostic, Span};

    /// 40 000 findings in one file of 80 000 lines, widened as the command line widens them,
    /// render in every format in time linear in their number (under 2 s each, in a release
    /// build, on a loaded machine).
    #[test]
    fn forty_thousand_findings_in_one_file_render_quickly() {
        let text: String = (0..40_000)
            .map(|i| format!("#@my/ann{}\nk{i}: 1\n", i % 7))
            .collect();
        let sources = Sources::new("/nonexistent");
        sources.insert("big.yml", &text);
        let diagnostics = (0..40_000u32)
            .map(|i| {
                Diagnostic::new(
                    "unknown-annotation",
                    format!("unknown annotation my/ann{i}"),
                )
                .at(Span::point("big.yml", 2 * i + 1, 3))
            })
            .collect();
        let mut report = Report {
            diagnostics,
            ..Report::default()
        };
        let start = std::time::Instant::now();
        crate::report::widen::widen_all(&mut report.diagnostics, &sources);
        assert!(
            start.elapsed().as_secs_f64() < 2.0,
            "widen: {:?}",
            start.elapsed()
        );
        for format in FORMATS {
            let start = std::time::Instant::now();
            let out = render(format, &report, &sources, &RenderOptions::default()).unwrap();
            let took = start.elapsed();
            // SARIF keeps GitHub's 25 000 results per run and says how many it left out.
            let last = match *format {
                "sarif" => "15000 of 40000 results left out",
                _ => "my/ann39999",
            };
            assert!(out.contains(last), "{format}");
            assert!(took.as_secs_f64() < 2.0, "{format}: {took:?}");
        }
    }
}
