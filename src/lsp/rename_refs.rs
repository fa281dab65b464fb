//! Where a file's code names a data value, for a rename: every `data.values.a.b` (and
//! `data.values["a"]`, an alias `v = data.values.a` then `v.b`, `data` loaded under another
//! name), in the code of the file only (`#@` lines and `(@ ... @)` tags of a template, the
//! whole of a Starlark file, not its strings and comments). A use that the rename cannot
//! follow is a refusal, with its place: an ancestor of the value used whole (passed to a
//! function, iterated, returned: what reads the value from it is out of sight), indexed with
//! a computed key, or `getattr`/`hasattr` with a computed name. `hasattr(data.values.a, "b")`
//! with a literal name is renamed in its literal.

use std::collections::HashMap;

use super::chain::{chains, Seg};
use super::context::ytt_aliases;
use super::rename_aliases::{aliases, Aliases};

/// What kind of file the code is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A YAML template: `#@` lines, and `(@ ... @)` when it has text-templated strings.
    Yaml,
    /// A Starlark module: all of it.
    Star,
    /// A text template: `(@ ... @)`.
    Text,
}

/// The places of one file to rename (byte ranges of the text), and the uses that forbid the
/// rename (a line, from 1, and why).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Refs {
    pub edits: Vec<(usize, usize)>,
    pub refusals: Vec<(u32, String)>,
    /// The names the file binds to the value, an ancestor or a descendant of it (another
    /// file that loads one of them reads the value out of sight).
    pub aliases: Vec<String>,
}

/// The byte ranges of `text` that hold code.
pub fn code_regions(kind: Kind, text: &str) -> Vec<(usize, usize)> {
    if kind == Kind::Star {
        return vec![(0, text.len())];
    }
    let mut out = Vec::new();
    let templated = kind == Kind::Text || text.contains("text-templated-strings");
    // Lines as the editor and ytt count them: a CR alone ends one too.
    for span in crate::pos::lines(text) {
        let (start, end) = (span.start, span.end);
        let line = &text[start..end];
        if kind == Kind::Yaml && !line.trim_start().starts_with("#!") {
            if let Some(i) = line.find("#@") {
                out.push((start + i + 2, end));
            }
        }
        if templated {
            let mut from = 0;
            while let Some(open) = line[from..].find("(@") {
                let code = from + open + 2;
                let Some(close) = line[code..].find("@)") else {
                    break;
                };
                out.push((start + code, start + code + close));
                from = code + close + 2;
            }
        }
    }
    out
}

/// The names a file loads the `data` module as, the names its code may call it by (`data`
/// when it does not load it), and its aliases of data values paths.
pub fn file_aliases(kind: Kind, text: &str) -> (Vec<String>, Vec<String>, Aliases) {
    let loaded: Vec<String> = ytt_aliases(text)
        .into_iter()
        .filter(|(_, module)| module == "data")
        .map(|(local, _)| local)
        .collect();
    let data_names = if loaded.is_empty() {
        vec!["data".to_string()]
    } else {
        loaded.clone()
    };
    let mut lines: Vec<(u32, &str)> = Vec::new();
    for (start, end) in code_regions(kind, text) {
        let mut at = start;
        for line in text[start..end].split_inclusive('\n') {
            lines.push((line_no(text, at), line));
            at += line.len();
        }
    }
    let found = aliases(&lines, &data_names);
    (loaded, data_names, found)
}

/// The byte ranges of string literals and comments in the code `code`.
fn strings_and_comments(code: &str) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                let end = code[i..].find('\n').map_or(code.len(), |e| i + e);
                out.push((i, end));
                i = end;
            }
            q @ (b'"' | b'\'') => {
                let triple = bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q);
                let open = if triple { 3 } else { 1 };
                let mut j = i + open;
                while j < bytes.len() {
                    if bytes[j] == b'\\' {
                        j += 2;
                        continue;
                    }
                    if !triple && bytes[j] == b'\n' {
                        break;
                    }
                    let closes = bytes[j] == q
                        && (!triple
                            || (bytes.get(j + 1) == Some(&q) && bytes.get(j + 2) == Some(&q)));
                    if closes {
                        j += open;
                        break;
                    }
                    j += 1;
                }
                let end = j.min(bytes.len());
                out.push((i, end));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// The places of `text` (a file of `kind`) that name the data value `path`.
pub fn find(kind: Kind, text: &str, path: &[String]) -> Refs {
    let mut refs = Refs::default();
    if path.is_empty() {
        return refs;
    }
    let (loaded, data_names, found) = file_aliases(kind, text);
    let regions = code_regions(kind, text);
    let related = |p: &[String]| p.starts_with(path) || path.starts_with(p);
    let mut ambiguous: Vec<(&String, &(Vec<String>, u32))> = found
        .ambiguous
        .iter()
        .filter(|(_, (p, _))| related(p))
        .collect();
    ambiguous.sort_by_key(|(name, (_, line))| (*line, (*name).clone()));
    for (name, (p, line)) in ambiguous {
        refs.refusals.push((
            *line,
            format!(
                "`{name}` is bound to {} and to something else too: which of its uses read the value cannot be told",
                shown(p)
            ),
        ));
        refs.aliases.push(name.clone());
    }
    let mut names: Vec<String> = found
        .paths
        .iter()
        .filter(|(_, p)| related(p))
        .map(|(n, _)| n.clone())
        .collect();
    names.sort();
    refs.aliases.extend(names);
    let aliases = &found.paths;
    for (start, end) in regions {
        let code = &text[start..end];
        let skipped = strings_and_comments(code);
        let inside = |at: usize| skipped.iter().any(|(s, e)| *s <= at && at < *e);
        let mut line_start = 0;
        for line in code.split_inclusive('\n') {
            for chain in chains(line) {
                let Some(first) = chain.first() else { continue };
                if inside(line_start + first.start) {
                    continue;
                }
                let base = if chain.len() >= 2
                    && data_names.contains(&chain[0].text)
                    && chain[1].text == "values"
                {
                    Some((Vec::new(), 2))
                } else {
                    aliases.get(&chain[0].text).map(|p| (p.clone(), 1))
                };
                let Some((mut at, from)) = base else {
                    // The module itself passed on or bound to another name.
                    let bare = chain.len() == 1 && loaded.contains(&chain[0].text);
                    if bare && !line.contains("load(") {
                        let line_no = line_no(text, start + line_start + first.start);
                        refs.refusals.push((
                            line_no,
                            format!("the module `{}` is used whole: what reads data values from it cannot be followed", chain[0].text),
                        ));
                    }
                    continue;
                };
                // The name of an alias where it is assigned.
                let rest = line[chain.last().map_or(0, |s| s.after)..].trim_start();
                if from == 1 && chain.len() == 1 && rest.starts_with('=') && !rest.starts_with("==")
                {
                    continue;
                }
                let place = |s: &Seg| (start + line_start + s.start, start + line_start + s.end);
                for seg in &chain[from.min(chain.len())..] {
                    at.push(seg.text.clone());
                    if at.as_slice() == path {
                        refs.edits.push(place(seg));
                    }
                }
                let ancestor = at.len() < path.len() && path.starts_with(&at);
                if ancestor {
                    let line_no = line_no(text, start + line_start + first.start);
                    let after = chain.last().map_or(0, |s| s.after);
                    match escape(line, first.start, after, &at, path, aliases) {
                        Use::Followed => {}
                        Use::Literal(s, e) => refs
                            .edits
                            .push((start + line_start + s, start + line_start + e)),
                        Use::Refused(why) => refs.refusals.push((line_no, why)),
                    }
                }
            }
            line_start += line.len();
        }
    }
    refs.edits.sort();
    refs.edits.dedup();
    refs
}

/// How the code uses an ancestor of the value being renamed.
enum Use {
    /// `v = data.values.a` (the alias's own uses are found as chains), or
    /// `hasattr(data.values.a, "other")`.
    Followed,
    /// `hasattr(data.values.a, "b")`: the literal's bytes (in the line).
    Literal(usize, usize),
    Refused(String),
}

/// `data.values.a.b` for the path `[a, b]`.
fn shown(at: &[String]) -> String {
    if at.is_empty() {
        "data.values".to_string()
    } else {
        format!("data.values.{}", at.join("."))
    }
}

/// How the chain from `from` to `after` of `line`, which reads the ancestor `at` of `path`,
/// is used (`aliases`: the names bound to a data values path).
fn escape(
    line: &str,
    from: usize,
    after: usize,
    at: &[String],
    path: &[String],
    aliases: &HashMap<String, Vec<String>>,
) -> Use {
    let shown = shown(at);
    let before = line[..from].trim_end();
    let rest = line[after..].trim_start();
    let lhs = before.strip_suffix('=').map(str::trim_end);
    let is_alias = lhs.is_some_and(|l| {
        let name = l
            .rsplit(|c: char| c.is_whitespace() || c == '@')
            .next()
            .unwrap_or("");
        aliases.get(name).is_some_and(|p| p.as_slice() == at) && !l.ends_with(['=', '!', '<', '>'])
    }) && (rest.is_empty() || rest.starts_with('#') || rest.starts_with(';'));
    if is_alias {
        return Use::Followed;
    }
    if rest.starts_with('[') {
        return Use::Refused(format!("{shown} is indexed with a computed key"));
    }
    for f in ["hasattr", "getattr"] {
        if let Some(call) = before.strip_suffix('(').map(str::trim_end) {
            if call.ends_with(f)
                && !call[..call.len() - f.len()]
                    .ends_with(|c: char| super::chain::is_name(c) || c == '.')
            {
                let Some(arg) = rest.strip_prefix(',').map(str::trim_start) else {
                    return Use::Refused(format!("{f}() reads {shown} with no name"));
                };
                let quote = arg.chars().next().filter(|q| *q == '"' || *q == '\'');
                let literal = quote.and_then(|q| {
                    let inner = &arg[1..];
                    inner.find(q).map(|e| &inner[..e])
                });
                let next = path.get(at.len());
                return match literal {
                    Some(name) if at.len() + 1 == path.len() && next.is_some_and(|l| l == name) => {
                        let s = line.len() - arg.len() + 1;
                        Use::Literal(s, s + name.len())
                    }
                    Some(name) if next.is_some_and(|l| l == name) => Use::Refused(format!(
                        "{f}({shown}, \"{name}\") reads an ancestor of data.values.{} by name",
                        path.join(".")
                    )),
                    Some(_) => Use::Followed,
                    None => Use::Refused(format!("{f}() reads {shown} with a computed name")),
                };
            }
        }
    }
    Use::Refused(format!(
        "{shown} is used whole (passed on, iterated or returned): what reads `{}` from it cannot be followed",
        path.join(".")
    ))
}

/// The line (from 1) of byte `at` of `text`.
fn line_no(text: &str, at: usize) -> u32 {
    crate::pos::line_at(text, at).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &str) -> Vec<String> {
        path.split('.').map(str::to_string).collect()
    }

    fn renamed(kind: Kind, text: &str, path: &str, to: &str) -> (String, Vec<(u32, String)>) {
        let refs = find(kind, text, &p(path));
        let mut out = text.to_string();
        for (s, e) in refs.edits.iter().rev() {
            out.replace_range(s..e, to);
        }
        (out, refs.refusals)
    }

    #[test]
    fn templates_rename_their_code_and_nothing_else() {
        let text = "#@ load(\"@ytt:data\", \"data\")\n#@ v = data.values.app\nport: #@ data.values.app.port\nother: #@ v.port + data.values[\"app\"].port\ntext: data.values.app.port\n#@ s = \"data.values.app.port\" # data.values.app.port\nname: #@ data.values.app.portal\n";
        let (out, refused) = renamed(Kind::Yaml, text, "app.port", "listen");
        assert_eq!(refused, []);
        assert!(out.contains("port: #@ data.values.app.listen\n"), "{out}");
        assert!(
            out.contains("other: #@ v.listen + data.values[\"app\"].listen\n"),
            "{out}"
        );
        assert!(
            out.contains("text: data.values.app.port\n"),
            "plain text is kept: {out}"
        );
        assert!(
            out.contains("\"data.values.app.port\" # data.values.app.port"),
            "{out}"
        );
        assert!(out.contains("app.portal"), "{out}");
    }

    #[test]
    fn uses_that_cannot_be_followed_refuse() {
        let text = "#@ load(\"@ytt:data\", \"data\")\na: #@ labels(data.values.app)\nb: #@ getattr(data.values.app, key)\nc: #@ data.values.app[key]\n";
        let refs = find(Kind::Yaml, text, &p("app.port"));
        let lines: Vec<u32> = refs.refusals.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [2, 3, 4]);
        assert!(
            refs.refusals[0].1.contains("used whole"),
            "{:?}",
            refs.refusals
        );
        assert!(refs.refusals[1].1.contains("computed name"));
        assert!(refs.refusals[2].1.contains("computed key"));
        // A leaf passed on is fine: only its ancestors hide readers.
        assert!(find(
            Kind::Yaml,
            "a: #@ f(data.values.app.port)\n",
            &p("app.port")
        )
        .refusals
        .is_empty());
    }

    #[test]
    fn literal_names_aliases_of_the_module_and_text_templates() {
        let text = "load(\"@ytt:data\", d=\"data\")\ndef f():\n  if hasattr(d.values.app, \"port\"):\n    return d.values.app.port\n  end\n  return 'd.values.app.port'\nend\n";
        let (out, refused) = renamed(Kind::Star, text, "app.port", "listen");
        assert_eq!(refused, []);
        assert!(out.contains("hasattr(d.values.app, \"listen\")"), "{out}");
        assert!(out.contains("return d.values.app.listen\n"), "{out}");
        assert!(out.contains("'d.values.app.port'"), "{out}");
        let txt = "port (@= str(data.values.app.port) @) and data.values.app.port\n";
        let (out, _) = renamed(Kind::Text, txt, "app.port", "listen");
        assert_eq!(
            out,
            "port (@= str(data.values.app.listen) @) and data.values.app.port\n"
        );
    }

    #[test]
    fn aliases_of_aliases_are_followed_and_hidden_readers_refuse() {
        let text = "load(\"@ytt:data\", d=\"data\")\napp = d.values.app\nnet = app\ndef f():\n  return net.port\nend\n";
        let (out, refused) = renamed(Kind::Star, text, "app.port", "listen");
        assert_eq!(refused, []);
        assert!(out.contains("return net.listen\n"), "{out}");
        for (text, why) in [
            ("load(\"@ytt:data\", \"data\")\nx = getattr(data.values, \"app\").port\n", "by name"),
            ("load(\"@ytt:data\", \"data\")\nm = data\nx = m.values.app.port\n", "module `data` is used whole"),
            ("load(\"@ytt:data\", \"data\")\napp = data.values.app\ndef f(app):\n  return app.port\nend\n", "something else too"),
            ("load(\"@ytt:data\", \"data\")\nx, y = data.values.app, 1\n", "used whole"),
        ] {
            let refs = find(Kind::Star, text, &p("app.port"));
            assert!(refs.refusals.iter().any(|(_, w)| w.contains(why)), "{text}: {:?}", refs.refusals);
        }
        // An unrelated literal is no reader of the value.
        let text = "load(\"@ytt:data\", \"data\")\nx = hasattr(data.values, \"other\")\n";
        assert_eq!(find(Kind::Star, text, &p("app.port")).refusals, []);
    }
}
