//! Comments for the YAML parser. libyaml drops comments, so they are found in the gaps between
//! the tokens the scanner reported (a `#` outside every token starts a comment that runs to the
//! end of the line, exactly what go-yaml's fork records), then attached to nodes with ytt's rule:
//! a comment on a node's line belongs to the last node starting on that line, a comment above
//! nodes belongs to the first (outermost) node of the next line holding nodes, and a comment
//! below every node of its document is left over.

use std::cell::Cell;
use std::collections::BTreeMap;

use crate::pos::Pos;
use crate::yaml::node::{Comment, Document, Value};

/// Line starts of a source, with libyaml's notion of a line break.
pub(crate) struct LineIndex<'a> {
    src: &'a str,
    starts: Vec<usize>,
    /// Whether every character is one byte (a column is then a difference of offsets).
    ascii: bool,
    /// The last column counted: its byte offset and column. Positions are mostly asked in
    /// order, so the next one on the same line counts on from there: a 2 MB line of nodes
    /// costs one pass, not one pass a node.
    last: Cell<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    pub fn new(src: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        let ascii = src.is_ascii();
        let last = Cell::new((0, 0));
        // libyaml's other breaks (NEL, LS, PS) are characters beyond ASCII: searched for only
        // in a text that has such characters, each with a fast search, as the LFs are.
        let only_lf = !src.contains('\r')
            && (ascii
                || !['\u{85}', '\u{2028}', '\u{2029}']
                    .iter()
                    .any(|&c| src.contains(c)));
        if only_lf {
            // The usual text: only LF breaks, found by a fast search.
            starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
            return LineIndex {
                src,
                starts,
                ascii,
                last,
            };
        }
        let bytes = src.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            // A line starts after the last byte of a break: CR LF, CR, LF, or NEL, LS, PS
            // (in UTF-8: C2 85, E2 80 A8, E2 80 A9).
            let ends_break = match b {
                b'\r' => bytes.get(i + 1) != Some(&b'\n'),
                b'\n' => true,
                0x85 => i > 0 && bytes[i - 1] == 0xc2,
                0xa8 | 0xa9 => i > 1 && bytes[i - 1] == 0x80 && bytes[i - 2] == 0xe2,
                _ => false,
            };
            if ends_break {
                starts.push(i + 1);
            }
        }
        LineIndex {
            src,
            starts,
            ascii,
            last,
        }
    }

    /// 0-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (u64, u64) {
        let line = self
            .starts
            .partition_point(|s| *s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        if self.ascii {
            return (line as u64, offset.saturating_sub(start) as u64);
        }
        // Count on from the last column asked when it is on this line, before `offset`.
        let (from, base) = match self.last.get() {
            (at, col) if at >= start && at <= offset => (at, col),
            _ => (start, 0),
        };
        let col = match self.src.get(from..offset) {
            Some(s) => base + s.chars().count(),
            None => {
                return (
                    line as u64,
                    self.src.get(start..offset).map_or(0, |s| s.chars().count()) as u64,
                )
            }
        };
        self.last.set((offset, col));
        (line as u64, col as u64)
    }
}

/// A comment found in the source: byte offset of its `#`, 0-based line and column, text.
pub(crate) struct RawComment {
    pub offset: usize,
    pub line: u64,
    pub col: u64,
    pub data: String,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A scan for comments outside token spans that can go on in steps (a document at a time).
#[derive(Default)]
pub(crate) struct GapScan {
    /// Where the text not yet scanned starts.
    pos: usize,
    /// Whether the last span was a directive (go-yaml swallows the rest of its line).
    after_directive: bool,
}

impl GapScan {
    /// Finds the comments of `src` up to `to` outside the given token spans (sorted by start,
    /// all before `to`), in source order.
    pub fn scan_to(
        &mut self,
        src: &str,
        spans: &[(usize, usize, bool)],
        to: usize,
        lines: &LineIndex,
        out: &mut Vec<RawComment>,
    ) {
        for &(start, end, directive) in spans {
            if start > self.pos {
                scan_gap(src, self.pos, start, self.after_directive, lines, out);
            }
            if end > self.pos {
                self.pos = end;
                self.after_directive = directive;
            }
        }
        if to > self.pos {
            scan_gap(src, self.pos, to, self.after_directive, lines, out);
            self.pos = to;
            self.after_directive = false;
        }
    }
}

fn scan_gap(
    src: &str,
    from: usize,
    to: usize,
    mut skip_first_line: bool,
    lines: &LineIndex,
    out: &mut Vec<RawComment>,
) {
    let Some(gap) = src.get(from..to) else {
        return;
    };
    let mut at = 0;
    while let Some(found) = gap[at..].find('#') {
        let hash = at + found;
        if skip_first_line && gap[at..hash].contains(is_break) {
            skip_first_line = false;
        }
        let rest = &gap[hash + 1..];
        let len = rest.find(is_break).unwrap_or(rest.len());
        if !skip_first_line {
            let (line, col) = lines.line_col(from + hash);
            out.push(RawComment {
                offset: from + hash,
                line,
                col,
                data: rest[..len].to_string(),
            });
        }
        at = hash + 1 + len;
    }
}

/// Pre-order walk over the nodes that can own comments: the document, map items and array
/// items (map keys are not visited, as in ytt). `f` gets each node's line and comment list.
fn walk_value(v: &mut Value, f: &mut dyn FnMut(&Pos, &mut Vec<Comment>)) {
    match v {
        Value::Map(m) => {
            for item in &mut m.items {
                f(&item.pos, &mut item.comments);
                walk_value(&mut item.value, f);
            }
        }
        Value::Array(a) => {
            for item in &mut a.items {
                f(&item.pos, &mut item.comments);
                walk_value(&mut item.value, f);
            }
        }
        _ => {}
    }
}

fn walk(doc: &mut Document, f: &mut dyn FnMut(&Pos, &mut Vec<Comment>)) {
    f(&doc.pos, &mut doc.comments);
    walk_value(&mut doc.value, f);
}

/// Attaches `comments` (in source order) to the nodes of `doc`; returns those that found no
/// owner (they lie below every node of the document).
pub(crate) fn assign(doc: &mut Document, comments: Vec<Comment>) -> Vec<Comment> {
    if comments.is_empty() {
        return comments;
    }
    let mut at_lines: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut counter = 0usize;
    walk(doc, &mut |pos, _| {
        if pos.is_known() {
            at_lines.entry(pos.line).or_default().push(counter);
        }
        counter += 1;
    });
    let mut owned: BTreeMap<usize, Vec<Comment>> = BTreeMap::new();
    let mut unassigned = Vec::new();
    for c in comments {
        let owner = at_lines.range(c.pos.line..).next().and_then(|(line, ids)| {
            if *line == c.pos.line {
                ids.last().copied()
            } else {
                ids.first().copied()
            }
        });
        match owner {
            Some(id) => owned.entry(id).or_default().push(c),
            None => unassigned.push(c),
        }
    }
    let mut counter = 0usize;
    walk(doc, &mut |_, list| {
        if let Some(cs) = owned.remove(&counter) {
            list.extend(cs);
        }
        counter += 1;
    });
    unassigned
}
#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn lines_break_where_libyaml_breaks_them() {
        let src = "a\r\nb\rc\u{85}d\u{2028}e\u{2029}f\u{a8}\u{2080}g\n";
        let starts: Vec<usize> = [0, 3, 5, 8, 12, 16, 24].to_vec();
        let lines = LineIndex::new(src);
        assert_eq!(lines.starts, starts);
        assert_eq!(lines.line_col(src.len() - 2), (5, 3));
        assert_eq!(LineIndex::new("a\n\nb\n").starts, [0, 2, 3, 5]);
        // Beyond ASCII, with and without libyaml's other breaks: the same starts as a scan of
        // every byte finds.
        for src in [
            "é\nb\n",
            "é\u{85}b\nc",
            "a\u{2028}b\u{2029}c\r\nd\re",
            "Å\n…\n",
        ] {
            let lines = LineIndex::new(src);
            let mut want = vec![0];
            let mut chars = src.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                let crlf = c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n');
                if matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') && !crlf {
                    want.push(i + c.len_utf8());
                }
            }
            assert_eq!(lines.starts, want, "{src:?}");
        }
    }

    #[test]
    fn columns_count_characters_in_any_order_of_asking() {
        let src = "é: [ä, b, ü]\nx: ö\n";
        let lines = LineIndex::new(src);
        let at = |c: &str| src.find(c).unwrap();
        // In order, out of order, and again after another line: the same answers.
        for c in ["ä", "b", "ü", "ö", "b", "é", "ü", "x"] {
            let offset = at(c);
            let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
            let col = src[line_start..offset].chars().count() as u64;
            let line = src[..offset].matches('\n').count() as u64;
            assert_eq!(lines.line_col(offset), (line, col), "{c}");
        }
    }

    #[test]
    fn a_long_line_of_nodes_is_counted_once() {
        // 200 000 nodes on one non-ASCII line: quadratic counting would take minutes.
        let src = format!("é: [{}]\n", vec!["ä"; 200_000].join(","));
        let lines = LineIndex::new(&src);
        let mut last = 0;
        for (i, _) in src.match_indices('ä') {
            let (line, col) = lines.line_col(i);
            assert_eq!(line, 0);
            assert!(col > last || last == 0);
            last = col;
        }
        assert_eq!(last, 4 + 2 * 199_999);
    }
}
