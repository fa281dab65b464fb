//! ytt's text for a [`SchemaError`]: the summary underlined with `=`, then per failure its
//! description, the source lines involved (annotations first, then the node; `...` between
//! lines that are not adjacent), and the `= found:`, `= expected:`, `= hint:` lines, line
//! numbers right-aligned to the widest one; nested errors follow, each with a trailing space.

use super::error::{Failure, Part, SchemaError};
use crate::pos::Pos;

/// Renders `err` as ytt does; `line_of` gives the source text of a position's line.
pub fn render(err: &SchemaError, line_of: &dyn Fn(&Pos) -> String) -> String {
    let mut out = String::new();
    if !err.summary.is_empty() {
        out.push('\n');
        out.push_str(&err.summary);
        out.push('\n');
        out.push_str(&"=".repeat(err.summary.len()));
        out.push('\n');
    }
    let failures: Vec<&Failure> = err
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Failure(f) => Some(f),
            Part::Nested(_) => None,
        })
        .collect();
    let width = failures
        .iter()
        .map(|f| f.pos.as_int_string().len())
        .max()
        .unwrap_or(0);
    let pad = |delim: &str, at: &str| format!("  {at:>width$} {delim}");
    for f in &failures {
        if !f.description.is_empty() {
            out.push('\n');
            out.push_str(&f.description);
        }
        match &f.memory_line {
            Some(line) => {
                out.push_str("\nData value calculated:\n");
                out.push_str(&pad("#", ""));
                out.push('\n');
                out.push_str(&format!("{} {}\n", pad("#", ""), line));
                out.push_str(&pad("#", ""));
            }
            None => {
                out.push('\n');
                out.push_str(f.pos.file.as_deref().unwrap_or(""));
                out.push_str(":\n");
                out.push_str(&pad("|", ""));
                for (at, text, skip) in source_lines(f, line_of) {
                    if skip {
                        out.push('\n');
                        out.push_str(&pad("|", ""));
                        out.push_str(" ...");
                    }
                    out.push('\n');
                    out.push_str(&format!("{} {}", pad("|", &at), text));
                }
                out.push('\n');
                out.push_str(&pad("|", ""));
            }
        }
        out.push_str("\n\n");
        if !f.found.is_empty() {
            out.push_str(&format!("{} found: {}", pad("=", ""), f.found));
        }
        out.push('\n');
        if !f.expected.is_empty() {
            out.push_str(&format!("{} expected: {}", pad("=", ""), f.expected));
        }
        for h in &f.hints {
            out.push('\n');
            out.push_str(&format!("{} hint: {}", pad("=", ""), h));
        }
        out.push('\n');
    }
    for p in &err.parts {
        if let Part::Nested(e) = p {
            out.push_str(&render(e, line_of));
            out.push_str(" \n");
        }
    }
    out.push('\n');
    out
}

/// The lines shown for a failure: its annotations in line order (unknown ones first), then
/// the node; each with its line number, its text, and whether lines were skipped before it.
fn source_lines(f: &Failure, line_of: &dyn Fn(&Pos) -> String) -> Vec<(String, String, bool)> {
    let mut positions: Vec<&Pos> = f.ann_positions.iter().collect();
    positions.sort_by_key(|p| (p.is_known(), p.line));
    positions.push(&f.pos);
    let mut out = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let skip = i > 0 && !next_to(p, positions[i - 1]);
        out.push((p.as_int_string(), line_of(p), skip));
    }
    out
}

/// Whether two known positions are in the same file at most one line apart.
fn next_to(a: &Pos, b: &Pos) -> bool {
    a.is_known() && b.is_known() && a.file == b.file && a.line.abs_diff(b.line) <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::error::{FailureKind, Problem};
    use std::sync::Arc;

    fn at(line: u32) -> Pos {
        Pos::new(&Arc::from("schema.yml"), line, 1, 0)
    }

    fn lines(p: &Pos) -> String {
        format!("line{}", p.line)
    }

    #[test]
    fn renders_a_failure_like_ytt() {
        let f = Failure::new(FailureKind::InvalidSchema, &at(4))
            .at_annotation(&at(3))
            .found("2 values in @schema/default (by schema.yml:3)")
            .expected("integer (by schema.yml:4)")
            .described("syntax error in @schema/default annotation");
        let e = Problem::from(f).under("Invalid schema");
        assert_eq!(
            render(&e, &lines),
            "\nInvalid schema\n==============\n\nsyntax error in @schema/default annotation\n\
             schema.yml:\n    |\n  3 | line3\n  4 | line4\n    |\n\n\
             \x20   = found: 2 values in @schema/default (by schema.yml:3)\n\
             \x20   = expected: integer (by schema.yml:4)\n\n"
        );
    }

    #[test]
    fn marks_skipped_lines_and_nests_errors() {
        let f = Failure::new(FailureKind::InvalidSchema, &at(10))
            .at_annotation(&at(3))
            .hint("h");
        let inner = Problem::from(f).under("Inner");
        let outer = Problem::from(inner).under("Outer");
        let text = render(&outer, &lines);
        assert!(text.starts_with("\nOuter\n=====\n\nInner\n=====\n"));
        assert!(text.contains("   |\n   3 | line3\n     | ...\n  10 | line10\n"));
        assert!(text.ends_with("= hint: h\n\n \n\n"));
    }

    #[test]
    fn shows_values_computed_in_memory() {
        let mut f = Failure::new(FailureKind::TypeMismatch, &Pos::unknown())
            .found("string")
            .expected("integer (by schema.yml:4)");
        f.memory_line = Some("foo: \"4\"".into());
        let e = SchemaError::new("One or more data values were invalid", vec![f]);
        let text = render(&e, &lines);
        assert!(text.contains("\nData value calculated:\n    #\n    # foo: \"4\"\n    #\n\n"));
    }
}
