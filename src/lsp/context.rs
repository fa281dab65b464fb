//! What is under the cursor, read from the text of the line and of the file (chains of names,
//! `data.values.a.b` or `data.values["a"]`, are read by [`super::chain`]): an annotation after
//! `#@`, a `load()` and the names it binds, data values aliases, a `library.get("x")`. Reading the text (not the compiled Starlark) keeps answers
//! fast and works on a buffer that does not compile yet.

use std::collections::HashMap;

use super::chain::{chains, is_name};

/// The annotation name at byte column `at` (`overlay/match` in `#@overlay/match by=...`), or
/// the part typed so far when `partial`; `None` outside one.
pub fn annotation_at(line: &str, at: usize, partial: bool) -> Option<String> {
    let hash = line.find("#@")?;
    if !line[..hash].trim().is_empty() {
        return None;
    }
    let start = hash + 2;
    let rest = &line[start..];
    if rest.starts_with(char::is_whitespace) || at < start {
        return None;
    }
    let len = rest
        .find(|c: char| !(is_name(c) || c == '/' || c == '-'))
        .unwrap_or(rest.len());
    if at > start + len {
        return None;
    }
    let end = if partial { at } else { start + len };
    Some(line[start..end].to_string())
}

/// One `load()`: the path, the names it binds (local name, name in the file), and its first
/// and last lines (from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Load {
    pub path: String,
    pub names: Vec<(String, String)>,
    pub line: u32,
    pub end_line: u32,
}

impl Load {
    /// Whether line `n` (from 0) is one of the load's.
    pub fn spans(&self, n: u32) -> bool {
        self.line <= n && n <= self.end_line
    }
}

/// The string literals and `name=` prefixes of a load's arguments.
fn load_args(args: &str) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    let mut rest = args;
    while let Some(q) = rest.find(['"', '\'']) {
        let quote = rest[q..].chars().next().unwrap_or('"');
        let before = rest[..q].trim_end().trim_end_matches('=').trim();
        let local = before
            .rsplit([',', '('])
            .next()
            .map(str::trim)
            .filter(|n| !n.is_empty() && n.chars().all(is_name))
            .map(str::to_string);
        let after = &rest[q + 1..];
        let Some(end) = after.find(quote) else { break };
        out.push((local, after[..end].to_string()));
        rest = &after[end + 1..];
    }
    out
}

/// How many lines a `load()` may span.
const LOAD_LINES: usize = 50;

/// Every `load()` of `text`, also when its arguments go on over the next lines (`#@` lines in
/// a template).
pub fn loads(text: &str) -> Vec<Load> {
    let mut out = Vec::new();
    // Lines as the editor counts them (a CR alone ends one too): `line` is its line.
    let lines: Vec<&str> = crate::pos::lines(text)
        .map(|l| &text[l.start..l.end])
        .collect();
    for (n, line) in lines.iter().enumerate() {
        let Some(i) = line.find("load(") else {
            continue;
        };
        if line[..i].chars().next_back().is_some_and(is_name) {
            continue;
        }
        let mut joined = line[i + 5..].to_string();
        let mut end_line = n;
        // A template's code goes on only on `#@` lines; a blank line or another load ends it
        // (a load still being typed).
        let templated = line.trim_start().starts_with("#@");
        for next in lines.iter().skip(n + 1).take(LOAD_LINES) {
            if joined.contains(')') {
                break;
            }
            let code = next.trim_start();
            let code = match code.strip_prefix("#@") {
                Some(rest) => rest,
                None if templated => break,
                None => code,
            };
            if code.trim().is_empty() || code.contains("load(") {
                break;
            }
            joined.push(' ');
            joined.push_str(code);
            end_line += 1;
        }
        let inner = joined.as_str();
        let inner = inner.rsplit_once(')').map_or(inner, |(a, _)| a);
        let mut args = load_args(inner).into_iter();
        let Some((None, path)) = args.next() else {
            continue;
        };
        let names = args
            .map(|(local, their)| (local.unwrap_or_else(|| their.clone()), their))
            .collect();
        out.push(Load {
            path,
            names,
            line: n as u32,
            end_line: end_line as u32,
        });
    }
    out
}

/// The `@ytt:` module each local name stands for.
pub fn ytt_aliases(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for l in loads(text) {
        let Some(module) = l.path.strip_prefix("@ytt:") else {
            continue;
        };
        for (local, their) in l.names {
            if their == module {
                out.insert(local, module.to_string());
            }
        }
    }
    out
}

/// Names assigned a data values path (`v = data.values.a.b`, `v = data.values["a"]`), with
/// the path.
pub fn values_aliases(text: &str) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for line in text.lines() {
        let code = line.trim_start().trim_start_matches("#@").trim();
        let Some((name, value)) = code.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(is_name) || value.starts_with('=') {
            continue;
        }
        let value = value.trim();
        // The whole value is one chain from `data.values`.
        let mut found = chains(value).into_iter();
        if let (Some(chain), None) = (found.next(), found.next()) {
            let whole = chain.first().is_some_and(|s| s.start == 0)
                && chain
                    .last()
                    .is_some_and(|s| s.after == value.len() && !s.text.is_empty());
            let segs: Vec<String> = chain.into_iter().map(|s| s.text).collect();
            if whole && segs.len() >= 2 && segs[0] == "data" && segs[1] == "values" {
                out.insert(name.to_string(), segs[2..].to_vec());
            }
        }
    }
    out
}

/// The data values path that the dotted name `segs` (up to and including segment `upto`)
/// reads: `data.values.a.b` or `v.b` with `v` an alias of a data values path.
pub fn values_path(segs: &[String], upto: usize, text: &str) -> Option<Vec<String>> {
    let segs = &segs[..=upto.min(segs.len().saturating_sub(1))];
    if segs.len() >= 2 && segs[0] == "data" && segs[1] == "values" {
        return Some(segs[2..].to_vec());
    }
    let aliases = values_aliases(text);
    let base = aliases.get(segs.first()?)?;
    let mut path = base.clone();
    path.extend(segs[1..].iter().cloned());
    Some(path)
}

/// The string argument of a `library.get("x")` call around byte column `at`.
pub fn library_get_at(line: &str, at: usize) -> Option<String> {
    let mut from = 0;
    while let Some(i) = line[from..].find(".get(") {
        let call = from + i;
        let open = call + 5;
        let close = line[open..].find(')').map_or(line.len(), |j| open + j);
        let receiver_start = line[..call]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_name(*c))
            .last()
            .map_or(call, |(k, _)| k);
        let receiver = &line[receiver_start..call];
        if (receiver_start..=close).contains(&at) && receiver == "library" {
            let arg = line[open..close].trim();
            let arg = arg.split(',').next().unwrap_or("").trim();
            return Some(arg.trim_matches(['"', '\'']).to_string());
        }
        from = open;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_loads_and_aliases() {
        assert_eq!(
            annotation_at("#@overlay/match by=x", 5, false).as_deref(),
            Some("overlay/match")
        );
        assert_eq!(annotation_at("#@ x = 1", 4, false), None);
        assert_eq!(annotation_at("#@over", 6, true).as_deref(), Some("over"));
        let text = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"lib/h.star\", \"f\", g=\"helper\")\n#@ v = data.values.app\n";
        let l = loads(text);
        assert_eq!(l[1].path, "lib/h.star");
        assert_eq!(
            l[1].names,
            [("f".into(), "f".into()), ("g".into(), "helper".into())]
        );
        assert_eq!(
            ytt_aliases(text).get("data").map(String::as_str),
            Some("data")
        );
        // A load whose names go on over the next `#@` lines.
        let text2 = "#@ load(\"lib/h.star\",\n#@   \"f\",\n#@   g=\"helper\")\nx: 1\n";
        let l = loads(text2);
        assert_eq!(l.len(), 1);
        assert_eq!((l[0].line, l[0].end_line), (0, 2));
        assert_eq!(
            l[0].names,
            [("f".into(), "f".into()), ("g".into(), "helper".into())]
        );
        assert!(l[0].spans(1) && !l[0].spans(3));
        // A load being typed does not take the next one in.
        let typing = "#@ load(\"@ytt:yaml\", \n#@ load(\"h.star\", \"f\")\n";
        let l = loads(typing);
        assert_eq!(
            (l.len(), l[0].end_line, l[1].path.as_str()),
            (2, 0, "h.star")
        );
        let segs: Vec<String> = ["v", "port"].map(String::from).to_vec();
        assert_eq!(values_path(&segs, 1, text).unwrap(), ["app", "port"]);
        let text3 =
            "#@ w = data.values[\"my-app\"]\n#@ f = data.values.app.get()\n#@ d = data.values\n";
        let aliases = values_aliases(text3);
        assert_eq!(
            aliases.get("w").map(Vec::as_slice),
            Some(&["my-app".to_string()][..])
        );
        assert_eq!(
            (aliases.get("f"), aliases.get("d").map(Vec::len)),
            (None, Some(0))
        );
        assert_eq!(
            library_get_at("#@ lib = library.get(\"app\")", 12).as_deref(),
            Some("app")
        );
    }
}
