//! One edit: a byte range of a file's text and what replaces it, with the same range as lines
//! and columns (1-based, columns count characters, the end exclusive) for reports and editors.
//! Also the conversions between the two that fixes are made with.

use serde::{Deserialize, Serialize};

/// Replace `start..end` (bytes) of `file` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Edit {
    /// Repository-relative (once the finding is lowered to a report `Diagnostic`).
    pub file: String,
    pub start: usize,
    pub end: usize,
    pub replacement: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl Edit {
    /// The edit of `start..end` of `text` (the file's whole text); `None` when the range is not
    /// one of `text` (out of bounds, reversed, or cutting a character).
    pub fn new(
        file: &str,
        text: &str,
        start: usize,
        end: usize,
        replacement: &str,
    ) -> Option<Edit> {
        if start > end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return None;
        }
        let (line, column) = line_col(text, start);
        let (end_line, end_column) = line_col(text, end);
        Some(Edit {
            file: file.to_string(),
            start,
            end,
            replacement: replacement.to_string(),
            line,
            column,
            end_line,
            end_column,
        })
    }

    /// Whether two edits touch the same bytes (two insertions at one place do, as the order
    /// they would go in is unknown).
    pub fn overlaps(&self, other: &Edit) -> bool {
        self.file == other.file
            && (self.start < other.end && other.start < self.end
                || self.start == other.start
                || (self.start == self.end && other.start < self.start && self.start < other.end)
                || (other.start == other.end && self.start < other.start && other.start < self.end))
    }
}

/// The line and column (1-based, the column in characters) of byte `at` of `text`. Lines
/// end at an LF, a CR LF or a CR alone, as editors and ytt count them (`crate::pos::lines`);
/// the place between the CR and the LF of a CR LF is a column of the line they end.
pub fn line_col(text: &str, at: usize) -> (u32, u32) {
    let at = at.min(text.len());
    let (line, span) = crate::pos::line_at(text, at);
    let column = text
        .get(span.start..at)
        .map_or(0, |t| t.chars().count())
        .saturating_add(1);
    (line, u32::try_from(column).unwrap_or(u32::MAX))
}

/// The byte range of line `line` (1-based) of `text`, without its line break (an LF, a CR LF
/// or a CR alone, as [`line_col`] counts lines); `None` for line 0 and past the last line.
pub fn line_range(text: &str, line: u32) -> Option<(usize, usize)> {
    crate::pos::line_span(text, line).map(|l| (l.start, l.end))
}

/// The byte range of lines `first..=last` of `text` with the line break after the last (the
/// range that removes them whole).
pub fn whole_lines(text: &str, first: u32, last: u32) -> Option<(usize, usize)> {
    let first = crate::pos::line_span(text, first)?;
    let last = crate::pos::line_span(text, last)?;
    Some((first.start, last.next))
}

/// The byte offset of line `line`, column `column` (1-based, in characters) of `text`: the
/// inverse of [`line_col`] at every character boundary. The CR of a CR LF is a column, as
/// [`line_col`] counts it, so the place between the CR and the LF has a line and column too.
pub fn offset(text: &str, line: u32, column: u32) -> Option<usize> {
    let span = crate::pos::line_span(text, line)?;
    let end = if span.next == span.end + 2 {
        span.end + 1
    } else {
        span.end
    };
    let skip = usize::try_from(column.checked_sub(1)?).ok()?;
    let in_line: usize = text[span.start..end]
        .chars()
        .take(skip)
        .map(char::len_utf8)
        .sum();
    (text[span.start..end].chars().count() >= skip).then_some(span.start + in_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_lines_and_columns_agree() {
        let text = "a: 1\r\nbé: #@data\nlast";
        assert_eq!(line_range(text, 1), Some((0, 4)));
        assert_eq!(line_range(text, 2), Some((6, 17)));
        assert_eq!(line_range(text, 3), Some((18, 22)));
        assert_eq!(line_range(text, 4), None);
        assert_eq!(offset(text, 2, 5), Some(11));
        assert_eq!(&text[11..13], "#@");
        assert_eq!(line_col(text, 11), (2, 5));
        assert_eq!(offset(text, 2, 40), None);
        assert_eq!(whole_lines(text, 1, 2), Some((0, 18)));
        assert_eq!(whole_lines(text, 3, 3), Some((18, 22)));
        let e = Edit::new("t.yml", text, 13, 13, " ").unwrap();
        assert_eq!((e.line, e.column, e.end_line, e.end_column), (2, 7, 2, 7));
        assert!(Edit::new("t.yml", text, 8, 9, "").is_none(), "cuts é");
        assert!(Edit::new("t.yml", text, 9, 99, "").is_none());
    }

    /// Found by fuzzing (`fix_apply`): a CR that ends the text is no line break, and the place
    /// between the CR and LF of a CR LF has a column; `offset` refused both.
    #[test]
    fn line_col_and_offset_are_inverses_at_every_character_boundary() {
        for text in [
            "kind: Wi\u{fffd}u\r",
            "a\r\nb\r\n",
            "a\rb\nc\r",
            "\r\n\r\n\r",
            "\r",
            "\n\r\r\n\u{e9}\r",
            "",
            "x: \u{1f600}\r\n\ty\n",
        ] {
            for at in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let (line, column) = line_col(text, at);
                assert_eq!(offset(text, line, column), Some(at), "{text:?} at {at}");
            }
        }
        assert_eq!(
            line_range("a\r", 1),
            Some((0, 1)),
            "a CR that ends the text ends its line"
        );
        assert_eq!(line_range("a\r", 2), Some((2, 2)));
        assert_eq!(line_range("a\r\n", 1), Some((0, 1)));
        assert_eq!(line_range("a\rb\r\nc", 1), Some((0, 1)), "a CR alone");
        assert_eq!(line_range("a\rb\r\nc", 2), Some((2, 3)));
        assert_eq!(line_col("a\rb\r\nc", 5), (3, 1));
        assert_eq!(whole_lines("a\rb\r\nc", 1, 2), Some((0, 5)));
        assert_eq!(line_range("a", 0), None);
        assert_eq!(offset("a\r", 1, 3), None, "past the CR");
        assert_eq!(offset("a\r\nb", 1, 4), None, "past the CR LF");
    }

    #[test]
    fn overlapping_edits() {
        let text = "0123456789";
        let e = |a, b| Edit::new("f", text, a, b, "x").unwrap();
        assert!(e(1, 4).overlaps(&e(3, 5)));
        assert!(!e(1, 3).overlaps(&e(3, 5)), "adjacent");
        assert!(e(3, 3).overlaps(&e(3, 3)), "two insertions at one place");
        assert!(
            e(4, 4).overlaps(&e(3, 5)),
            "an insertion inside a replacement"
        );
        assert!(!e(5, 5).overlaps(&e(3, 5)), "an insertion at its end");
        let mut other = e(1, 4);
        other.file = "g".into();
        assert!(!e(1, 4).overlaps(&other));
    }
}
