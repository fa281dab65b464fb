//! Renders a report for the linter's command line with the formats of [`crate::report`]:
//! standard output with the options the flags chose (colour, paths from the working directory,
//! summary line), report files with the defaults (no colour, repository-relative paths).

use crate::report::format::{render as render_format, Format, RenderOptions};
use crate::report::{Report, Sources};

/// Every format name the command line accepts.
pub const FORMATS: &[&str] = &["terminal", "json", "junit", "sarif", "github", "gitlab"];

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
