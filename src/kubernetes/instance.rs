//! The rendered document as the validator sees it, and the way back from a JSON pointer to the
//! template nodes. The JSON is what the API server would decode: a key whose value is `null`
//! is absent (a Go decoder leaves the field unset, and a CRD's pruning drops it), and the
//! object's `status` is left out (controllers write it; a manifest's `status: {}` is ignored).
//! No table is built on the way in: a pointer is resolved by walking the YAML tree again, only
//! for the few nodes a violation names.

use serde_json::{Map, Number, Value as Json};

use crate::pos::Pos;
use crate::yaml::go_float::format_float_g;
use crate::yaml::{scalar_key_string, Document, Value};

/// The JSON of a rendered document.
pub fn to_json(doc: &Document) -> Json {
    convert(doc, false)
}

/// The JSON of a CustomResourceDefinition without the `description` of its schemas (most of
/// its text, of no use to a validator). A field named `description` has a map as its schema:
/// only string values are dropped.
pub fn schema_json(doc: &Document) -> Json {
    convert(doc, true)
}

/// Every key of the document set to `null`: the steps to its map, and the key (the root's
/// `status` left out, as in the JSON). The path is written out only for such a key: the walk
/// holds the keys it passes through as they are in the document.
pub fn null_keys(doc: &Document) -> Vec<(Vec<Step>, String)> {
    /// A step of the walk: a map's key as written, or an index.
    enum Through<'a> {
        Key(&'a Value),
        Index(usize),
    }
    fn walk<'a>(v: &'a Value, steps: &mut Vec<Through<'a>>, out: &mut Vec<(Vec<Step>, String)>) {
        match v {
            Value::Map(m) => {
                for item in &m.items {
                    if steps.is_empty() && matches!(&item.key, Value::String(k) if k == "status") {
                        continue;
                    }
                    if matches!(item.value, Value::Null) {
                        let path = steps
                            .iter()
                            .map(|s| match s {
                                Through::Key(k) => Step::Key(scalar_key_string(k)),
                                Through::Index(i) => Step::Index(*i),
                            })
                            .collect();
                        out.push((path, scalar_key_string(&item.key)));
                        continue;
                    }
                    steps.push(Through::Key(&item.key));
                    walk(&item.value, steps, out);
                    steps.pop();
                }
            }
            Value::Array(a) => {
                for (i, item) in a.items.iter().enumerate() {
                    steps.push(Through::Index(i));
                    walk(&item.value, steps, out);
                    steps.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&doc.value, &mut Vec::new(), &mut out);
    out
}

fn convert(doc: &Document, lean: bool) -> Json {
    Shape { lean }.convert(doc)
}

/// What the conversion leaves out besides keys set to `null`: descriptions (`lean`).
#[derive(Clone, Copy)]
struct Shape {
    lean: bool,
}

impl Shape {
    fn convert(self, doc: &Document) -> Json {
        match &doc.value {
            Value::Map(m) => Json::Object(self.map(m, true)),
            other => self.value(other),
        }
    }

    fn map(self, m: &crate::yaml::Map, root: bool) -> Map<String, Json> {
        let lean = self.lean;
        m.items
            .iter()
            .filter(|item| !matches!(item.value, Value::Null))
            .filter(|item| {
                !(lean && item.key.as_str() == Some("description") && item.value.as_str().is_some())
            })
            .map(|item| (scalar_key_string(&item.key), &item.value))
            .filter(|(key, _)| !(root && key == "status"))
            .map(|(key, v)| (key, self.value(v)))
            .collect()
    }

    fn value(self, v: &Value) -> Json {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::Uint(u) => Json::from(*u),
            Value::Float(f) => float_json(*f),
            Value::String(s) => Json::String(s.clone()),
            Value::Map(m) => Json::Object(self.map(m, false)),
            Value::Array(a) => Json::Array(a.items.iter().map(|i| self.value(&i.value)).collect()),
        }
    }
}

/// A float as the API server reads it from ytt's output: go-yaml writes an integral float
/// below a million without a point (`3.0` is written `3`), which decodes as an integer; any
/// other float (`2.5`, `1e+06`) stays a number with a fraction or an exponent.
fn float_json(f: f64) -> Json {
    match format_float_g(f).parse::<i64>() {
        Ok(i) => Json::from(i),
        Err(_) => Number::from_f64(f).map_or(Json::Null, Json::Number),
    }
}

/// One step of a JSON pointer.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where a node of the rendered document came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// The line of its key (a map item) or of its `-` (an array item); the document's
    /// position for the document itself.
    pub item: Pos,
    /// The node itself: a map's or an array's own position, else the item's.
    pub value: Pos,
}

/// The position of the item at `steps` when the document has it with a `null` value (which
/// the validator does not see).
pub fn null_at(doc: &Document, steps: &[Step]) -> Option<Pos> {
    let (last, parent) = steps.split_last()?;
    let Step::Key(key) = last else { return None };
    let mut node = &doc.value;
    for step in parent {
        node = child(node, step)?.0;
    }
    let Value::Map(m) = node else { return None };
    m.items
        .iter()
        .find(|i| scalar_key_string(&i.key) == *key && matches!(i.value, Value::Null))
        .map(|i| i.pos.clone())
}

/// The node at `steps`, if the document has it.
pub fn node_at<'a>(doc: &'a Document, steps: &[Step]) -> Option<&'a Value> {
    let mut node = &doc.value;
    for step in steps {
        node = child(node, step)?.0;
    }
    Some(node)
}

/// The value and item position of `step` in `node`.
fn child<'a>(node: &'a Value, step: &Step) -> Option<(&'a Value, &'a Pos)> {
    match (node, step) {
        (Value::Map(m), Step::Key(k)) => m
            .items
            .iter()
            .find(|i| scalar_key_string(&i.key) == *k)
            .map(|i| (&i.value, &i.pos)),
        (Value::Array(a), Step::Index(n)) => a.items.get(*n).map(|i| (&i.value, &i.pos)),
        // A pointer does not tell a numeric key from an index.
        (Value::Map(m), Step::Index(n)) => m
            .items
            .iter()
            .find(|i| scalar_key_string(&i.key) == n.to_string())
            .map(|i| (&i.value, &i.pos)),
        _ => None,
    }
}

/// The template positions of the node at `steps`, or of its nearest ancestor that exists.
pub fn locate(doc: &Document, steps: &[Step]) -> Located {
    let mut at = Located {
        item: doc.pos.clone(),
        value: own_pos(&doc.value).unwrap_or_else(|| doc.pos.clone()),
    };
    let mut node = &doc.value;
    for step in steps {
        let next = child(node, step);
        let Some((v, pos)) = next else { break };
        at = Located {
            item: pos.clone(),
            value: own_pos(v).unwrap_or_else(|| pos.clone()),
        };
        node = v;
    }
    at
}

/// The template line that wrote the node at `steps`: the position of its item (its key, or
/// its `-`), else of its nearest ancestor that exists and was written by a template line (a
/// node a Starlark value built has no line of its own: its item's line stands for it); the
/// document's position at worst.
pub fn written_at(doc: &Document, steps: &[Step]) -> Pos {
    let mut at = doc.pos.clone();
    let mut node = &doc.value;
    for step in steps {
        let Some((v, pos)) = child(node, step) else {
            break;
        };
        if pos.is_known() {
            at = pos.clone();
        }
        node = v;
    }
    at
}

fn own_pos(v: &Value) -> Option<Pos> {
    let pos = match v {
        Value::Map(m) => &m.pos,
        Value::Array(a) => &a.pos,
        _ => return None,
    };
    pos.is_known().then(|| pos.clone())
}

/// A JSON path for people: `spec.containers[0].image`, `metadata.labels["app.kubernetes.io/name"]`.
pub fn display_path(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Index(n) => out.push_str(&format!("[{n}]")),
            Step::Key(k) if is_plain(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Step::Key(k) => out.push_str(&format!("[{k:?}]")),
        }
    }
    out
}

fn is_plain(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn doc(src: &str) -> Document {
        let f: Arc<str> = Arc::from("t.yml");
        let mut ds = parse(src, &f, &ParseOpts::default()).unwrap();
        ds.items.remove(0)
    }

    #[test]
    fn drops_nulls_and_the_root_status() {
        let d = doc("kind: A\nmetadata:\n  creationTimestamp: null\n  name: x\nstatus: {a: 1}\nl: [1, null, 1.5]\n");
        assert_eq!(
            to_json(&d),
            serde_json::json!({"kind": "A", "metadata": {"name": "x"}, "l": [1, null, 1.5]})
        );
    }

    #[test]
    fn null_keys_name_their_path_and_leave_out_the_root_status() {
        let d = doc(
            "status: null\nmetadata:\n  labels: null\nspec:\n  status: null\n  l:\n  - {a: null, 1: x}\n  - 2\n  - {true: null}\n",
        );
        let key = |k: &str| Step::Key(k.to_string());
        assert_eq!(
            null_keys(&d),
            vec![
                (vec![key("metadata")], "labels".to_string()),
                (vec![key("spec")], "status".to_string()),
                (vec![key("spec"), key("l"), Step::Index(0)], "a".to_string()),
                (
                    vec![key("spec"), key("l"), Step::Index(2)],
                    "true".to_string()
                ),
            ]
        );
    }

    #[test]
    fn integral_floats_are_integers_as_ytt_writes_them() {
        let d = doc("a: 3.0\nb: 2.5\nc: 1000000.0\nd: -0.0\n");
        assert_eq!(
            to_json(&d),
            serde_json::json!({"a": 3, "b": 2.5, "c": 1_000_000.0, "d": 0})
        );
    }

    #[test]
    fn schema_json_drops_descriptions_not_fields_named_so() {
        let d = doc("description: d\nproperties:\n  description: {type: string, description: x}\n");
        assert_eq!(
            schema_json(&d),
            serde_json::json!({"properties": {"description": {"type": "string"}}})
        );
    }

    #[test]
    fn locates_keys_and_items() {
        let d = doc("spec:\n  containers:\n  - name: a\n    ports:\n    - containerPort: \"80\"\n");
        let steps = [
            Step::Key("spec".into()),
            Step::Key("containers".into()),
            Step::Index(0),
            Step::Key("ports".into()),
            Step::Index(0),
            Step::Key("containerPort".into()),
        ];
        let at = locate(&d, &steps);
        assert_eq!((at.item.line, at.item.col), (5, 7));
        let parent = locate(&d, &steps[..2]);
        assert_eq!(parent.item.line, 2);
        let missing = locate(&d, &[Step::Key("nope".into()), Step::Key("deeper".into())]);
        assert_eq!(missing.item, d.pos);
    }

    #[test]
    fn written_at_falls_back_to_the_nearest_written_ancestor() {
        let d = doc("metadata:\n  name: a\nspec:\n  containers:\n  - name: c\n");
        let key = |k: &str| Step::Key(k.into());
        let at = |steps: &[Step]| written_at(&d, steps).line;
        assert_eq!(at(&[key("metadata")]), 1);
        assert_eq!(at(&[key("metadata"), key("labels"), key("team")]), 1);
        let containers = [key("spec"), key("containers"), Step::Index(0)];
        assert_eq!(at(&containers), 5);
        let missing = [&containers[..], &[key("securityContext")]].concat();
        assert_eq!(at(&missing), 5);
    }

    #[test]
    fn finds_keys_set_to_null() {
        let d = doc("spec:\n  a: null\n  b: 1\n");
        let at = |k: &str| null_at(&d, &[Step::Key("spec".into()), Step::Key(k.into())]);
        assert_eq!(at("a").map(|p| p.line), Some(2));
        assert_eq!(at("b"), None);
        assert_eq!(at("c"), None);
    }

    #[test]
    fn paths_quote_keys_that_are_not_plain() {
        let steps = [
            Step::Key("metadata".into()),
            Step::Key("labels".into()),
            Step::Key("app.kubernetes.io/name".into()),
        ];
        assert_eq!(
            display_path(&steps),
            "metadata.labels[\"app.kubernetes.io/name\"]"
        );
        assert_eq!(
            display_path(&[Step::Key("a".into()), Step::Index(2), Step::Key("b".into())]),
            "a[2].b"
        );
    }
}
