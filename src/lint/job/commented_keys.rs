//! Keys an example leaves commented out (round twenty-seven's R27-3). An example values file
//! often carries an optional section as a commented-out block (`#! dns:` under `app:`, with
//! "uncomment and fill in to use external DNS"), and a template that only an optional action
//! renders reads it (`data.values.app.dns`). Rendered with the example as it is, the read fails
//! (`struct has no .dns field or method`); with the user's copy, where the block is uncommented
//! for that action, it does not. Such a failure says nothing of the repository, only of what
//! the example leaves to its user: a note naming the commented-out key (a `left-to-user`
//! assumption, as [`super::example_blanks`]' blanks), not a warning. A key the example lacks even
//! with its commented blocks restored stays as it is.

use crate::library::Workspace;
use crate::lint::job::inputs::Names;
use crate::report::{Assumption, AssumptionKind, Diagnostic, Rule, Severity, Subject};
use crate::yaml::Value;

/// A key the example has only in a comment: its dotted path and the line it is on.
#[derive(Debug, PartialEq)]
struct Commented {
    path: Vec<String>,
    line: usize,
}

/// Marks each failure of `found` to read a key that one of `examples` has only in a
/// commented-out block, where the key's parent exists in the final data values without it.
pub fn mark(ws: &Workspace, names: &Names, examples: &[String], found: &mut [Diagnostic]) {
    let asked: Vec<usize> = (0..found.len())
        .filter(|&i| missing_field(&found[i]).is_some())
        .collect();
    if asked.is_empty() {
        return;
    }
    let Some(values) = ws.evaluated_values() else {
        return;
    };
    let mut commented: Vec<(String, Commented)> = Vec::new();
    for example in examples {
        let Some(text) = names.name_of(example).and_then(|n| ws.source_of(n)) else {
            continue;
        };
        commented.extend(
            commented_keys(&text)
                .into_iter()
                .map(|c| (example.clone(), c)),
        );
    }
    for i in asked {
        let Some(field) = missing_field(&found[i]) else {
            continue;
        };
        // What the failing read goes on to take from the field (`.grype.version`): the
        // restored block must hold it too, or the read fails with the user's copy as well.
        let Some(further) = reads_after(ws, names, &found[i], field) else {
            continue;
        };
        let restored = |path: &[String]| {
            further.iter().all(|chain| {
                let mut whole = path.to_vec();
                whole.extend(chain.iter().cloned());
                commented.iter().any(|(_, c)| c.path == whole)
            })
        };
        let Some((example, key)) = commented.iter().find(|(_, c)| {
            c.path.last().is_some_and(|k| *k == field)
                && lacks(&values.value, &c.path)
                && restored(&c.path)
        }) else {
            continue;
        };
        let a = Assumption::new(
            AssumptionKind::LeftToUser,
            format!(
                "{}{example} leaves `{}` commented out ({example}:{}) for the user to \
                 uncomment and fill in where the command needs it",
                super::example_blanks::LEAD,
                key.path.join("."),
                key.line,
            ),
        )
        .about(Subject::UserFills);
        if let Some(c) = found[i].certainty.as_mut() {
            c.assumed.push(a);
        }
    }
}

/// The field a failure could not read from a struct (`struct has no .dns field or method`),
/// in a finding of the evaluation that assumes an example.
fn missing_field(d: &Diagnostic) -> Option<&str> {
    if d.rule != Rule::TemplateError || d.severity == Severity::Info {
        return None;
    }
    let assumes_example = d.certainty.as_ref().is_some_and(|c| {
        c.assumed
            .iter()
            .any(|a| a.kind == AssumptionKind::ExampleValues)
    });
    if !assumes_example {
        return None;
    }
    let first = d.message.lines().next()?;
    let rest = first.split_once("struct has no .")?.1;
    let field = rest.strip_suffix(" field or method")?;
    (!field.is_empty() && !field.contains(' ')).then_some(field)
}

/// What each read of `.field` on the finding's line goes on to take from it (`.grype.version`
/// gives `["version"]`), or `None` when the line cannot be read or does not read the field.
fn reads_after(
    ws: &Workspace,
    names: &Names,
    d: &Diagnostic,
    field: &str,
) -> Option<Vec<Vec<String>>> {
    let span = d.span.as_ref()?;
    let name = names.name_of(&span.file).unwrap_or(&span.file);
    let text = ws.source_of(name)?;
    let line = text.lines().nth((span.line as usize).checked_sub(1)?)?;
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let dotted = format!(".{field}");
    let mut out = Vec::new();
    for (at, _) in line.match_indices(&dotted) {
        let mut rest = &line[at + dotted.len()..];
        if rest.starts_with(ident) {
            continue;
        }
        let mut chain = Vec::new();
        while let Some(after) = rest.strip_prefix('.') {
            let end = after.find(|c: char| !ident(c)).unwrap_or(after.len());
            if end == 0 {
                break;
            }
            chain.push(after[..end].to_string());
            rest = &after[end..];
        }
        out.push(chain);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `path`'s parent is a map of `root` that has no key `path`'s last.
fn lacks(root: &Value, path: &[String]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = root;
    for key in parents {
        let Some(next) = entry(at, key) else {
            return false;
        };
        at = next;
    }
    matches!(at, Value::Map(_)) && entry(at, last).is_none()
}

/// The value of `key` in the map `v`.
fn entry<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    let Value::Map(m) = v else {
        return None;
    };
    m.items
        .iter()
        .find(|item| matches!(&item.key, Value::String(k) if k == key))
        .map(|item| &item.value)
}

/// The keys of a YAML text that stand only in comments (`#! key:` or `# key:`), each with the
/// dotted path its indentation gives it among the text's keys. A comment's own indentation
/// counts from its marker, one space after it being the text's: `  #! dns:` is a key at
/// column 2, `  #!   provider:` one level below it. Keys under a list item have no path a data
/// value can take and are left out.
fn commented_keys(text: &str) -> Vec<Commented> {
    // Each open key: its indentation, its name (none under a list item), whether commented.
    let mut open: Vec<(usize, Option<String>)> = Vec::new();
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let indent = raw.len() - raw.trim_start_matches(' ').len();
        let rest = raw[indent..].trim_end();
        if rest.is_empty() || rest.starts_with("#@") || rest == "---" || rest.starts_with("--- ") {
            continue;
        }
        let (indent, body, commented) = match rest.strip_prefix('#') {
            Some(after) => {
                let after = after.strip_prefix('!').unwrap_or(after);
                let spaces = after.len() - after.trim_start_matches(' ').len();
                (indent + spaces.saturating_sub(1), after.trim_start(), true)
            }
            None => (indent, rest, false),
        };
        let (item, body) = match body.strip_prefix("- ") {
            Some(inner) => (true, inner),
            None => (false, body),
        };
        let Some(key) = key_of(body) else {
            continue;
        };
        while open.last().is_some_and(|(i, _)| *i >= indent) {
            open.pop();
        }
        if item {
            open.push((indent, None));
        }
        let mut path: Vec<String> = Vec::new();
        let reachable = open.iter().all(|(_, k)| match k {
            Some(k) => {
                path.push(k.clone());
                true
            }
            None => false,
        });
        path.push(key.to_string());
        if commented && reachable && !item {
            out.push(Commented { path, line: n + 1 });
        }
        open.push((
            if item { indent + 2 } else { indent },
            Some(key.to_string()),
        ));
    }
    out
}

/// The key a line starts with (`name:` followed by a space or the end), when it is a plain
/// name: prose in a comment (`Uncomment and fill in:`) is not one.
fn key_of(body: &str) -> Option<&str> {
    let (key, after) = body.split_once(':')?;
    if !(after.is_empty() || after.starts_with(' ')) {
        return None;
    }
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    plain.then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<(String, usize)> {
        commented_keys(text)
            .into_iter()
            .map(|c| (c.path.join("."), c.line))
            .collect()
    }

    #[test]
    fn a_commented_block_takes_its_place_among_the_keys() {
        let text = "app:\n  namespace: demo\n  #! Optional, uncomment and fill in:\n  #! dns:\n  #!   provider: google\n  #!   project:\nother: 1\n#! top: x\n";
        assert_eq!(
            paths(text),
            [
                ("app.dns".to_string(), 4),
                ("app.dns.provider".to_string(), 5),
                ("app.dns.project".to_string(), 6),
                ("top".to_string(), 8),
            ]
        );
    }

    #[test]
    fn prose_list_items_and_annotations_are_not_keys() {
        let text = "#@data/values\n---\nlist:\n- name: a\n  #! port: 80\n#! Uncomment and fill in to use it:\n#  e.g. something: here\nkeep: 1\n";
        assert_eq!(paths(text), Vec::<(String, usize)>::new());
    }

    #[test]
    fn the_missing_field_is_read_from_a_failure_that_assumes_an_example() {
        let mut d = Diagnostic::new(Rule::TemplateError, "struct has no .dns field or method");
        assert_eq!(missing_field(&d), None, "no example assumed");
        d.certainty = Some(crate::report::Certainty {
            source: crate::report::Source::Script,
            origin: None,
            assumed: vec![Assumption::new(AssumptionKind::ExampleValues, "x")],
        });
        assert_eq!(missing_field(&d), Some("dns"));
        d.message = "struct has no .a b field or method".into();
        assert_eq!(missing_field(&d), None);
    }
}
