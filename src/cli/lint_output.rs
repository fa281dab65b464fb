//! Where the linter's output goes: standard output (a closed pipe or a full disk is one line
//! on standard error and exit status 2, never a panic) and report files, written whole or not
//! at all: each target is removed when the run starts and written through a temporary file
//! renamed into place, so that an interrupted run never leaves an older report that could be
//! read as this run's.

//!
//! What goes out is rendered here with the formats of [`crate::report`]: standard output with
//! the options the flags chose (colour, paths from the working directory, summary line), report
//! files with the defaults (no colour; machine formats give paths relative to the checkout).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::report::coverage::RootCoverage;
use crate::report::format::{render as render_format, Format};
use crate::report::options::RenderOptions;
use crate::report::{Report, Sources};

/// Writes `text` to standard output.
pub fn stdout(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// Removes the report files of an earlier run before anything is linted; a report path that
/// is a symbolic link is refused (a usage error) before the run.
pub fn clear_reports(targets: &[(String, PathBuf)]) -> Result<(), String> {
    for (_, path) in targets {
        crate::files::write::refuse_symlink(path, "report")?;
    }
    for (_, path) in targets {
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot replace the report {}: {e}", path.display())),
        }
    }
    Ok(())
}

/// Writes a report whole, never through a symlink ([`crate::files::write::write_file`]).
pub fn write_report(path: &Path, text: &str) -> Result<(), String> {
    crate::files::write::write_file(path, text.as_bytes(), "report")
}

/// Every format name the command line accepts.
pub fn formats() -> Vec<&'static str> {
    Format::ALL.iter().map(|f| f.name()).collect()
}

/// Coverage formats: for `--report FORMAT=PATH` only (they hold coverage, not findings).
pub const COVERAGE_FORMATS: &[&str] = &["lcov", "cobertura"];

/// The roots' coverage in a coverage format (`None` for a format of findings), its paths
/// relative to the checkout (see [`RenderOptions::checkout_path`]).
pub fn render_coverage(
    format: &str,
    roots: &[RootCoverage],
    options: &RenderOptions,
) -> Option<String> {
    let path = |file: &str| options.checkout_path(file);
    match format {
        "lcov" => Some(crate::report::lcov::render(roots, &path)),
        "cobertura" => Some(crate::report::cobertura::render(roots, &path)),
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
        options.cwd_in_repo = None;
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
        cwd_in_repo: None,
        summary: true,
        ..options.clone()
    };
    render_with(format, report, sources, &file_options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_cleared_then_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("yttlint-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.sarif");
        std::fs::write(&path, "old").unwrap();
        clear_reports(&[("sarif".to_string(), path.clone())]).unwrap();
        assert!(!path.exists());
        write_report(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod render_tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::{Diagnostic, Span};

    /// `n` findings in one file of `2 n` lines, widened as the command line widens them.
    fn many(n: u32) -> (Report, Sources) {
        let text: String = (0..n)
            .map(|i| format!("#@my/ann{}\nk{i}: 1\n", i % 7))
            .collect();
        let sources = Sources::new("/nonexistent");
        sources.insert("big.yml", &text);
        let diagnostics = (0..n)
            .map(|i| {
                Diagnostic::new(
                    Rule::UnknownAnnotation,
                    format!("unknown annotation my/ann{i}"),
                )
                .at(Span::point("big.yml", 2 * i + 1, 3))
            })
            .collect();
        let mut report = Report {
            diagnostics,
            ..Report::default()
        };
        crate::report::widen::widen_all(&mut report.diagnostics, &sources);
        (report, sources)
    }

    /// The least of five timings of `f`, in seconds.
    fn least(f: &dyn Fn()) -> f64 {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                f();
                start.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    }

    /// 40 000 findings in one file of 80 000 lines render in every format (SARIF keeps GitHub's
    /// 25 000 results per run and says how many it left out).
    #[test]
    fn forty_thousand_findings_in_one_file_render_in_every_format() {
        let (big, big_sources) = many(40_000);
        for format in formats() {
            let out = render(format, &big, &big_sources, &RenderOptions::default()).unwrap();
            let last = match format {
                "sarif" => "15000 of 40000 results left out",
                _ => "my/ann39999",
            };
            assert!(out.contains(last), "{format}");
        }
    }

    /// The same render in time linear in the number of findings: eight times the findings take
    /// far less than sixty-four times as long (a quadratic step would). Measured against an
    /// eighth of them in the same minute, the least of five runs each; the bound of 24 times
    /// leaves room for caches and none for a square. A timing, so it does not run with the
    /// other tests (other builds on the machine stretch the large case more than the small
    /// one: 27 times was seen under four parallel builds on 2 cores); `.ci/run` runs it alone.
    #[test]
    #[ignore = "timing: run alone by .ci/run"]
    fn timing_forty_thousand_findings_render_in_linear_time() {
        // Building and widening them, too.
        let t_small = least(&|| drop(many(5_000)));
        let t_big = least(&|| drop(many(40_000)));
        assert!(
            t_big < 24.0 * t_small.max(0.001),
            "widen: {t_big:.4} s for 40 000, {t_small:.4} s for 5 000"
        );
        let (big, big_sources) = many(40_000);
        let (small, small_sources) = many(5_000);
        for format in formats() {
            let t_small = least(&|| {
                render(format, &small, &small_sources, &RenderOptions::default()).unwrap();
            });
            let t_big = least(&|| {
                render(format, &big, &big_sources, &RenderOptions::default()).unwrap();
            });
            // Linear: about 8 times; quadratic: about 64 times. The floor keeps timer
            // noise on a tiny small-case timing from deciding.
            assert!(
                t_big < 24.0 * t_small.max(0.001),
                "{format}: {t_big:.4} s for 40 000, {t_small:.4} s for 5 000"
            );
        }
    }
}
