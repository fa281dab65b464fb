//! Taskfiles (`Taskfile.yml`, `Taskfile.yaml`, `taskfile.yml`, `Taskfile.dist.yml`): each
//! task's `cmds` (strings or `{cmd: ...}`), run in the Taskfile's directory or the task's
//! `dir:`, with the file's and the task's `vars` and `env`, and Task's own `TASKFILE_DIR` and
//! `ROOT_DIR`. A `{{.VAR}}` of a known variable is its text, passed through the pipes Task's
//! templates use on such values (`{{.V | replace "v" ""}}`, `trimPrefix`, `trimSuffix`,
//! `trim`, `lower`, `upper`, `default`); anything else in `{{ }}` is known only at run time.

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

/// The commands of the Taskfile at repository-relative `path` that `wanted` says may run
/// ytt (a `ytt` command, or a script of the repository that runs it).
pub fn snippets(path: &str, src: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let mut out = Vec::new();
    let base = paths::parent(path);
    for doc in documents(path, src) {
        let mut globals = HashMap::new();
        // Task's own directories, as repository words (see [`REPO`]).
        let own = Word::lit(format!("{REPO}/{base}")).normalized();
        globals.insert("TASKFILE_DIR".to_string(), own.literal());
        globals.insert("ROOT_DIR".to_string(), Some(REPO.to_string()));
        vars(get(&doc.value, "vars"), &mut globals);
        vars(get(&doc.value, "env"), &mut globals);
        for task in entries(get(&doc.value, "tasks")) {
            let t = &task.value;
            let mut known = globals.clone();
            vars(get(t, "vars"), &mut known);
            vars(get(t, "env"), &mut known);
            let lookup = |expr: &str| evaluate(expr, &known);
            let cwd = match crate::lint::repo::yaml_doc::string(get(t, "dir")) {
                Some(d) => {
                    let d = substitute(d, "{{", "}}", &lookup);
                    if d.vars.is_empty() {
                        let dir = Word::lit(d.text.trim_start_matches("./"));
                        dir.relative_to(&Word::lit(format!("{REPO}/{base}")))
                    } else {
                        Word::unknown(d.text)
                    }
                }
                None => Word::lit(format!("{REPO}/{base}")).normalized(),
            };
            let cmds: Vec<(u32, &str)> = match t {
                Value::Array(_) | Value::String(_) => commands(task.pos.line, t),
                _ => match entry(t, "cmds") {
                    Some(c) => commands(c.pos.line, &c.value),
                    None => Vec::new(),
                },
            };
            for (line, text) in cmds {
                if !wanted(text) {
                    continue;
                }
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

/// A template expression of Task (`.V`, `"text"`, then `| fn "arg"...`), when every part is
/// known.
fn evaluate(expr: &str, known: &HashMap<String, Option<String>>) -> Option<String> {
    let mut parts = split_pipes(expr).into_iter();
    let first = parts.next()?;
    let mut value = operand(first.trim(), known)?;
    for call in parts {
        let words = template_words(call.trim())?;
        let (name, args) = words.split_first()?;
        value = match (name.as_str(), args) {
            ("replace", [old, new]) => value.replace(old.as_str(), new),
            ("trimPrefix", [p]) => value.strip_prefix(p.as_str()).unwrap_or(&value).to_string(),
            ("trimSuffix", [p]) => value.strip_suffix(p.as_str()).unwrap_or(&value).to_string(),
            ("trim", []) => value.trim().to_string(),
            ("lower", []) => value.to_lowercase(),
            ("upper", []) => value.to_uppercase(),
            ("default", [d]) if value.is_empty() => d.clone(),
            ("default", [_]) => value,
            _ => return None,
        };
    }
    Some(value)
}

/// A variable (`.V`) or a quoted string.
fn operand(text: &str, known: &HashMap<String, Option<String>>) -> Option<String> {
    match text.strip_prefix('.') {
        Some(name) => known.get(name).cloned().flatten(),
        None => unquote(text),
    }
}

/// The parts of an expression between `|` outside quotes.
fn split_pipes(expr: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in expr.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '|' if !quoted => {
                out.push(&expr[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&expr[start..]);
    out
}

/// A function call's words: its name and its arguments (quoted strings only).
fn template_words(call: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = call.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"')?;
            out.push(r[..end].to_string());
            rest = r[end + 1..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if !out.is_empty() {
                return None;
            }
            out.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    Some(out)
}

fn unquote(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    Some(inner.to_string())
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
        let s = snippets("Taskfile.yml", src, &|t| t.contains("ytt"));
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].cwd.to_string(), "test");
        assert_eq!(s[0].line_offset, 7);
        assert!(s[0].text.contains("k8s_version=\"1.36\""), "{}", s[0].text);
        assert!(s[1].text.ends_with("-v v=v1.36"));
    }

    #[test]
    fn a_task_runs_a_script_in_the_taskfile_s_directory() {
        let src = "version: '3'\ntasks:\n  deploy:\n    dir: '{{.TASKFILE_DIR}}'\n    cmds:\n    - bash deploy.sh\n  test:\n    dir: '{{.TASKFILE_DIR}}/../tests'\n    cmds:\n    - bash deploy.sh {{.CLI_ARGS}}\n";
        let s = snippets("templates/app/taskfile.yaml", src, &|t| {
            t.contains("deploy.sh")
        });
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].cwd.to_string(), "templates/app");
        assert_eq!(s[1].cwd.to_string(), "templates/tests");
        assert!(s[1].text.starts_with("bash deploy.sh ${__yttlint_0}"));
    }

    #[test]
    fn template_pipes_of_known_values() {
        let mut known = HashMap::new();
        known.insert("V".to_string(), Some("v1.35".to_string()));
        known.insert("E".to_string(), Some(String::new()));
        assert_eq!(
            evaluate(".V | replace \"v\" \"\"", &known).as_deref(),
            Some("1.35")
        );
        assert_eq!(
            evaluate(".V | trimPrefix \"v\" | upper", &known).as_deref(),
            Some("1.35")
        );
        assert_eq!(
            evaluate(".E | default \"dev\"", &known).as_deref(),
            Some("dev")
        );
        assert_eq!(evaluate(".V | sha256sum", &known), None);
        assert_eq!(evaluate(".NOPE", &known), None);
    }
}
