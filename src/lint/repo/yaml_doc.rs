//! Reading plain YAML files the linter looks into (Package resources, CI files, Taskfiles,
//! kuttl steps, vendir configurations): lookups by key that tolerate any shape, and the line
//! where a string's text starts in its file.

use std::sync::Arc;

use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{scalar_key_string, Document, MapItem, Value};

/// The documents of a YAML file; none when it does not parse.
pub fn documents(file: &str, text: &str) -> Vec<Document> {
    let name: Arc<str> = Arc::from(file);
    parse(text, &name, &ParseOpts::default())
        .map(|ds| ds.items)
        .unwrap_or_default()
}

/// The entry `key` of a map.
pub fn entry<'v>(v: &'v Value, key: &str) -> Option<&'v MapItem> {
    match v {
        Value::Map(m) => m.items.iter().find(|i| scalar_key_string(&i.key) == key),
        _ => None,
    }
}

/// The value of `key` in a map.
pub fn get<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    entry(v, key).map(|i| &i.value)
}

/// The entries of a map, in order.
pub fn entries(v: Option<&Value>) -> Vec<&MapItem> {
    match v {
        Some(Value::Map(m)) => m.items.iter().collect(),
        _ => Vec::new(),
    }
}

/// The items of an array (none for anything else).
pub fn items(v: Option<&Value>) -> Vec<&Value> {
    match v {
        Some(Value::Array(a)) => a.items.iter().map(|i| &i.value).collect(),
        _ => Vec::new(),
    }
}

/// A string value.
pub fn string(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
}

/// The number of the line before the one where the string of an entry or item on `line`
/// starts (`key: |` and `- |` start on the next line), to add to the string's own line
/// numbers.
pub fn text_offset(src: &str, line: u32) -> u32 {
    let text = src
        .lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or("");
    let after = match text.find(": ") {
        Some(i) => &text[i + 1..],
        None => text.trim_start().trim_start_matches('-'),
    };
    let after = after.trim();
    if after.starts_with('|') || after.starts_with('>') || after.is_empty() {
        line
    } else {
        line.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_and_block_offsets() {
        let src = "steps:\n  - run: |\n      ytt -f a\n  - run: ytt -f b\n";
        let docs = documents("w.yml", src);
        let steps = items(get(&docs[0].value, "steps"));
        assert_eq!(steps.len(), 2);
        let run = entry(steps[0], "run").unwrap();
        assert_eq!(text_offset(src, run.pos.line), 2);
        let run = entry(steps[1], "run").unwrap();
        assert_eq!(text_offset(src, run.pos.line), 3);
        assert_eq!(string(get(steps[1], "run")), Some("ytt -f b"));
    }
}
