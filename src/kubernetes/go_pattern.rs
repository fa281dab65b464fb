//! A CRD's `pattern` as the checker can apply it. The API server matches a CRD's patterns with
//! Go's regular expressions, where a leading `(?i)` makes the match ignore case; the JSON
//! Schema validator accepts only ECMA-262 patterns and refuses the whole schema when one is
//! not (the Prometheus Operator's `PrometheusRule` has `^(?i)(abort|warn)?$`: round
//! forty-four's R44-1 found every `PrometheusRule` unchecked, with a `k8s-crd-ignored` warning
//! about the linter's own catalog). A pattern whose only Go syntax is a leading `(?i)` is
//! written without it, each ASCII letter matching both cases; one with other Go-only syntax
//! (`(?s)`, `(?P<name>…)`, `\z`) is not checked at all: a constraint left out, never a false
//! finding.

/// The ECMA-262 pattern that matches what the Go pattern `pattern` matches, or `None` when it
/// holds Go syntax that has no such rewrite.
pub fn ecma(pattern: &str) -> Option<String> {
    let (anchor, rest) = match pattern.strip_prefix('^') {
        Some(rest) => ("^", rest),
        None => ("", pattern),
    };
    let (fold, body) = match rest.strip_prefix("(?i)") {
        Some(body) => (true, body),
        None => (false, rest),
    };
    if go_only(body) {
        return None;
    }
    if !fold {
        return Some(pattern.to_string());
    }
    Some(format!("{anchor}{}", folded(body)))
}

/// Whether `p` holds syntax Go accepts and ECMA-262 does not: a group that sets flags or is
/// named `(?P<…>`, or the escapes `\z`, `\A`, `\Q…\E`.
fn go_only(p: &str) -> bool {
    let bytes = p.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if matches!(bytes.get(i + 1), Some(b'z' | b'A' | b'Q' | b'E')) {
                    return true;
                }
                i += 2;
                continue;
            }
            b'(' if bytes.get(i + 1) == Some(&b'?') => {
                let ecma_group = matches!(bytes.get(i + 2), Some(b':' | b'=' | b'!'))
                    || (bytes.get(i + 2) == Some(&b'<') && !matches!(bytes.get(i + 3), Some(b'P')));
                if !ecma_group {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// `body` with each ASCII letter matching both cases: `a` outside a class becomes `[aA]`, a
/// class gets its letters (and letter ranges) in the other case too. Escapes stay as written.
fn folded(body: &str) -> String {
    let mut out = String::with_capacity(body.len() * 3);
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '[' => {
                let mut class = String::new();
                // A `]` first in the class is a literal `]`.
                if chars.peek() == Some(&'^') {
                    class.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    class.push(']');
                    chars.next();
                }
                let mut inner = String::new();
                while let Some(k) = chars.next() {
                    match k {
                        '\\' => {
                            inner.push(k);
                            if let Some(n) = chars.next() {
                                inner.push(n);
                            }
                        }
                        ']' => break,
                        k => inner.push(k),
                    }
                }
                out.push('[');
                out.push_str(&class);
                out.push_str(&inner);
                out.push_str(&swapped(&inner));
                out.push(']');
            }
            c if c.is_ascii_alphabetic() => {
                out.push('[');
                out.push(c.to_ascii_lowercase());
                out.push(c.to_ascii_uppercase());
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

/// A class's content with its letters and letter ranges (`a-f`) in the other case; escaped
/// letters are left out (`\w` is already both cases).
fn swapped(inner: &str) -> String {
    let chars: Vec<char> = inner.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            i += 2;
            continue;
        }
        let range_end = (chars.get(i + 1) == Some(&'-'))
            .then(|| chars.get(i + 2).copied())
            .flatten();
        if let Some(end) = range_end {
            if c.is_ascii_alphabetic() && end.is_ascii_alphabetic() {
                out.push(swap(c));
                out.push('-');
                out.push(swap(end));
            }
            i += 3;
            continue;
        }
        if c.is_ascii_alphabetic() {
            out.push(swap(c));
        }
        i += 1;
    }
    out
}

/// An ASCII letter in the other case.
fn swap(c: char) -> char {
    if c.is_ascii_lowercase() {
        c.to_ascii_uppercase()
    } else {
        c.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(pattern: &str, text: &str) -> bool {
        let schema = serde_json::json!({"type": "string", "pattern": pattern});
        let v = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft4)
            .should_validate_formats(true)
            .build(&schema);
        match v {
            Ok(v) => v.is_valid(&serde_json::json!(text)),
            Err(e) => panic!("{pattern}: {e}"),
        }
    }

    #[test]
    fn a_leading_case_flag_becomes_both_cases_of_each_letter() {
        let p = ecma("^(?i)(abort|warn)?$").unwrap_or_default();
        assert_eq!(p, "^([aA][bB][oO][rR][tT]|[wW][aA][rR][nN])?$");
        for ok in ["abort", "WARN", "Warn", ""] {
            assert!(accepts(&p, ok), "{ok}");
        }
        for bad in ["stop", "abortx"] {
            assert!(!accepts(&p, bad), "{bad}");
        }
        let class = ecma("(?i)^[a-c]+x$").unwrap_or_default();
        assert!(accepts(&class, "aBcX"), "{class}");
        assert!(!accepts(&class, "dx"), "{class}");
    }

    #[test]
    fn escapes_and_plain_patterns_stay_as_written() {
        assert_eq!(
            ecma("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").as_deref(),
            Some("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
        );
        assert_eq!(ecma("(?:x)").as_deref(), Some("(?:x)"));
        let p = ecma("^(?i)\\d+s$").unwrap_or_default();
        assert!(accepts(&p, "10S"), "{p}");
    }

    #[test]
    fn other_go_syntax_is_not_checked() {
        assert_eq!(ecma("(?s)a.b"), None);
        assert_eq!(ecma("^(?P<n>x)$"), None);
        assert_eq!(ecma("abc\\z"), None);
        assert_eq!(ecma("a(?i)b"), None);
    }
}
