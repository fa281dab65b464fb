//! The names a file binds to a data values path, for a rename: `v = data.values.a` (the
//! `data` module under any name it is loaded as) and `w = v.b` (an alias of an alias), found
//! to a fixed point in the code of the file. A name that is bound to a data values path and
//! also otherwise (assigned something else, a function's parameter, a loop or lambda
//! variable, a loaded name) is ambiguous: which of its uses read the data value cannot be told
//! from the text, and a rename that touches it is refused.

use std::collections::HashMap;

use super::chain::{chains, is_name};

/// The aliases of a file: each name bound to a data values path only, and the ambiguous
/// names with one path they are bound to and the line (from 1) of another binding.
#[derive(Debug, Default)]
pub struct Aliases {
    pub paths: HashMap<String, Vec<String>>,
    pub ambiguous: HashMap<String, (Vec<String>, u32)>,
}

/// One binding of a name: the chain it is assigned (`None`: not a plain chain), its line.
struct Binding {
    chain: Option<Vec<String>>,
    line: u32,
}

/// The aliases of the code `lines` (each with its line number, from 1), where the `data`
/// module is called by one of `data_names`.
pub fn aliases(lines: &[(u32, &str)], data_names: &[String]) -> Aliases {
    let mut bindings: HashMap<String, Vec<Binding>> = HashMap::new();
    for (n, line) in lines {
        for (name, chain) in bindings_of(line) {
            bindings
                .entry(name)
                .or_default()
                .push(Binding { chain, line: *n });
        }
    }
    // The path each binding reads, to a fixed point (an alias of an alias of ...).
    let mut paths: HashMap<String, Vec<String>> = HashMap::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (name, list) in &bindings {
            if paths.contains_key(name) {
                continue;
            }
            let resolved = list
                .iter()
                .find_map(|b| resolve(b.chain.as_deref()?, data_names, &paths));
            if let Some(p) = resolved {
                paths.insert(name.clone(), p);
                changed = true;
            }
        }
    }
    let mut out = Aliases::default();
    for (name, path) in &paths {
        let other = bindings.get(name).and_then(|list| {
            list.iter().find(|b| {
                let read = b
                    .chain
                    .as_deref()
                    .and_then(|c| resolve(c, data_names, &paths));
                read.as_ref() != Some(path)
            })
        });
        match other {
            Some(b) => {
                out.ambiguous.insert(name.clone(), (path.clone(), b.line));
            }
            None => {
                out.paths.insert(name.clone(), path.clone());
            }
        }
    }
    // A name resolved through an ambiguous one is ambiguous too.
    let through: Vec<String> = out
        .paths
        .keys()
        .filter(|name| {
            bindings.get(*name).is_some_and(|list| {
                list.iter().any(|b| {
                    b.chain
                        .as_ref()
                        .and_then(|c| c.first())
                        .is_some_and(|f| out.ambiguous.contains_key(f))
                })
            })
        })
        .cloned()
        .collect();
    for name in through {
        if let Some(path) = out.paths.remove(&name) {
            let line = bindings
                .get(&name)
                .and_then(|l| l.first())
                .map_or(1, |b| b.line);
            out.ambiguous.insert(name, (path, line));
        }
    }
    out
}

/// The data values path the chain `segs` reads: from `data.values`, or from an alias.
pub fn resolve(
    segs: &[String],
    data_names: &[String],
    paths: &HashMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    let first = segs.first()?;
    if data_names.contains(first) {
        return (segs.get(1).map(String::as_str) == Some("values")).then(|| segs[2..].to_vec());
    }
    let mut p = paths.get(first)?.clone();
    p.extend(segs[1..].iter().cloned());
    Some(p)
}

/// The names a line of code binds, each with the chain it is assigned when the binding is
/// `name = a.b.c` and nothing else.
fn bindings_of(line: &str) -> Vec<(String, Option<Vec<String>>)> {
    let code = line.trim();
    let mut out = Vec::new();
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !is_name(c))
            .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    if let Some(rest) = code.strip_prefix("def ") {
        let params = rest.split_once('(').map_or("", |(_, p)| p);
        let params = params.rsplit_once(')').map_or(params, |(p, _)| p);
        out.extend(rest.split('(').next().map(|n| (n.trim().to_string(), None)));
        for p in params.split(',') {
            let name = p.split('=').next().unwrap_or("");
            out.extend(words(name).into_iter().map(|w| (w, None)));
        }
        return out;
    }
    // Loop and lambda variables, anywhere in the line (comprehensions too).
    let mut from = 0;
    while let Some(i) = code[from..].find("for ") {
        let at = from + i + 4;
        let starts = code[..from + i]
            .chars()
            .next_back()
            .is_none_or(|c| !is_name(c));
        if starts {
            let vars = code[at..].split(" in ").next().unwrap_or("");
            out.extend(words(vars).into_iter().map(|w| (w, None)));
        }
        from = at;
    }
    let mut from = 0;
    while let Some(i) = code[from..].find("lambda") {
        let at = from + i + 6;
        let vars = code[at..].split(':').next().unwrap_or("");
        out.extend(words(vars).into_iter().map(|w| (w, None)));
        from = at;
    }
    // `name = value`, `a, b = value`, `name += value`.
    if let Some(eq) = assignment_eq(code) {
        let lhs = code[..eq].trim_end_matches(['+', '-', '*', '/', '%', '|', '&']);
        let augmented = lhs.len() != eq;
        let names = words(lhs);
        let plain = !augmented && names.len() == 1 && lhs.trim() == names[0];
        let rhs = code[eq + 1..].split('#').next().unwrap_or("").trim();
        let chain = plain.then(|| whole_chain(rhs)).flatten();
        for w in names {
            out.push((w, chain.clone()));
        }
    }
    out
}

/// The byte of the `=` of an assignment statement (not `==`, `<=`, nor a keyword argument
/// inside brackets).
fn assignment_eq(code: &str) -> Option<usize> {
    let mut depth = 0i32;
    let bytes = code.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'"' | b'\'' => return None,
            b'=' if depth == 0 => {
                let prev = i.checked_sub(1).map(|j| bytes[j]);
                let next = bytes.get(i + 1);
                let compares =
                    matches!(prev, Some(b'=' | b'!' | b'<' | b'>')) || next == Some(&b'=');
                return (!compares).then_some(i);
            }
            _ => {}
        }
    }
    None
}

/// The segments of `text` when it is one chain and nothing else.
fn whole_chain(text: &str) -> Option<Vec<String>> {
    let mut found = chains(text).into_iter();
    let (Some(chain), None) = (found.next(), found.next()) else {
        return None;
    };
    let whole = chain.first().is_some_and(|s| s.start == 0)
        && chain
            .last()
            .is_some_and(|s| s.after == text.len() && !s.text.is_empty());
    whole.then(|| chain.into_iter().map(|s| s.text).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Aliases {
        let lines: Vec<(u32, &str)> = text.lines().zip(1..).map(|(l, n)| (n, l)).collect();
        aliases(&lines, &["data".to_string(), "d".to_string()])
    }

    #[test]
    fn aliases_of_aliases_and_of_the_module_under_another_name() {
        let a = of("v = d.values.app\nw = v.db\nx = w\nn = 1\ny = data.values\n");
        assert_eq!(a.paths["v"], ["app"]);
        assert_eq!(a.paths["w"], ["app", "db"]);
        assert_eq!(a.paths["x"], ["app", "db"]);
        assert_eq!(a.paths["y"], Vec::<String>::new());
        assert!(!a.paths.contains_key("n") && a.ambiguous.is_empty());
    }

    #[test]
    fn a_name_bound_otherwise_too_is_ambiguous() {
        let a =
            of("app = data.values.app\ndef f(app, port=1):\n  return app.port\nend\nw = app.db\n");
        assert_eq!(a.ambiguous["app"], (vec!["app".to_string()], 2));
        assert!(a.ambiguous.contains_key("w"), "{a:?}");
        let a = of("v = data.values.a\nv = data.values.b\n");
        assert!(a.ambiguous.contains_key("v"));
        let a = of("v = data.values.a\nxs = [v for v in other]\n");
        assert!(a.ambiguous.contains_key("v"));
        let a = of("v = data.values.a\nif v == 1:\nf(v=2)\n");
        assert_eq!(
            a.paths["v"],
            ["a"],
            "a comparison and a keyword argument bind nothing"
        );
    }
}
