//! Positions between the editor and the linter. The protocol counts columns in UTF-16 code
//! units from 0; findings count characters from 1 (`report::Span`), and the code here works
//! on byte offsets into the text. File URIs are turned into paths and back here too.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};

/// The text of line `line` (from 0) without its line break; `None` past the end. Lines end
/// at an LF, a CR LF or a CR alone, as the protocol counts them (`crate::pos::lines`).
pub fn line_text(text: &str, line: u32) -> Option<&str> {
    let l = crate::pos::line_span(text, line.checked_add(1)?)?;
    text.get(l.start..l.end)
}

/// The byte offset of line `line` (from 0) in `text`.
fn line_start(text: &str, line: u32) -> Option<usize> {
    crate::pos::line_span(text, line.checked_add(1)?).map(|l| l.start)
}

/// The protocol line (from 0) of byte `at` of `text`, and the text of that line.
pub fn line_of(text: &str, at: usize) -> (u32, usize, &str) {
    let (line, l) = crate::pos::line_at(text, at);
    (line - 1, l.start, text.get(l.start..l.end).unwrap_or(""))
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

/// The path of a `file:` URI; `None` for any other scheme. On Windows, `file:///C:/a/b` is
/// `C:\a\b` and `file://server/share/a` is `\\server\share\a`.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    let decoded = uri_path_text(uri.as_str(), cfg!(windows))?;
    Some(crate::files::lexical_absolute(
        Path::new("/"),
        Path::new(&decoded),
    ))
}

/// The path written in a `file:` URI, as the system (`windows` or not) writes paths.
fn uri_path_text(text: &str, windows: bool) -> Option<String> {
    let rest = text.strip_prefix("file://")?;
    // `file:///p` (empty authority), `file://localhost/p`, or a Windows share's server.
    let (host, path) = rest.split_at(rest.find('/')?);
    let path = percent_decode(path)?;
    if !windows {
        return matches!(host, "" | "localhost").then_some(path);
    }
    let path = path.replace('/', "\\");
    if !matches!(host, "" | "localhost") {
        return Some(format!("\\\\{}{path}", percent_decode(host)?));
    }
    // `\C:\a` from `/C:/a`: the drive letter comes first.
    let b = path.as_bytes();
    if b.len() >= 3 && b[1].is_ascii_alphabetic() && b[2] == b':' {
        return Some(path[1..].to_string());
    }
    Some(path)
}

/// The `file:` URI of an absolute path.
pub fn path_uri(path: &Path) -> Option<Uri> {
    path_uri_text(path.to_str()?, cfg!(windows)).parse().ok()
}

/// The `file:` URI of an absolute path written as the system (`windows` or not) writes it:
/// `C:\a` is `file:///C:/a`, `\\server\share\a` is `file://server/share/a`.
fn path_uri_text(path: &str, windows: bool) -> String {
    let mut out = String::from("file://");
    let mut rest = path;
    if windows {
        // A verbatim path (`\\?\C:\a`, `\\?\UNC\server\share`) as its plain form.
        let unc = rest.strip_prefix("\\\\?\\UNC\\");
        rest = unc.or(rest.strip_prefix("\\\\?\\")).unwrap_or(rest);
        if let Some(share) = unc.or(rest.strip_prefix("\\\\")) {
            let end = share.find('\\').unwrap_or(share.len());
            encode(&mut out, &share[..end], false);
            rest = &share[end..];
        } else if rest.as_bytes().get(1) == Some(&b':') {
            out.push('/');
            out.push_str(&rest[..2]);
            rest = &rest[2..];
        }
    }
    encode(&mut out, rest, windows);
    out
}

/// Appends `text` to `out`, percent-encoded but for `/` (and `\`, as `/`, on Windows).
fn encode(out: &mut String, text: &str, windows: bool) {
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b'\\' if windows => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
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

    /// The protocol counts an LF, a CR LF and a CR alone as line ends: so do positions.
    #[test]
    fn a_lone_cr_ends_a_line_as_the_protocol_says() {
        let text = "a: 1\rb: \"\u{e9}x\"\r\nc: 3\n";
        assert_eq!(line_text(text, 1), Some("b: \"\u{e9}x\""));
        assert_eq!(line_text(text, 2), Some("c: 3"));
        assert_eq!(line_text(text, 3), Some(""));
        assert_eq!(line_text(text, 4), None);
        let at = offset(text, Position::new(1, 5)).unwrap();
        assert_eq!(&text[at..at + 1], "x");
        assert_eq!(from_span(Some(text), 2, 6), Position::new(1, 5));
        assert_eq!(
            offset(text, Position::new(2, 0)),
            Some(text.find("c:").unwrap())
        );
        assert_eq!(line_of(text, at), (1, 5, "b: \"\u{e9}x\""));
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
        assert_eq!(uri_path_text("file://host/a", false), None);
    }

    #[test]
    fn windows_paths_have_their_drive_or_server_in_the_uri() {
        let cases = [
            (r"C:\Users\a b\x.yml", "file:///C:/Users/a%20b/x.yml"),
            (r"\\server\share\x.yml", "file://server/share/x.yml"),
        ];
        for (path, uri) in cases {
            assert_eq!(path_uri_text(path, true), uri);
            assert_eq!(uri_path_text(uri, true).as_deref(), Some(path));
        }
        assert_eq!(path_uri_text(r"\\?\C:\a", true), "file:///C:/a");
        assert_eq!(path_uri_text(r"\\?\UNC\srv\s\a", true), "file://srv/s/a");
        // VS Code writes the drive's colon encoded, and the letter in lower case.
        assert_eq!(
            uri_path_text("file:///c%3A/w/x.yml", true).as_deref(),
            Some(r"c:\w\x.yml")
        );
        assert_eq!(
            uri_path_text("file:///tmp/x", false).as_deref(),
            Some("/tmp/x")
        );
    }
}
