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
    for d in &ds.items {
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
        if !(annotated || empty) {
            return None;
        }
    }
    if found == Supplement::default() {
        found.code = true;
    }
    Some(found)
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
    }
}
