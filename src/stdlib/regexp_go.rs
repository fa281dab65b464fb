//! Go's regular expressions on top of the `regex` crate. Both implement RE2 syntax, but they
//! differ in places: Go's `\d`, `\w`, `\s` and `\b` are ASCII-only, Go has `\Q...\E` and
//! octal escapes, treats `[` inside a class as a literal, and rejects the crate's extras
//! (`(?x)`, `(?u)`, `\<`, `\b{start}`). Patterns are rewritten into the crate's dialect and
//! errors are worded as Go words them (`error parsing regexp: missing closing ): `(a``).

use regex::{Regex, RegexBuilder};
use regex_syntax::ast::ErrorKind;

const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = "\\t\\n\\f\\r ";

/// Compiles a Go pattern.
pub fn compile(pattern: &str) -> Result<Regex, String> {
    let translated = translate(pattern)?;
    RegexBuilder::new(&translated)
        .octal(true)
        .size_limit(1 << 24)
        .build()
        .map_err(|e| describe(pattern, &translated, &e))
}

fn go_error(code: &str, expr: &str) -> String {
    format!("error parsing regexp: {code}: `{expr}`")
}

/// The text of a Perl class escape, for use outside (`[0-9]`) or inside (`0-9`) a class.
fn class_escape(c: char, in_class: bool) -> Option<String> {
    let (set, negated) = match c {
        'd' => ("0-9", false),
        'D' => ("0-9", true),
        'w' => (WORD, false),
        'W' => (WORD, true),
        's' => (SPACE, false),
        'S' => (SPACE, true),
        _ => return None,
    };
    Some(match (in_class, negated) {
        (true, false) => set.to_string(),
        _ => format!("[{}{set}]", if negated { "^" } else { "" }),
    })
}

/// Rewrites a Go pattern into the crate's dialect (or rejects what Go rejects).
pub fn translate(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    // Inside a character class (Go's classes do not nest; a `[` in one is a literal).
    let mut in_class = false;
    let mut class_start = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let Some(&n) = chars.get(i + 1) else {
                return Err(go_error("trailing backslash at end of expression", ""));
            };
            if let Some(text) = class_escape(n, in_class) {
                out.push_str(&text);
            } else if n == 'Q' {
                let rest: String = chars[i + 2..].iter().collect();
                let (lit, tail_len) = match rest.find("\\E") {
                    Some(end) => (rest[..end].to_string(), rest[..end].chars().count() + 2),
                    None => (rest.clone(), rest.chars().count()),
                };
                for ch in lit.chars() {
                    if ch.is_ascii_punctuation() || ch == ' ' {
                        out.push('\\');
                    }
                    out.push(ch);
                }
                i += 2 + tail_len;
                continue;
            } else if !in_class && (n == 'b' || n == 'B') {
                if chars.get(i + 2) == Some(&'{') {
                    return Err(go_error("invalid escape sequence", &format!("\\{n}")));
                }
                out.push_str(&format!("(?-u:\\{n})"));
            } else if matches!(n, '<' | '>' | 'Z' | 'h' | 'H' | 'V' | 'K' | 'R' | 'X' | 'G') {
                return Err(go_error("invalid escape sequence", &format!("\\{n}")));
            } else {
                out.push('\\');
                out.push(n);
            }
            i += 2;
            continue;
        }
        if in_class {
            match c {
                ']' if i > class_start => in_class = false,
                '[' if chars.get(i + 1) == Some(&':') => {
                    // A POSIX class `[:name:]`: copied up to its closing `:]`.
                    let rest: String = chars[i..].iter().collect();
                    if let Some(end) = rest.find(":]") {
                        out.push_str(&rest[..end + 2]);
                        i += rest[..end + 2].chars().count();
                        continue;
                    }
                    out.push_str("\\[");
                    i += 1;
                    continue;
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                    i += 1;
                    continue;
                }
                '-' if chars.get(i + 1) == Some(&'-') => {
                    out.push_str("\\-");
                    i += 1;
                    continue;
                }
                _ => {}
            }
            out.push(c);
            i += 1;
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // A `]` first in the class is a literal.
                class_start = i;
                continue;
            }
            '(' if chars.get(i + 1) == Some(&'?') => check_group(&chars[i..])?,
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// Rejects group syntax the crate accepts but Go does not (flags other than `imsU`).
fn check_group(group: &[char]) -> Result<(), String> {
    // `(?P<name>`, `(?<name>` and `(?P=` are left to the crate (which words them alike).
    if matches!(group.get(2), Some('P' | '<')) {
        return Ok(());
    }
    for (k, c) in group.iter().enumerate().skip(2) {
        match c {
            'i' | 'm' | 's' | 'U' | '-' => {}
            ')' | ':' => return Ok(()),
            _ => {
                let shown: String = group[..=k].iter().collect();
                return Err(go_error("invalid or unsupported Perl syntax", &shown));
            }
        }
    }
    Ok(())
}

/// Go's wording of a pattern the crate rejected.
fn describe(original: &str, translated: &str, e: &regex::Error) -> String {
    let ast = regex_syntax::ast::parse::Parser::new().parse(translated);
    let Err(ast_err) = ast else {
        return match e {
            regex::Error::CompiledTooBig(_) => go_error("expression too large", original),
            _ => go_error("invalid character class range", original),
        };
    };
    let span = ast_err.span();
    let at = match translated.get(span.start.offset..span.end.offset) {
        Some("") | None => translated
            .get(span.start.offset..)
            .and_then(|r| r.chars().next())
            .map_or(original, |c| {
                &translated[span.start.offset..span.start.offset + c.len_utf8()]
            }),
        Some(text) => text,
    };
    let code = match ast_err.kind() {
        ErrorKind::GroupUnclosed => return go_error("missing closing )", original),
        ErrorKind::GroupUnopened => return go_error("unexpected )", original),
        ErrorKind::ClassUnclosed => {
            let from = translated.get(span.start.offset..).unwrap_or(original);
            return go_error("missing closing ]", from);
        }
        ErrorKind::EscapeUnexpectedEof => "trailing backslash at end of expression",
        ErrorKind::ClassEscapeInvalid
        | ErrorKind::EscapeHexEmpty
        | ErrorKind::EscapeHexInvalid
        | ErrorKind::EscapeHexInvalidDigit
        | ErrorKind::EscapeUnrecognized => "invalid escape sequence",
        ErrorKind::ClassRangeInvalid | ErrorKind::ClassRangeLiteral => {
            "invalid character class range"
        }
        ErrorKind::GroupNameDuplicate { .. }
        | ErrorKind::GroupNameEmpty
        | ErrorKind::GroupNameInvalid
        | ErrorKind::GroupNameUnexpectedEof => "invalid named capture",
        ErrorKind::RepetitionMissing => "missing argument to repetition operator",
        ErrorKind::RepetitionCountInvalid
        | ErrorKind::RepetitionCountDecimalEmpty
        | ErrorKind::RepetitionCountUnclosed
        | ErrorKind::DecimalEmpty
        | ErrorKind::DecimalInvalid => "invalid repeat count",
        ErrorKind::NestLimitExceeded(_) => "expression nests too deeply",
        _ => "invalid or unsupported Perl syntax",
    };
    go_error(code, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(p: &str, s: &str) -> bool {
        compile(p).map(|r| r.is_match(s)).unwrap_or(false)
    }

    #[test]
    fn perl_classes_are_ascii_only() {
        assert!(matches(r"^\d+$", "123"));
        assert!(!matches(r"^\d+$", "١٢٣"));
        assert!(!matches(r"^\w$", "é"));
        assert!(matches(r"^\W$", "é"));
        assert!(matches(r"^[\d.]+$", "1.5"));
        assert!(matches(r"^[^\D]+$", "42"));
        assert!(matches(r"a\bb|a\b", "a "));
    }

    #[test]
    fn go_only_syntax_is_translated() {
        assert!(matches(r"^\Qa.b*\E$", "a.b*"));
        assert!(!matches(r"^\Qa.b\E$", "axb"));
        assert!(matches(r"^[[]$", "["));
        assert!(matches(r"^[a&&b]+$", "a&b"));
        assert!(matches(r"^[[:alpha:]]+$", "abc"));
        assert!(matches(r"^\101$", "A"));
    }

    #[test]
    fn errors_are_worded_as_go() {
        let e = |p: &str| compile(p).err().unwrap_or_default();
        assert_eq!(e("(abc"), "error parsing regexp: missing closing ): `(abc`");
        assert_eq!(e("abc)"), "error parsing regexp: unexpected ): `abc)`");
        assert_eq!(e("[abc"), "error parsing regexp: missing closing ]: `[abc`");
        assert_eq!(
            e("*a"),
            "error parsing regexp: missing argument to repetition operator: `*`"
        );
        assert_eq!(
            e("(?x)a"),
            "error parsing regexp: invalid or unsupported Perl syntax: `(?x`"
        );
        assert_eq!(
            e(r"\<"),
            "error parsing regexp: invalid escape sequence: `\\<`"
        );
        assert_eq!(
            e("[z-a]"),
            "error parsing regexp: invalid character class range: `z-a`"
        );
    }
}
