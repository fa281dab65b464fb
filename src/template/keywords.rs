//! Names ytt allows that the Starlark crate reserves (`assert`): renamed in code before it is
//! parsed, including in `load()` statements, so `load("@ytt:assert", "assert")` and
//! `assert.fail(...)` keep working. Strings and comments are left alone.

/// Identifiers ytt accepts but the crate reserves, with their replacement.
const RESERVED: [(&str, &str); 3] = [
    ("assert", "__ytt_kw_assert"),
    ("async", "__ytt_kw_async"),
    ("await", "__ytt_kw_await"),
];

fn replacement(word: &str) -> Option<&'static str> {
    RESERVED.iter().find(|(w, _)| *w == word).map(|(_, r)| *r)
}

/// Renames reserved identifiers in `code`; line structure is unchanged.
pub fn rename_reserved(code: &str) -> String {
    // Code that never spells a reserved word is its own renaming: every byte is copied as it
    // is unless a word (or a loaded name) is one. One search per word settles most templates.
    if !RESERVED.iter().any(|(w, _)| code.contains(w)) {
        return code.to_string();
    }
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len() + 16);
    let mut i = 0;
    let mut last_sig: u8 = b'\n';
    let mut in_load = false;
    let mut depth = 0i32;
    while i < b.len() {
        let c = b[i];
        if c == b'#' {
            let end = code[i..].find('\n').map(|e| i + e).unwrap_or(b.len());
            out.push_str(&code[i..end]);
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let triple = code[i..].starts_with(if c == b'"' { "\"\"\"" } else { "'''" });
            let q = if triple { 3 } else { 1 };
            let mut j = i + q;
            while j < b.len() {
                if b[j] == b'\\' {
                    j += 2;
                    continue;
                }
                if b[j] == c && (!triple || code[j..].starts_with(&code[i..i + 3])) {
                    j += q;
                    break;
                }
                if !triple && b[j] == b'\n' {
                    break;
                }
                j += 1;
            }
            let j = j.min(b.len());
            let lit = &code[i..j];
            let inner = lit.trim_matches(|ch| ch == '"' || ch == '\'');
            match replacement(inner) {
                Some(r) if in_load && depth == 1 && matches!(last_sig, b',') => {
                    out.push_str(&format!("{r}={lit}"));
                }
                _ => out.push_str(lit),
            }
            last_sig = b'"';
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let word = &code[i..j];
            if word == "load" && depth == 0 {
                in_load = true;
            }
            match replacement(word) {
                Some(r) if last_sig != b'.' => out.push_str(r),
                _ => out.push_str(word),
            }
            last_sig = b'a';
            i = j;
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth <= 0 {
                    in_load = false;
                    depth = depth.max(0);
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            last_sig = c;
        }
        let ch_len = code[i..]
            .chars()
            .next()
            .map(|ch| ch.len_utf8())
            .unwrap_or(1);
        out.push_str(&code[i..i + ch_len]);
        i += ch_len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_assert_outside_strings() {
        assert_eq!(
            rename_reserved("load(\"@ytt:assert\", \"assert\")\nassert.fail(\"assert\") # assert"),
            "load(\"@ytt:assert\", __ytt_kw_assert=\"assert\")\n__ytt_kw_assert.fail(\"assert\") # assert"
        );
        assert_eq!(rename_reserved("x.assert"), "x.assert");
        assert_eq!(
            rename_reserved("load(\"m.star\", a=\"assert\")"),
            "load(\"m.star\", a=\"assert\")"
        );
    }
}
