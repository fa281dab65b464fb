//! ytt's internal names said plainly in a finding. ytt compiles a template into Starlark that
//! calls functions of its own (`__ytt_tpl3_set_node`), and an error raised inside one of them
//! starts with that name: `__ytt_tpl3_set_node: cannot set non-string value (<nil>), ...`.
//! The evaluator keeps ytt's text (the conformance cases and `yttlint render` show it as ytt
//! does); a finding shows what the user wrote instead: the value of a `(@= … @)` in a text
//! template, or the value of a YAML node, with Go's type names as Starlark's.

use regex::Regex;

/// `message` with the internal function names of ytt's compiled templates said plainly; the
/// same text when it holds none.
pub fn plain(message: &str) -> String {
    static NON_STRING: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(
            r"__ytt_tpl[0-9]+_set_node: cannot set non-string value \(([^)\n]{1,40})\), consider using str\(\.\.\.\) to convert to string",
        )
        .ok()
    });
    static SETTER: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"__ytt_tpl[0-9]+_(?:set_node|set_map_item_key): ").ok()
    });
    if !message.contains("__ytt_tpl") {
        return message.to_string();
    }
    let mut out = message.to_string();
    if let Some(re) = NON_STRING.as_ref() {
        out = re
            .replace_all(&out, |c: &regex::Captures<'_>| {
                let go = c.get(1).map_or("", |m| m.as_str());
                format!(
                    "a `(@= … @)` of a text template gives {}, not a string; \
                     consider using str(...) to convert it",
                    starlark_type(go)
                )
            })
            .into_owned();
    }
    if let Some(re) = SETTER.as_ref() {
        // What else these two say (a document set where a value goes, a value that does not
        // encode) reads the same without the function's name.
        out = re.replace_all(&out, "").into_owned();
    }
    out
}

/// The Starlark words for a Go type name of ytt's messages (`<nil>` is `None`).
fn starlark_type(go: &str) -> String {
    match go {
        "<nil>" => "None".to_string(),
        "int64" | "uint64" | "int" => "an int".to_string(),
        "float64" => "a float".to_string(),
        "bool" => "a bool".to_string(),
        "*orderedmap.Map" => "a dict".to_string(),
        "[]interface {}" => "a list".to_string(),
        other => format!("a value of Go type {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_templates_non_string_value_is_named_as_written() {
        let ytt = "__ytt_tpl3_set_node: cannot set non-string value (<nil>), consider using str(...) to convert to string\n    in <toplevel>";
        assert_eq!(
            plain(ytt),
            "a `(@= … @)` of a text template gives None, not a string; consider using str(...) to convert it\n    in <toplevel>"
        );
        let int = "__ytt_tpl12_set_node: cannot set non-string value (int64), consider using str(...) to convert to string";
        assert!(
            plain(int).contains("gives an int, not a string"),
            "{}",
            plain(int)
        );
    }

    #[test]
    fn other_setter_errors_lose_the_name_only() {
        assert_eq!(
            plain("__ytt_tpl2_set_node: map items can only contain arrays, maps, or scalars; this is a document set"),
            "map items can only contain arrays, maps, or scalars; this is a document set"
        );
        assert_eq!(
            plain(
                "this root needs data values: __ytt_tpl2_set_map_item_key: Unable to convert value"
            ),
            "this root needs data values: Unable to convert value"
        );
        // Nothing of ytt's internals: unchanged.
        let other = "unknown binary op: NoneType + string";
        assert_eq!(plain(other), other);
        // An instruction whose error is the engine's own keeps its name.
        let start = "__ytt_tpl1_start_node: expected starlark.Int";
        assert_eq!(plain(start), start);
    }
}
