//! Renders a report for the linter's command line with the formats of [`crate::report`]:
//! colour in the terminal format only when standard output is a terminal.

use std::io::IsTerminal;

use crate::report::format::{render as render_format, Format, RenderOptions};
use crate::report::{Report, Sources};

/// Every format name the command line accepts.
pub const FORMATS: &[&str] = &["terminal", "json", "junit", "sarif", "github", "gitlab"];

/// The report in `format`, for standard output (`to_stdout`) or a file.
pub fn render_to(
    format: &str,
    report: &Report,
    sources: &Sources,
    to_stdout: bool,
) -> Result<String, String> {
    let format = Format::parse(format)?;
    let options = RenderOptions {
        color: to_stdout
            && format == Format::Terminal
            && std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none(),
        ..RenderOptions::default()
    };
    Ok(render_format(format, report, sources, &options))
}

/// The report in `format`, without colour.
pub fn render(format: &str, report: &Report, sources: &Sources) -> Result<String, String> {
    render_to(format, report, sources, false)
}
