//! Line breaks on which ytt crashes. Its YAML library counts a CR alone, NEL, LS and PS as
//! line breaks, but ytt looks up the source line of every map item, array item, comment and
//! document in the text split at LF only: a node on a line past the last LF-separated one
//! makes it panic (`index out of range`, exit status 2). A file with CR-only line endings and
//! more than one line always does. Such a file is an error here, saying so, instead of being
//! rendered as if ytt rendered it.

use std::sync::Arc;

use crate::pos::Pos;
use crate::yaml::node::{Comment, DocSet, Value};
use crate::yaml::parse::ParseError;

/// The error for a parsed `src` (prefixed with `---` by ytt when `prefixed`) on which ytt
/// crashes; `doc_lines` are the 0-based lines of the documents whose start ytt looks up.
pub fn ytt_crash(
    src: &str,
    prefixed: bool,
    set: &DocSet,
    doc_lines: &[u64],
    file: &Arc<str>,
) -> Option<ParseError> {
    let lone_cr = src.contains('\r') && has_lone_cr(src);
    let unicode_break = || {
        // One fast search per character (a set of characters is matched char by char).
        ['\u{85}', '\u{2028}', '\u{2029}']
            .iter()
            .any(|c| src.contains(*c))
    };
    if !lone_cr && (src.is_ascii() || !unicode_break()) {
        // Every break is LF or CR LF: both counts agree.
        return None;
    }
    // How many lines ytt's `strings.Split(data, "\n")` gives.
    let lf_lines = src.matches('\n').count() as u64 + 1 + u64::from(prefixed);
    let mut last = doc_lines.iter().copied().max().unwrap_or(0);
    let mut see = |pos: &Pos| {
        if pos.is_known() {
            // Back to the 0-based line of the text ytt parsed.
            let line0 = u64::from(pos.line) - u64::from(!prefixed);
            last = last.max(line0);
        }
    };
    visit(set, &mut see);
    if last < lf_lines {
        return None;
    }
    let which = if lone_cr {
        "CR-only line endings"
    } else {
        "NEL, LS or PS line breaks"
    };
    Some(ParseError {
        message: format!(
            "ytt crashes on this file (a panic in its YAML parser: index out of range): it has {which}; end its lines with LF or CR LF"
        ),
        pos: Pos::new(file, 1, 1, 0),
    })
}

/// Whether `src` has a CR that no LF follows.
fn has_lone_cr(src: &str) -> bool {
    let bytes = src.as_bytes();
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
}

/// Calls `see` with the position of every map item, array item and comment of `set`.
fn visit(set: &DocSet, see: &mut dyn FnMut(&Pos)) {
    let comments = |list: &[Comment], see: &mut dyn FnMut(&Pos)| {
        for c in list {
            see(&c.pos);
        }
    };
    comments(&set.comments, see);
    for doc in &set.items {
        comments(&doc.comments, see);
        visit_value(&doc.value, see);
    }
}

fn visit_value(v: &Value, see: &mut dyn FnMut(&Pos)) {
    match v {
        Value::Map(map) => {
            for item in &map.items {
                see(&item.pos);
                for c in &item.comments {
                    see(&c.pos);
                }
                visit_value(&item.value, see);
            }
        }
        Value::Array(array) => {
            for item in &array.items {
                see(&item.pos);
                for c in &item.comments {
                    see(&c.pos);
                }
                visit_value(&item.value, see);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    /// Whether ytt crashes on `src` (measured with ytt 4b40e30: exit status 2).
    fn crashes(src: &str) -> bool {
        match parse(src, &Arc::from("f.yml"), &ParseOpts::default()) {
            Ok(_) => false,
            Err(e) => {
                assert!(e.message.starts_with("ytt crashes on this file"), "{e:?}");
                assert_eq!(e.pos.line, 1);
                true
            }
        }
    }

    #[test]
    fn lines_past_the_last_lf_make_ytt_crash() {
        assert!(crashes("a: 1\rb: 2\r"));
        assert!(crashes("a: 1\rb: 2\nc: 3"));
        assert!(crashes("a: 1\u{85}b: 2"));
        assert!(crashes("a: 1\u{2028}b: 2"));
        assert!(!crashes("a: 1\rb: 2\nc: 3\n"));
        assert!(!crashes("a: 1\r"));
        assert!(!crashes("a: 1\r# c\n"));
        assert!(!crashes("a:\r- 1\n"));
        assert!(!crashes("a: |\r  x\r  y\rb: 1\n\n\n"));
        assert!(!crashes("a: 1\r\nb: 2\r\n"));
        assert!(!crashes("a: 1\nb: 2"));
    }
}
