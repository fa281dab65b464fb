//! Percent-encoding as Go's `net/url` does it, per part of a URL: which bytes each part
//! escapes (`path_segment_encode` escapes `/`, query values turn spaces into `+`), and the
//! errors of decoding (`invalid URL escape "%zz"`, `invalid character " " in host name`).

use super::golike::quote;

/// The part of a URL a string is escaped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Path,
    PathSegment,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// Whether `c` is one of RFC 3986's sub-delimiters (`!$&'()*+,;=`), which Go lets stand
/// unescaped in hosts, user information and already-escaped paths and fragments.
pub fn is_sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Whether Go escapes byte `c` in `part`.
pub fn should_escape(c: u8, part: Part) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(part, Part::Host | Part::Zone)
        && (is_sub_delim(c) || matches!(c, b':' | b'[' | b']' | b'<' | b'>' | b'"'))
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match part {
                Part::Path => c == b'?',
                Part::PathSegment => matches!(c, b'/' | b';' | b',' | b'?'),
                Part::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
                Part::QueryComponent => true,
                Part::Fragment => false,
                Part::Host | Part::Zone => true,
            };
        }
        _ => {}
    }
    if part == Part::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

/// Escapes `s` for `part` (`%XX` in upper case; spaces as `+` in query components).
pub fn escape(s: &str, part: Part) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b == b' ' && part == Part::QueryComponent {
            out.push('+');
        } else if should_escape(b, part) {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(char::from(b));
        }
    }
    out
}

fn unhex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Undoes [`escape`]; the error is Go's message.
pub fn unescape(s: &str, part: Part) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let pair = (
                    b.get(i + 1).copied().and_then(unhex),
                    b.get(i + 2).copied().and_then(unhex),
                );
                let (Some(hi), Some(lo)) = pair else {
                    let end = (i + 3).min(b.len());
                    let bad = String::from_utf8_lossy(&b[i..end]);
                    return Err(format!("invalid URL escape {}", quote(&bad)));
                };
                let bad = || String::from_utf8_lossy(&b[i..i + 3]).into_owned();
                // In a host only `%25` may escape an ASCII byte; in a zone, only bytes a host
                // could hold as they are (and spaces).
                if part == Part::Host && hi < 8 && &b[i..i + 3] != b"%25" {
                    return Err(format!("invalid URL escape {}", quote(&bad())));
                }
                let v = hi << 4 | lo;
                if part == Part::Zone
                    && &b[i..i + 3] != b"%25"
                    && v != b' '
                    && should_escape(v, Part::Host)
                {
                    return Err(format!("invalid URL escape {}", quote(&bad())));
                }
                out.push(v);
                i += 3;
            }
            b'+' => {
                out.push(if part == Part::QueryComponent {
                    b' '
                } else {
                    b'+'
                });
                i += 1;
            }
            c => {
                if matches!(part, Part::Host | Part::Zone) && c < 0x80 && should_escape(c, part) {
                    let shown = char::from(c).to_string();
                    return Err(format!("invalid character {} in host name", quote(&shown)));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_per_part() {
        assert_eq!(
            escape("path path/other", Part::PathSegment),
            "path%20path%2Fother"
        );
        assert_eq!(
            escape("val val/other", Part::QueryComponent),
            "val+val%2Fother"
        );
        assert_eq!(escape("a/b?c;d", Part::Path), "a/b%3Fc;d");
        assert_eq!(escape("é~", Part::PathSegment), "%C3%A9~");
        assert_eq!(escape("us:er@x", Part::UserPassword), "us%3Aer%40x");
    }

    #[test]
    fn unescapes_and_reports_bad_escapes() {
        assert_eq!(
            unescape("path%20path%2Fother", Part::PathSegment),
            Ok("path path/other".into())
        );
        assert_eq!(
            unescape("val+val%2Fother", Part::QueryComponent),
            Ok("val val/other".into())
        );
        assert_eq!(unescape("a+b", Part::PathSegment), Ok("a+b".into()));
        assert_eq!(
            unescape("%zz", Part::PathSegment),
            Err("invalid URL escape \"%zz\"".into())
        );
        assert_eq!(
            unescape("ab%4", Part::PathSegment),
            Err("invalid URL escape \"%4\"".into())
        );
        assert_eq!(
            unescape("a b", Part::Host),
            Err("invalid character \" \" in host name".into())
        );
    }
}
