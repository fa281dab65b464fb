//! Names ytt allows that the Starlark crate reserves (`assert`): renamed in code before it is
//! parsed, including in `load()` statements, so `load("@ytt:assert", "assert")` and
//! `assert.fail(...)` keep working. A file of the repository that defines `assert` exports it
//! under the replacement, so a `load()` of such a file asks for the replacement too
//! (`load("lib.star", "assert")`); the `@ytt:` modules keep their own names. Other strings and
//! comments are left alone.

/// What every replacement starts with.
pub const PREFIX: &str = "ytt_kw__";

/// Identifiers ytt accepts but the crate reserves, with their replacement. The replacement is
/// a public name (no leading `_`): Starlark refuses to `load()` a private one, and a file's
/// own `def assert` must stay loadable.
const RESERVED: [(&str, &str); 3] = [
    ("assert", "ytt_kw__assert"),
    ("async", "ytt_kw__async"),
    ("await", "ytt_kw__await"),
];

/// A name as the author wrote it: the word a replacement stands for, else the name itself.
pub fn original(name: &str) -> &str {
    match name.strip_prefix(PREFIX) {
        Some(word) if replacement(word).is_some() => word,
        _ => name,
    }
}

/// A message with every replacement put back as the word it stands for (the crate names the
/// names it was given: "Module has no symbol `ytt_kw__assert`").
pub fn as_written_in(message: String) -> String {
    if !message.contains(PREFIX) {
        return message;
    }
    RESERVED
        .iter()
        .fold(message, |m, (word, r)| m.replace(r, word))
}

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
    // Whether the module of the `load()` being read is one of ytt's (`@ytt:...`): those export
    // the names as they are spelt; a file's own definitions carry the replacement.
    let mut ytt_module = true;
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
            let quote = &lit[..lit.len() - lit.trim_start_matches(['"', '\'']).len()];
            match replacement(inner) {
                _ if in_load && depth == 1 && last_sig == b'(' => {
                    ytt_module = inner.starts_with("@ytt:");
                    out.push_str(lit);
                }
                Some(r) if in_load && depth == 1 && last_sig == b',' && ytt_module => {
                    out.push_str(&format!("{r}={lit}"));
                }
                Some(r) if in_load && depth == 1 && last_sig == b',' => {
                    out.push_str(&format!("{r}={quote}{r}{quote}"));
                }
                Some(r) if in_load && depth == 1 && last_sig == b'=' && !ytt_module => {
                    out.push_str(&format!("{quote}{r}{quote}"));
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
                // After a dot too: the crate's parser refuses `x.assert`; structs, `dict()` and
                // `struct.make()` take the replacement back (`original`).
                Some(r) => out.push_str(r),
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
            "load(\"@ytt:assert\", ytt_kw__assert=\"assert\")\nytt_kw__assert.fail(\"assert\") # assert"
        );
        assert_eq!(rename_reserved("x.assert"), "x.ytt_kw__assert");
        assert_eq!(original("ytt_kw__assert"), "assert");
        assert_eq!(original("ytt_kw__other"), "ytt_kw__other");
        assert_eq!(
            as_written_in("Module has no symbol `ytt_kw__assert`".to_string()),
            "Module has no symbol `assert`"
        );
        assert_eq!(
            rename_reserved("load(\"@ytt:assert\", a=\"assert\")"),
            "load(\"@ytt:assert\", a=\"assert\")"
        );
    }

    #[test]
    fn every_replacement_is_the_prefix_and_the_word() {
        for (word, replacement) in RESERVED {
            assert_eq!(replacement, format!("{PREFIX}{word}"));
        }
    }

    #[test]
    fn a_files_own_assert_is_loaded_by_its_replacement() {
        // The file that defines it exports `ytt_kw__assert` (its `def` is renamed too).
        assert_eq!(
            rename_reserved("def assert(ok):\n  return ok\nend"),
            "def ytt_kw__assert(ok):\n  return ok\nend"
        );
        assert_eq!(
            rename_reserved("load(\"/lib/checks.lib.yml\", \"assert\")"),
            "load(\"/lib/checks.lib.yml\", ytt_kw__assert=\"ytt_kw__assert\")"
        );
        assert_eq!(
            rename_reserved("load('m.star', check='assert')"),
            "load('m.star', check='ytt_kw__assert')"
        );
        // One load after another: the second's module decides for its own names.
        assert_eq!(
            rename_reserved("load(\"m.star\", \"assert\")\nload(\"@ytt:assert\", \"assert\")"),
            "load(\"m.star\", ytt_kw__assert=\"ytt_kw__assert\")\n\
             load(\"@ytt:assert\", ytt_kw__assert=\"assert\")"
        );
    }
}
