//! Data values whose map keys are not all strings. ytt builds `data.values` as a struct when a
//! file loads `@ytt:data`, and Go's conversion panics on the first key that is not a string
//! (`panic: expected struct key %!s(int=80) to be string`): the panic is not recovered, so
//! ytt crashes (exit status 2) with no position. Data values that nothing loads are never
//! converted. yttlint's struct takes such keys, so without this check the evaluation went on
//! where ytt stops (measured with ytt 4b40e30: an int key in a `--data-values-file`, a YAML
//! map used as a key in a `#@data/values` document).

use crate::yaml::{scalar_key_string, MapItem, Value};

/// The first item (in Go's order: a map's keys one by one, each before its value) whose key
/// is not a string.
fn first_item(v: &Value) -> Option<&MapItem> {
    match v {
        Value::Map(m) => m.items.iter().find_map(|it| match &it.key {
            Value::String(_) => first_item(&it.value),
            _ => Some(it),
        }),
        Value::Array(a) => a.items.iter().find_map(|it| first_item(&it.value)),
        _ => None,
    }
}

/// What the data values `values` make ytt say when a file loads `@ytt:data`, if it crashes.
pub fn crash(values: &Value) -> Option<String> {
    let item = first_item(values)?;
    let key = match &item.key {
        Value::Map(_) => "a YAML map".to_string(),
        Value::Array(_) => "a YAML sequence".to_string(),
        scalar => format!("`{}`", scalar_key_string(scalar)),
    };
    let at = if item.pos.is_known() {
        format!(" ({})", item.pos.as_compact())
    } else {
        String::new()
    };
    Some(format!(
        "ytt crashes loading @ytt:data (panic: expected struct key … to be string, exit status \
         2): a data values key is not a string: {key}{at}; quote the key to make it one"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn values(src: &str) -> Value {
        let file: Arc<str> = Arc::from("values.yml");
        let set = parse(src, &file, &ParseOpts::default()).unwrap_or_default();
        set.items
            .into_iter()
            .next()
            .map(|d| d.value)
            .unwrap_or(Value::Null)
    }

    #[test]
    fn the_first_key_that_is_not_a_string_in_go_s_order() {
        assert_eq!(crash(&values("a: 1\nb:\n  c: [x]\n")), None);
        let said = crash(&values("a:\n  80: http\n\"443\": https\n")).unwrap_or_default();
        assert!(
            said.contains("key is not a string: `80` (values.yml:2)"),
            "{said}"
        );
        let said = crash(&values("ports:\n- {8080: web}\n")).unwrap_or_default();
        assert!(said.contains("`8080` (values.yml:2)"), "{said}");
        let said = crash(&values("a:\n  key: {{ .x }}\n")).unwrap_or_default();
        assert!(said.contains("a YAML map (values.yml:2)"), "{said}");
        assert!(said.starts_with("ytt crashes loading @ytt:data"), "{said}");
    }
}
