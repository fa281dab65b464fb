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

/// Whether the ytt file at repository-relative `path`, with `text`, only supplements others.
pub fn is_supplementary(path: &str, text: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with(".star") || name.contains(".lib.") {
        return true;
    }
    if !(name.ends_with(".yml") || name.ends_with(".yaml")) {
        return false;
    }
    let file: Arc<str> = Arc::from(path);
    let Ok(ds) = parse(text, &file, &ParseOpts::default()) else {
        // A file that does not parse is reported by whatever evaluates it.
        return false;
    };
    ds.items.iter().all(|d| {
        let annotated = SUPPLEMENTARY
            .iter()
            .any(|a| doc_has_annotation(&d.comments, a));
        // A document with a value on its `---` line (`--- #@ f()`) produces output.
        let valued = d
            .comments
            .iter()
            .any(|c| c.pos.line == d.pos.line && c.data.starts_with("@ "));
        annotated || (matches!(d.value, Value::Null) && !valued)
    })
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
