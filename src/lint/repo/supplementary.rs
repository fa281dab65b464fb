//! ytt files that add nothing to the output on their own: overlays (`@overlay/match` on every
//! document), data values and schema documents, Starlark modules and `.lib.*` files. A
//! directory whose ytt files are all of this kind is meant to be given to ytt together with
//! other files: it is not a root on its own, and its files are only checked (parse, compile,
//! annotations), as a private library is.

use std::sync::Arc;

use crate::library::plain::doc_has_annotation;
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::Value;

/// Document annotations of documents that produce no output of their own.
const SUPPLEMENTARY: [&str; 3] = ["overlay/match", "data/values", "data/values-schema"];

/// What a file that only supplements others holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supplement {
    /// `@data/values` documents.
    pub values: bool,
    /// `@data/values-schema` documents.
    pub schema: bool,
    /// `@overlay/match` documents.
    pub overlay: bool,
    /// Functions for other files: Starlark, a `.lib.*` file, or code without documents.
    pub code: bool,
}

impl Supplement {
    /// Whether it only gives data values: what the templates below it need is not there.
    pub fn only_values(&self) -> bool {
        self.values && !(self.schema || self.overlay || self.code)
    }
}

/// Whether the ytt file at repository-relative `path`, with `text`, only supplements others.
pub fn is_supplementary(path: &str, text: &str) -> bool {
    supplement(path, text).is_some()
}

/// Whether a ytt YAML file has a document that is an overlay (`@overlay/match` on it).
pub fn has_overlay_document(path: &str, text: &str) -> bool {
    if !text.contains("overlay/match") {
        return false;
    }
    let file: Arc<str> = Arc::from(path);
    parse(text, &file, &ParseOpts::default()).is_ok_and(|ds| {
        ds.items
            .iter()
            .any(|d| doc_has_annotation(&d.comments, SUPPLEMENTARY[0]))
    })
}

/// What the ytt file at repository-relative `path`, with `text`, holds when it only
/// supplements others.
pub fn supplement(path: &str, text: &str) -> Option<Supplement> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let code = Supplement {
        code: true,
        ..Supplement::default()
    };
    if name.ends_with(".star") || name.contains(".lib.") {
        return Some(code);
    }
    if !(name.ends_with(".yml") || name.ends_with(".yaml")) {
        return None;
    }
    let file: Arc<str> = Arc::from(path);
    // A file that does not parse is reported by whatever evaluates it.
    let ds = parse(text, &file, &ParseOpts::default()).ok()?;
    let mut found = Supplement::default();
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = ds.items.iter().map(|d| d.pos.line as usize).collect();
    // A file of code alone that calls something at its top level (`fail()`, `assert...`):
    // ytt evaluates it when it is given, and fails where it fails. It is a template.
    let no_document = ds.items.iter().all(|d| {
        matches!(d.value, Value::Null)
            && !d
                .comments
                .iter()
                .any(|c| c.pos.line == d.pos.line && c.data.starts_with("@ "))
    });
    if no_document && runs_code(&lines) {
        return None;
    }
    for (i, d) in ds.items.iter().enumerate() {
        let has = |a: &str| doc_has_annotation(&d.comments, a);
        found.values |= has(SUPPLEMENTARY[1]);
        found.schema |= has(SUPPLEMENTARY[2]);
        found.overlay |= has(SUPPLEMENTARY[0]);
        let annotated = SUPPLEMENTARY.iter().any(|a| has(a));
        // A document with a value on its `---` line (`--- #@ f()`) produces output.
        let valued = d
            .comments
            .iter()
            .any(|c| c.pos.line == d.pos.line && c.data.starts_with("@ "));
        let empty = matches!(d.value, Value::Null) && !valued;
        // Nodes that only make up the bodies of functions (`#@ def sel():` ... `#@ end`
        // before the first `---`) are code, not output.
        let from = if i == 0 { 1 } else { starts[i] };
        let to = starts.get(i + 1).copied().unwrap_or(lines.len() + 1);
        let code_only = !valued && only_functions(&lines, from, to);
        if !(annotated || empty || code_only) {
            return None;
        }
    }
    if found == Supplement::default() {
        found.code = true;
    }
    Some(found)
}

/// Whether the `#@` code of `lines` calls something outside every `def` (at the top level, or
/// in an `if` or `for` there): a statement that is a call (`fail("...")`, `assert.equals(...)`,
/// `print(...)`), or an assignment of one that fails or asserts. Loads, definitions and
/// assignments of other values are what helper files hold.
fn runs_code(lines: &[&str]) -> bool {
    // The kind of each open block: whether it is a function.
    let mut open: Vec<bool> = Vec::new();
    for line in lines {
        let t = line.trim();
        let Some(code) = t.strip_prefix("#@ ").or_else(|| t.strip_prefix("#@\t")) else {
            continue;
        };
        let code = code.trim();
        let word = code
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .next()
            .unwrap_or("");
        let block = code.ends_with(':');
        match word {
            "end" => {
                open.pop();
                continue;
            }
            "def" => {
                open.push(true);
                continue;
            }
            "if" | "for" | "while" if block => {
                open.push(false);
                continue;
            }
            "elif" | "else" | "load" | "return" | "pass" | "break" | "continue" => continue,
            _ => {}
        }
        if open.iter().any(|is_def| *is_def) || !code.contains('(') {
            continue;
        }
        let assignment = code.split_once('=').is_some_and(|(lhs, rhs)| {
            !rhs.starts_with('=') && !lhs.ends_with(['!', '<', '>', '=']) && !lhs.contains('(')
        });
        if !assignment || code.contains("fail(") || code.contains("assert.") {
            return true;
        }
    }
    false
}

/// Whether every YAML line of lines `from..to` (1-based, `to` excluded) lies in the body of a
/// `#@ def` block, and there is at least one.
fn only_functions(lines: &[&str], from: usize, to: usize) -> bool {
    // The kind of each open block: whether it is a function or inside one.
    let mut open: Vec<bool> = Vec::new();
    let mut any = false;
    for line in lines
        .iter()
        .take(to.saturating_sub(1))
        .skip(from.saturating_sub(1))
    {
        let t = line.trim();
        if t.is_empty() || t.starts_with("#!") || t == "---" || t.starts_with("--- ") {
            continue;
        }
        let Some(code) = t.strip_prefix("#@") else {
            if t.starts_with('#') {
                continue;
            }
            if !open.last().copied().unwrap_or(false) {
                return false;
            }
            any = true;
            continue;
        };
        let code = code.trim();
        let word = code
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .next();
        let in_def = open.last().copied().unwrap_or(false);
        match word {
            Some("end") => {
                open.pop();
            }
            Some("def") if code.ends_with(':') => open.push(true),
            Some("if" | "for" | "while") if code.ends_with(':') => open.push(in_def),
            _ => {}
        }
    }
    any && open.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlays_values_and_schemas_only_supplement() {
        let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"PackageInstall\"})\n---\nspec:\n  values: []\n";
        assert!(is_supplementary("t/config/overlay.yml", overlay));
        assert!(is_supplementary("v.yml", "#@data/values\n---\na: 1\n"));
        assert!(is_supplementary(
            "s.yml",
            "#@data/values-schema\n---\na: 1\n#@data/values\n---\na: 2\n"
        ));
        assert!(is_supplementary("h.star", "def f(): return 1\n"));
        assert!(is_supplementary(
            "helpers.lib.yml",
            "#@ def f():\na: 1\n#@ end\n"
        ));
        assert!(is_supplementary(
            "code.yml",
            "#@ load(\"@ytt:data\", \"data\")\n"
        ));
        let values = supplement("v.yml", "#@data/values\n---\na: 1\n").unwrap();
        assert!(values.only_values());
        assert!(has_overlay_document("o.yml", overlay));
        let overlay = supplement("t/config/overlay.yml", overlay).unwrap();
        assert!(overlay.overlay && !overlay.only_values());
    }

    #[test]
    fn templates_with_documents_of_their_own_do_not() {
        assert!(!is_supplementary(
            "d.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n"
        ));
        assert!(!is_supplementary(
            "m.yml",
            "#@overlay/match by=x\n---\na: 1\n---\nkind: Secret\n"
        ));
        assert!(!is_supplementary(
            "f.yml",
            "#@ def f():\na: 1\n#@ end\n--- #@ f()\n"
        ));
        assert!(!is_supplementary("t.txt", "(@= x @)"));
        // A function's body before the first `---` is code, but a document after it is
        // output.
        assert!(!is_supplementary(
            "g.yml",
            "#@ def sel():\nkind: X\n#@ end\n---\nkind: X\n"
        ));
    }

    /// ytt evaluates a file of code alone, and fails where it fails: such a file that calls
    /// something at its top level is a template, not a helper.
    #[test]
    fn code_that_runs_at_the_top_level_makes_a_template() {
        for text in [
            "#@ fail(\"boom\")\n",
            "#@ fail(\"boom\")\n---\n",
            "#@ load(\"@ytt:assert\", \"assert\")\n#@ assert.equals(1, 2)\n",
            "#@ load(\"@ytt:data\", \"data\")\n#@ if not data.values.name:\n#@   fail(\"name is required\")\n#@ end\n",
            "#@ x = fail(\"boom\")\n",
            "#@ print(\"hello\")\n",
        ] {
            assert!(!is_supplementary("config/only.yml", text), "{text}");
        }
        for text in [
            "#! only a comment\n",
            "#@ load(\"@ytt:data\", \"data\")\n#@ def name():\n#@   fail(\"not here\")\n#@ end\n",
            "#@ load(\"@ytt:struct\", \"struct\")\n#@ defaults = struct.make(a=1)\n",
            "#@ if True:\n#@   x = 1\n#@ end\n",
        ] {
            assert!(is_supplementary("config/helpers.yml", text), "{text}");
        }
        // A `.lib.yml` file is never evaluated on its own.
        assert!(is_supplementary("config/h.lib.yml", "#@ fail(\"boom\")\n"));
    }

    #[test]
    fn functions_before_the_first_document_are_code() {
        let text = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def sel():\nkind: X\n#@ if True:\nb: 1\n#@ end\n#@ end\n#@overlay/match by=overlay.subset(sel())\n---\nspec: {}\n";
        let found = supplement("ov/o.yml", text).unwrap();
        assert!(found.overlay);
    }
}
