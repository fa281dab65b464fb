//! Where the pieces of a text-templated YAML string (`@yaml/text-templated-strings`) are in
//! the template's source. The parsed string knows its pieces' lines within the string only;
//! the string itself starts below its node's line in a block scalar (`conf: |`), and folding
//! (`>`, multi-line flow scalars) joins lines. Each code piece (`(@ ... @)`) is looked up in
//! the source from the node's offset on, in order, so that what the code does (an error, a
//! branch never taken, a static finding) points at the line that holds its `(@`; a piece the
//! source does not hold verbatim (a quoted string with escapes) keeps the line counted from
//! the node, shifted as the piece before it was.

use super::text::TextNode;

/// How far past the string's own length a piece is looked for (the key, the block header and
/// the indentation of each line lie between the node's offset and its text).
const SLACK: usize = 4096;

/// The source line of each of `pieces` (a string whose node starts at byte `offset`, line
/// `node_line`, of `source`): `None` for every piece when the source is unknown.
pub fn piece_lines(
    source: &str,
    offset: usize,
    node_line: u32,
    text_len: usize,
    pieces: &[TextNode],
) -> Vec<Option<u32>> {
    let counted = |rel: u32| node_line + rel.saturating_sub(1);
    if source.is_empty() || offset >= source.len() || node_line == 0 {
        return vec![None; pieces.len()];
    }
    let window_end = offset
        .saturating_add(text_len.saturating_mul(2))
        .saturating_add(SLACK)
        .min(source.len());
    let mut cursor = offset;
    // The line each code piece was found at, as a shift from the counted line.
    let mut shifts: Vec<Option<i64>> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let TextNode::Code { code, line, .. } = piece else {
            shifts.push(None);
            continue;
        };
        match find_code(source, cursor, window_end, code) {
            Some(at) => {
                cursor = at + 2;
                let found = line_at(source, at);
                shifts.push(Some(i64::from(found) - i64::from(counted(*line))));
            }
            None => shifts.push(None),
        }
    }
    // A piece without its own shift takes the one before it (the first found for those
    // before any).
    let first = shifts.iter().flatten().next().copied().unwrap_or(0);
    let mut shift = first;
    pieces
        .iter()
        .zip(shifts)
        .map(|(piece, own)| {
            if let Some(s) = own {
                shift = s;
            }
            let rel = match piece {
                TextNode::Text { line, .. } | TextNode::Code { line, .. } => *line,
            };
            let line = i64::from(counted(rel)) + shift;
            u32::try_from(line).ok().filter(|l| *l > 0)
        })
        .collect()
}

/// The offset of the `(@` that opens `code` (markers `-`, `=` removed) in `source` between
/// `from` and `to`.
fn find_code(source: &str, from: usize, to: usize, code: &str) -> Option<usize> {
    let first = code.split('\n').next().unwrap_or_default();
    let hay = source.get(from..to)?;
    let mut searched = 0;
    while let Some(i) = hay.get(searched..)?.find("(@") {
        let at = searched + i;
        let rest = &hay[at + 2..];
        let rest = rest.strip_prefix('-').unwrap_or(rest);
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        if rest.starts_with(first) {
            return Some(from + at);
        }
        searched = at + 2;
    }
    None
}

/// The line (from 1) of byte `at` of `source`.
fn line_at(source: &str, at: usize) -> u32 {
    let before = source.get(..at).unwrap_or(source);
    u32::try_from(before.bytes().filter(|b| *b == b'\n').count() + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::text::parse_text;

    fn lines(source: &str, node_line: u32, needle: &str, text: &str) -> Vec<Option<u32>> {
        let offset = source.find(needle).unwrap();
        let pieces = parse_text(text).unwrap();
        piece_lines(source, offset, node_line, text.len(), &pieces)
    }

    #[test]
    fn a_block_scalar_starts_below_its_key() {
        let source = "a: 1\nconf: |\n  first\n  (@ if x: @)\n  yes\n  (@ end @)\n";
        let text = "first\n(@ if x: @)\nyes\n(@ end @)\n";
        let got = lines(source, 2, "conf", text);
        // text "first", code `if`, text, code `end`, text.
        assert_eq!(got, [Some(3), Some(4), Some(4), Some(6), Some(6)]);
    }

    #[test]
    fn a_plain_scalar_is_on_its_key_line() {
        let source = "#@yaml/text-templated-strings\nname: x-(@= v @)-y\n";
        let got = lines(source, 2, "name", "x-(@= v @)-y");
        assert_eq!(got, [Some(2), Some(2), Some(2)]);
    }

    #[test]
    fn a_folded_scalar_finds_each_piece() {
        let source = "k: >\n  one\n  (@= a @)\n\n  two (@= b @)\n";
        // Folding joined "one" and the first code onto one line.
        let text = "one (@= a @)\ntwo (@= b @)\n";
        let got = lines(source, 1, "k:", text);
        assert_eq!(got[1], Some(3));
        assert_eq!(got[3], Some(5));
    }

    #[test]
    fn without_the_source_nothing_is_known() {
        let pieces = parse_text("(@= a @)").unwrap();
        assert_eq!(piece_lines("", 0, 3, 8, &pieces), [None, None, None]);
    }
}
