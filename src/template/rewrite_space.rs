//! Blank space as ytt reads it. starlark-go's scanner takes a tab for a space; ytt hands it
//! each line of a module with its leading blank space trimmed (`CompiledTemplate.CodeAsString`),
//! which only a string spanning lines can tell.

use super::lex::{self, Kind, Lexed};

/// `code` with every tab outside a string literal made a space. starlark-go's scanner, which
/// ytt uses, takes a tab for blank space anywhere a space may stand (and ytt's block scanner
/// ignores indentation, so a tab's width never matters); the `starlark` crate's lexer rejects
/// every tab ("tabs are not allowed"). A tab and a space are one byte each, so every offset,
/// line and column stays where it was; a tab inside a string is kept, as it is part of the value.
pub(super) fn tabs_as_spaces(code: &str, lexed: &Lexed) -> String {
    if !code.contains('\t') {
        return code.to_string();
    }
    let mut bytes = code.as_bytes().to_vec();
    let mut strings = lexed
        .toks
        .iter()
        .filter(|t| t.kind == Kind::Str)
        .map(|t| t.start..t.end)
        .peekable();
    for (i, b) in bytes.iter_mut().enumerate() {
        while strings.next_if(|s| s.end <= i).is_some() {}
        if *b == b'\t' && !strings.peek().is_some_and(|s| s.contains(&i)) {
            *b = b' ';
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| code.to_string())
}

/// `src` (a `.star` module) with the leading blank space of every line a string literal
/// continues onto removed, unless the line before ends with a backslash: ytt trims every line
/// of a module that way before its scanner reads it (the indentation of code does not matter to ytt's
/// `end` blocks; inside a `"""` string it does: `"""\n    q"""` is `"\nq"` in ytt).
pub(crate) fn trim_string_lines(src: &str) -> String {
    let lexed = lex::lex(src);
    let mut out = String::with_capacity(src.len());
    let mut rest = 0;
    for t in lexed.toks.iter().filter(|t| t.kind == Kind::Str) {
        let Some(text) = src.get(t.start..t.end).filter(|s| s.contains('\n')) else {
            continue;
        };
        let before = src.get(rest..t.start).unwrap_or("");
        out.push_str(before);
        let line_start = src
            .get(..t.start)
            .and_then(|s| s.rfind('\n'))
            .map_or(0, |i| i + 1);
        let mut previous = src.get(line_start..t.start).unwrap_or("").to_string();
        for (i, line) in text.split('\n').enumerate() {
            let kept = if i == 0 || previous.ends_with('\\') {
                line
            } else {
                line.trim_start_matches(|c: char| c.is_whitespace() && c != '\n')
            };
            if i > 0 {
                out.push('\n');
                previous.clear();
            }
            previous.push_str(line);
            out.push_str(kept);
        }
        rest = t.end;
    }
    out.push_str(src.get(rest..).unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_a_string_continues_onto_lose_their_leading_blank_space() {
        let src = "x = 1\ny = \"\"\"\n    q\n\t r \\\n   s\"\"\"  + '''a\n  b'''\n  z = 2\n";
        assert_eq!(
            trim_string_lines(src),
            "x = 1\ny = \"\"\"\nq\nr \\\n   s\"\"\"  + '''a\nb'''\n  z = 2\n"
        );
        assert_eq!(trim_string_lines("a = 'x'\n"), "a = 'x'\n");
    }
}
