//! What the parser needs to know about the text between libyaml's events, read from the text
//! itself instead of a second scan with libyaml's scanner: where a sequence item's `-`, `[` or
//! `,` is, and which bytes a scalar token covers (a `#` there is not a comment).
//!
//! Between two events only indicators, node properties, white space and comments can appear,
//! none of them holding a `#` that is not a comment (libyaml's anchors and tags have no `#`),
//! so a small reading of that stretch gives what the scanner's tokens gave. Sources where this
//! does not hold (directives, a byte-order mark, Unicode line breaks) keep the scanner.

/// Whether `data` needs libyaml's scanner for its tokens: a line may start with a directive
/// (`%YAML`, whose line comment go-yaml swallows), or the text has a byte-order mark or a line
/// break other than CR and LF (this module only reads those two).
pub(crate) fn needs_scan(data: &str) -> bool {
    let line_start = |i: usize| i == 0 || matches!(data.as_bytes().get(i - 1), Some(b'\n' | b'\r'));
    data.match_indices('%').any(|(i, _)| line_start(i))
        || (!data.is_ascii()
            // One fast search per character (a set of characters is matched char by char).
            && ['\u{feff}', '\u{85}', '\u{2028}', '\u{2029}']
                .iter()
                .any(|c| data.contains(*c)))
}

/// The chars of `text[from..to]` that are not inside a comment, with their byte offsets in
/// `text`. A `#` in such a stretch starts a comment that runs to the end of its line.
fn outside_comments(
    text: &str,
    from: usize,
    to: usize,
) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut in_comment = false;
    text.get(from..to)
        .unwrap_or("")
        .char_indices()
        .filter_map(move |(i, c)| {
            if matches!(c, '\n' | '\r') {
                in_comment = false;
            } else if c == '#' || in_comment {
                in_comment = true;
                return None;
            }
            Some((from + i, c))
        })
}

/// Byte offset of the last `-`, `[` or `,` token in `text[from..to]`: the entry that starts a
/// sequence item, `from` being where the sequence (for its first item) or the previous item's
/// last event ended. Properties before a nested collection may hold such a character too, but
/// the collection's own indicator always comes after them.
pub(crate) fn last_entry(text: &str, from: usize, to: usize) -> Option<usize> {
    outside_comments(text, from, to)
        .filter(|(_, c)| matches!(c, '-' | '[' | ','))
        .map(|(i, _)| i)
        .last()
}

/// The bytes a scalar event's token covers: `start..end` from the event's marks, less the node
/// properties (`&anchor`, `!tag`) and the blanks and comments after them when it has some.
/// `None` for an empty scalar.
pub(crate) fn scalar_span(
    text: &str,
    start: usize,
    end: usize,
    properties: bool,
) -> Option<(usize, usize)> {
    let mut at = start;
    if properties {
        let mut in_property = false;
        at = end;
        for (i, c) in outside_comments(text, start, end) {
            match c {
                ' ' | '\t' | '\n' | '\r' => in_property = false,
                '&' | '!' if !in_property => in_property = true,
                _ if in_property => {}
                _ => {
                    at = i;
                    break;
                }
            }
        }
    }
    (end > at).then_some((at, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_skip_comments_and_properties() {
        let text = "- a # x - [ ,\n-  b";
        assert_eq!(last_entry(text, 0, 2), Some(0));
        assert_eq!(last_entry(text, 3, 17), Some(14));
        let text = "k: &my-anchor !my,tag\n  - a";
        assert_eq!(last_entry(text, 3, 26), Some(24));
        let text = "[a,#c\n b]";
        assert_eq!(last_entry(text, 2, 7), Some(2));
        assert_eq!(last_entry(text, 0, 1), Some(0));
        assert_eq!(last_entry("  # - [\n", 0, 8), None);
    }

    #[test]
    fn scalar_spans_leave_out_properties_and_comments() {
        let text = "k: !!str # a # b\n  v#w\n";
        assert_eq!(scalar_span(text, 3, 22, true), Some((19, 22)));
        assert_eq!(scalar_span(text, 19, 22, false), Some((19, 22)));
        let text = "k: &a-b !x 'q # r'";
        assert_eq!(scalar_span(text, 3, 18, true), Some((11, 18)));
        assert_eq!(scalar_span("k: !!null", 3, 9, true), None);
        assert_eq!(scalar_span("k: ", 3, 3, false), None);
    }

    #[test]
    fn directives_and_unusual_breaks_keep_the_scanner() {
        assert!(needs_scan("%YAML 1.1\n---\na: 1\n"));
        assert!(needs_scan("a: 1\n--- \n%TAG ! x\n"));
        assert!(needs_scan("\u{feff}a: 1\n"));
        assert!(needs_scan("a: 1\u{2028}b: 2\n"));
        assert!(!needs_scan("a: \"%s\" % x\n"));
    }
}
