//! Source positions: which file, line and column a node or error comes from.

use std::fmt;
use std::sync::Arc;

/// A position in a source file. Lines and columns start at 1; a line of 0 means the position is
/// unknown (a value built by code rather than read from a file).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// The file's name as ytt shows it (its path relative to the library, or as given).
    pub file: Option<Arc<str>>,
    pub line: u32,
    pub col: u32,
    /// Byte offset of the start in the file's source.
    pub offset: u32,
}

impl Pos {
    pub fn new(file: &Arc<str>, line: u32, col: u32, offset: u32) -> Pos {
        Pos {
            file: Some(file.clone()),
            line,
            col,
            offset,
        }
    }

    /// A position that points nowhere.
    pub fn unknown() -> Pos {
        Pos::default()
    }

    pub fn is_known(&self) -> bool {
        self.line > 0
    }

    /// `file:line`, as ytt prints positions in messages (`?` when unknown).
    pub fn as_compact(&self) -> String {
        match (&self.file, self.is_known()) {
            (Some(f), true) => format!("{}:{}", f, self.line),
            (Some(f), false) => format!("{}:?", f),
            (None, true) => self.line.to_string(),
            (None, false) => "?".to_string(),
        }
    }
}

impl Pos {
    /// `line file:line`, ytt's long form.
    pub fn as_line_string(&self) -> String {
        format!("line {}", self.as_compact())
    }

    /// The line number, or `?` when unknown.
    pub fn as_int_string(&self) -> String {
        if self.is_known() {
            self.line.to_string()
        } else {
            "?".to_string()
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_compact())
    }
}

/// One line of a text: its bytes `start..end` (without the line break), and where the next
/// line starts (`next`: after the line break, or the text's length for the last line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSpan {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

/// The lines of `text` as editors (the Language Server Protocol), SARIF, ytt's YAML parser and
/// starlark-go count them: a line ends at an LF, a CR LF, or a CR that no LF follows (the old
/// Mac line end). A text has at least one line, and a line break at its end starts a last,
/// empty line.
pub fn lines(text: &str) -> impl Iterator<Item = LineSpan> + '_ {
    let bytes = text.as_bytes();
    let mut at = Some(0);
    std::iter::from_fn(move || {
        let start = at?;
        let found = bytes
            .get(start..)?
            .iter()
            .position(|b| matches!(b, b'\n' | b'\r'));
        let Some(i) = found else {
            at = None;
            return Some(LineSpan {
                start,
                end: bytes.len(),
                next: bytes.len(),
            });
        };
        let end = start + i;
        let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
        let next = end + if crlf { 2 } else { 1 };
        at = Some(next);
        Some(LineSpan { start, end, next })
    })
}

/// Line `line` (from 1) of `text`; `None` for line 0 and past the last line.
pub fn line_span(text: &str, line: u32) -> Option<LineSpan> {
    lines(text).nth(usize::try_from(line.checked_sub(1)?).ok()?)
}

/// The line (from 1) that holds byte `at` of `text` (past the end: the last line), with its
/// span. The place between the CR and the LF of a CR LF belongs to the line they end.
pub fn line_at(text: &str, at: usize) -> (u32, LineSpan) {
    let mut number = 0u32;
    let mut last = LineSpan {
        start: 0,
        end: 0,
        next: 0,
    };
    for l in lines(text) {
        number = number.saturating_add(1);
        last = l;
        if at < l.next {
            break;
        }
    }
    (number.max(1), last)
}

/// `text` with each CR that no LF follows made an LF: the same bytes but one at each such
/// place, so offsets stay and code that ends lines at LF counts lines as [`lines`] does.
/// starlark-go reads such a CR as a line break too.
pub fn lone_cr_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        out.push(if c == '\r' && lone(i) { '\n' } else { c });
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod line_tests {
    use super::*;

    fn texts(text: &str) -> Vec<&str> {
        lines(text).map(|l| &text[l.start..l.end]).collect()
    }

    #[test]
    fn lf_crlf_and_a_lone_cr_end_lines() {
        assert_eq!(texts("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(texts("a\r"), ["a", ""]);
        assert_eq!(texts("\r\r\n\n"), ["", "", "", ""]);
        assert_eq!(texts(""), [""]);
        assert_eq!(line_span("a\rb", 2).map(|l| l.start), Some(2));
        assert_eq!(line_span("a\rb", 3), None);
        assert_eq!(line_span("a\rb", 0), None);
        let text = "a\r\nb\rc";
        assert_eq!(line_at(text, 0).0, 1);
        assert_eq!(line_at(text, 2).0, 1, "between the CR and the LF");
        assert_eq!(line_at(text, 3).0, 2);
        assert_eq!(line_at(text, 5).0, 3);
        assert_eq!(line_at(text, 99).0, 3);
        assert_eq!(lone_cr_as_lf("a\rb\r\nc\r"), "a\nb\r\nc\n");
        assert!(matches!(
            lone_cr_as_lf("a\r\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
