//! Byte-order marks (U+FEFF) as ytt reads them: as an ordinary character, wherever they are.
//! ytt puts `---` in front of a file that does not start with one, so its go-yaml fork never
//! sees a BOM at the start of the stream, and that fork's check for a BOM at the start of a
//! line looks at the start of its read buffer, not of the line. A BOM is thus part of the key,
//! value or comment it stands in (`\u{feff}a: 1` has the key `"\uFEFF\x61"`, and a
//! `\u{feff}#@ ...` line is a plain scalar, not code). libyaml skips a BOM at the start of the
//! stream and of every line, so the parser hands it a stand-in instead: a private-use
//! character that the text does not hold, as long in bytes and in characters (positions do
//! not move), and puts the BOM back in every scalar, key and comment it parsed.

use crate::yaml::node::{Comment, DocSet, Value};

/// The byte-order mark.
pub const BOM: char = '\u{feff}';

/// `src` with each BOM replaced by a stand-in, and the stand-in; `None` when `src` has no BOM
/// (or, in theory, uses every private-use character).
pub fn stand_in(src: &str) -> Option<(String, char)> {
    if !src.contains(BOM) {
        return None;
    }
    let c = ('\u{e000}'..='\u{f8ff}').find(|c| !src.contains(*c))?;
    Some((src.replace(BOM, c.encode_utf8(&mut [0; 4])), c))
}

/// Puts the BOM back where the parse of a text given [`stand_in`]'s `c` has it.
pub fn restore(set: &mut DocSet, c: char) {
    comments(&mut set.comments, c);
    for doc in &mut set.items {
        comments(&mut doc.comments, c);
        value(&mut doc.value, c);
    }
}

/// The text of a message about the text given the stand-in `c`, with the BOM back.
pub fn restore_text(text: &str, c: char) -> String {
    text.replace(c, BOM.encode_utf8(&mut [0; 4]))
}

fn comments(list: &mut [Comment], c: char) {
    for comment in list {
        if comment.data.contains(c) {
            comment.data = restore_text(&comment.data, c);
        }
    }
}

fn value(v: &mut Value, c: char) {
    match v {
        Value::String(s) if s.contains(c) => *s = restore_text(s, c),
        Value::Map(map) => {
            comments(&mut map.comments, c);
            for item in &mut map.items {
                comments(&mut item.comments, c);
                value(&mut item.key, c);
                value(&mut item.value, c);
            }
        }
        Value::Array(array) => {
            comments(&mut array.comments, c);
            for item in &mut array.items {
                comments(&mut item.comments, c);
                value(&mut item.value, c);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn keys(src: &str) -> Vec<String> {
        let set = parse(src, &Arc::from("f.yml"), &ParseOpts::default()).unwrap();
        let Value::Map(map) = &set.items[0].value else {
            panic!("not a map: {:?}", set.items[0].value);
        };
        map.items
            .iter()
            .map(|i| i.key.as_str().unwrap_or("?").to_string())
            .collect()
    }

    #[test]
    fn a_bom_is_part_of_the_key_it_starts_even_at_the_start_of_the_file() {
        assert_eq!(keys("\u{feff}a: 1\n"), vec!["\u{feff}a"]);
        assert_eq!(keys("a: 1\n\u{feff}c: 2\n"), vec!["a", "\u{feff}c"]);
        assert_eq!(keys("\u{feff}\u{feff}a: 1\n"), vec!["\u{feff}\u{feff}a"]);
        // The stand-in is a character the text does not use.
        assert_eq!(
            keys("\u{e000}: 1\n\u{feff}b: 2\n"),
            vec!["\u{e000}", "\u{feff}b"]
        );
    }

    #[test]
    fn a_bom_stays_in_values_and_comments_and_a_bom_line_is_no_code() {
        let src = "\u{feff}#@ x = 1\n---\na: x\u{feff} #\u{feff} c\n";
        let set = parse(src, &Arc::from("f.yml"), &ParseOpts::default()).unwrap();
        assert_eq!(set.items[0].value, Value::String("\u{feff}#@ x = 1".into()));
        let Value::Map(map) = &set.items[1].value else {
            panic!("not a map");
        };
        assert_eq!(map.items[0].value, Value::String("x\u{feff}".into()));
        assert_eq!(map.items[0].comments[0].data, "\u{feff} c");
    }
}
