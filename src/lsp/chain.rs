//! Chains of names in a line of code: `data.values.app.port`, `struct.encode`, and index
//! segments with a string key (`data.values["app"].port`, `v['my-key']`), each segment with
//! the byte columns it covers (for an index, the key between its quotes). Read from the text,
//! as the rest of [`super::context`], so that a line that does not compile yet still has them.

/// A character of a Starlark name.
pub fn is_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// One segment of a chain: its name or key, the byte columns `start..end` it covers, and the
/// byte after its syntax (`after` the `]` of an index; `end` for a name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seg {
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub after: usize,
}

/// Every chain of `line`, left to right. A chain starts at a name that follows no name
/// character, dot or closing bracket (so `f().x` and `a[0].x` are not chains from `x`), and
/// goes on with `.name` and `["key"]` / `['key']` (spaces allowed inside the brackets; a key
/// with an escape or an index that is not a string literal ends it). A trailing `.` ends a
/// chain with an empty segment (completion after `data.values.`). Words in a string literal
/// are chains too: the names a `load()` binds are read as such.
pub fn chains(line: &str) -> Vec<Vec<Seg>> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let Some(c) = line[i..].chars().next() else {
            break;
        };
        let before = line[..i].chars().next_back();
        let free = !before.is_some_and(|b| is_name(b) || b == '.' || b == ']' || b == ')');
        if !(is_name(c) && !c.is_ascii_digit() && free) {
            i += c.len_utf8();
            continue;
        }
        let mut segs = vec![name_at(line, i)];
        let mut at = segs[0].end;
        loop {
            match bytes.get(at) {
                Some(b'.') => {
                    let seg = name_at(line, at + 1);
                    at = seg.end;
                    let empty = seg.text.is_empty();
                    segs.push(seg);
                    if empty {
                        break;
                    }
                }
                Some(b'[') => match key_at(line, at) {
                    Some((seg, next)) => {
                        segs.push(seg);
                        at = next;
                    }
                    None => break,
                },
                _ => break,
            }
        }
        out.push(segs);
        i = at.max(i + 1);
    }
    out
}

/// The name starting at byte `from` (empty when none does).
fn name_at(line: &str, from: usize) -> Seg {
    let end = line[from..]
        .char_indices()
        .find(|(_, c)| !is_name(*c))
        .map_or(line.len(), |(k, _)| from + k);
    Seg {
        text: line[from..end].to_string(),
        start: from,
        end,
        after: end,
    }
}

/// The string key of the index whose `[` is at byte `open`, and the byte after its `]`.
fn key_at(line: &str, open: usize) -> Option<(Seg, usize)> {
    let inner = &line[open + 1..];
    let lead = inner.len() - inner.trim_start().len();
    let quote_at = open + 1 + lead;
    let quote = line[quote_at..]
        .chars()
        .next()
        .filter(|q| *q == '"' || *q == '\'')?;
    let start = quote_at + 1;
    let len = line[start..].find(quote)?;
    let text = &line[start..start + len];
    if text.contains('\\') {
        return None;
    }
    let after = &line[start + len + 1..];
    let close = after.len() - after.trim_start().len();
    after[close..].starts_with(']').then(|| {
        let next = start + len + 1 + close + 1;
        let seg = Seg {
            text: text.to_string(),
            start,
            end: start + len,
            after: next,
        };
        (seg, next)
    })
}

/// The chain around byte column `at` of `line`, up to the end of the segment the cursor is
/// on: its segments, which one the cursor is on, and the byte column where it starts.
pub fn chain_at(line: &str, at: usize) -> Option<(Vec<String>, usize, usize)> {
    let at = at.min(line.len());
    for chain in chains(line) {
        let Some(i) = chain.iter().position(|s| s.start <= at && at <= s.end) else {
            continue;
        };
        if chain[i].text.is_empty() {
            return None;
        }
        let segs = chain[..=i].iter().map(|s| s.text.clone()).collect();
        return Some((segs, i, chain[i].start));
    }
    None
}

/// The chain that ends at byte column `at` (completion): the segments before the last one,
/// and the word typed as the last one (empty right after a dot).
pub fn chain_before(line: &str, at: usize) -> (Vec<String>, String) {
    let before = &line[..floor(line, at)];
    let last = chains(before)
        .into_iter()
        .find(|c| c.last().is_some_and(|s| s.end == before.len()));
    match last {
        Some(chain) => {
            let mut segs: Vec<String> = chain.into_iter().map(|s| s.text).collect();
            let word = segs.pop().unwrap_or_default();
            (segs, word)
        }
        None => (Vec::new(), String::new()),
    }
}

/// The largest char boundary of `line` at or below `at`.
fn floor(line: &str, at: usize) -> usize {
    let mut at = at.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<Vec<String>> {
        let chains = chains(line);
        let texts = |c: Vec<Seg>| c.into_iter().map(|s| s.text).collect();
        chains.into_iter().map(texts).collect()
    }

    #[test]
    fn dotted_names_around_the_cursor() {
        let line = "port: #@ data.values.app.port + 1";
        let at = line.find("app").unwrap() + 1;
        let (segs, i, start) = chain_at(line, at).unwrap();
        assert_eq!(segs, ["data", "values", "app"]);
        assert_eq!((i, start), (2, line.find("app").unwrap()));
        assert_eq!(chain_at(line, line.find('+').unwrap()), None);
        let (segs, word) = chain_before("x: #@ data.values.ap", 20);
        assert_eq!(
            (segs, word),
            (vec!["data".into(), "values".into()], "ap".into())
        );
        let (segs, word) = chain_before("x: #@ data.values.", 18);
        assert_eq!(
            (segs, word.as_str()),
            (vec!["data".into(), "values".into()], "")
        );
        assert_eq!(chain_before("x: #@ ", 6), (Vec::new(), String::new()));
    }

    #[test]
    fn index_segments_with_a_string_key() {
        let line = r#"a: #@ data.values["app"].port + data.values[ 'my-key' ]"#;
        assert_eq!(
            texts(line),
            [
                ["a"].as_slice(),
                &["data", "values", "app", "port"],
                &["data", "values", "my-key"]
            ]
        );
        let key = line.find("app").unwrap();
        let (segs, i, start) = chain_at(line, key + 1).unwrap();
        assert_eq!(
            (segs, i, start),
            (vec!["data".into(), "values".into(), "app".into()], 2, key)
        );
        let port = line.find("port").unwrap();
        assert_eq!(
            chain_at(line, port).unwrap().0,
            ["data", "values", "app", "port"]
        );
        let mine = line.find("my-key").unwrap();
        assert_eq!(
            chain_at(line, mine + 3).unwrap().0,
            ["data", "values", "my-key"]
        );
        // Completion after an index.
        let typed = r#"x: #@ data.values["app"].po"#;
        let (segs, word) = chain_before(typed, typed.len());
        assert_eq!(
            (segs, word.as_str()),
            (vec!["data".into(), "values".into(), "app".into()], "po")
        );
    }

    #[test]
    fn what_is_not_a_chain_of_names() {
        // A call or a number index ends a chain; what follows it is no chain of its own.
        assert_eq!(texts("f(x).y"), [["f"], ["x"]]);
        assert_eq!(texts("a[0].b"), [["a"]]);
        // Words in a string are chains too (a `load()`'s names are read so).
        assert_eq!(texts(r#"a["x\"y"].b"#), [["a"], ["x"], ["y"]]);
        assert_eq!(texts(r#"a["open"#), [["a"], ["open"]]);
        assert_eq!(texts("1.5 + x2"), [["x2"]]);
        // Multibyte text around does not cut a character.
        assert_eq!(texts("é: #@ v.ü"), [vec!["é"], vec!["v", "ü"]]);
        assert_eq!(chain_before("é", 1), (Vec::new(), String::new()));
    }
}
