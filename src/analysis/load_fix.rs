//! The fix of `unused-load`: drop the unused name from its `load()`, or the whole statement
//! (its lines) when no loaded name of it is left. The statement is read from the file's text
//! (a `load(` at the start of a `.star` line or after `#@` in a YAML template, its arguments
//! possibly over several lines, each template line continued after `#@`); anything it does
//! not expect (a comment inside, a bracket, other code after the closing parenthesis) means
//! no fix. The statement read must be the one parsed, module and names alike; and a template
//! with line breaks its YAML parser counts otherwise than the fix engine (a CR alone, NEL, LS,
//! PS: the finding's line is the parser's) gets no fix, as the line would name another
//! statement.

use starlark::syntax::ast::{AstNoPayload, LoadP};

use crate::files::FileType;
use crate::fix::{edit, Edit, Fix};

use super::units::Unit;

/// One argument of the statement: its byte range in the file and its text.
struct Arg {
    start: usize,
    end: usize,
}

/// The statement on template line `line` of `unit`, read from the text: its arguments and
/// the byte after its closing parenthesis.
struct Load {
    args: Vec<Arg>,
    close: usize,
}

/// The fix that removes the loaded name `local` from the `load()` starting on template line
/// `line`, the statement `parsed`; the whole statement when `whole` (no name of it is used).
/// It is safe when `safe` (the removal is proved harmless, see [`super::load_safety`]), else
/// unsafe.
pub fn fix(
    unit: &Unit<'_>,
    line: u32,
    parsed: &LoadP<AstNoPayload>,
    local: &str,
    whole: bool,
    safe: bool,
) -> Option<Fix> {
    let make = |title: String, e: Edit| {
        if safe {
            Fix::safe(title, e)
        } else {
            Fix::unsafe_(title, e)
        }
    };
    let template = match unit.file.file_type() {
        FileType::Starlark => false,
        FileType::Yaml => true,
        _ => return None,
    };
    let text: &str = &unit.file.data;
    if unit.file.raw.is_some() || text.contains(&format!("#@{local}.")) {
        // `key: #@data.values.x` reads `data` once a space is put after `#@`.
        return None;
    }
    if template && !lines_as_parsed(text) {
        return None;
    }
    let load = read(text, line, template)?;
    if !same(text, &load, parsed) {
        return None;
    }
    let (_, last_end) = edit::line_range(text, edit::line_col(text, load.close).0)?;
    if !text[load.close..last_end].trim().is_empty() {
        return None;
    }
    let file = &unit.file.rel_path;
    if whole {
        let last = edit::line_col(text, load.close).0;
        let (start, end) = edit::whole_lines(text, line, last)?;
        let e = Edit::new(file, text, start, end, "")?;
        return Some(make("Remove the unused `load()`".to_string(), e));
    }
    let k = load
        .args
        .iter()
        .skip(1)
        .position(|a| names(&text[a.start..a.end], local))?
        + 1;
    let e = Edit::new(file, text, load.args[k - 1].end, load.args[k].end, "")?;
    Some(make(format!("Remove the unused name `{local}`"), e))
}

/// Whether the YAML parser's lines of `text` (a template finding's) are the fix engine's: both
/// end lines at an LF, a CR LF and a CR alone, but the parser also at NEL, LS and PS.
fn lines_as_parsed(text: &str) -> bool {
    !text.contains(['\u{85}', '\u{2028}', '\u{2029}'])
}

/// Whether the statement `load` read from `text` is `parsed`: the same module, the same
/// names bound to the same names, in the same order.
fn same(text: &str, load: &Load, parsed: &LoadP<AstNoPayload>) -> bool {
    let Some((module, args)) = load.args.split_first() else {
        return false;
    };
    if unquote(&text[module.start..module.end]) != Some(parsed.module.node.as_str())
        || args.len() != parsed.args.len()
    {
        return false;
    }
    args.iter().zip(&parsed.args).all(|(arg, p)| {
        let arg = &text[arg.start..arg.end];
        let local = super::walk::original(&p.local.ident);
        match arg.split_once('=') {
            Some((name, their)) => {
                name.trim() == local && unquote(their.trim()) == Some(p.their.node.as_str())
            }
            None => local == p.their.node && unquote(arg) == Some(local),
        }
    })
}

/// The text of a plain one-line string literal without escapes (`"x"`, `'x'`).
fn unquote(s: &str) -> Option<&str> {
    let inner = s
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| s.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))?;
    (!inner.contains(['\\', '"', '\''])).then_some(inner)
}

/// Whether the argument text `arg` (`"name"` or `name = "their"`) loads `local`.
fn names(arg: &str, local: &str) -> bool {
    match arg.split_once('=') {
        Some((name, _)) => name.trim() == local,
        None => {
            arg.strip_prefix(['"', '\''])
                .and_then(|a| a.strip_suffix(['"', '\'']))
                == Some(local)
        }
    }
}

/// The `load(...)` at the start of line `line` (after `#@` in a template).
fn read(text: &str, line: u32, template: bool) -> Option<Load> {
    let (start, end) = edit::line_range(text, line)?;
    let line_text = &text[start..end];
    let mut rest = line_text.trim_start();
    if template {
        rest = rest.strip_prefix("#@")?.trim_start();
    }
    rest.strip_prefix("load(")?;
    let mut at = start + (line_text.len() - rest.len()) + "load(".len();
    let bytes = text.as_bytes();
    let mut args = Vec::new();
    let mut current: Option<Arg> = None;
    let mut quote: Option<u8> = None;
    while at < bytes.len() {
        let c = bytes[at];
        if let Some(q) = quote {
            match c {
                b'\\' => at += 1,
                b'\n' => return None,
                _ if c == q => quote = None,
                _ => {}
            }
            at += 1;
            if let Some(a) = &mut current {
                a.end = at;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => {
                quote = Some(c);
                current.get_or_insert(Arg { start: at, end: at });
            }
            b',' | b')' => {
                args.extend(current.take());
                if c == b')' {
                    return Some(Load {
                        args,
                        close: at + 1,
                    });
                }
            }
            b'\n' if template => {
                // The statement goes on after `#@` on the next line.
                let next = &text[at + 1..];
                let skipped = next.len() - next.trim_start_matches([' ', '\t']).len();
                if !next[skipped..].starts_with("#@") {
                    return None;
                }
                at += skipped + 2;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'#' | b'(' | b'[' | b'{' | b';' => return None,
            _ => {
                current.get_or_insert(Arg { start: at, end: at });
            }
        }
        if let Some(a) = &mut current {
            if !c.is_ascii_whitespace() {
                a.end = at + 1;
            }
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::fixed;

    #[test]
    fn an_unused_name_goes_and_a_load_with_none_left_goes_whole() {
        let tpl = "#@ load(\"@ytt:data\", \"data\", y=\"yaml\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n\
                   #@ load(\"@ytt:struct\", \"struct\", \"_x\")\n---\na: #@ data.values.a\n";
        assert_eq!(
            fixed(&[("t.yml", tpl)], super::super::crate_lints::UNUSED_LOAD),
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"_x\")\n---\na: #@ data.values.a\n"
        );
    }

    #[test]
    fn loads_over_several_lines() {
        let star = "load(\n    \"helpers.star\",\n    \"used\",\n    \"unused\",\n)\nload(\"@ytt:yaml\",\n  \"yaml\")\nx = used\n";
        let helpers = "used = 1\nunused = 2\n";
        assert_eq!(
            fixed(
                &[("f.star", star), ("helpers.star", helpers)],
                super::super::crate_lints::UNUSED_LOAD
            ),
            "load(\n    \"helpers.star\",\n    \"used\",\n)\nx = used\n"
        );
        let tpl =
            "#@ load(\"@ytt:data\",\n#@   \"data\",\n#@   \"list\")\n---\na: #@ data.values.a\n";
        assert_eq!(
            fixed(&[("t.yml", tpl)], super::super::crate_lints::UNUSED_LOAD),
            "#@ load(\"@ytt:data\",\n#@   \"data\")\n---\na: #@ data.values.a\n"
        );
    }

    /// A CR alone is a line break to the YAML parser, whose line the finding has, but not to
    /// the fix engine: line 2 was the `@ytt:struct` load, and the safe fix removed it.
    #[test]
    fn line_breaks_the_parser_counts_otherwise_give_no_fix() {
        let rule = super::super::crate_lints::UNUSED_LOAD;
        let ls = "#! c\u{2028}#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\n---\na: #@ struct.make(x=1).x\n";
        assert_eq!(fixed(&[("t.yml", ls)], rule), ls);
        // A CR alone ends a line for the parser and the fix engine alike: the fix removes
        // the unused load, not the used one on the next line.
        let cr = "#! c\r#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\n---\na: #@ struct.make(x=1).x\n";
        assert_eq!(
            fixed(&[("t.yml", cr)], rule),
            "#! c\r#@ load(\"@ytt:struct\", \"struct\")\n---\na: #@ struct.make(x=1).x\n"
        );
        let crlf = "#@ load(\"@ytt:data\", \"data\")\r\n#@ load(\"@ytt:struct\", \"struct\")\r\n---\r\na: #@ struct.make(x=1).x\r\n";
        assert_eq!(
            fixed(&[("t.yml", crlf)], rule),
            "#@ load(\"@ytt:struct\", \"struct\")\r\n---\r\na: #@ struct.make(x=1).x\r\n"
        );
        // A CR that ends the text goes with its statement.
        let cr_at_end = "load(\"@ytt:struct\", \"struct\")\r";
        assert_eq!(fixed(&[("f.star", cr_at_end)], rule), "");
    }

    #[test]
    fn no_fix_where_the_statement_read_is_not_the_one_parsed() {
        let read = |text: &str| super::read(text, 1, false).unwrap();
        let parse = |text: &str| {
            let ast = starlark::syntax::AstModule::parse(
                "f.star",
                text.to_string(),
                &starlark::syntax::Dialect::Standard,
            )
            .unwrap();
            let stmt = ast.statement().clone();
            match stmt.node {
                starlark::syntax::ast::StmtP::Load(l) => l,
                starlark::syntax::ast::StmtP::Statements(mut s) => match s.remove(0).node {
                    starlark::syntax::ast::StmtP::Load(l) => l,
                    _ => unreachable!(),
                },
                _ => unreachable!(),
            }
        };
        let text = "load(\"m.star\", \"a\", b = \"c\")\n";
        assert!(super::same(text, &read(text), &parse(text)));
        for other in [
            "load(\"n.star\", \"a\", b = \"c\")\n",
            "load(\"m.star\", \"a\", b = \"d\")\n",
            "load(\"m.star\", \"a\", c = \"c\")\n",
            "load(\"m.star\", \"a\")\n",
            "load(\"m.star\", \"b\", a = \"c\")\n",
        ] {
            assert!(!super::same(text, &read(text), &parse(other)), "{other}");
        }
    }

    #[test]
    fn no_fix_where_the_statement_is_not_alone_or_the_name_waits_for_a_space() {
        let tpl = "#@ load(\"@ytt:yaml\", \"yaml\"); x = 1\n---\na: #@ x\n";
        assert_eq!(
            fixed(&[("t.yml", tpl)], super::super::crate_lints::UNUSED_LOAD),
            tpl
        );
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\na: #@data.values.a\n";
        assert_eq!(
            fixed(&[("t.yml", tpl)], super::super::crate_lints::UNUSED_LOAD),
            tpl
        );
    }
}
