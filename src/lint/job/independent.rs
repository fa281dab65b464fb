//! Failures that no value given at run time can avoid (issue 39). A command that names the
//! keys it gives at run time (`-v name=$NAME`) is linted with placeholders for them, and a
//! failure may then come from a placeholder; but a failure whose every input is known fails
//! whatever the run gives, and is the certain error ytt reports. Two shapes are proved here,
//! each by reading the code, never by trying values:
//!
//! - a data value's validation (`@schema/validation`, `@assert/validate`) on a key none of the
//!   run-time keys is, whose rule reads only the value it validates (no `when=`, whose
//!   context reaches the other values, no `data`, no name of the files);
//! - an `assert.fail` or `fail()` of a template when the library's code reads the run-time keys
//!   nowhere but as a document's whole value (`name: #@ data.values.name`) outside any
//!   function, which no code sees again: no overlay function, no other use of `data`.

use crate::library::Workspace;
use crate::report::{Diagnostic, Rule};

/// Which data value paths (`a.b`) the run may give a value the linter does not know.
pub type Unknown<'a> = &'a dyn Fn(&str) -> bool;

/// The paths a command's named run-time keys (`-v name=$NAME`) reach: `None` when it gives
/// any key (`*`) or a private library's (`@lib:key`), which this does not follow.
pub fn named(keys: &[String]) -> Option<impl Fn(&str) -> bool + '_> {
    if keys.is_empty() || keys.iter().any(|k| k == "*" || k.starts_with('@')) {
        return None;
    }
    Some(move |path: &str| keys.iter().any(|k| overlaps(k, path)))
}

/// The paths of a root whose values the reader fills in: those the final data values leave
/// null, empty, a placeholder (`<YOUR-NAME>`), or do not hold.
pub fn left_blank(ws: &Workspace) -> impl Fn(&str) -> bool + '_ {
    move |path: &str| !filled(ws, path)
}

/// Whether the final data values hold `path` and nothing under it is blank.
fn filled(ws: &Workspace, path: &str) -> bool {
    at_final(ws, path, no_blank)
}

/// What `judge` says of the final data values' node at the dotted `path`; false when the
/// values are not known or do not hold it.
pub fn at_final(
    ws: &Workspace,
    path: &str,
    judge: impl FnOnce(&crate::yaml::Value) -> bool,
) -> bool {
    let Some(values) = ws.evaluated_values() else {
        return false;
    };
    let mut v = &values.value;
    for part in path.split('.') {
        let crate::yaml::Value::Map(m) = v else {
            return false;
        };
        let Some(item) = m
            .items
            .iter()
            .find(|i| matches!(&i.key, crate::yaml::Value::String(k) if k == part))
        else {
            return false;
        };
        v = &item.value;
    }
    judge(v)
}

/// Whether no leaf of `v` is null, an empty string or a placeholder.
fn no_blank(v: &crate::yaml::Value) -> bool {
    use crate::yaml::Value;
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty() && !super::certainty::is_placeholder(s),
        Value::Map(m) => m.items.iter().all(|i| no_blank(&i.value)),
        Value::Array(a) => a.items.iter().all(|i| no_blank(&i.value)),
        _ => true,
    }
}

/// Drops from `d` the assumption that the final data values' placeholders stand for the
/// user's own values when `d` fails whatever those values are.
pub fn drop_blanks(ws: &Workspace, d: &mut Diagnostic) {
    use crate::report::AssumptionKind;
    let Some(c) = d.certainty.as_ref() else {
        return;
    };
    if !c
        .assumed
        .iter()
        .any(|a| a.kind == AssumptionKind::Placeholder)
    {
        return;
    }
    if !fails_anyway(ws, &left_blank(ws), d) {
        return;
    }
    if let Some(c) = d.certainty.as_mut() {
        c.assumed.retain(|a| a.kind != AssumptionKind::Placeholder);
    }
}

/// Whether `d`, one failure of a job whose run leaves the paths `unknown` says to values the
/// linter does not know, fails for every one of those values.
pub fn fails_anyway(ws: &Workspace, unknown: Unknown<'_>, d: &Diagnostic) -> bool {
    if let Some(independent) = validation(ws, unknown, d) {
        return independent;
    }
    d.rule == Rule::TemplateError
        && (d.message.contains("assert.fail") || d.message.contains("fail: "))
        && ws
            .files
            .iter()
            .all(|f| code_reads_only_known(&f.rel_path, &f.data, unknown))
}

/// Whether the failure of a data value's validation, when `d` is one, rests on none of
/// the `unknown` paths (`None`: `d` is no such failure).
pub fn validation(ws: &Workspace, unknown: Unknown<'_>, d: &Diagnostic) -> Option<bool> {
    if d.rule != Rule::RequiredValue && d.rule != Rule::DataValueViolation {
        return None;
    }
    let rule_line = d
        .related
        .iter()
        .find(|r| r.message.starts_with("rule") && r.message.ends_with("declared here"))
        .map(|r| r.span.line)?;
    let violations = ws.violations.borrow();
    for (_library, inv) in violations.iter() {
        for v in &inv.violations {
            let message = super::validation_words::message(inv, v);
            if v.rule_pos.line != rule_line || !d.message.starts_with(&message) {
                continue;
            }
            let path = dotted(&inv.path);
            return Some(!unknown(&path) && rule_reads_its_value_only(&ws.line_at(&v.rule_pos)));
        }
    }
    None
}

/// ytt's path of a value (`a.b[0].c`) as dotted keys (`a.b.c`).
fn dotted(path: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in path.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether two data value paths (`a.b`, `a`) name the same value or one holds the other.
fn overlaps(a: &str, b: &str) -> bool {
    let within = |x: &str, y: &str| x == y || x.strip_prefix(y).is_some_and(|r| r.starts_with('.'));
    within(a, b) || within(b, a)
}

/// Names a validation's rule may use that read nothing but the value: Starlark's words and
/// builtins, the validation's keywords.
const VALUE_ONLY: &[&str] = &[
    "lambda",
    "and",
    "or",
    "not",
    "in",
    "if",
    "else",
    "None",
    "True",
    "False",
    "len",
    "type",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "tuple",
    "any",
    "all",
    "sorted",
    "min",
    "max",
    "range",
    "hasattr",
    "min_len",
    "max_len",
    "not_null",
    "one_not_null",
    "one_of",
    "format",
    "when_null_skip",
    "assert",
];

/// Whether a validation's annotation line (`#@schema/validation ("x", lambda v: v > 0)`) reads
/// only the value it validates: no `when=` (its context reaches the other values), no name
/// outside Starlark's own and the lambda's parameters, and the whole annotation on its line.
fn rule_reads_its_value_only(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("#@") else {
        return false;
    };
    let rest = rest.trim_start();
    let Some((_annotation, args)) = rest.split_once(char::is_whitespace) else {
        return true;
    };
    let Some(code) = without_strings(args) else {
        return false;
    };
    if !balanced(&code) {
        return false;
    }
    let words = words(&code);
    let params: Vec<&str> = lambda_params(&code);
    words.iter().all(|(w, after_dot)| {
        *after_dot || VALUE_ONLY.contains(&w.as_str()) || params.contains(&w.as_str())
    }) && !words.iter().any(|(w, after_dot)| !after_dot && w == "when")
}

/// The parameters of the lambdas of `code` (`lambda v: …` gives `v`).
fn lambda_params(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("lambda") {
        let after = &rest[i + "lambda".len()..];
        let Some((params, tail)) = after.split_once(':') else {
            break;
        };
        out.extend(params.split(',').map(str::trim).filter(|p| !p.is_empty()));
        rest = tail;
    }
    out
}

/// Whether the parentheses and brackets of `code` close on it.
fn balanced(code: &str) -> bool {
    let mut depth = 0i32;
    for c in code.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// `code` with its string literals emptied (`"x"` becomes `""`), or `None` when one is left
/// open.
fn without_strings(code: &str) -> Option<String> {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if c == '"' || c == '\'' {
            out.push(c);
            let mut closed = false;
            while let Some(s) = chars.next() {
                if s == '\\' {
                    chars.next();
                } else if s == c {
                    closed = true;
                    break;
                }
            }
            if !closed {
                return None;
            }
            out.push(c);
        } else if c == '#' {
            break;
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// The identifiers of `code`, each with whether it follows a `.` (an attribute: `v.upper`).
fn words(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut after_dot = false;
    let mut prev = ' ';
    for c in code.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            if current.is_empty() {
                after_dot = prev == '.';
            }
            current.push(c);
        } else {
            if !current.is_empty() {
                let first = current.chars().next().unwrap_or('0');
                if !first.is_ascii_digit() {
                    out.push((std::mem::take(&mut current), after_dot));
                } else {
                    current.clear();
                }
            }
            if !c.is_whitespace() {
                prev = c;
            }
            continue;
        }
        prev = c;
    }
    out
}

/// Whether the Starlark code of one file reads the `unknown` paths nowhere but as a
/// document's whole value outside any function, `data` is the `@ytt:data` module under its
/// own name and used only as `data.values.PATH`, `data.read(…)` or `data.list(…)`, and no
/// overlay annotation runs a function of its own.
fn code_reads_only_known(name: &str, text: &str, unknown: Unknown<'_>) -> bool {
    let star = name.ends_with(".star");
    let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
    if !star && !yaml {
        // A text template reads through `(@ … @)`, which this does not follow.
        return !text.contains("data.values");
    }
    let mut defs: Vec<bool> = Vec::new();
    for line in text.lines() {
        let code = if star {
            line
        } else {
            match line.find("#@") {
                Some(i) => &line[i + 2..],
                None => continue,
            }
        };
        let before = if star {
            ""
        } else {
            &line[..line.find("#@").unwrap_or(0)]
        };
        let trimmed = code.trim();
        if !star && trimmed.starts_with("overlay/") {
            let via = trimmed.contains("via=") || trimmed.contains("lambda");
            let by = trimmed
                .split("by=")
                .skip(1)
                .any(|b| !b.trim_start().starts_with("overlay."));
            if via || by {
                return false;
            }
            continue;
        }
        if !star && (trimmed.starts_with('!') || trimmed.contains('/') && !trimmed.contains(' ')) {
            // A `#@!` comment, an annotation without arguments (`#@data/values`).
            continue;
        }
        let Some(stripped) = without_strings(code) else {
            return false;
        };
        if !star {
            track_blocks(&stripped, &mut defs);
        }
        if stripped.trim_start().starts_with("load(") {
            if (stripped.contains("\"@ytt:data\"") || line.contains("@ytt:data"))
                && !line.contains("\"@ytt:data\", \"data\")")
            {
                return false;
            }
            continue;
        }
        let in_def = defs.iter().any(|d| *d) || (star && line.starts_with([' ', '\t']));
        let whole_value = !star && !before.trim().is_empty() && !in_def;
        if !reads_known(&stripped, unknown, whole_value) {
            return false;
        }
    }
    true
}

/// Follows `#@ def`/`if`/`for`/`while` … `#@ end` of a YAML template: `defs` holds, for each
/// block open, whether it is a function.
fn track_blocks(code: &str, defs: &mut Vec<bool>) {
    let t = code.trim();
    let first = t
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    match first {
        "def" => defs.push(true),
        "if" | "for" | "while" => defs.push(false),
        "end" => {
            defs.pop();
        }
        _ => {}
    }
}

/// Whether one line of code uses `data` only as `data.values.PATH` (an unknown path only when
/// the line's whole value is that read, `whole_value`), `data.read` or `data.list`.
fn reads_known(code: &str, unknown: Unknown<'_>, whole_value: bool) -> bool {
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(at) = code[i..].find("data") {
        let start = i + at;
        let end = start + 4;
        i = end;
        let word_before = start > 0
            && (bytes[start - 1].is_ascii_alphanumeric()
                || bytes[start - 1] == b'_'
                || bytes[start - 1] == b'.');
        let word_after = bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if word_before || word_after {
            continue;
        }
        let rest = &code[end..];
        if rest.starts_with(".read(") || rest.starts_with(".list(") {
            continue;
        }
        let Some(path_text) = rest.strip_prefix(".values.") else {
            return false;
        };
        let len = path_text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(path_text.len());
        let path = path_text[..len].trim_end_matches('.');
        if path.is_empty() {
            return false;
        }
        if unknown(path) {
            let read = format!("data.values.{path}");
            if !(whole_value && code.trim() == read) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_unknown(path: &str) -> bool {
        overlaps("name", path)
    }

    #[test]
    fn a_rule_that_reads_its_value_only() {
        assert!(rule_reads_its_value_only(
            "#@schema/validation (\"must be positive\", lambda v: v > 0)"
        ));
        assert!(rule_reads_its_value_only("#@schema/validation min_len=3"));
        assert!(rule_reads_its_value_only(
            "#@assert/validate (\"lower\", lambda v: v.lower() == v)"
        ));
        assert!(!rule_reads_its_value_only(
            "#@schema/validation (\"x\", lambda v: v > 0), when=lambda v, ctx: ctx.root[\"name\"] != \"\""
        ));
        assert!(!rule_reads_its_value_only(
            "#@assert/validate (\"x\", lambda v: data.values.name != v)"
        ));
        assert!(!rule_reads_its_value_only(
            "#@schema/validation (\"x\", check)"
        ));
        assert!(!rule_reads_its_value_only("#@schema/validation (\"x\","));
    }

    #[test]
    fn a_run_time_key_read_as_a_whole_value_is_no_read() {
        let k: Unknown<'_> = &name_unknown;
        let t = "#@ load(\"@ytt:data\", \"data\")\n#@ if data.values.replicas < 1:\n#@   fail(\"x\")\n#@ end\n---\nname: #@ data.values.name\n";
        assert!(code_reads_only_known("t.yaml", t, k));
        let used = "#@ load(\"@ytt:data\", \"data\")\n#@ if data.values.name == \"\":\n#@   fail(\"x\")\n#@ end\n";
        assert!(!code_reads_only_known("t.yaml", used, k));
        let in_def =
            "#@ load(\"@ytt:data\", \"data\")\n#@ def f():\nname: #@ data.values.name\n#@ end\n";
        assert!(!code_reads_only_known("t.yaml", in_def, k));
        let aliased = "#@ load(\"@ytt:data\", \"data\")\n#@ v = data.values\n";
        assert!(!code_reads_only_known("t.yaml", aliased, k));
        let renamed = "#@ load(\"@ytt:data\", d=\"data\")\n";
        assert!(!code_reads_only_known("t.yaml", renamed, k));
        let method = "name: #@ data.values.name.upper()\n";
        assert!(!code_reads_only_known("t.yaml", method, k));
        let star = "load(\"@ytt:data\", \"data\")\ndef f():\n  return data.values.name\nend\n";
        assert!(!code_reads_only_known("f.star", star, k));
        let via = "#@overlay/replace via=lambda a, b: b\nname: x\n";
        assert!(!code_reads_only_known("o.yaml", via, k));
        let subset = "#@overlay/match by=overlay.subset({\"kind\": \"A\"})\n---\n";
        assert!(code_reads_only_known("o.yaml", subset, k));
        assert!(code_reads_only_known("c.yaml", "data:\n  a: 1\n", k));
    }

    #[test]
    fn paths() {
        assert_eq!(dotted("a.b[0].c"), "a.b.c");
        assert!(overlaps("app", "app.name"));
        assert!(!overlaps("app", "apps"));
    }
}
