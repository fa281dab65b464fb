//! The terminal format: each finding as a codespan-reporting code frame, then one summary line.
//!
//! ```text
//! error[data-value-violation]: port: must be > 0
//!   ┌─ config/values.yml:2:7
//!   │
//! 2 │ port: 0
//!   │       ^
//!   │
//!   ┌─ config/schema.yml:3:1
//!   │
//! 3 │ port: 1
//!   │ - rule declared here
//!   │
//!   = found: 0
//!   = in root config, scenario prod
//!   = help: give a port above 0
//!
//! 1 error, 0 warnings in 1 root
//! ```
//!
//! The first line of the message is the header, after `[*]` when `--fix` would fix the finding;
//! its other lines, the Kubernetes object, the root and scenario, the help and the fix follow as
//! notes. The summary line says how many findings `--fix` fixes (and how many more
//! `--unsafe-fixes` would). A span's end is exclusive; a point span marks one
//! character. When a file cannot be read its position is given in a note instead of a frame.
//! Colors (ANSI) only when the options ask for them; control characters in messages and sources
//! are shown as U+FFFD, so quoted input cannot restyle the terminal.

use std::collections::HashMap;
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as Frame, Label, Severity as FrameSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::termcolor::{Ansi, Color, ColorSpec, WriteColor};
use codespan_reporting::term::{self, Config};

use super::diagnostic::{Diagnostic, Report, Span};
use super::location::{assumed, origin, position};
use super::options::RenderOptions;
use super::severity::Severity;
use super::sources::Sources;

/// Renders every finding as a code frame, then the summary line.
pub fn render(report: &Report, sources: &Sources, options: &RenderOptions) -> String {
    let mut frames = FrameFiles::new(sources, options);
    let config = Config::default();
    let mut out = Vec::new();
    for d in &report.diagnostics {
        let frame = frames.frame(d);
        let written = if options.color {
            let mut writer = Ansi::new(&mut out);
            term::emit_to_write_style(&mut writer, &config, &frames.files, &frame)
        } else {
            term::emit_to_io_write(&mut out, &config, &frames.files, &frame)
        };
        if written.is_err() {
            out.extend_from_slice(plain(d).as_bytes());
        }
    }
    if !options.summary {
        return String::from_utf8_lossy(&out).into_owned();
    }
    let summary = format!(
        "{}{}",
        summary(report),
        fixable(report, options.unsafe_fixes)
    );
    if options.color {
        let mut writer = Ansi::new(&mut out);
        let mut spec = ColorSpec::new();
        spec.set_bold(true).set_fg(Some(summary_color(report)));
        // Writing to a Vec cannot fail.
        let _ = writer.set_color(&spec);
        let _ = std::io::Write::write_all(&mut writer, summary.as_bytes());
        let _ = writer.reset();
    } else {
        out.extend_from_slice(summary.as_bytes());
    }
    out.push(b'\n');
    String::from_utf8_lossy(&out).into_owned()
}

/// `N errors, M warnings in K roots` (with `, I info` before ` in` when there are any), counting
/// distinct root paths.
pub fn summary(report: &Report) -> String {
    let count = |s: Severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == s)
            .count()
    };
    let mut roots: Vec<&str> = report.roots.iter().map(|r| r.path.as_str()).collect();
    roots.sort_unstable();
    roots.dedup();
    let mut text = format!(
        "{}, {}",
        counted(count(Severity::Error), "error"),
        counted(count(Severity::Warning), "warning")
    );
    let infos = count(Severity::Info);
    if infos > 0 {
        text.push_str(&format!(", {infos} info"));
    }
    text.push_str(&format!(" in {}", counted(roots.len(), "root")));
    text
}

/// `\n[*] N fixable with --fix (M more with --unsafe-fixes)`, or nothing when nothing is.
pub fn fixable(report: &Report, unsafe_fixes: bool) -> String {
    let fixes = report.diagnostics.iter().filter_map(|d| d.fix.as_ref());
    let (on, off) = fixes.fold((0, 0), |(on, off), f| {
        if f.allowed(unsafe_fixes) {
            (on + 1, off)
        } else {
            (on, off + 1)
        }
    });
    match (on, off) {
        (0, 0) => String::new(),
        (_, 0) if unsafe_fixes => format!("\n[*] {on} fixable with --fix --unsafe-fixes"),
        (_, 0) => format!("\n[*] {on} fixable with --fix"),
        (0, _) => format!("\n{off} fixable with --fix --unsafe-fixes"),
        _ => format!("\n[*] {on} fixable with --fix ({off} more with --unsafe-fixes)"),
    }
}

fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn summary_color(report: &Report) -> Color {
    match report.worst() {
        Some(Severity::Error) => Color::Red,
        Some(Severity::Warning) => Color::Yellow,
        Some(Severity::Info) | None => Color::Green,
    }
}

/// The one-line form used when a frame cannot be drawn.
fn plain(d: &Diagnostic) -> String {
    let at = d.span.as_ref().map(position).unwrap_or_default();
    format!(
        "{at}{}{}[{}]: {}\n",
        if at.is_empty() { "" } else { ": " },
        d.severity.as_str(),
        d.rule,
        d.message
    )
}

/// The files codespan draws frames from, added as findings mention them.
struct FrameFiles<'a> {
    sources: &'a Sources,
    options: &'a RenderOptions,
    files: SimpleFiles<String, Arc<str>>,
    ids: HashMap<String, Option<usize>>,
    /// Where the lines of each added file start, so that a label costs the same whatever its
    /// line.
    starts: HashMap<usize, Vec<usize>>,
}

impl<'a> FrameFiles<'a> {
    fn new(sources: &'a Sources, options: &'a RenderOptions) -> FrameFiles<'a> {
        FrameFiles {
            sources,
            options,
            files: SimpleFiles::new(),
            ids: HashMap::new(),
            starts: HashMap::new(),
        }
    }

    /// The codespan id of `file`, or `None` when it cannot be read.
    fn id(&mut self, file: &str) -> Option<usize> {
        if let Some(id) = self.ids.get(file) {
            return *id;
        }
        let id = self.sources.text(file).map(|text| {
            // A line of megabytes is shown cut: labels past the cut point at its end.
            let text: Arc<str> = match super::bounds::cut_lines(&text) {
                Some(cut) => Arc::from(cut.as_str()),
                None => text,
            };
            let shown: Arc<str> = if text.chars().any(is_unprintable) {
                Arc::from(printable_source(&text).as_str())
            } else {
                text
            };
            let name = self.options.shown_path(file);
            self.files.add(printable(&name, ""), shown)
        });
        self.ids.insert(file.to_string(), id);
        id
    }

    /// A label at `span`, or `None` when its file cannot be read.
    fn label(&mut self, span: &Span, primary: bool) -> Option<Label<usize>> {
        let id = self.id(span.file.as_str())?;
        let text = self.files.get(id).ok()?.source().clone();
        let starts = self.starts.entry(id).or_insert_with(|| line_starts(&text));
        let range = byte_range_in(&text, starts, span)?;
        Some(if primary {
            Label::primary(id, range)
        } else {
            Label::secondary(id, range)
        })
    }

    /// `file:line:column` with the file as the terminal shows it.
    fn position(&self, span: &Span) -> String {
        let shown = Span {
            file: self.options.shown_path(&span.file),
            ..span.clone()
        };
        position(&shown)
    }

    fn frame(&mut self, d: &Diagnostic) -> Frame<usize> {
        let mut labels = Vec::new();
        let mut notes = Vec::new();
        let message = printable(&d.message.replace("\r\n", "\n"), "");
        let rest: Vec<&str> = message.lines().skip(1).collect();
        if !rest.is_empty() {
            notes.push(rest.join("\n"));
        }
        if let Some(span) = &d.span {
            match self.label(span, true) {
                Some(label) => labels.push(label),
                None => notes.push(format!("at {}", self.position(span))),
            }
        }
        for related in &d.related {
            match self.label(&related.span, false) {
                Some(label) => labels.push(label.with_message(printable(&related.message, ""))),
                None => notes.push(format!(
                    "{}: {}",
                    self.position(&related.span),
                    related.message
                )),
            }
        }
        if let Some(object) = &d.object {
            notes.push(format!("object {object}"));
        }
        if let Some(origin) = origin(d) {
            notes.push(format!("in {origin}"));
        }
        if let Some(assumed) = assumed(d) {
            notes.push(assumed);
        }
        if let Some(help) = &d.help {
            notes.push(format!("help: {help}"));
        }
        let mut header = message.lines().next().unwrap_or("").to_string();
        if let Some(fix) = &d.fix {
            if fix.allowed(self.options.unsafe_fixes) {
                header = format!("[*] {header}");
            }
            let how = match fix.applicability {
                crate::fix::Applicability::Safe => "fix",
                crate::fix::Applicability::Unsafe => "fix (unsafe, with --unsafe-fixes)",
            };
            notes.push(format!("{how}: {}", fix.title));
        }
        let notes = notes.iter().map(|n| printable(n, "\n")).collect();
        Frame::new(frame_severity(d.severity))
            .with_code(printable(d.rule.id(), ""))
            .with_message(header)
            .with_labels(labels)
            .with_notes(notes)
    }
}

/// `text` with every control character except tab and those in `keep` replaced by U+FFFD, so
/// that nothing a finding quotes (escape sequences in a YAML string, a stray carriage return)
/// can restyle or rewrite the terminal.
pub(crate) fn printable(text: &str, keep: &str) -> String {
    text.chars()
        .map(|c| {
            if is_unprintable(c) && !keep.contains(c) {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// A source file's text as [`printable`] makes it, keeping the `\r` of a `\r\n` line end
/// only: a carriage return alone would move the terminal's cursor back over the line.
fn printable_source(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let line_end = c == '\r' && chars.peek() == Some(&'\n');
        out.push(if is_unprintable(c) && !line_end {
            '\u{FFFD}'
        } else {
            c
        });
    }
    out
}

fn is_unprintable(c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n'
}

fn frame_severity(severity: Severity) -> FrameSeverity {
    match severity {
        Severity::Error => FrameSeverity::Error,
        Severity::Warning => FrameSeverity::Warning,
        Severity::Info => FrameSeverity::Note,
    }
}

/// The byte range of `span` in `text`: from its start to its (exclusive) end, or over the one
/// character at its start when it is a point. Columns count characters; a column past the end
/// of its line stops at the line's end. `None` when the line is past the end of the text.
#[cfg(test)]
fn byte_range(text: &str, span: &Span) -> Option<std::ops::Range<usize>> {
    byte_range_in(text, &line_starts(text), span)
}

/// [`byte_range`] with the line starts of `text` given (see [`line_starts`]).
fn byte_range_in(text: &str, starts: &[usize], span: &Span) -> Option<std::ops::Range<usize>> {
    let start = byte_offset(text, starts, span.line, span.column)?;
    let end = if (span.end_line, span.end_column) > (span.line, span.column) {
        byte_offset(text, starts, span.end_line, span.end_column).unwrap_or(text.len())
    } else {
        start
            + text[start..]
                .chars()
                .next()
                .filter(|c| *c != '\n' && *c != '\r')
                .map_or(0, char::len_utf8)
    };
    Some(start..end.max(start))
}

/// Where each line of `text` starts: 0, and after every line break (an LF, a CR LF or a CR
/// alone, as ytt and editors count lines).
fn line_starts(text: &str) -> Vec<usize> {
    crate::pos::lines(text).map(|l| l.start).collect()
}

/// The byte offset of `line`:`column` (both from 1) in `text`, whose lines start at `starts`.
fn byte_offset(text: &str, starts: &[usize], line: u32, column: u32) -> Option<usize> {
    let index = usize::try_from(line.max(1) - 1).ok()?;
    let line_start = *starts.get(index)?;
    let rest = text.get(line_start..)?;
    let line_text = crate::pos::lines(rest)
        .next()
        .map_or("", |l| &rest[..l.end]);
    let skip = usize::try_from(column.max(1) - 1).unwrap_or(usize::MAX);
    let within = line_text
        .char_indices()
        .nth(skip)
        .map_or(line_text.len(), |(i, _)| i);
    Some(line_start + within)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;
    use crate::report::{RootOutcome, RootStatus};

    fn sources() -> Sources {
        let sources = Sources::new("/nonexistent");
        sources.insert("config/values.yml", "a: 1\nport: 0\n");
        sources.insert("config/schema.yml", "#@data/values-schema\n---\nport: 1\n");
        sources
    }

    fn status(path: &str) -> RootStatus {
        RootStatus {
            path: path.into(),
            scenario: None,
            status: RootOutcome::Findings,
            duration_ms: 1,
            provenance: None,
            unchecked: Vec::new(),
        }
    }

    fn violation() -> Diagnostic {
        let mut d = Diagnostic::new(Rule::DataValueViolation, "port: must be > 0\nfound: 0")
            .at(Span::point("config/values.yml", 2, 7))
            .with_related("rule declared here", Span::point("config/schema.yml", 3, 1))
            .with_help("give a port above 0");
        d.root = Some("config".into());
        d.scenario = Some("prod".into());
        d
    }

    #[test]
    fn code_frame_with_notes_and_summary() {
        let report = Report {
            roots: vec![status("config")],
            diagnostics: vec![violation()],
        };
        let text = render(&report, &sources(), &RenderOptions::default());
        assert!(text.starts_with("error[data-value-violation]: port: must be > 0\n"));
        assert!(text.contains("┌─ config/values.yml:2:7"), "{text}");
        assert!(text.contains("2 │ port: 0"), "{text}");
        assert!(text.contains("^"), "{text}");
        assert!(text.contains("rule declared here"), "{text}");
        assert!(text.contains("= found: 0"), "{text}");
        assert!(text.contains("= in root config, scenario prod"), "{text}");
        assert!(text.contains("= help: give a port above 0"), "{text}");
        assert!(
            text.ends_with("\n1 error, 0 warnings in 1 root\n"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}'), "no color unless asked");
    }

    #[test]
    fn color_only_when_asked() {
        let report = Report {
            roots: vec![status("config")],
            diagnostics: vec![violation()],
        };
        let options = RenderOptions {
            color: true,
            ..RenderOptions::default()
        };
        let text = render(&report, &sources(), &options);
        assert!(text.contains("\u{1b}["), "{text}");
    }

    #[test]
    fn unreadable_file_and_root_level_findings() {
        let mut missing = Diagnostic::new(Rule::YamlSyntax, "did not find expected key")
            .at(Span::point("gone.yml", 4, 2));
        missing.severity = Severity::Warning;
        let mut whole = Diagnostic::new(Rule::InternalError, "evaluation panicked");
        whole.root = Some("other".into());
        let report = Report {
            roots: vec![status("config"), status("other"), status("other")],
            diagnostics: vec![missing, whole],
        };
        let text = render(&report, &sources(), &RenderOptions::default());
        assert!(text.contains("warning[yaml-syntax]: did not find expected key"));
        assert!(text.contains("= at gone.yml:4:2"), "{text}");
        assert!(text.contains("error[internal-error]: evaluation panicked"));
        assert!(text.contains("= in root other"), "{text}");
        assert!(text.ends_with("1 error, 1 warning in 2 roots\n"), "{text}");
    }

    #[test]
    fn paths_are_shown_from_the_working_directory() {
        let report = Report {
            roots: vec![status("config")],
            diagnostics: vec![violation()],
        };
        let options = RenderOptions {
            path_base: "repo/".into(),
            summary: false,
            ..RenderOptions::default()
        };
        let text = render(&report, &sources(), &options);
        assert!(text.contains("┌─ repo/config/values.yml:2:7"), "{text}");
        assert!(!text.contains("1 error"), "{text}");
    }

    #[test]
    fn clean_summary() {
        let report = Report {
            roots: vec![status("a"), status("b")],
            diagnostics: vec![],
        };
        let text = render(&report, &sources(), &RenderOptions::default());
        assert_eq!(text, "0 errors, 0 warnings in 2 roots\n");
    }

    #[test]
    fn info_is_counted_when_present() {
        let mut d = Diagnostic::new(Rule::UnusedSuppression, "nothing to suppress");
        d.severity = Severity::Info;
        let report = Report {
            roots: vec![status("a")],
            diagnostics: vec![d],
        };
        assert_eq!(summary(&report), "0 errors, 0 warnings, 1 info in 1 root");
    }

    #[test]
    fn control_characters_cannot_reach_the_terminal() {
        let sources = Sources::new("/nonexistent");
        sources.insert("a.yml", "a: \"\u{1b}[31mred\"\r\nb: 1\r\n");
        let d = Diagnostic::new(
            Rule::DataValueViolation,
            "a: \u{1b}[2Jbad\r\nsecond\rline\u{7}",
        )
        .at(Span::point("a.yml", 2, 1))
        .with_related("declared \u{1b}here", Span::point("a.yml", 1, 1));
        let report = Report {
            roots: vec![],
            diagnostics: vec![d],
        };
        let text = render(&report, &sources, &RenderOptions::default());
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
        assert!(text.contains("a: \u{FFFD}[2Jbad\n"), "{text:?}");
        assert!(text.contains("= second\u{FFFD}line\u{FFFD}"), "{text:?}");
        assert!(text.contains("2 │ b: 1"), "{text:?}");
        assert_eq!(printable("a\rb\tc\n\u{9b}", "\r"), "a\rb\tc\n\u{FFFD}");
        assert_eq!(
            printable_source("a\rb\r\nc\u{1b}"),
            "a\u{FFFD}b\r\nc\u{FFFD}"
        );
    }

    #[test]
    fn byte_ranges() {
        let text = "ab\r\nçd: é\n";
        assert_eq!(byte_range(text, &Span::point("f", 1, 2)), Some(1..2));
        assert_eq!(byte_range(text, &Span::point("f", 1, 3)), Some(2..2));
        assert_eq!(byte_range(text, &Span::point("f", 2, 1)), Some(4..6));
        assert_eq!(byte_range(text, &Span::point("f", 2, 5)), Some(9..11));
        assert_eq!(byte_range(text, &Span::point("f", 2, 40)), Some(11..11));
        assert_eq!(byte_range(text, &Span::point("f", 9, 1)), None);
        let wide = Span {
            file: "f".into(),
            line: 1,
            column: 1,
            end_line: 2,
            end_column: 3,
        };
        assert_eq!(byte_range(text, &wide), Some(0..7));
    }
}
