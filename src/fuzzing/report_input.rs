//! A run's report made of fuzz bytes: source files, roots, findings with arbitrary messages,
//! paths, rules, lines and columns, related locations, help and fixes, the roots' coverage and
//! the render options. [`super::reports`] renders it in every format.
//!
//! Layout (each part read by [`Input`]; texts end at a NUL byte): an options byte; up to 3
//! source files (path, text); up to 7 roots; up to 15 findings; up to 2 roots' coverage. A
//! finding's file is mostly one of the source files, so that code frames and widened spans
//! are drawn from real text.

use std::collections::BTreeMap;

use super::input::Input;
use crate::fix::{Applicability, Edit, Fix};
use crate::report::coverage::{Arm, ArmKind, BranchPoint, Coverage, FileCoverage, RootCoverage};
use crate::report::{
    Diagnostic, RenderOptions, Report, RootOutcome, RootStatus, Rule, Severity, Sources, Span,
};

/// A directory that does not exist: the report's sources are only those the input gives.
pub const NO_REPOSITORY: &str = "/nonexistent/yttlint-fuzz";

/// Everything the formats render.
pub struct RunOutput {
    pub report: Report,
    pub sources: Sources,
    /// The paths and texts of the source files.
    pub files: Vec<(String, String)>,
    pub coverage: Vec<RootCoverage>,
    pub options: RenderOptions,
}

/// The run `data` describes.
pub fn read(data: &[u8]) -> RunOutput {
    let mut input = Input::new(data);
    let options = options(&mut input);
    let sources = Sources::new(NO_REPOSITORY);
    let mut files: Vec<(String, String)> = Vec::new();
    for _ in 0..input.below(4) {
        let path = input.text();
        let text = input.text();
        sources.insert(&path, &text);
        files.retain(|(p, _)| *p != path);
        files.push((path, text));
    }
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut report = Report::default();
    for _ in 0..input.below(8) {
        report.roots.push(root(&mut input));
    }
    for _ in 0..input.below(16) {
        report.diagnostics.push(finding(&mut input, &paths, &files));
    }
    let coverage = (0..input.below(3))
        .map(|_| root_coverage(&mut input, &paths))
        .collect();
    RunOutput {
        report,
        sources,
        files,
        coverage,
        options,
    }
}

fn options(input: &mut Input) -> RenderOptions {
    let bits = input.byte();
    let fail_on = [Severity::Error, Severity::Warning, Severity::Info][input.below(3)];
    let mut options = RenderOptions {
        color: bits & 1 != 0,
        summary: bits & 2 != 0,
        unsafe_fixes: bits & 4 != 0,
        fail_on,
        ..RenderOptions::default()
    };
    if bits & 8 != 0 {
        options.automation_id = Some(input.text());
    }
    if bits & 16 != 0 {
        options.source_root_uri = Some(input.text());
    }
    if bits & 32 != 0 {
        options.path_base = input.text();
    }
    options
}

fn severity(input: &mut Input) -> Severity {
    [Severity::Error, Severity::Warning, Severity::Info][input.below(3)]
}

fn root(input: &mut Input) -> RootStatus {
    RootStatus {
        path: input.text(),
        scenario: input.maybe_text(),
        status: [RootOutcome::Ok, RootOutcome::Findings, RootOutcome::Error][input.below(3)],
        duration_ms: u64::from(input.number()),
        provenance: None,
        unchecked: Vec::new(),
    }
}

/// A file name: one of `paths` mostly, any text otherwise.
fn file(input: &mut Input, paths: &[String]) -> String {
    let pick = usize::from(input.byte());
    match paths.get(pick % paths.len().max(1)) {
        Some(p) if pick < 224 => p.clone(),
        _ => input.text(),
    }
}

fn span(input: &mut Input, paths: &[String]) -> Span {
    let file = file(input, paths);
    let (line, column) = (input.number(), input.number());
    if input.flag() {
        Span::point(file, line, column)
    } else {
        Span {
            file,
            line,
            column,
            end_line: input.number(),
            end_column: input.number(),
        }
    }
}

fn finding(input: &mut Input, paths: &[String], files: &[(String, String)]) -> Diagnostic {
    let rule = Rule::ALL[usize::from(input.byte()) % Rule::ALL.len()];
    let mut d = Diagnostic::new(rule, input.text());
    if input.flag() {
        d.severity = severity(input);
    }
    if !input.byte().is_multiple_of(4) {
        d.span = Some(span(input, paths));
    }
    d.root = input.maybe_text();
    d.scenario = input.maybe_text();
    d.object = input.maybe_text();
    for _ in 0..input.below(3) {
        let message = input.text();
        d = d.with_related(message, span(input, paths));
    }
    d.help = input.maybe_text();
    if input.flag() {
        d.fix = Some(fix(input, paths, files));
    }
    d
}

fn fix(input: &mut Input, paths: &[String], files: &[(String, String)]) -> Fix {
    let title = input.text();
    let applicability = if input.flag() {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    let edits = (0..=input.below(3))
        .map(|_| edit(input, paths, files))
        .collect();
    Fix {
        title,
        applicability,
        edits,
    }
}

/// An edit of a source file's text as fixes make them, or, when the range is not one of the
/// text (a file changed since it was linted), with whatever positions the input gives.
fn edit(input: &mut Input, paths: &[String], files: &[(String, String)]) -> Edit {
    let file = file(input, paths);
    let start = input.number() as usize;
    let end = start.saturating_add(input.number() as usize % 16);
    let replacement = input.text();
    let text = files.iter().find(|(p, _)| *p == file).map(|(_, t)| t);
    if let Some(e) = text.and_then(|t| Edit::new(&file, t, start, end, &replacement)) {
        return e;
    }
    Edit {
        file,
        start,
        end,
        replacement,
        line: input.number(),
        column: input.number(),
        end_line: input.number(),
        end_column: input.number(),
    }
}

/// A root's coverage as the linter merges it: files sorted and each once, branch points in
/// line order.
fn root_coverage(input: &mut Input, paths: &[String]) -> RootCoverage {
    let mut root = RootCoverage::new(&input.text());
    let mut job = Coverage {
        complete: input.flag(),
        files: Vec::new(),
    };
    for _ in 0..input.below(3) {
        let mut f = FileCoverage {
            file: file(input, paths),
            lines: BTreeMap::new(),
            branches: Vec::new(),
        };
        for _ in 0..input.below(8) {
            f.lines.insert(input.number(), u64::from(input.number()));
        }
        for ord in 0..input.below(3) {
            let arms = (0..input.below(3))
                .map(|_| Arm {
                    kind: [ArmKind::Then, ArmKind::Else, ArmKind::Skip, ArmKind::Body]
                        [input.below(4)],
                    line: input.number(),
                    hits: u64::from(input.number()),
                })
                .collect();
            f.branches.push(BranchPoint {
                line: input.number(),
                ord: u32::try_from(ord).unwrap_or(u32::MAX),
                hits: u64::from(input.number()),
                arms,
            });
        }
        f.branches.sort_by_key(|b| (b.line, b.ord));
        job.add(f);
    }
    root.merge(Some(&job));
    root
}
