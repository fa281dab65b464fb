//! `f(**value)` where `value` is a struct or a YAML fragment: ytt unpacks any mapping (its
//! structs and map fragments are mappings), the Starlark crate only dicts. Every keyword
//! unpacking in a call is rewritten to `**__ytt_kwargs(value)`; that builtin turns a struct
//! or a map fragment into a dict and hands anything else back for the call to judge.
//! Parameters (`def f(**kw)`, `lambda **kw: ...`) and the power operator are left alone, and
//! no line breaks are added, so line numbers stay as they were.

use super::rewrite::lex::{lex, Kind, Tok};

/// The builtin that makes a dict of a mapping (registered with the universe).
pub const HELPER: &str = "__ytt_kwargs";

/// Rewrites the keyword unpackings of calls in `code` (unchanged if it does not lex).
pub fn wrap_kwargs_splats(code: &str) -> String {
    if !code.contains("**") {
        return code.to_string();
    }
    let lexed = lex(code);
    if lexed.error.is_some() {
        return code.to_string();
    }
    let toks = &lexed.toks;
    let text = |t: &Tok| code.get(t.start..t.end).unwrap_or("");
    // Open brackets: whether each is a `(` of a call (not of a `def`'s parameters).
    let mut brackets: Vec<bool> = Vec::new();
    // Depths at which a `lambda`'s parameters are being read (until its `:`).
    let mut lambdas: Vec<u32> = Vec::new();
    // Byte offsets where `__ytt_kwargs(` and `)` go.
    let mut opens: Vec<usize> = Vec::new();
    let mut closes: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|p| toks.get(p));
        match t.kind {
            Kind::Ident if text(t) == "lambda" => lambdas.push(t.depth),
            Kind::Colon if lambdas.last() == Some(&t.depth) => {
                lambdas.pop();
            }
            Kind::Open => {
                let is_def_params = text(t) == "("
                    && prev.is_some_and(|p| p.kind == Kind::Ident)
                    && i.checked_sub(2)
                        .and_then(|p| toks.get(p))
                        .is_some_and(|d| text(d) == "def");
                brackets.push(text(t) == "(" && !is_def_params);
            }
            Kind::Close => {
                brackets.pop();
                while lambdas.last().is_some_and(|d| *d > t.depth) {
                    lambdas.pop();
                }
            }
            Kind::Op if text(t) == "**" => {
                let after_separator = prev.is_some_and(|p| p.kind == Kind::Comma || text(p) == "(");
                let in_call = brackets.last() == Some(&true);
                let in_lambda_params = lambdas.last() == Some(&t.depth);
                if after_separator && in_call && !in_lambda_params {
                    if let Some(end) = argument_end(toks, i) {
                        opens.push(t.end);
                        closes.push(end);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = String::with_capacity(code.len() + opens.len() * (HELPER.len() + 2));
    let mut edits: Vec<(usize, bool)> = opens
        .iter()
        .map(|o| (*o, true))
        .chain(closes.iter().map(|c| (*c, false)))
        .collect();
    edits.sort();
    let mut last = 0;
    for (at, open) in edits {
        out.push_str(code.get(last..at).unwrap_or(""));
        if open {
            out.push_str(HELPER);
            out.push('(');
        } else {
            out.push(')');
        }
        last = at;
    }
    out.push_str(code.get(last..).unwrap_or(""));
    out
}

/// The end offset of the argument after the `**` at `star`: its last token before the `,` or
/// `)` that ends it.
fn argument_end(toks: &[Tok], star: usize) -> Option<usize> {
    let depth = toks[star].depth;
    let mut last_end = None;
    for t in &toks[star + 1..] {
        let ends = (t.kind == Kind::Comma && t.depth == depth)
            || (t.kind == Kind::Close && t.depth + 1 == depth);
        if ends {
            return last_end;
        }
        last_end = Some(t.end);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_unpackings_in_calls() {
        assert_eq!(
            wrap_kwargs_splats("d = dict(**val)"),
            "d = dict(**__ytt_kwargs(val))"
        );
        assert_eq!(
            wrap_kwargs_splats("f(1, *a, **m()[\"x\"], k=2)"),
            "f(1, *a, **__ytt_kwargs(m()[\"x\"]), k=2)"
        );
        assert_eq!(
            wrap_kwargs_splats("f(**a,\n  **b\n)"),
            "f(**__ytt_kwargs(a),\n  **__ytt_kwargs(b)\n)"
        );
    }

    #[test]
    fn leaves_parameters_and_powers_alone() {
        for code in [
            "def f(a, **kw):\n  return g(*a, **kw)\n",
            "x = 2 ** 3",
            "f = lambda **kw: kw",
            "f = lambda a, **kw: (a, kw)",
            "s = \"**x\"",
        ] {
            let out = wrap_kwargs_splats(code);
            assert_eq!(
                out.matches(HELPER).count(),
                usize::from(code.contains("g(")),
                "{code}"
            );
        }
        assert_eq!(
            wrap_kwargs_splats("m = [lambda **kw: f(**kw)]"),
            "m = [lambda **kw: f(**__ytt_kwargs(kw))]"
        );
    }
}
