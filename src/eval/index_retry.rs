//! starlark-go's words for an index expression that fails (`list index 3 out of range
//! [-2:1]`, `index 0 out of range: empty list`, `string index: got string, want int`), which
//! name the indexed value's type and length where the crate's message (``Index `3` is out of
//! bound``) has neither. Every `x[i]` of every template is hot, so nothing is paid for this
//! until an evaluation fails with one of the crate's index messages: that evaluation then runs
//! once more with each index expression of each file it evaluates (the loaded ones anew) made
//! a call of [`FUNCTION`] (`stdlib::goindex`: the crate's own `x[i]`, said in starlark-go's
//! words when it fails). Evaluation is deterministic and the call does what `x[i]` does until
//! one fails, so the second run stops at the same index; its error is taken when it is worded
//! so, else the first stands. (Not only the failing expression is made a call: the crate
//! inlines small functions, and the error of an inlined `return l[5]` is at the call.)

use std::cell::Cell;

use starlark::syntax::ast::{AstExpr, Expr};
use starlark::syntax::AstModule;

/// The function an index expression becomes on the second run.
pub const FUNCTION: &str = "__ytt_index";

thread_local! {
    /// The number of the second run under way (the thread's count of them), if one is.
    static AGAIN: Cell<Option<u64>> = const { Cell::new(None) };
    static RUNS: Cell<u64> = const { Cell::new(0) };
}

/// The number of the second run under way, if one is: loads evaluate their files anew for
/// it (once per run) instead of taking the modules evaluated before.
pub fn run_number() -> Option<u64> {
    AGAIN.with(Cell::get)
}

/// Runs `again` as a second run.
pub fn during<T>(again: impl FnOnce() -> T) -> T {
    let n = RUNS.with(|r| {
        r.set(r.get() + 1);
        r.get()
    });
    AGAIN.with(|a| a.set(Some(n)));
    let _ended = Ended;
    again()
}

/// Ends the second run when dropped (its closure returned or unwound).
struct Ended;

impl Drop for Ended {
    fn drop(&mut self) {
        AGAIN.with(|a| a.set(None));
    }
}

/// Whether `err` is one of the crate's index failures that starlark-go words otherwise, and
/// no second run is under way: a second run may say it in starlark-go's words.
pub fn worth_again(err: &starlark::Error) -> bool {
    if run_number().is_some() {
        return false;
    }
    let raw = match err.kind() {
        starlark::ErrorKind::Value(e)
        | starlark::ErrorKind::Function(e)
        | starlark::ErrorKind::Native(e)
        | starlark::ErrorKind::Other(e) => format!("{e:#}"),
        _ => return false,
    };
    (raw.starts_with("Index `") && raw.ends_with("` is out of bound"))
        || raw.starts_with("Expected `int`, but got `")
        || raw.starts_with("Type of parameters mismatch, expected `int`, actual `")
        || raw.starts_with("Integer value is too big to fit in i32: ")
}

/// The code of `ast` with each index expression made a call of [`FUNCTION`], when a second
/// run is under way and `ast` has one (`None` otherwise).
pub fn rewritten(ast: &AstModule) -> Option<String> {
    run_number()?;
    let codemap = ast.file_span(ast.statement().span).file;
    let code = codemap.source();
    let mut edits = Vec::new();
    ast.statement().visit_expr(|e| collect(e, code, &mut edits));
    if edits.is_empty() {
        return None;
    }
    Some(apply(code, edits))
}

/// One edit: at `at`, replace `len` bytes with `text`.
struct Edit {
    at: usize,
    len: usize,
    text: String,
}

/// The edits making each index expression under `e` a call: `__ytt_index(` before it, `, `
/// for its `[`, `)` for its `]`.
fn collect(e: &AstExpr, code: &str, edits: &mut Vec<Edit>) {
    if let Expr::Index(pair) = &e.node {
        let span = |s: starlark::codemap::Span| (s.begin().get() as usize, s.end().get() as usize);
        let (begin, end) = span(e.span);
        if let Some((start, open, close)) = brackets(code, begin, span(pair.0.span).1, end) {
            edits.push(Edit {
                at: start,
                len: 0,
                text: format!("{FUNCTION}("),
            });
            edits.push(Edit {
                at: open,
                len: 1,
                text: ", ".to_string(),
            });
            edits.push(Edit {
                at: close,
                len: 1,
                text: ")".to_string(),
            });
        }
    }
    e.visit_expr(|c| collect(c, code, edits));
}

/// Where the call an index expression `begin..end` (its object ending at `object_end`)
/// becomes starts, and where its `[` and `]` are. The crate's spans leave out the parentheses
/// around the object (`(a + b)[0]` starts at `a`): the call starts before those that close
/// before the `[`.
fn brackets(
    code: &str,
    begin: usize,
    object_end: usize,
    end: usize,
) -> Option<(usize, usize, usize)> {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\r' | '\n' | '\\');
    let mut open = None;
    let mut closing = 0;
    for (i, c) in code.get(object_end..end)?.char_indices() {
        match c {
            '[' => {
                open = Some(object_end + i);
                break;
            }
            ')' => closing += 1,
            c if blank(c) => {}
            _ => return None,
        }
    }
    let mut start = begin;
    for _ in 0..closing {
        start = code
            .get(..start)?
            .trim_end_matches(blank)
            .strip_suffix('(')?
            .len();
    }
    let close = end.checked_sub(1)?;
    (code.get(close..end)? == "]").then_some((start, open?, close))
}

/// Applies edits that do not overlap (insertions at one place are alike).
fn apply(code: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.at, e.len));
    let mut out = String::with_capacity(code.len() + edits.len() * 6);
    let mut at = 0;
    for e in edits {
        if e.at < at {
            continue;
        }
        out.push_str(code.get(at..e.at).unwrap_or(""));
        out.push_str(&e.text);
        at = e.at + e.len;
    }
    out.push_str(code.get(at..).unwrap_or(""));
    out
}

/// What indexes a list, a tuple or a string, as starlark-go tells them apart.
pub enum Indexed {
    Int(i64),
    /// An int that does not fit in 32 bits, as written.
    TooBig(String),
    /// A value that is no int, by its type.
    Other(String),
}

/// starlark-go's message for indexing a `kind` (`list`, `tuple`, `string`) of `len` elements
/// with `index` (`None` where starlark-go would not fail).
pub fn go_words(kind: &str, len: usize, index: Indexed) -> Option<String> {
    let i = match index {
        Indexed::Other(ty) => return Some(format!("{kind} index: got {ty}, want int")),
        Indexed::TooBig(n) => return Some(format!("{kind} index: {n} out of range")),
        Indexed::Int(i) => i,
    };
    let n = i64::try_from(len).ok()?;
    let at = if i < 0 { i + n } else { i };
    if (0..n).contains(&at) {
        return None;
    }
    Some(if n == 0 {
        format!("index {i} out of range: empty {kind}")
    } else {
        format!("{kind} index {i} out of range [{}:{}]", -n, n - 1)
    })
}

/// Whether a message is one [`go_words`] makes.
pub fn is_go_words(msg: &str) -> bool {
    ["list index", "tuple index", "string index"]
        .iter()
        .any(|k| msg.starts_with(k))
        || (msg.starts_with("index ") && msg.contains(" out of range: empty "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(code: &str) -> String {
        let ast =
            AstModule::parse("t.star", code.to_string(), &super::super::run::dialect()).unwrap();
        let mut edits = Vec::new();
        ast.statement().visit_expr(|e| collect(e, code, &mut edits));
        apply(code, edits)
    }

    #[test]
    fn each_index_becomes_a_call_on_the_same_lines() {
        assert_eq!(calls("x = a[1]"), "x = __ytt_index(a, 1)");
        assert_eq!(
            calls("x = a[0][b[1]] + ((c) )[2]"),
            "x = __ytt_index(__ytt_index(a, 0), __ytt_index(b, 1)) + __ytt_index(((c) ), 2)"
        );
        assert_eq!(calls("y = (d\n)[\n2]"), "y = __ytt_index((d\n), \n2)");
        assert_eq!(calls("z = [1, 2][0]"), "z = __ytt_index([1, 2], 0)");
        assert_eq!(calls("t = (1, 2)[5]"), "t = __ytt_index((1, 2), 5)");
        // Slices and assignments into an index stay as they are.
        assert_eq!(calls("a[0] = s[1:2]"), "a[0] = s[1:2]");
        assert_eq!(
            calls("def f(l):\n  return l[5]\n"),
            "def f(l):\n  return __ytt_index(l, 5)\n"
        );
    }

    #[test]
    fn starlark_go_s_words() {
        let w = |k, n, i| go_words(k, n, i).unwrap_or_default();
        assert_eq!(
            w("string", 2, Indexed::Int(3)),
            "string index 3 out of range [-2:1]"
        );
        assert_eq!(
            w("list", 2, Indexed::Int(-3)),
            "list index -3 out of range [-2:1]"
        );
        assert_eq!(
            w("tuple", 0, Indexed::Int(0)),
            "index 0 out of range: empty tuple"
        );
        assert_eq!(
            w("list", 1, Indexed::Other("string".into())),
            "list index: got string, want int"
        );
        assert_eq!(
            w("list", 1, Indexed::TooBig("1099511627776".into())),
            "list index: 1099511627776 out of range"
        );
        assert_eq!(go_words("list", 2, Indexed::Int(-2)), None);
        assert!(is_go_words("index 0 out of range: empty list"));
        assert!(!is_go_words("Index `0` is out of bound"));
    }
}
