//! Positions inside an annotation's JSON: maps a byte offset of the annotation's text to the
//! line and column of the YAML source that spells it, when the source shows the text as it is
//! (a literal block scalar `|`, or a one-line plain or quoted scalar). Otherwise (a folded or
//! escaped scalar, a value computed by a template) findings stay at the annotation's key.

use crate::pos::Pos;

/// How an annotation's text lies in its source.
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// Text line `k` is source line `first_line + k`, after `indent` columns.
    Block { first_line: u32, indent: u32 },
    /// The whole text is on `line`, starting at column `col`.
    Inline { line: u32, col: u32 },
}

/// Where the value text after `key:` starts on the key's line, if the key is found there.
fn after_colon(line: &str) -> Option<&str> {
    let rest = if let Some(q @ ('"' | '\'')) = line.chars().next() {
        let close = line[1..].find(q)? + 1;
        &line[close + 1..]
    } else {
        let at = line
            .char_indices()
            .find(|(i, c)| {
                *c == ':'
                    && line[i + 1..]
                        .chars()
                        .next()
                        .is_none_or(|n| n == ' ' || n == '\t')
            })?
            .0;
        &line[at..]
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.strip_prefix(':')
}

/// Works out the layout of `text` for the map item at `item` in `source`; `None` when the
/// source does not spell the text verbatim.
pub fn layout(source: &str, item: &Pos, text: &str) -> Option<Layout> {
    let start = usize::try_from(item.offset).ok()?;
    let tail = source.get(start..)?;
    let key_line = tail.split('\n').next()?;
    let value = after_colon(key_line)?;
    let value_trimmed = value.trim_start_matches([' ', '\t']);
    let lines: Vec<&str> = source.split('\n').collect();
    if value_trimmed.starts_with('|') {
        let header_line = item.line;
        let text_lines: Vec<&str> = text.split('\n').collect();
        let first = usize::try_from(header_line).ok()?;
        let indent = lines
            .iter()
            .skip(first)
            .find(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches(' ').len())?;
        for (k, t) in text_lines.iter().enumerate() {
            if t.is_empty() {
                continue;
            }
            let src = lines.get(first + k)?;
            if src.get(indent..)?.trim_end_matches('\r') != *t {
                return None;
            }
        }
        return Some(Layout::Block {
            first_line: header_line + 1,
            indent: u32::try_from(indent).ok()?,
        });
    }
    if text.contains('\n') {
        return None;
    }
    let (body, quote_len) = match value_trimmed.chars().next() {
        Some('"') | Some('\'') => (&value_trimmed[1..], 1),
        _ => (value_trimmed, 0),
    };
    if !body.starts_with(text) {
        return None;
    }
    let before = key_line.len() - value_trimmed.len() + quote_len;
    let col = key_line[..before].chars().count() as u32;
    Some(Layout::Inline {
        line: item.line,
        col: item.col + col,
    })
}

/// The source position of byte `offset` of the annotation's text.
pub fn position(item: &Pos, text: &str, layout: Option<&Layout>, offset: usize) -> Pos {
    let Some(layout) = layout else {
        return item.clone();
    };
    let upto = text.get(..offset.min(text.len())).unwrap_or(text);
    let line_index = upto.matches('\n').count() as u32;
    let line_start = upto.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col_in_line = upto[line_start..].chars().count() as u32;
    let (line, col) = match layout {
        Layout::Block { first_line, indent } => (first_line + line_index, indent + 1 + col_in_line),
        Layout::Inline { line, col } => (*line, col + col_in_line),
    };
    Pos {
        file: item.file.clone(),
        line,
        col,
        offset: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(source: &str, key: &str) -> Pos {
        let offset = source.find(key).unwrap();
        let line = source[..offset].matches('\n').count() as u32 + 1;
        let col = (offset - source[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0)) as u32 + 1;
        Pos {
            file: None,
            line,
            col,
            offset: offset as u32,
        }
    }

    #[test]
    fn literal_block() {
        let src = "metadata:\n  annotations:\n    validations: |\n      [\n        {\"name\": \"x\"}\n      ]\n";
        let text = "[\n  {\"name\": \"x\"}\n]\n";
        let p = item(src, "validations");
        let l = layout(src, &p, text).unwrap();
        assert_eq!(
            l,
            Layout::Block {
                first_line: 4,
                indent: 6
            }
        );
        let at = text.find("\"x\"").unwrap();
        let pos = position(&p, text, Some(&l), at);
        assert_eq!((pos.line, pos.col), (5, 18));
    }

    #[test]
    fn inline_and_folded() {
        let src = "a:\n  validations: '[{\"name\": 1}]'\n";
        let text = "[{\"name\": 1}]";
        let p = item(src, "validations");
        let l = layout(src, &p, text).unwrap();
        let pos = position(&p, text, Some(&l), text.find('1').unwrap());
        assert_eq!((pos.line, pos.col), (2, 27));
        let src = "a:\n  validations: >\n    [1,\n    2]\n";
        assert_eq!(layout(src, &item(src, "validations"), "[1, 2]\n"), None);
        let src = "a:\n  validations: #@ rules\n";
        assert_eq!(layout(src, &item(src, "validations"), "[]"), None);
    }
}
