//! Bytes that are not UTF-8 inside Starlark strings. ytt's strings (starlark-go) are byte
//! strings: `data.read` of a binary file keeps every byte for `base64.encode`, `md5.sum` and
//! `sha256.sum`. starlark-rust's strings are UTF-8, so each byte of an invalid sequence is
//! carried as one character of the last 256 code points of Unicode (U+10FF00 + byte, private
//! use, never produced by text a template would hold), and turned back into that byte where a
//! function reads a string's bytes, and counted as one byte by `len()` ([`byte_len`]).

use std::borrow::Cow;

const BASE: u32 = 0x10_FF00;

/// `bytes` as a Starlark string: UTF-8 runs as they are, every other byte escaped.
pub fn from_bytes(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !text.chars().any(is_escape) {
            return Cow::Borrowed(text);
        }
    }
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            // A character that looks like an escape is escaped byte by byte, so that it
            // comes back as itself.
            if is_escape(c) {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push(escape(b));
                }
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            out.push(escape(b));
        }
    }
    Cow::Owned(out)
}

/// The bytes a Starlark string stands for (escapes turned back into their bytes).
pub fn to_bytes(s: &str) -> Cow<'_, [u8]> {
    if !s.chars().any(is_escape) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        if is_escape(c) {
            out.push((u32::from(c) - BASE) as u8);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    Cow::Owned(out)
}

/// The number of bytes a Starlark string stands for: `len()` as starlark-go counts it (UTF-8
/// bytes, an escaped byte as one).
pub fn byte_len(s: &str) -> usize {
    // The UTF-8 of every escape (U+10FF00 to U+10FFFF) starts with the byte F4.
    if !s.as_bytes().contains(&0xF4) {
        return s.len();
    }
    s.chars()
        .map(|c| if is_escape(c) { 1 } else { c.len_utf8() })
        .sum()
}

fn is_escape(c: char) -> bool {
    u32::from(c) >= BASE
}

fn escape(b: u8) -> char {
    char::from_u32(BASE + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_sequence_comes_back() {
        let samples: Vec<Vec<u8>> = vec![
            b"plain text".to_vec(),
            vec![0xff, 0xfe, 0x00, 0x41, 0xc3],
            "é and \u{10FF41}".as_bytes().to_vec(),
            (0..=255u8).collect(),
        ];
        for bytes in samples {
            let s = from_bytes(&bytes);
            assert_eq!(to_bytes(&s).as_ref(), bytes.as_slice());
        }
        assert!(matches!(from_bytes(b"abc"), Cow::Borrowed("abc")));
        for bytes in [&b"abc"[..], "é\u{10FF41}".as_bytes(), &[0xff, b'a', 0xc3]] {
            assert_eq!(byte_len(&from_bytes(bytes)), bytes.len());
        }
        assert_eq!(from_bytes(&[b'a', 0xff]).chars().count(), 2);
    }
}
