//! justfiles (`justfile`, `Justfile`, `.justfile`, `*.just`): each recipe's lines, run in the
//! justfile's directory, with just's variables (`name := "text"`, joined with `+` and `/`)
//! filled in where the recipe writes `{{name}}`. Every line of a recipe runs in a shell of its
//! own, as just runs it (a `cd` holds for its line only): one snippet per recipe, each line a
//! subshell, so that what a line copies is seen by a later line's `ytt` (see
//! `tree_copy.rs`). A recipe that starts with a shebang is one script. A value just takes
//! from a command (`` `date` ``), a parameter or the environment is known only at run time;
//! `` `git rev-parse --show-toplevel` `` and `justfile_directory()` are the repository's
//! directories.

use std::collections::HashMap;

use super::snippet::{Marked, Snippet};
use super::word::{Word, REPO};
use crate::files::paths;

/// The most recipes and variables read from one justfile.
const MAX_RECIPES: usize = 1_000;
const MAX_VARIABLES: usize = 1_000;

/// Whether a repository file is a justfile, by name.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "justfile" | "Justfile" | "JUSTFILE" | ".justfile") || name.ends_with(".just")
}

/// A value: known text, or known only at run time (as written).
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Known(String),
    Unknown(String),
}

/// The snippets of the justfile at repository-relative `path`, one per recipe whose text
/// `wanted` says may run ytt.
pub fn snippets(path: &str, text: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let dir = paths::parent(path);
    let own = if dir == "." {
        REPO.to_string()
    } else {
        format!("{REPO}/{dir}")
    };
    let cwd = Word::lit(own.clone());
    let lines: Vec<&str> = text.lines().collect();
    let mut vars: HashMap<String, Value> = HashMap::new();
    let mut recipes: Vec<(usize, Vec<String>)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with([' ', '\t']) || line.trim().is_empty() || line.starts_with('#') {
            i += 1;
            continue;
        }
        let trimmed = line.trim();
        if let Some((name, expr)) = assignment(trimmed) {
            if vars.len() < MAX_VARIABLES {
                let value = evaluate(expr, &vars, &own);
                vars.insert(name, value);
            }
        } else if let Some(params) = recipe_header(trimmed) {
            if recipes.len() < MAX_RECIPES {
                recipes.push((i, params));
            }
        }
        i += 1;
    }
    let mut out = Vec::new();
    for (header, params) in recipes {
        let body = body_lines(&lines, header);
        if body.is_empty() {
            continue;
        }
        let mut known = vars.clone();
        for p in params {
            let v = Value::Unknown(format!("{{{{{p}}}}}"));
            known.insert(p, v);
        }
        let shebang = body
            .first()
            .is_some_and(|(_, l)| l.trim().starts_with("#!"));
        let mut m = Marked::default();
        let mut next = header + 1;
        let mut k = 0;
        while k < body.len() {
            // The lines one command continues over (`\` at the end).
            let start = k;
            while k + 1 < body.len() && body[k].1.trim_end().ends_with('\\') {
                k += 1;
            }
            let (first_index, _) = body[start];
            while next < first_index {
                m.push("\n");
                next += 1;
            }
            let command: Vec<&str> = body[start..=k].iter().map(|(_, l)| l.trim()).collect();
            let joined = command.join("\n");
            let joined = joined.trim_start_matches(['@', '-']);
            let comment = joined.starts_with('#');
            let wrap = !shebang && !comment && !joined.is_empty();
            if wrap {
                m.push("( ");
            }
            if comment {
                // A comment line is the shell's, where just passes it on: nothing runs.
                m.push(&"\n".repeat(k - start));
            } else {
                interpolate(joined, &known, &own, &mut m);
            }
            if wrap {
                m.push(" )");
            }
            m.push("\n");
            next = body[k].0 + 1;
            k += 1;
        }
        let mentions = wanted(&m.text)
            || m.vars
                .iter()
                .any(|(_, w)| w.to_string().to_ascii_lowercase().contains("ytt"));
        if !mentions {
            continue;
        }
        let offset = u32::try_from(header + 1).unwrap_or(u32::MAX);
        out.push(m.into_snippet(path, offset, cwd.clone()));
    }
    out
}

/// The recipe's body: the indented lines after its header (blank lines within it kept
/// out), each with its index in the file.
fn body_lines<'a>(lines: &[&'a str], header: usize) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    for (j, line) in lines.iter().enumerate().skip(header + 1) {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            break;
        }
        out.push((j, *line));
    }
    out
}

/// `name := expression` (with `export` before it); not a setting (`set x := y`) nor an alias.
fn assignment(line: &str) -> Option<(String, &str)> {
    let line = line.strip_prefix("export ").unwrap_or(line);
    let (name, expr) = line.split_once(":=")?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    Some((name.to_string(), expr.trim()))
}

/// A recipe's header (`name param *args: deps`, `@name:`): the names of its parameters.
fn recipe_header(line: &str) -> Option<Vec<String>> {
    if line.starts_with('[') || line.starts_with("set ") || line.starts_with("alias ") {
        return None;
    }
    let line = line.trim_start_matches('@');
    let (head, _) = line.split_once(':')?;
    if line.contains(":=") {
        return None;
    }
    let mut words = head.split_whitespace();
    let name = words.next()?;
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    Some(
        words
            .map(|w| {
                let w = w.trim_start_matches(['*', '+', '$']);
                w.split('=').next().unwrap_or(w).to_string()
            })
            .filter(|w| !w.is_empty())
            .collect(),
    )
}

/// The value of an expression: operands (`"text"`, `'text'`, a variable, a function call,
/// a backtick command) joined by `+` (concatenation) or `/` (a path join).
fn evaluate(expr: &str, vars: &HashMap<String, Value>, own: &str) -> Value {
    let mut out = String::new();
    let mut rest = expr.trim();
    let mut join = false;
    let mut first = true;
    while !rest.is_empty() {
        let (value, after) = match operand(rest, vars, own) {
            Some(x) => x,
            None => return Value::Unknown(expr.to_string()),
        };
        let Value::Known(text) = value else {
            return Value::Unknown(expr.to_string());
        };
        if join && !first {
            out.push('/');
        }
        out.push_str(&text);
        first = false;
        rest = after.trim_start();
        if rest.is_empty() || rest.starts_with('#') {
            break;
        }
        join = match rest.chars().next() {
            Some('+') => false,
            Some('/') => true,
            _ => return Value::Unknown(expr.to_string()),
        };
        rest = rest[1..].trim_start();
    }
    Value::Known(out)
}

/// One operand at the start of `text`, and the text after it.
fn operand<'t>(
    text: &'t str,
    vars: &HashMap<String, Value>,
    own: &str,
) -> Option<(Value, &'t str)> {
    let c = text.chars().next()?;
    if c == '"' || c == '\'' {
        let end = text[1..].find(c)? + 1;
        return Some((Value::Known(text[1..end].to_string()), &text[end + 1..]));
    }
    if c == '`' {
        let end = text[1..].find('`')? + 1;
        let command = text[1..end].trim();
        let value = if command == "git rev-parse --show-toplevel" {
            Value::Known(REPO.to_string())
        } else {
            Value::Unknown(format!("`{command}`"))
        };
        return Some((value, &text[end + 1..]));
    }
    let len = text
        .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '-'))
        .unwrap_or(text.len());
    if len == 0 {
        return None;
    }
    let name = &text[..len];
    let after = &text[len..];
    if let Some(args) = after.strip_prefix('(') {
        let close = args.find(')')?;
        let value = match name {
            "justfile_directory" | "justfile_dir" | "source_directory" | "source_dir" => {
                Value::Known(own.to_string())
            }
            _ => Value::Unknown(format!("{name}()")),
        };
        return Some((value, &args[close + 1..]));
    }
    let value = vars
        .get(name)
        .cloned()
        .unwrap_or_else(|| Value::Unknown(name.to_string()));
    Some((value, after))
}

/// Writes a recipe line with its `{{expression}}`s filled in (`{{{{` is a literal `{{`).
fn interpolate(line: &str, vars: &HashMap<String, Value>, own: &str, m: &mut Marked) {
    let mut rest = line;
    while let Some(at) = rest.find("{{") {
        if rest[at..].starts_with("{{{{") {
            m.push(&rest[..at]);
            m.push("{{");
            rest = &rest[at + 4..];
            continue;
        }
        let Some(len) = rest[at + 2..].find("}}") else {
            break;
        };
        m.push(&rest[..at]);
        let inner = rest[at + 2..at + 2 + len].trim();
        match evaluate(inner, vars, own) {
            Value::Known(text) if !inner.is_empty() => m.push(&text),
            _ => m.unknown(&format!("{{{{{inner}}}}}")),
        }
        rest = &rest[at + 2 + len + 2..];
    }
    m.push(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<Snippet> {
        snippets("deploy/justfile", text, &|t| t.contains("ytt"))
    }

    #[test]
    fn each_line_of_a_recipe_is_a_subshell_at_its_own_line() {
        let text = "build := \"build\" / \"pre\"\n\n# Render.\nrender:\n  mkdir -p {{build}}\n  cd {{build}} && \\\n    ytt -f .\n\nother:\n  echo hi\n";
        let s = all(text);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line_offset, 4);
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/deploy")));
        let lines: Vec<&str> = s[0].text.lines().collect();
        assert_eq!(lines[0], "( mkdir -p build/pre )");
        assert_eq!(lines[1], "( cd build/pre && \\");
        assert_eq!(lines[2], "ytt -f . )");
    }

    #[test]
    fn the_repository_top_and_unknown_values() {
        let text = "root := `git rev-parse --show-toplevel`\npre := root + \"/build/pre\"\nstamp := `date`\n\nr tag:\n  ytt -f {{pre}} -v t={{tag}} -v s={{stamp}} -v x={{{{y}}\n";
        let s = all(text);
        assert_eq!(s.len(), 1);
        assert!(
            s[0].text.contains(&format!("{REPO}/build/pre")),
            "{}",
            s[0].text
        );
        assert!(s[0].text.contains("{{y}}"));
        let unknown: Vec<String> = s[0].vars.iter().map(|(_, w)| w.to_string()).collect();
        assert_eq!(unknown, ["{{tag}}", "{{stamp}}"]);
    }

    #[test]
    fn a_shebang_recipe_is_one_script() {
        let text = "r:\n  #!/usr/bin/env bash\n  cd out\n  ytt -f .\n";
        let s = all(text);
        assert!(!s[0].text.contains('('), "{}", s[0].text);
        assert!(candidate("justfile") && candidate("a/.justfile") && candidate("x.just"));
        assert!(!candidate("justfile.md"));
    }
}
