//! Go's `regexp` (RE2 syntax) on top of the `regex` crate. The two accept nearly the same
//! language; where they differ, this follows Go: the flags `x`, `R` and `u` and the word
//! boundaries `\<`, `\>`, `\b{...}` are errors, and `\d`, `\w`, `\s`, `\b` are ASCII-only.

use regex::Regex;

/// Compiles a pattern as Go's `regexp.Compile` would accept and match it.
pub fn compile(pattern: &str) -> Result<Regex, String> {
    let translated = translate(pattern)?;
    Regex::new(&translated).map_err(|e| short(&e))
}

/// The last line of the crate's multi-line message.
fn short(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or_else(|| text.lines().next().unwrap_or(""))
        .to_string()
}

/// Rewrites Go's ASCII classes for the crate and rejects what Go rejects.
fn translate(pattern: &str) -> Result<String, String> {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    let mut class_start = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else {
                    return Err("trailing backslash at end of expression".to_string());
                };
                match (in_class, e) {
                    (_, '<' | '>') => return Err(format!("invalid escape sequence: `\\{e}`")),
                    (false, 'b') if chars.peek() == Some(&'{') => {
                        return Err("invalid escape sequence: `\\b{`".to_string())
                    }
                    (false, 'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B') => {
                        out.push_str(&format!("(?-u:\\{e})"));
                    }
                    (true, 'd') => out.push_str("0-9"),
                    (true, 'w') => out.push_str("0-9A-Za-z_"),
                    (true, 's') => out.push_str("\\t\\n\\x0C\\r "),
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
                class_start = false;
                continue;
            }
            '[' if !in_class => {
                in_class = true;
                class_start = true;
                out.push(c);
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                continue;
            }
            ']' if in_class && !class_start => in_class = false,
            '(' if !in_class && chars.peek() == Some(&'?') => {
                let flags: String = pattern_flags(&mut chars.clone());
                if flags.contains(['x', 'R', 'u']) {
                    return Err("invalid or unsupported Perl syntax: `(?".to_string()
                        + &flags
                        + "`");
                }
            }
            _ => {}
        }
        class_start = false;
        out.push(c);
    }
    Ok(out)
}

/// The flag letters of a `(?flags)` or `(?flags:` group, after the `(`.
fn pattern_flags(rest: &mut std::iter::Peekable<std::str::Chars>) -> String {
    rest.next();
    rest.take_while(|c| *c != ')' && *c != ':')
        .filter(|c| c.is_ascii_alphabetic())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_classes_like_go() {
        let re = compile(r"^\d+$").unwrap();
        assert!(re.is_match("42"));
        assert!(!re.is_match("٤٢"));
        assert!(compile(r"^[\w-]+$").unwrap().is_match("a_b-1"));
        assert!(!compile(r"^\w$").unwrap().is_match("é"));
        assert!(compile(r"^[^\d]$").unwrap().is_match("x"));
    }

    #[test]
    fn go_rejects_these() {
        assert!(compile("(?x) a").is_err());
        assert!(compile(r"\<a").is_err());
        assert!(compile("(?=a)").is_err());
        assert!(compile(r"(a)\1").is_err());
        assert!(compile("(?i)A").is_ok());
        assert!(compile("(?P<n>a)").is_ok());
    }
}
