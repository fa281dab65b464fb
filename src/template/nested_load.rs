//! `load()` inside blocks. ytt's Starlark runs a `load` statement where it stands, even inside
//! an `if` or `for` (a conditional load loads nothing when its branch is not taken); the crate
//! only accepts `load` at the top of a module. A one-line `load` inside a block is therefore
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

/// The runtime rewrites of code in block syntax: nested loads and `**` splats.
pub fn rewrite_runtime(code: &str) -> String {
    super::kwargs_splat::rewrite_kwargs_splats(&rewrite_nested_loads(code))
}

/// Rewrites indented one-line `load(...)` statements of `code` (already in block syntax).
pub fn rewrite_nested_loads(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for (i, line) in code.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if indent.is_empty() || !trimmed.starts_with("load") {
            out.push_str(line);
            continue;
        }
        match parse_load(trimmed) {
            Some((path, binds)) => {
                let names: Vec<String> = binds.iter().map(|(_, n)| format!("{n:?}")).collect();
                let locals: Vec<&str> = binds.iter().map(|(l, _)| l.as_str()).collect();
                out.push_str(indent);
                out.push_str(&format!(
                    "{} = {RUNTIME_FN}({path:?}, {})",
                    if locals.len() == 1 {
                        format!("({},)", locals[0])
                    } else {
                        format!("({})", locals.join(", "))
                    },
                    names.join(", ")
                ));
            }
            None => out.push_str(line),
        }
    }
    out
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
    fn leaves_what_it_cannot_parse() {
        let code = "  load(\"x.star\",";
        assert_eq!(rewrite_nested_loads(code), code);
    }
}
