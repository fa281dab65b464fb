//! Fixes of `annotation-typo` and `unknown-annotation`. Both change what ytt renders, on
//! purpose (the annotation, or the code, starts to apply), so both are unsafe: only
//! `--fix --unsafe-fixes` makes them.
//!
//! - A misspelt annotation of a namespace ytt owns with one correction (`#@overlay/appendxs`,
//!   `#@overlay/delete`, `#@overlay/replace,`) is renamed to it.
//! - `key: #@data.values.x` (no space after `#@`: an annotation named `data.values.x` that ytt
//!   ignores, so the value is null) becomes `key: #@ data.values.x`, when the annotation
//!   follows a key or an item on its line and the name starts with a name the file loads
//!   (`data` of `load("@ytt:data", "data")`) followed by `.`, `[` or `(`.

use crate::fix::{edit, Edit, Fix};

use super::annotations::{correction, Unknown};

/// The fix of the unknown annotation `u` of the file `file` whose text is `text`.
pub fn fix(u: &Unknown, file: &str, text: &str) -> Option<Fix> {
    if u.extension.is_some() {
        return None;
    }
    let at = edit::offset(text, u.pos.line, u.pos.col)?;
    let name_at = at + 2;
    if text.get(at..name_at)? != "#@" || !text[name_at..].starts_with(u.name.as_str()) {
        return None;
    }
    if let Some(code) = code_without_space(u, text, at) {
        let e = Edit::new(file, text, name_at, name_at, " ")?;
        return Some(Fix::unsafe_(
            format!("Insert a space: `#@ {code}` (code, not an annotation)"),
            e,
        ));
    }
    let meant = correction(&u.name)?;
    let (_, line_end) = edit::line_range(text, u.pos.line)?;
    let args = text.get(name_at + u.name.len()..line_end)?.trim();
    if !takes(meant, args) {
        return None;
    }
    let e = Edit::new(file, text, name_at, name_at + u.name.len(), meant)?;
    Some(Fix::unsafe_(format!("Replace with `#@{meant}`"), e))
}

/// Whether the annotation `meant` accepts the arguments `args` written after the misspelt
/// name: `@schema/examples` wants tuples (`("desc", value)`), the documenting annotations one
/// string; `#@schema/example "x"` renamed to `@schema/examples` would make the schema invalid.
fn takes(meant: &str, args: &str) -> bool {
    let string = args.len() >= 2
        && ((args.starts_with('"') && args.ends_with('"'))
            || (args.starts_with('\'') && args.ends_with('\'')));
    match meant {
        "schema/examples" => args.starts_with('('),
        "schema/desc" | "schema/title" | "schema/deprecated" => string,
        _ => true,
    }
}

/// The name of `u` when it is code that lost its space after `#@` (see [`code_without_space`]).
pub fn code<'a>(u: &'a Unknown, text: &str) -> Option<&'a str> {
    let at = edit::offset(text, u.pos.line, u.pos.col)?;
    (text.get(at..at + 2)? == "#@")
        .then(|| code_without_space(u, text, at))
        .flatten()
}

/// The name of `u` when it is code that lost its space after `#@`: after a key or item on its
/// line, starting with a name the file loads.
fn code_without_space<'a>(u: &'a Unknown, text: &str, at: usize) -> Option<&'a str> {
    let name = u.name.as_str();
    let ident_end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|&i| i > 0)?;
    if !matches!(name.as_bytes()[ident_end], b'.' | b'[' | b'(')
        || name.as_bytes()[0].is_ascii_digit()
    {
        return None;
    }
    let (line_start, _) = edit::line_range(text, u.pos.line)?;
    let before = text[line_start..at].trim_end();
    if !(before.ends_with(':') || before.ends_with('-')) || before.contains('#') {
        return None;
    }
    let ident = &name[..ident_end];
    loads(text, ident).then_some(name)
}

/// Whether a `#@ load(...)` line of `text` binds `ident`.
fn loads(text: &str, ident: &str) -> bool {
    let quoted = [format!("\"{ident}\""), format!("'{ident}'")];
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("#@"))
        .filter(|l| l.trim_start().starts_with("load("))
        .any(|l| {
            quoted.iter().any(|q| l.contains(q.as_str()))
                || l.split([',', '(']).any(|arg| {
                    arg.split_once('=')
                        .is_some_and(|(name, _)| name.trim() == ident)
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::extensions::Extensions;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn fixed(src: &str) -> (String, Vec<String>) {
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        let found = super::super::annotations::find(&ds, &Extensions::default());
        let fixes: Vec<Fix> = found.iter().filter_map(|u| fix(u, "t.yml", src)).collect();
        let titles = fixes.iter().map(|f| f.title.clone()).collect();
        let refs: Vec<&Fix> = fixes.iter().collect();
        let chosen = crate::fix::apply::choose(&refs);
        let edits = chosen.edits.get("t.yml").cloned().unwrap_or_default();
        (crate::fix::apply::apply(src, &edits).unwrap(), titles)
    }

    #[test]
    fn misspelt_annotations_with_one_correction_are_renamed() {
        let src = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=overlay.all
---
items:
#@overlay/appendxs
- 3
#@overlay/replace, expects=1
b: []
#@overlay/delete
c: 1
#@kapp/something
d: 1
#@overlay/assend
e: 1
#@schema/example \"arn:aws:iam::MY_IAM:role/external-dns\"
f: \"\"
#@schema/example (\"an ARN\", \"arn:aws:iam::MY_IAM:role/x\")
g: \"\"
#@schema/descr \"the role\"
h: \"\"
";
        let (text, titles) = fixed(src);
        assert_eq!(
            text,
            src.replace("appendxs", "append")
                .replace("replace,", "replace")
                .replace("overlay/delete", "overlay/remove")
                .replace("#@schema/example (", "#@schema/examples (")
                .replace("#@schema/descr", "#@schema/desc")
        );
        assert_eq!(titles[0], "Replace with `#@overlay/append`");
        // overlay/assend is as near append as assert; `@schema/examples "x"` is invalid.
        assert_eq!(titles.len(), 5, "{titles:?}");
    }

    #[test]
    fn code_that_lost_its_space_gets_it_back() {
        let src = "\
#@ load(\"@ytt:data\", \"data\")
#@ load(\"helpers.star\", h=\"helpers\")
---
key: #@data.values.x
list:
- #@h.name(data.values.y)
#@data.values.z
own: 1
other: #@undefined.x
";
        let (text, titles) = fixed(src);
        assert_eq!(
            text,
            src.replace("key: #@data", "key: #@ data")
                .replace("- #@h.", "- #@ h.")
        );
        assert_eq!(
            titles,
            [
                "Insert a space: `#@ data.values.x` (code, not an annotation)",
                "Insert a space: `#@ h.name(data.values.y)` (code, not an annotation)",
            ]
        );
    }
}
