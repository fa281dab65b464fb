//! Parser for ytt text templates (`.txt` files and
//! `@yaml/text-templated-strings`): splits the source into literal text and
//! code nodes delimited by `(@ ... @)`, classifies printing tags (`(@= ... @)`)
//! and applies the whitespace trimming requested by `(@-` and `-@)`.
//!
//! The node list mirrors ytt's: it always starts and ends with a text node
//! and alternates text and code, so empty text nodes are kept. Positions are
//! where a node starts in the source (the `(` of a code tag, the character
//! after `@)` for text) and are not moved by trimming.

use std::fmt;

/// One piece of a text template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextNode {
    /// Literal text, already trimmed as requested by neighbouring tags.
    Text { text: String, line: u32, col: u32 },
    /// Code between tags with the `=`/`-` markers removed; `print` is set for
    /// `(@= ... @)` (and `(@-= ... @)`).
    Code {
        code: String,
        print: bool,
        line: u32,
        col: u32,
    },
}

/// A malformed tag; `message` is worded as ytt's and includes the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TextError {}

fn error<T>(what: &str, line: u32, col: u32) -> Result<T, TextError> {
    Err(TextError {
        line,
        col,
        message: format!("{what} at line {line} col {col}"),
    })
}

/// A node before trimming: whether it is code, its source slice and position.
struct Raw<'a> {
    code: bool,
    content: &'a str,
    line: u32,
    col: u32,
}

/// Splits `src` at `(@` and `@)` the way ytt's scanner does: a delimiter is
/// recognised from the previous character, so `(@)` opens and closes at once.
fn split(src: &str) -> Result<Vec<Raw<'_>>, TextError> {
    let mut raws = Vec::new();
    let (mut line, mut col) = (1u32, 1u32);
    let mut last = '\0';
    // Start offset, line and column of the node being read.
    let (mut start, mut in_code, mut at) = (0usize, false, (1u32, 1u32));
    for (i, c) in src.char_indices() {
        if last == '(' && c == '@' {
            if in_code {
                return error("Unexpected code opening '(@'", line, col);
            }
            let content = src.get(start..i - 1).unwrap_or("");
            raws.push(Raw {
                code: false,
                content,
                line: at.0,
                col: at.1,
            });
            (start, in_code, at) = (i + 1, true, (line, col - 1));
        }
        if last == '@' && c == ')' {
            if !in_code || start > i - 1 {
                return error("Unexpected code closing '@)'", line, col);
            }
            let content = src.get(start..i - 1).unwrap_or("");
            raws.push(Raw {
                code: true,
                content,
                line: at.0,
                col: at.1,
            });
            (start, in_code, at) = (i + 1, false, (line, col + 1));
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
        last = c;
    }
    if in_code {
        return error("Missing code closing '@)'", line, col);
    }
    raws.push(Raw {
        code: false,
        content: src.get(start..).unwrap_or(""),
        line: at.0,
        col: at.1,
    });
    Ok(raws)
}

/// Parses a text template into nodes, applying `(@-` / `-@)` trimming.
pub fn parse_text(src: &str) -> Result<Vec<TextNode>, TextError> {
    let mut nodes: Vec<TextNode> = Vec::new();
    let mut trim_next = false;
    for raw in split(src)? {
        let Raw {
            code,
            content,
            line,
            col,
        } = raw;
        if !code {
            let text = if trim_next {
                content.trim_start()
            } else {
                content
            };
            trim_next = false;
            nodes.push(TextNode::Text {
                text: text.to_string(),
                line,
                col,
            });
            continue;
        }
        trim_next = content.ends_with('-');
        if content.starts_with('-') {
            if let Some(TextNode::Text { text, .. }) = nodes.last_mut() {
                text.truncate(text.trim_end().len());
            }
        }
        let print = content.starts_with('=') || content.starts_with("-=");
        let stripped = content.strip_prefix("-=").unwrap_or(content);
        let stripped = stripped.strip_prefix('=').unwrap_or(stripped);
        let stripped = stripped.strip_prefix('-').unwrap_or(stripped);
        let stripped = stripped.strip_suffix('-').unwrap_or(stripped);
        nodes.push(TextNode::Code {
            code: stripped.to_string(),
            print,
            line,
            col,
        });
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str, line: u32, col: u32) -> TextNode {
        TextNode::Text {
            text: t.to_string(),
            line,
            col,
        }
    }

    fn code(c: &str, print: bool, line: u32, col: u32) -> TextNode {
        TextNode::Code {
            code: c.to_string(),
            print,
            line,
            col,
        }
    }

    fn parse(src: &str) -> Vec<TextNode> {
        parse_text(src).unwrap_or_else(|e| panic!("{e}"))
    }

    fn fail(src: &str) -> (u32, u32, String) {
        let e = parse_text(src).expect_err("expected an error");
        (e.line, e.col, e.message)
    }

    #[test]
    fn plain_text_and_empty() {
        assert_eq!(parse(""), vec![text("", 1, 1)]);
        assert_eq!(
            parse("\nline1\n\nline2\n"),
            vec![text("\nline1\n\nline2\n", 1, 1)]
        );
        assert_eq!(parse("a ( @ ) @ b"), vec![text("a ( @ ) @ b", 1, 1)]);
    }

    #[test]
    fn printing_and_non_printing_code() {
        assert_eq!(
            parse("before(@ a = 5 @)af(@= \"5\" @)ter"),
            vec![
                text("before", 1, 1),
                code(" a = 5 ", false, 1, 7),
                text("af", 1, 18),
                code(" \"5\" ", true, 1, 20),
                text("ter", 1, 30),
            ]
        );
        assert_eq!(
            parse("x\n  (@= é @)ü\n"),
            vec![
                text("x\n  ", 1, 1),
                code(" é ", true, 2, 3),
                text("ü\n", 2, 11)
            ]
        );
        let escaped = parse("(@= \"@\"+\")\" @)");
        assert_eq!(escaped.get(1), Some(&code(" \"@\"+\")\" ", true, 1, 1)));
    }

    #[test]
    fn empty_and_adjacent_tags() {
        assert_eq!(
            parse("(@@)"),
            vec![text("", 1, 1), code("", false, 1, 1), text("", 1, 5)]
        );
        let nodes = parse("(@@)(@ @)(@\n\n@)");
        assert_eq!(nodes.len(), 7);
        assert_eq!(nodes.get(5), Some(&code("\n\n", false, 1, 10)));
        assert_eq!(nodes.get(6), Some(&text("", 3, 3)));
    }

    #[test]
    fn trimming() {
        assert_eq!(
            parse("a \n (@- if True: -@)\n\n x \n(@-= y @) \n"),
            vec![
                text("a", 1, 1),
                code(" if True: ", false, 2, 2),
                text("x", 2, 18),
                code(" y ", true, 5, 1),
                text(" \n", 5, 10),
            ]
        );
        let nodes = parse("(@--@)\n\ncon (@--@) tent\n\n(@--@)");
        let texts: Vec<&TextNode> = nodes.iter().step_by(2).collect();
        assert_eq!(
            texts,
            vec![
                &text("", 1, 1),
                &text("con", 1, 7),
                &text("tent", 3, 11),
                &text("", 5, 7)
            ]
        );
        assert_eq!(nodes.get(1), Some(&code("", false, 1, 1)));
        // Marker stripping follows ytt: "-=" then "=" then "-" prefix, "-" suffix.
        assert_eq!(parse("(@-==x-@)").get(1), Some(&code("x", true, 1, 1)));
        assert_eq!(parse("(@=-x@)").get(1), Some(&code("x", true, 1, 1)));
        assert_eq!(parse("(@-@)").get(1), Some(&code("", false, 1, 1)));
    }

    #[test]
    fn errors() {
        let e = fail("(@= \"@)\" @)");
        assert_eq!(
            e,
            (
                1,
                11,
                "Unexpected code closing '@)' at line 1 col 11".into()
            )
        );
        let e = fail("\ntest(@ a = 5");
        assert_eq!(
            e,
            (2, 13, "Missing code closing '@)' at line 2 col 13".into())
        );
        let e = fail("(@ x\n (@ y @)");
        assert_eq!(
            e,
            (2, 3, "Unexpected code opening '(@' at line 2 col 3".into())
        );
        assert_eq!(
            fail("a @) b").2,
            "Unexpected code closing '@)' at line 1 col 4"
        );
        assert_eq!(
            fail("(@)").2,
            "Unexpected code closing '@)' at line 1 col 3"
        );
    }
}
