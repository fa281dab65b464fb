//! How deeply Starlark code nests, read before it is parsed. The parser and every walk of the
//! syntax tree after it (the checks of the parse, the rewrites of [`super::gocompat`], the
//! compiler, the static analysis, dropping the tree) recurse once per level of the tree, on
//! the native stack: a template line nested 100 000 levels deep (`[[[[...]]]]`) overflowed a
//! job thread's 256 MiB stack, which ends the process (the language server, or `--in-process`).
//! Code nesting deeper than [`MAX_NESTING`] levels is refused before it is parsed, with a
//! `limit-exceeded` error at its line.
//!
//! The count is an upper bound of the tree's depth read from the tokens: each open bracket,
//! each operator, attribute, call or index suffix and each `if`, `else`, `and`, `or`, `not`,
//! `in`, `is`, `lambda` since the last `,`, `=` or end of statement at its bracket level (a
//! chain `a + b + c` nests to the left), the lambdas of a level whatever separates them, and
//! the indentation levels of the statements. Real code stays far below the bound; a tree of
//! [`MAX_NESTING`] levels needs a few megabytes of stack.

use super::run::{ErrorKind, EvalError};

/// Deepest nesting accepted (Starlark's call depth is bounded by the same number).
pub const MAX_NESTING: usize = 1000;

/// Words that join expressions into a deeper one.
const OPERATOR_WORDS: [&str; 9] = [
    "and", "or", "not", "in", "is", "if", "else", "for", "lambda",
];

/// The nesting of one bracket level: operators since its last separator, and its lambdas.
#[derive(Default, Clone, Copy)]
struct Level {
    run: usize,
    lambdas: usize,
}

/// The first line of `code` (from 0) where it nests deeper than [`MAX_NESTING`], and how deep.
pub fn too_deep(code: &str) -> Option<(usize, usize)> {
    let bytes = code.as_bytes();
    let mut levels: Vec<Level> = vec![Level::default()];
    // Indentation of the enclosing blocks.
    let mut indents: Vec<usize> = vec![0];
    let mut line = 0usize;
    let mut at_line_start = true;
    // The last token was an operand (a name, number, string or closing bracket).
    let mut operand = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if at_line_start && levels.len() == 1 {
            let start = i;
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
                i += 1;
            }
            let blank = i >= bytes.len() || matches!(bytes[i], b'\n' | b'\r' | b'#');
            if !blank {
                let indent = i - start;
                while indents.len() > 1 && indents.last().is_some_and(|t| *t > indent) {
                    indents.pop();
                }
                if indents.last().is_some_and(|t| indent > *t) {
                    indents.push(indent);
                }
            }
            at_line_start = false;
            continue;
        }
        match b {
            b'\n' => {
                line += 1;
                if levels.len() == 1 {
                    levels[0] = Level::default();
                    at_line_start = true;
                    operand = false;
                }
                i += 1;
                continue;
            }
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => {
                // A continued line: the statement goes on.
                line += 1;
                i += 2;
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let (end, lines) = string_end(bytes, i);
                line += lines;
                i = end;
                operand = true;
                continue;
            }
            b'(' | b'[' | b'{' => {
                if operand {
                    // A call or an index: one more level of the chain it ends.
                    bump(&mut levels, |l| l.run += 1);
                }
                levels.push(Level::default());
                operand = false;
            }
            b')' | b']' | b'}' => {
                if levels.len() > 1 {
                    levels.pop();
                }
                operand = true;
            }
            b',' | b';' => {
                bump(&mut levels, |l| l.run = 0);
                operand = false;
            }
            b'=' if !matches!(bytes.get(i + 1), Some(b'=')) && !follows_comparison(bytes, i) => {
                bump(&mut levels, |l| l.run = 0);
                operand = false;
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'&' | b'|' | b'^' | b'~' | b'!'
            | b'=' | b'.' => {
                // One operator token (`**`, `//`, `<<`, `==` ... count once).
                let mut j = i + 1;
                while j < bytes.len() && matches!(bytes[j], b'*' | b'/' | b'<' | b'>' | b'=') {
                    j += 1;
                }
                let augmented = bytes.get(j.wrapping_sub(1)) == Some(&b'=')
                    && j - i >= 2
                    && !matches!(&bytes[i..j], b"==" | b"<=" | b">=" | b"!=");
                if augmented {
                    bump(&mut levels, |l| l.run = 0);
                } else if !(b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                    bump(&mut levels, |l| l.run += 1);
                }
                operand = false;
                i = j;
                if let Some(deep) = depth_beyond(&levels, &indents) {
                    return Some((line, deep));
                }
                continue;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
                {
                    i += 1;
                }
                let word = &code[start..i];
                if word == "lambda" {
                    bump(&mut levels, |l| l.lambdas += 1);
                    operand = false;
                } else if OPERATOR_WORDS.contains(&word) {
                    bump(&mut levels, |l| l.run += 1);
                    operand = false;
                } else {
                    operand = true;
                }
                if let Some(deep) = depth_beyond(&levels, &indents) {
                    return Some((line, deep));
                }
                continue;
            }
            _ => {}
        }
        if let Some(deep) = depth_beyond(&levels, &indents) {
            return Some((line, deep));
        }
        i += 1;
    }
    None
}

/// The error for code of `file` that nests `depth` levels at its line `line` (from 0): at the
/// template line the line map gives (the nearest one above), in ytt's layout.
pub fn error(env: &super::run::LibEnv, file: &str, line: usize, depth: usize) -> EvalError {
    let map = env.line_maps.borrow().get(file).cloned();
    let pos = match map {
        Some(map) => map
            .lines
            .get(..=line.min(map.lines.len().saturating_sub(1)))
            .and_then(|lines| lines.iter().rev().flatten().next().cloned()),
        None => Some(crate::pos::Pos {
            file: Some(file.into()),
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            col: 1,
            offset: 0,
        }),
    };
    let e = EvalError::new(
        ErrorKind::Limit,
        format!(
            "limit exceeded: the code nests more than {MAX_NESTING} levels deep (brackets, operators, blocks): {depth} at this line"
        ),
        pos,
    );
    super::run::framed(e, env)
}

/// Changes the innermost level.
fn bump(levels: &mut [Level], f: impl FnOnce(&mut Level)) {
    if let Some(l) = levels.last_mut() {
        f(l);
    }
}

/// Whether the `=` at `i` ends a comparison (`<=`, `>=`, `!=`).
fn follows_comparison(bytes: &[u8], i: usize) -> bool {
    i > 0 && matches!(bytes[i - 1], b'<' | b'>' | b'!' | b'=')
}

/// The nesting when it is beyond [`MAX_NESTING`].
fn depth_beyond(levels: &[Level], indents: &[usize]) -> Option<usize> {
    let deep = indents.len() + levels.iter().map(|l| 1 + l.run + l.lambdas).sum::<usize>();
    (deep > MAX_NESTING).then_some(deep)
}

/// The end of the string starting at `start` (its quote), and the line breaks inside it.
fn string_end(bytes: &[u8], start: usize) -> (usize, usize) {
    let q = bytes[start];
    let triple = bytes.get(start + 1) == Some(&q) && bytes.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    let mut lines = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    lines += 1;
                }
                i += 2;
                continue;
            }
            b'\n' if !triple => return (i, lines),
            b'\n' => lines += 1,
            c if c == q => {
                if !triple {
                    return (i + 1, lines);
                }
                if bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q) {
                    return (i + 3, lines);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (bytes.len(), lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(code: &str) -> Option<usize> {
        too_deep(code).map(|(line, _)| line)
    }

    #[test]
    fn brackets_operators_chains_and_lambdas_count() {
        let n = MAX_NESTING;
        assert_eq!(
            deep(&format!("x = 1\ny = {}{}\n", "[".repeat(n), "]".repeat(n))),
            Some(1)
        );
        let sum = vec!["a"; n + 2].join(" + ");
        assert_eq!(deep(&format!("z = {sum}\n")), Some(0));
        assert_eq!(deep(&format!("f{}\n", "()".repeat(n + 1))), Some(0));
        assert_eq!(deep(&format!("v = a{}\n", ".b".repeat(n + 1))), Some(0));
        assert_eq!(deep(&format!("n = {}1\n", "-".repeat(n + 1))), Some(0));
        assert_eq!(
            deep(&format!("g = {}1\n", "lambda a, b: ".repeat(n + 1))),
            Some(0)
        );
        let blocks: String = (0..n + 1)
            .map(|d| format!("{}if x:\n", " ".repeat(d)))
            .collect();
        assert!(deep(&format!("{blocks}{}pass\n", " ".repeat(n + 1))).is_some());
    }

    #[test]
    fn the_error_points_at_the_template_line() {
        let env = super::super::run::LibEnv::new(super::super::limits::Limits::default());
        let e = error(&env, "t.star", 4, 1234);
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.pos.as_ref().map(|p| p.line), Some(5));
        assert!(e.message.contains("1234 at this line"), "{}", e.message);
    }

    #[test]
    fn real_code_is_far_below_the_bound() {
        let items: Vec<String> = (0..5000).map(|i| format!("\"k{i}\": {i}")).collect();
        let code = format!(
            "d = {{{}}}\nl = [{}]\ns = \"(((\" + '[[[' + \"\"\"\n{{{{{{\n\"\"\"\n# ((((\nx = a <= b >= c == d != e\ny += 1\n",
            items.join(", "),
            (0..5000).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
        );
        assert_eq!(too_deep(&code), None);
        let statements: String = (0..5000).map(|i| format!("a{i} = b + c + d\n")).collect();
        assert_eq!(too_deep(&statements), None);
        assert_eq!(too_deep("x = 1.5 * 2. + .5\n"), None);
    }
}
