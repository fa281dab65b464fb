//! `load()` inside blocks. ytt's Starlark runs a `load` statement where it stands, even inside
//! an `if` or `for` (a conditional load loads nothing when its branch is not taken); the crate
//! only accepts `load` at the top of a module. A `load` inside a block is therefore
//! rewritten into a call of the runtime function [`RUNTIME_FN`] that loads the module when the
//! line runs and binds the same names, on the same line, so the line map is unchanged.

/// Name of the global function that performs a nested load.
pub const RUNTIME_FN: &str = "__ytt_nested_load";

/// Parses the arguments of `load(...)` on one line: the module path and the bindings
/// (`(local name, exported name)`). `None` when the line is not a simple one-line load.
fn parse_load(stmt: &str) -> Option<(String, Vec<(String, String)>)> {
    let inner = stmt.strip_prefix("load")?.trim_start();
    let inner = inner.strip_prefix('(')?;
    let inner = inner.trim_end().strip_suffix(')')?;
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for ch in inner.chars() {
        match quote {
            Some(q) => {
                cur.push(ch);
                if ch == q {
                    quote = None;
                }
            }
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                cur.push(ch);
            }
            None if ch == ',' => parts.push(std::mem::take(&mut cur)),
            None => cur.push(ch),
        }
    }
    if quote.is_some() {
        return None;
    }
    if !cur.trim().is_empty() {
        parts.push(cur);
    }
    let string = |s: &str| -> Option<String> {
        let s = s.trim();
        let q = s.chars().next()?;
        if (q == '"' || q == '\'') && s.len() >= 2 && s.ends_with(q) {
            let body = &s[1..s.len() - 1];
            if body.contains('\\') {
                return None;
            }
            Some(body.to_string())
        } else {
            None
        }
    };
    let mut iter = parts.iter();
    let path = string(iter.next()?)?;
    let mut binds = Vec::new();
    for p in iter {
        match p.split_once('=') {
            Some((local, name)) => binds.push((local.trim().to_string(), string(name)?)),
            None => {
                let name = string(p)?;
                binds.push((name.clone(), name));
            }
        }
    }
    if binds.is_empty() {
        return None;
    }
    Some((path, binds))
}

/// The runtime rewrites of code in block syntax: nested loads, `**` splats and named
/// arguments after a `*` spread.
pub fn rewrite_runtime(code: &str) -> String {
    let code = super::kwargs_splat::rewrite_kwargs_splats(&rewrite_nested_loads(code));
    super::named_after_star::reorder(&code)
}

/// Whether `text` closes every parenthesis it opens (outside string literals).
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for ch in text.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == '"' || ch == '\'' => quote = Some(ch),
            None if ch == '(' => depth += 1,
            None if ch == ')' => depth -= 1,
            None => {}
        }
    }
    depth <= 0
}

/// Rewrites indented `load(...)` statements of `code` (already in block syntax). A load spread
/// over several lines is rewritten on its first line; its other lines become empty.
pub fn rewrite_nested_loads(code: &str) -> String {
    let lines: Vec<&str> = code.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if indent.is_empty() || !trimmed.starts_with("load") {
            out.push(line.to_string());
            i += 1;
            continue;
        }
        let mut end = i;
        let mut stmt = trimmed.to_string();
        while !balanced(&stmt) && end + 1 < lines.len() && end - i < 100 {
            end += 1;
            stmt.push(' ');
            stmt.push_str(lines[end].trim());
        }
        match parse_load(&stmt) {
            Some((path, binds)) => {
                let names: Vec<String> = binds.iter().map(|(_, n)| format!("{n:?}")).collect();
                let locals: Vec<&str> = binds.iter().map(|(l, _)| l.as_str()).collect();
                let target = if locals.len() == 1 {
                    format!("({},)", locals[0])
                } else {
                    format!("({})", locals.join(", "))
                };
                out.push(format!(
                    "{indent}{target} = {RUNTIME_FN}({path:?}, {})",
                    names.join(", ")
                ));
                out.extend((i..end).map(|_| String::new()));
                i = end + 1;
            }
            None => {
                out.push(line.to_string());
                i += 1;
            }
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_loads_become_runtime_calls() {
        let code = "if x:\n  load(\"/a.lib.yml\", \"f\", g=\"h\")\nload(\"b.star\", \"k\")";
        assert_eq!(
            rewrite_nested_loads(code),
            "if x:\n  (f, g) = __ytt_nested_load(\"/a.lib.yml\", \"f\", \"h\")\nload(\"b.star\", \"k\")"
        );
    }

    #[test]
    fn single_binding_uses_a_one_element_tuple() {
        assert_eq!(
            rewrite_nested_loads("  load('x.star', 'a')"),
            "  (a,) = __ytt_nested_load(\"x.star\", \"a\")"
        );
    }

    #[test]
    fn multi_line_loads_keep_the_line_count() {
        let code = "if x:\n  load(\"a.lib.yml\", \"f\",\n    \"g\")\n  y = 1";
        assert_eq!(
            rewrite_nested_loads(code),
            "if x:\n  (f, g) = __ytt_nested_load(\"a.lib.yml\", \"f\", \"g\")\n\n  y = 1"
        );
    }

    #[test]
    fn leaves_what_it_cannot_parse() {
        let code = "  load(\"x.star\",";
        assert_eq!(rewrite_nested_loads(code), code);
    }
}
