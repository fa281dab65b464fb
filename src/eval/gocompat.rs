//! Makes parsed code behave as starlark-go (ytt's fork) runs it where the crate's own operators
//! and string methods differ: string methods starlark-go has in another form (`find`,
//! `codepoints`, `split`, ...), dict's `update` and list's `pop` are looked up through
//! `__ytt_attr` (see `stdlib::gostr`, `stdlib::godict`, `stdlib::golist_pop`), and
//! `*`, `|`, `%`, `<<`, `<`, `<=`, `>`, `>=` become calls of the `__ytt_` functions of `stdlib::goops`.
//!
//! Method lookups are rewritten in the source text (the crate's syntax tree can be read but
//! not edited) without adding lines, so line numbers and the line maps stay valid; operators
//! are replaced in the syntax tree. Augmented assignments of those operators (`d |= x`) are
//! rewritten to the same calls (`eval::augmented`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use starlark::syntax::ast::{AstExpr, Expr};
use starlark::syntax::{AstModule, Dialect};

use crate::shared_cache::ByteLru;

/// String methods whose lookup goes through `__ytt_attr`.
pub const METHODS: &[&str] = &[
    "find",
    "rfind",
    "index",
    "rindex",
    "count",
    "codepoints",
    "codepoint_ords",
    "elem_ords",
    "elems",
    "split",
    "rsplit",
    "replace",
    "removeprefix",
    "removesuffix",
    "startswith",
    "endswith",
    "strip",
    "lstrip",
    "rstrip",
    "format",
    // dict's, for starlark-go's mappings (`stdlib::godict`).
    "update",
    // list's, for starlark-go's negative indexes and words (`stdlib::golist_pop`).
    "pop",
];

/// Binary operators and the function each becomes.
pub const OPERATORS: &[(&str, &str)] = &[
    ("*", "__ytt_mul"),
    ("|", "__ytt_bitor"),
    ("%", "__ytt_percent"),
    ("<<", "__ytt_shl"),
    ("<", "__ytt_lt"),
    ("<=", "__ytt_le"),
    (">", "__ytt_gt"),
    (">=", "__ytt_ge"),
];

/// One text edit: replace `start..end` with `text` (an insertion when both are equal).
/// `outer` orders insertions at one place: the enclosing lookup's goes first.
pub(super) struct Edit {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) text: String,
    pub(super) outer: usize,
}

/// Bytes of code whose rewritten text one thread keeps, at most.
const KEPT_BYTES: usize = 8 << 20;

thread_local! {
    /// The code with its method lookups rewritten (`None`: nothing to rewrite), by the code:
    /// code evaluated again (the same template in the language server's next run, the same
    /// file in another job) is parsed once instead of twice. The rewrite depends on the code
    /// alone (the one dialect of [`crate::eval::run`], positions are offsets in the code).
    static REWRITTEN: RefCell<ByteLru<Option<Arc<str>>>> = RefCell::new(ByteLru::new(KEPT_BYTES));
}

/// Parses `code` and adapts it to starlark-go's behaviour.
pub fn parse(file: &str, code: String, dialect: &Dialect) -> starlark::Result<AstModule> {
    let known = REWRITTEN.with(|c| c.borrow_mut().get(&code, "", 0));
    let mut ast = match known {
        Some(Some(rewritten)) => AstModule::parse(file, rewritten.to_string(), dialect)?,
        Some(None) => AstModule::parse(file, code, dialect)?,
        None => {
            let ast = AstModule::parse(file, code.clone(), dialect)?;
            if let Some((at, words)) = crate::template::spread_comma::refused(&code) {
                // Not kept: the next parse of this code finds it again.
                return Err(spread_comma_error(&ast, at, words));
            }
            let mut edits = method_edits(&ast, &code);
            edits.extend(super::augmented::edits(&ast, &code));
            let rewritten = (!edits.is_empty()).then(|| apply(&code, edits));
            let kept = rewritten.as_deref().map(Arc::<str>::from);
            let text = Arc::<str>::from(code);
            REWRITTEN.with(|c| c.borrow_mut().put(&text, &Arc::from(""), 0, kept));
            match rewritten {
                Some(r) => AstModule::parse(file, r, dialect)?,
                None => ast,
            }
        }
    };
    static OPS: std::sync::LazyLock<HashMap<String, String>> = std::sync::LazyLock::new(|| {
        OPERATORS
            .iter()
            .map(|(op, f)| (op.to_string(), f.to_string()))
            .collect()
    });
    ast.replace_binary_operators(&OPS);
    Ok(ast)
}

/// ytt's parse error for a call or `def` that spreads and ends with a comma, at its `)`
/// (`template::spread_comma`).
fn spread_comma_error(ast: &AstModule, at: usize, words: &'static str) -> starlark::Error {
    let pos = starlark::codemap::Pos::new(u32::try_from(at).unwrap_or(u32::MAX));
    let span = starlark::codemap::Span::new(pos, pos);
    let codemap = ast.file_span(span).file;
    starlark::Error::new_spanned(
        starlark::ErrorKind::Parser(anyhow::anyhow!(words)),
        span,
        &codemap,
    )
}

/// The edits turning each `obj.method` (for the methods in [`METHODS`]) into
/// `__ytt_attr(obj, "method")`.
fn method_edits(ast: &AstModule, code: &str) -> Vec<Edit> {
    let mut edits = Vec::new();
    ast.statement().visit_expr(|e| collect(e, code, &mut edits));
    if edits.is_empty() {
        return edits;
    }
    // Spans leave out parentheses: an insertion goes before those around the object (the
    // ones closing before the method's name).
    let pairs = crate::template::rewrite::paren_pairs(code);
    for e in edits.iter_mut().filter(|e| e.start == e.end) {
        let name_end = e.start + e.outer;
        loop {
            let before = code[..e.start].trim_end_matches([' ', '\t', '\r', '\n', '\\']);
            let Some(open) = before.len().checked_sub(1) else {
                break;
            };
            let closes_inside = pairs
                .binary_search_by_key(&open, |p| p.0)
                .ok()
                .is_some_and(|i| pairs[i].1 < name_end);
            if !closes_inside {
                break;
            }
            e.outer += e.start - open;
            e.start = open;
            e.end = open;
        }
    }
    edits
}

fn collect(e: &AstExpr, code: &str, edits: &mut Vec<Edit>) {
    if let Expr::Dot(obj, attr) = &e.node {
        if METHODS.contains(&attr.node.as_str()) {
            // The lookup's own span starts at the object's first token, parentheses included
            // (the object's span leaves them out).
            let start = e.span.begin().get() as usize;
            let obj_end = obj.span.end().get() as usize;
            let attr_end = attr.span.end().get() as usize;
            let between = code.get(obj_end..attr_end).unwrap_or("");
            if let Some(dot) = between.rfind('.') {
                let newlines = "\n".repeat(between[dot..].matches('\n').count());
                edits.push(Edit {
                    start,
                    end: start,
                    text: "__ytt_attr(".to_string(),
                    outer: attr_end - start,
                });
                edits.push(Edit {
                    start: obj_end,
                    end: attr_end,
                    text: format!("{}, {newlines}\"{}\")", &between[..dot], attr.node),
                    outer: 0,
                });
            }
        }
    }
    e.visit_expr(|c| collect(c, code, edits));
}

/// Applies non-overlapping edits.
pub(super) fn apply(code: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by(|a, b| a.start.cmp(&b.start).then(b.outer.cmp(&a.outer)));
    let mut out = String::with_capacity(code.len() + edits.len() * 16);
    let mut at = 0;
    for e in edits {
        if e.start < at {
            continue;
        }
        out.push_str(code.get(at..e.start).unwrap_or(""));
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(code.get(at..).unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(code: &str) -> String {
        let ast = AstModule::parse("t.star", code.to_string(), &Dialect::Extended).unwrap();
        apply(code, method_edits(&ast, code))
    }

    #[test]
    fn method_lookups_go_through_ytt_attr() {
        assert_eq!(
            rewritten("x = s.find('a')"),
            "x = __ytt_attr(s, \"find\")('a')"
        );
        assert_eq!(
            rewritten("x = (a + b).split(',')[0].find('a')"),
            "x = __ytt_attr(__ytt_attr((a + b), \"split\")(',')[0], \"find\")('a')"
        );
        assert_eq!(rewritten("x = s.upper()"), "x = s.upper()");
        assert_eq!(
            rewritten("x = f((s).find(\"(\"))"),
            "x = f(__ytt_attr((s), \"find\")(\"(\"))"
        );
        assert_eq!(
            rewritten("x = ((\")\" + s)).count(\"a\")"),
            "x = __ytt_attr(((\")\" + s)), \"count\")(\"a\")"
        );
    }

    #[test]
    fn line_breaks_are_kept() {
        let out = rewritten("x = (s\n  .find('a'))");
        assert_eq!(out.matches('\n').count(), 1);
        assert!(out.contains("__ytt_attr(s"));
    }
}
