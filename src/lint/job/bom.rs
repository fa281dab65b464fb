//! `yaml-bom`: byte-order marks (U+FEFF) in YAML files, which ytt keeps as characters (see
//! `yaml::bom`): a key, value or document that holds one is not what it looks like. Each line
//! where one lands in a key, a value or a document of its own is reported once, at the mark.
//! A mark that is the whole of a quoted string (`Trim(msg, "<U+FEFF>")`, the operand of a
//! statement that strips it from syslog messages) is written on purpose and not reported.

use crate::files::FileType;
use crate::library::Workspace;
use crate::lint::job::engine::SpanOf;
use crate::pos::Pos;
use crate::report::{Diagnostic, Rule};
use crate::yaml::bom::BOM;
use crate::yaml::{DocSet, Value};

/// The `yaml-bom` findings of the job's own YAML files (a private library's are its own job's).
pub fn findings(workspace: &Workspace, span_of: SpanOf<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for f in &workspace.files {
        let own = !f.rel_path.contains("_ytt_lib/");
        if !own || f.file_type() != FileType::Yaml || !f.data.contains(BOM) {
            continue;
        }
        let Ok(ds) = workspace.parse(f, workspace.opts.strict) else {
            continue;
        };
        let mut places = Vec::new();
        marked(&ds, &mut places);
        let mut lines_done = Vec::new();
        for (pos, what, text) in places {
            let Some((line, col)) = mark_from(&f.data, pos.line) else {
                continue;
            };
            if lines_done.contains(&line) {
                continue;
            }
            lines_done.push(line);
            let at = Pos::new(&std::sync::Arc::from(f.rel_path.as_str()), line, col, 0);
            let mut d = Diagnostic::new(Rule::YamlBom, message(what, &text));
            if let Some(span) = span_of(&at) {
                d = d.at(span);
            }
            found.push(d);
        }
    }
    found
}

/// What holds a BOM: a key, a value or a document.
type Place = (Pos, &'static str, String);

/// The keys, values and documents of `ds` that hold a BOM, in the file's order.
fn marked(ds: &DocSet, out: &mut Vec<Place>) {
    for doc in &ds.items {
        match &doc.value {
            Value::String(s) if s.contains(BOM) => {
                out.push((doc.pos.clone(), "document", s.clone()))
            }
            v => in_value(v, out),
        }
    }
}

fn in_value(v: &Value, out: &mut Vec<Place>) {
    let scalar = |pos: &Pos, v: &Value, out: &mut Vec<Place>| match v {
        Value::String(s) if s.contains(BOM) && !written_on_purpose(s) => {
            out.push((pos.clone(), "value", s.clone()))
        }
        other => in_value(other, out),
    };
    match v {
        Value::Map(map) => {
            for item in &map.items {
                if let Value::String(k) = &item.key {
                    if k.contains(BOM) {
                        out.push((item.pos.clone(), "key", k.clone()));
                    }
                }
                scalar(&item.pos, &item.value, out);
            }
        }
        Value::Array(array) => {
            for item in &array.items {
                scalar(&item.pos, &item.value, out);
            }
        }
        _ => {}
    }
}

/// Whether every mark in a value is written on purpose: the value is the mark alone (a quoted
/// scalar `"\uFEFF"` written literally), or each mark is the whole of a quoted string inside
/// the value (`Trim(msg, "<U+FEFF>")`, a statement that strips the mark from its input).
fn written_on_purpose(value: &str) -> bool {
    if value == BOM.to_string() {
        return true;
    }
    let chars: Vec<char> = value.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == BOM)
        .all(|(i, _)| {
            let before = i.checked_sub(1).and_then(|j| chars.get(j));
            let after = chars.get(i + 1);
            matches!(
                (before, after),
                (Some('"'), Some('"')) | (Some('\''), Some('\''))
            )
        })
}

/// The line and column (1-based, in characters) of the first BOM of `text` at or after line
/// `from` (a block scalar's text starts below its key).
fn mark_from(text: &str, from: u32) -> Option<(u32, u32)> {
    for (i, line) in text
        .split('\n')
        .enumerate()
        .skip(from.saturating_sub(1) as usize)
    {
        if let Some(at) = line.find(BOM) {
            let col = line[..at].chars().count() + 1;
            return Some((u32::try_from(i + 1).ok()?, u32::try_from(col).ok()?));
        }
    }
    None
}

/// The finding's message: what holds the mark, shown with the mark escaped.
fn message(what: &str, text: &str) -> String {
    let shown: String = text
        .chars()
        .take(60)
        .map(|c| match c {
            BOM => "\\uFEFF".to_string(),
            c => c.to_string(),
        })
        .collect();
    let plain: String = text.chars().filter(|c| *c != BOM).take(60).collect();
    match what {
        "key" => format!(
            "byte-order mark (U+FEFF) in the key \"{shown}\": ytt keeps it, so this is not the key \"{plain}\""
        ),
        "value" => format!(
            "byte-order mark (U+FEFF) in the value \"{shown}\": ytt keeps it as part of the value"
        ),
        _ => format!(
            "byte-order mark (U+FEFF) at the start of a line: ytt reads the line as the string \"{shown}\", a document of its own"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_is_found_from_the_node_s_line_on() {
        let text = "a: 1\nb: |\n  \u{feff}x\n";
        assert_eq!(mark_from(text, 2), Some((3, 3)));
        assert_eq!(mark_from("\u{feff}a: 1", 1), Some((1, 1)));
        assert_eq!(mark_from("a: 1", 1), None);
    }

    #[test]
    fn a_mark_that_is_a_whole_quoted_string_is_written_on_purpose() {
        assert!(written_on_purpose("\u{feff}"));
        assert!(written_on_purpose("Trim(m, \"\u{feff}\")"));
        assert!(written_on_purpose("a '\u{feff}' b \"\u{feff}\""));
        assert!(!written_on_purpose("\u{feff}name"));
        assert!(!written_on_purpose("Trim(m, \"\u{feff}x\")"));
        assert!(!written_on_purpose("\"\u{feff}\" and \u{feff}"));
    }

    #[test]
    fn messages_show_the_mark_escaped() {
        assert_eq!(
            message("key", "\u{feff}name"),
            "byte-order mark (U+FEFF) in the key \"\\uFEFFname\": ytt keeps it, so this is not the key \"name\""
        );
        assert!(message("document", "\u{feff}#@data/values").contains("\"\\uFEFF#@data/values\""));
    }
}
