//! Which of the data values a failure reads the command's values files do set, only to null
//! or an empty string (`port: null` in `values.yml`), as against the ones nothing sets: a
//! `needs-input` note says "nothing sets" only of the second (issue 39, item 4), and names
//! the first as left empty.

use crate::library::Workspace;
use crate::yaml::Value;

/// Whether the final data values hold `key` (`a.b`) at all, whatever its value.
fn holds(values: &Value, key: &str) -> bool {
    let mut v = values;
    for part in key.split('.').take(64) {
        let Value::Map(m) = v else {
            return false;
        };
        let Some(item) = m
            .items
            .iter()
            .find(|i| matches!(&i.key, Value::String(k) if k == part))
        else {
            return false;
        };
        v = &item.value;
    }
    true
}

/// `keys` split into those nothing sets and those the values set to null or `""`.
pub fn split(ws: &Workspace, keys: &[String]) -> (Vec<String>, Vec<String>) {
    let Some(values) = ws.evaluated_values() else {
        return (keys.to_vec(), Vec::new());
    };
    keys.iter().cloned().partition(|k| !holds(&values.value, k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    #[test]
    fn a_key_set_to_null_is_held_and_a_missing_one_is_not() {
        let src = "db:\n  port: null\n  host: \"\"\n";
        let ds = parse(src, &Arc::from("v.yml"), &ParseOpts::default()).unwrap();
        let v = &ds.items[0].value;
        assert!(holds(v, "db.port"));
        assert!(holds(v, "db.host"));
        assert!(holds(v, "db"));
        assert!(!holds(v, "db.user"));
        assert!(!holds(v, "db.port.x"));
        assert!(!holds(v, "vendor"));
    }
}
