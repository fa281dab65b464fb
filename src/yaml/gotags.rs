//! Tags as ytt's go-yaml fork scans them. Its scanner takes `,`, `[` and `]` into a tag
//! anywhere (`!!str,` is one unknown tag, so `[!!str, a]` is the list `["a"]` and
//! `k: !!str, 5` is `"5"`), where libyaml stops the tag before them and then refuses the text
//! (or, in a flow collection, panics). The parser re-reads such a text with those characters
//! of the tag replaced by `_`: the same length, so every position stays, and the same unknown
//! tag for the node.

use std::cell::Cell;

use libyaml_safer::Scanner;

use crate::yaml::chunked::Chunked;

/// Whether `c` continues a tag in go-yaml's scanner (its URI characters, with the handle's).
fn go_tag_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_;/?:@&=+$,.!~*'()[]%".contains(c)
}

/// `text` with the tag starting at byte `at` (a `!`) widened to go-yaml's extent: its `,`,
/// `[` and `]` replaced by `_`. `None` when the tag has none of them (or `at` is no tag).
pub(crate) fn widened(text: &str, at: usize) -> Option<String> {
    let tag = text.get(at..)?;
    if !tag.starts_with('!') || tag.starts_with("!<") {
        return None;
    }
    let len = tag.find(|c: char| !go_tag_char(c)).unwrap_or(tag.len());
    let extent = &tag[..len];
    if !extent.contains([',', '[', ']']) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..at]);
    out.push_str(&extent.replace([',', '[', ']'], "_"));
    out.push_str(&tag[len..]);
    Some(out)
}

/// Where the tag starts that makes libyaml-safer's scanner panic on `data` (a tag that a `,`
/// ends in a flow collection): the first such tag after the last token the scanner handed out
/// before it stopped, outside comments and quoted scalars. `None` when the scanner does not
/// panic or no tag fits.
pub(crate) fn panicking_tag(data: &str) -> Option<usize> {
    let last_end = Cell::new(0usize);
    let scan = std::panic::AssertUnwindSafe(|| {
        let mut scanner: Scanner<Chunked<'_>> = Scanner::new();
        scanner.set_input(Chunked::new(data.as_bytes()));
        for token in scanner.by_ref() {
            let Ok(token) = token else { return };
            last_end.set(token.end_mark.index as usize);
        }
    });
    if std::panic::catch_unwind(scan).is_ok() {
        return None;
    }
    tag_before_comma_from(data, last_end.get())
}

/// Where libyaml ends the tag that starts at byte `at`: its first blank or flow indicator.
pub(crate) fn libyaml_end(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at + 1..)?;
    let end = rest.find(|c: char| c.is_whitespace() || ",[]{}".contains(c))?;
    Some(at + 1 + end)
}

/// The first `!` from byte `from` on that starts a token (after `[`, `{`, `,` or the start,
/// or after blanks that follow a `:`, `?`, `-` or another property: an anchor or a tag) and whose tag, as libyaml reads
/// it, a `,` ends; comments and quoted scalars on the way are skipped.
fn tag_before_comma_from(data: &str, from: usize) -> Option<usize> {
    let bytes = data.as_bytes();
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let mut i = from;
    // The last non-blank byte before `i`, and whether the last run of them was a node property.
    let mut prev: Option<u8> = None;
    let mut property = false;
    while i < bytes.len() {
        let b = bytes[i];
        let after_blank = i == 0 || blank(bytes[i - 1]);
        let after_flow = matches!(prev, None | Some(b'[' | b'{' | b','));
        match b {
            _ if blank(b) => {}
            b'#' if after_blank => {
                while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' if after_blank || after_flow => {
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    let escaped = (b == b'"' && bytes[i] == b'\\')
                        || (b == b'\'' && bytes[i] == b'\'' && bytes.get(i + 1) == Some(&b'\''));
                    i += if escaped { 2 } else { 1 };
                }
                (prev, property) = (Some(b), false);
            }
            b'!' if after_flow
                || after_blank && (property || matches!(prev, Some(b':' | b'?' | b'-'))) =>
            {
                if libyaml_end(data, i).is_some_and(|end| bytes[end] == b',') {
                    return Some(i);
                }
                (prev, property) = (Some(b), true);
            }
            _ => {
                if after_blank || after_flow {
                    property = b == b'&';
                }
                prev = Some(b);
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_widen_over_commas_and_brackets() {
        assert_eq!(
            widened("a: [!!str, b]", 4).as_deref(),
            Some("a: [!!str_ b]")
        );
        assert_eq!(widened("a: [!x,b]\n", 4).as_deref(), Some("a: [!x_b_\n"));
        assert_eq!(widened("a: !!str, 5", 3).as_deref(), Some("a: !!str_ 5"));
        assert_eq!(widened("a: !!str 5", 3), None);
        assert_eq!(widened("a: !<x,y> 5", 3), None);
    }

    #[test]
    fn the_panicking_tag_is_found_past_strings_and_comments() {
        assert_eq!(panicking_tag("a: [!!str, b]\n"), Some(4));
        let text = "# [!x, y]\na: [\"!s, t\", 'u !v, w', &an !!str, b]\n";
        assert_eq!(panicking_tag(text), Some(text.find("!!str").unwrap()));
        assert_eq!(panicking_tag("a: [b !c, d]\n"), None);
        assert_eq!(panicking_tag("d: [&a !x, y]\n"), Some(7));
        assert_eq!(panicking_tag("a: [!!str b]\n"), None);
    }
}
