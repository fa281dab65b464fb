//! Positions between the editor and the linter. The protocol counts columns in UTF-16 code
//! units from 0; findings count characters from 1 (`report::Span`), and the code here works
//! on byte offsets into the text. File URIs are turned into paths and back here too.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};

/// The text of line `line` (from 0) without its line break; `None` past the end.
pub fn line_text(text: &str, line: u32) -> Option<&str> {
    let l = text.split('\n').nth(line as usize)?;
    Some(l.strip_suffix('\r').unwrap_or(l))
}

/// The byte offset of line `line` (from 0) in `text`.
fn line_start(text: &str, line: u32) -> Option<usize> {
    if line == 0 {
        return Some(0);
    }
    text.match_indices('\n')
        .nth(line as usize - 1)
        .map(|(i, _)| i + 1)
}

/// The byte column in `line` of the UTF-16 column `col` (clamped to the line's end).
pub fn byte_col(line: &str, col: u32) -> usize {
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= col {
            return i;
        }
        units += c.len_utf16() as u32;
    }
    line.len()
}

/// The UTF-16 column of byte column `byte` of `line`.
pub fn utf16_col(line: &str, byte: usize) -> u32 {
    line.get(..byte.min(line.len()))
        .unwrap_or(line)
        .chars()
        .map(|c| c.len_utf16() as u32)
        .sum()
}

/// The byte offset in `text` of the protocol position `pos`; `None` past the last line.
pub fn offset(text: &str, pos: Position) -> Option<usize> {
    let start = line_start(text, pos.line)?;
    let line = line_text(text, pos.line)?;
    Some(start + byte_col(line, pos.character))
}

/// The protocol position of a finding's line and character column (both from 1) in `text`
/// (without the text, or past its end, characters are taken as UTF-16 units).
pub fn from_span(text: Option<&str>, line: u32, column: u32) -> Position {
    let line0 = line.saturating_sub(1);
    let chars = column.saturating_sub(1) as usize;
    let character = match text.and_then(|t| line_text(t, line0)) {
        Some(l) => l.chars().take(chars).map(|c| c.len_utf16() as u32).sum(),
        None => chars as u32,
    };
    Position::new(line0, character)
}

/// The range of a whole line (from 0) of `text`.
pub fn line_range(text: &str, line: u32) -> Range {
    let end = line_text(text, line).map_or(0, |l| utf16_col(l, l.len()));
    Range::new(Position::new(line, 0), Position::new(line, end))
}

/// The path of a `file:` URI; `None` for any other scheme.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text.strip_prefix("file://")?;
    // `file:///p` (empty authority) or `file://localhost/p`.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    Some(crate::files::lexical_absolute(
        Path::new("/"),
        Path::new(&decoded),
    ))
}

/// The `file:` URI of an absolute path.
pub fn path_uri(path: &Path) -> Option<Uri> {
    let mut out = String::from("file://");
    for b in path.to_str()?.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out.parse().ok()
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let text = "a: 1\nb: \"é😀x\"\n";
        // `x` is the 7th character of line 2, at UTF-16 column 7 (the emoji takes two).
        assert_eq!(from_span(Some(text), 2, 7), Position::new(1, 7));
        let at = offset(text, Position::new(1, 7)).unwrap();
        assert_eq!(&text[at..at + 1], "x");
        assert_eq!(utf16_col("é😀x", "é😀".len()), 3);
        assert_eq!(offset(text, Position::new(5, 0)), None);
        assert_eq!(line_range(text, 0).end, Position::new(0, 4));
    }

    #[test]
    fn file_uris_round_trip() {
        let p = Path::new("/tmp/a b/ü.yml");
        let uri = path_uri(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.yml");
        assert_eq!(uri_path(&uri).unwrap(), p);
        let other: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(uri_path(&other), None);
    }
}
