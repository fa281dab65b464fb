//! Test helpers: parse YAML whose `#@overlay/...` comments become evaluated annotations, so
//! tests read like ytt's. Argument values may be `True`, `False`, `None`, integers, quoted
//! strings, `[...]` lists, or names registered with [`Names`] (matchers, functions).

use std::collections::HashMap;
use std::sync::Arc;

use super::test_host::TestHost;
use crate::pos::Pos;
use crate::yaml::emit::docset_to_yaml;
use crate::yaml::node::{AnnValue, Annotation, Annotations, Comment, DocSet, Value};
use crate::yaml::parse::{parse, ParseOpts};

/// Names usable as annotation argument values.
pub type Names = HashMap<&'static str, AnnValue>;

/// Parses `src` (named `file`) and turns its `#@name args` comments into annotations.
pub fn load(src: &str, file: &str, host: &mut TestHost, names: &Names) -> DocSet {
    let file: Arc<str> = Arc::from(file);
    let mut ds = parse(src, &file, &ParseOpts::default()).expect("test YAML parses");
    annotate_docset(&mut ds, host, names);
    ds
}

/// The documents of `ds` as ytt prints them.
pub fn yaml(ds: &DocSet) -> String {
    docset_to_yaml(ds)
}

fn annotate_docset(ds: &mut DocSet, host: &mut TestHost, names: &Names) {
    for doc in &mut ds.items {
        doc.anns = annotations(&doc.comments, host, names);
        annotate(&mut doc.value, host, names);
    }
}

fn annotate(v: &mut Value, host: &mut TestHost, names: &Names) {
    match v {
        Value::Map(m) => {
            m.anns = annotations(&m.comments, host, names);
            for item in &mut m.items {
                item.anns = annotations(&item.comments, host, names);
                annotate(&mut item.value, host, names);
            }
        }
        Value::Array(a) => {
            a.anns = annotations(&a.comments, host, names);
            for item in &mut a.items {
                item.anns = annotations(&item.comments, host, names);
                annotate(&mut item.value, host, names);
            }
        }
        _ => {}
    }
}

fn annotations(comments: &[Comment], host: &mut TestHost, names: &Names) -> Annotations {
    let mut anns = Annotations::default();
    for c in comments {
        let Some(text) = c.data.strip_prefix('@') else {
            continue;
        };
        let (name, content) = text.split_once(' ').unwrap_or((text, ""));
        if name.is_empty() {
            continue;
        }
        anns.set(Annotation {
            name: name.to_string(),
            args: Vec::new(),
            kwargs: kwargs(content, host, names),
            pos: c.pos.clone(),
        });
    }
    anns
}

/// Splits at top-level commas (outside brackets and quotes).
fn split_top(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut quote = None;
    let mut cur = String::new();
    for ch in s.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(ch),
            (None, '[' | '(' | '{') => depth += 1,
            (None, ']' | ')' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        parts.push(cur);
    }
    parts.into_iter().map(|p| p.trim().to_string()).collect()
}

fn kwargs(content: &str, host: &mut TestHost, names: &Names) -> Vec<(String, AnnValue)> {
    split_top(content)
        .into_iter()
        .filter_map(|part| {
            let (k, v) = part.split_once('=')?;
            Some((k.trim().to_string(), value(v.trim(), host, names)))
        })
        .collect()
}

fn value(v: &str, host: &mut TestHost, names: &Names) -> AnnValue {
    let scalar = |x| AnnValue::Scalar(x);
    match v {
        "True" => scalar(Value::Bool(true)),
        "False" => scalar(Value::Bool(false)),
        "None" => scalar(Value::Null),
        _ if v.starts_with('[') && v.ends_with(']') => {
            let inner = &v[1..v.len() - 1];
            let items = split_top(inner)
                .iter()
                .map(|p| value(p, host, names))
                .collect();
            host.list(items)
        }
        _ if (v.starts_with('"') && v.ends_with('"'))
            || (v.starts_with('\'') && v.ends_with('\'')) =>
        {
            scalar(Value::String(v[1..v.len() - 1].to_string()))
        }
        _ => match v.parse::<i64>() {
            Ok(n) => scalar(Value::Int(n)),
            Err(_) => names
                .get(v)
                .cloned()
                .unwrap_or_else(|| panic!("unknown name in test annotation: {v}")),
        },
    }
}

/// A position in `file` at `line`, for expected values.
pub fn at(file: &str, line: u32) -> Pos {
    let file: Arc<str> = Arc::from(file);
    Pos::new(&file, line, 1, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_annotations_on_the_nodes_they_precede() {
        let mut host = TestHost::new();
        let mut names = Names::new();
        names.insert("all", host.all());
        let src = "#@overlay/match by=all, expects=[1, \"2+\"]\n---\nkey: #@overlay/remove\n#@overlay/replace or_add=True\nk2:\n- #@overlay/match by=\"name\"\n  name: x\n";
        let ds = load(src, "o.yml", &mut host, &names);
        let doc = ds
            .items
            .iter()
            .find(|d| d.anns.has("overlay/match"))
            .unwrap();
        let m = doc.anns.get("overlay/match").unwrap();
        assert_eq!(m.kwargs.len(), 2);
        assert_eq!(m.kwargs[0].0, "by");
        let Value::Map(map) = &doc.value else {
            panic!()
        };
        assert!(map.items[0].anns.has("overlay/remove"));
        assert!(map.items[1].anns.has("overlay/replace"));
    }
}
