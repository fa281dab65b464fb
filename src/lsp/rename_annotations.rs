//! The code in the annotations of schema and data values documents, which a rename of a data
//! value does not follow: a validation reading a sibling by name
//! (`#@schema/validation when=lambda _, ctx: ctx.parent["type"] == "Deployment"`), an example
//! or a default written as a map (`#@schema/examples ("x", {"port": 80})`) or made by a
//! function of the file (`example_values()`, whose YAML fragment names every key), an
//! overlay's matcher (`#@overlay/match by=overlay.map_key("name")`). Where such code names the
//! key, or calls a function that may, on a node whose value or whose parent's value holds the
//! key, the rename refuses and says where (renamed, the key would no longer be the one the
//! code names: ytt would reject the example, or the validation would read nothing).
//!
//! Annotations without code (a description, a title, a type, `@data/values`) are left alone,
//! even when their text names the key.

use std::sync::Arc;

use crate::library::plain::{comment_annotation, doc_has_annotation};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{Comment, Value};

/// Annotations whose arguments are data or prose, never code that reads a key.
const WITHOUT_CODE: &[&str] = &[
    "data/values",
    "data/values-schema",
    "schema/desc",
    "schema/title",
    "schema/deprecated",
    "schema/nullable",
    "schema/type",
    "overlay/match-child-defaults",
    "overlay/merge",
    "overlay/remove",
    "overlay/append",
    "library/ref",
    "yaml/text-templated-strings",
];

/// Why the code of an annotation forbids renaming the data value at `path` (each with the
/// annotation's line, from 1), for the schema and data values documents of `text`.
pub fn refusals(text: &str, path: &[String]) -> Vec<(u32, String)> {
    let Some(key) = path.last() else {
        return Vec::new();
    };
    let name: Arc<str> = Arc::from("rename.yml");
    let Ok(ds) = parse(text, &name, &ParseOpts::default()) else {
        return Vec::new();
    };
    let functions = functions_of(text);
    let mut walk = Walk {
        path,
        key,
        functions: &functions,
        out: Vec::new(),
    };
    for d in &ds.items {
        let values = doc_has_annotation(&d.comments, "data/values")
            || doc_has_annotation(&d.comments, "data/values-schema");
        if values && !doc_has_annotation(&d.comments, "library/ref") {
            walk.node(&d.comments, &[], &d.value, 0);
        }
    }
    walk.out.sort();
    walk.out.dedup();
    walk.out
}

/// The names a file's code can call: the functions it defines and the names it loads.
fn functions_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let rest = l.trim_start_matches(['#', '@', ' ']).strip_prefix("def ")?;
            let end = rest.find('(')?;
            Some(rest[..end].trim().to_string())
        })
        .collect();
    for l in super::context::loads(text) {
        for (a, b) in l.names {
            out.push(a);
            out.push(b);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether `word` is in `code` as a whole name (in code or in a string).
fn names(code: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + word.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

struct Walk<'a> {
    path: &'a [String],
    key: &'a str,
    functions: &'a [String],
    out: Vec<(u32, String)>,
}

impl Walk<'_> {
    /// The annotations of the node at `at` (`None` past an array: no data value's path), then
    /// its children.
    fn node(&mut self, comments: &[Comment], at: &[String], value: &Value, depth: usize) {
        if depth > 200 {
            return;
        }
        for c in comments {
            self.annotation(c, at);
        }
        match value {
            Value::Map(m) => {
                for item in &m.items {
                    let mut child = at.to_vec();
                    child.push(super::values::key_text(&item.key));
                    self.node(&item.comments, &child, &item.value, depth + 1);
                }
            }
            Value::Array(a) => {
                for item in &a.items {
                    // An item's keys are no data value's path: only their code is looked at.
                    let mut child = at.to_vec();
                    child.push("[]".to_string());
                    self.node(&item.comments, &child, &item.value, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn annotation(&mut self, c: &Comment, at: &[String]) {
        let Some(name) = comment_annotation(c) else {
            return;
        };
        if WITHOUT_CODE.contains(&name) {
            return;
        }
        let args = c.data.get(1 + name.len()..).unwrap_or("");
        if names(args, self.key) {
            self.out.push((
                c.pos.line,
                format!(
                    "the code of @{name} names `{}`, which a rename does not follow",
                    self.key
                ),
            ));
            return;
        }
        // The node's value, or its parent's (a validation's `ctx.parent`), holds the key.
        let parent = &at[..at.len().saturating_sub(1)];
        if !self.path.starts_with(parent) {
            return;
        }
        let called = self.functions.iter().find(|f| names(args, f));
        if let Some(f) = called {
            self.out.push((
                c.pos.line,
                format!(
                    "@{name} calls `{f}`, whose code may name `{}` and which a rename does not follow",
                    self.key
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &str) -> Vec<String> {
        path.split('.').map(str::to_string).collect()
    }

    const SCHEMA: &str = "#@ def example_values():\n---\nnamespace: demo\n#@ end\n\n#@data/values-schema\n#@schema/examples (\"values\", example_values()[0])\n---\nnamespace: app\nenvoy:\n  #@schema/desc \"the `type` of workload\"\n  #@schema/validation one_of=[\"Deployment\", \"DaemonSet\"]\n  type: DaemonSet\n  #@schema/validation min=1, when=lambda _, ctx: ctx.parent[\"type\"] == \"Deployment\"\n  replicas: 2\n";

    #[test]
    fn a_validation_that_names_a_sibling() {
        let found = refusals(SCHEMA, &p("envoy.type"));
        assert!(
            found.iter().any(|(line, why)| *line == 14
                && why == "the code of @schema/validation names `type`, which a rename does not follow"),
            "{found:?}"
        );
    }

    #[test]
    fn an_example_made_by_a_function_of_the_file() {
        let found = refusals(SCHEMA, &p("namespace"));
        assert_eq!(
            found,
            [(
                7,
                "@schema/examples calls `example_values`, whose code may name `namespace` and which a rename does not follow".to_string()
            )]
        );
    }

    #[test]
    fn prose_and_code_that_names_other_keys_are_left_alone() {
        let schema = "#@data/values-schema\n---\n#@schema/desc \"the port, see `port`\"\nport: 80\n#@schema/validation (\"a name\", lambda v: len(v) > 0)\nname: web\n";
        assert_eq!(refusals(schema, &p("port")), []);
        // A values document addressed to a library sets no value of the root.
        let lib = "#@library/ref \"@lib\"\n#@data/values\n---\n#@overlay/match by=lambda i, l, r: l[\"port\"]\nport: 80\n";
        assert_eq!(refusals(lib, &p("port")), []);
    }
}
