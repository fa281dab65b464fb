//! Invalid UTF-8 in YAML, refused as ytt's YAML reader (go-yaml's port of libyaml) refuses it:
//! the same problem text (`invalid leading UTF-8 octet`, ...) at the position of the offending
//! byte, instead of reading it as U+FFFD.

use std::sync::Arc;

use crate::pos::Pos;

/// The first invalid UTF-8 sequence of `bytes`: its byte offset and go-yaml's problem text.
pub fn first_error(bytes: &[u8]) -> Option<(usize, &'static str)> {
    let mut i = 0;
    while i < bytes.len() {
        let octet = bytes[i];
        let width = match octet {
            o if o & 0x80 == 0 => 1,
            o if o & 0xE0 == 0xC0 => 2,
            o if o & 0xF0 == 0xE0 => 3,
            o if o & 0xF8 == 0xF0 => 4,
            _ => return Some((i, "invalid leading UTF-8 octet")),
        };
        if i + width > bytes.len() {
            return Some((i, "incomplete UTF-8 octet sequence"));
        }
        let mut value = u32::from(match width {
            1 => octet & 0x7F,
            2 => octet & 0x1F,
            3 => octet & 0x0F,
            _ => octet & 0x07,
        });
        for k in 1..width {
            let b = bytes[i + k];
            if b & 0xC0 != 0x80 {
                return Some((i + k, "invalid trailing UTF-8 octet"));
            }
            value = (value << 6) + u32::from(b & 0x3F);
        }
        let shortest = match width {
            1 => true,
            2 => value >= 0x80,
            3 => value >= 0x800,
            _ => value >= 0x10000,
        };
        if !shortest {
            return Some((i, "invalid length of a UTF-8 sequence"));
        }
        if (0xD800..=0xDFFF).contains(&value) || value > 0x10_FFFF {
            return Some((i, "invalid Unicode character"));
        }
        i += width;
    }
    None
}

/// The position of byte `offset` of `bytes` in the file `name` (line and column from 1, the
/// column counted in characters as the rest of the positions are).
pub fn pos_at(bytes: &[u8], offset: usize, name: &Arc<str>) -> Pos {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    Pos::new(name, n(line), n(col), n(offset))
}

/// The error for `bytes` that are not UTF-8: ytt's message (`yaml: ...`) and where.
pub fn error(bytes: &[u8], name: &Arc<str>) -> Option<(String, Pos)> {
    let (offset, problem) = first_error(bytes)?;
    Some((format!("yaml: {problem}"), pos_at(bytes, offset, name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_as_go_yaml_names_them() {
        assert_eq!(first_error(b"a: 1\n"), None);
        assert_eq!(
            first_error(b"a: \xff\n"),
            Some((3, "invalid leading UTF-8 octet"))
        );
        assert_eq!(
            first_error(b"a: \xc3"),
            Some((3, "incomplete UTF-8 octet sequence"))
        );
        assert_eq!(
            first_error(b"\xc3\x41"),
            Some((1, "invalid trailing UTF-8 octet"))
        );
        assert_eq!(
            first_error(b"\xc0\x80"),
            Some((0, "invalid length of a UTF-8 sequence"))
        );
        assert_eq!(
            first_error(b"\xed\xa0\x80"),
            Some((0, "invalid Unicode character"))
        );
        let name: Arc<str> = Arc::from("t.yml");
        let (msg, pos) = error(&["a: é\nb: x".as_bytes(), b"\xff\n"].concat(), &name).unwrap();
        assert_eq!(msg, "yaml: invalid leading UTF-8 octet");
        assert_eq!((pos.line, pos.col), (2, 5));
    }
}
