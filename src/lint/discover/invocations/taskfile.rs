//! Taskfiles (`Taskfile.yml`, `Taskfile.yaml`, `taskfile.yml`, `Taskfile.dist.yml`): each
//! task's `cmds` (strings or `{cmd: ...}`), run in the Taskfile's directory or the task's
//! `dir:`, with the file's and the task's `vars` and `env`. A `{{.VAR}}` of a known variable
//! is its text; anything else in `{{ }}` is known only at run time.

use std::collections::HashMap;

use super::snippet::{substitute, Snippet};
use super::word::{Word, REPO};
use crate::files::paths;
use crate::lint::repo::yaml_doc::{documents, entries, entry, get, text_offset};
use crate::yaml::{scalar_key_string, Value};

/// Whether a repository file is a Taskfile.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(
        name,
        "Taskfile.yml"
            | "Taskfile.yaml"
            | "taskfile.yml"
            | "taskfile.yaml"
            | "Taskfile.dist.yml"
            | "Taskfile.dist.yaml"
    )
}

/// Variables with literal values (`VAR: text`); `{sh: ...}` and the like are unknown.
fn vars(v: Option<&Value>, out: &mut HashMap<String, Option<String>>) {
    for item in entries(v) {
        let value = match &item.value {
            Value::String(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        };
        out.insert(scalar_key_string(&item.key), value);
    }
}

/// The commands of the Taskfile at repository-relative `path`.
pub fn snippets(path: &str, src: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    let base = paths::parent(path);
    for doc in documents(path, src) {
        let mut globals = HashMap::new();
        vars(get(&doc.value, "vars"), &mut globals);
        vars(get(&doc.value, "env"), &mut globals);
        for task in entries(get(&doc.value, "tasks")) {
            let t = &task.value;
            let mut known = globals.clone();
            vars(get(t, "vars"), &mut known);
            vars(get(t, "env"), &mut known);
            let dir = crate::lint::repo::yaml_doc::string(get(t, "dir"))
                .map(|d| paths::join(base, d.trim_start_matches("./")))
                .unwrap_or_else(|| base.to_string());
            let cwd = if dir == "." {
                Word::lit(REPO)
            } else {
                Word::lit(format!("{REPO}/{dir}"))
            };
            let cmds: Vec<(u32, &str)> = match t {
                Value::Array(_) | Value::String(_) => commands(task.pos.line, t),
                _ => match entry(t, "cmds") {
                    Some(c) => commands(c.pos.line, &c.value),
                    None => Vec::new(),
                },
            };
            for (line, text) in cmds {
                if !text.contains("ytt") {
                    continue;
                }
                let lookup = |expr: &str| {
                    let name = expr.strip_prefix('.')?;
                    known.get(name).cloned().flatten()
                };
                let marked = substitute(text, "{{", "}}", &lookup);
                let mut s = marked.into_snippet(path, text_offset(src, line), cwd.clone());
                for (k, v) in &known {
                    s.vars.push((
                        k.clone(),
                        v.as_ref().map_or_else(
                            || Word::unknown(format!("${k}")),
                            |v| Word::lit(v.clone()),
                        ),
                    ));
                }
                s.vars.sort();
                out.push(s);
            }
        }
    }
    out
}

/// The command strings of `cmds` (a string, or a list of strings and `{cmd: ...}` maps).
fn commands(line: u32, v: &Value) -> Vec<(u32, &str)> {
    match v {
        Value::String(s) => vec![(line, s.as_str())],
        Value::Array(a) => a
            .items
            .iter()
            .filter_map(|i| match &i.value {
                Value::String(s) => Some((i.pos.line, s.as_str())),
                m @ Value::Map(_) => {
                    entry(m, "cmd").and_then(|c| c.value.as_str().map(|s| (c.pos.line, s)))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_with_known_and_unknown_templates() {
        let src = "version: '3'\nenv:\n  K8S_VERSION: v1.36\ntasks:\n  setup:\n    dir: test\n    cmds:\n      - ytt -f clusters/kind.yml --data-value k8s_version=\"{{.K8S_VERSION | replace \"v\" \"\"}}\" | kind create cluster --config -\n      - cmd: ytt -f x -v v={{.K8S_VERSION}}\n";
        let s = snippets("Taskfile.yml", src);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].cwd.to_string(), "test");
        assert_eq!(s[0].line_offset, 7);
        assert!(s[0].text.contains("k8s_version=\"${__yttlint_0}\""));
        assert!(s[1].text.ends_with("-v v=v1.36"));
    }
}
