//! The arguments of calls that ytt's Starlark refuses, in its words. starlark-go's resolver
//! checks each call's arguments in order: a positional argument after `*args` ("argument may
//! not follow *args") or after `**kwargs` ("argument may not follow **kwargs") or after a
//! named one ("positional argument may not follow named"), a named argument after `**kwargs`,
//! a second `*args` or `**kwargs` ("multiple *args not allowed"), `*args` after `**kwargs`, a
//! name given twice ("keyword argument x repeated"); and it reports every one in the file, in
//! the order it meets them. The crate's parser stops at its first, in its own words
//! ("positional argument after non positional"), sometimes at another argument (it refuses a
//! named argument after `*args`, which starlark-go takes: see `named_after_star`). When the
//! crate refuses a call's arguments, the error is given as ytt gives it, from these.

use super::kwargs_splat::is_ident;
use super::named_after_star::{code_of, is_call, named, split_args};

/// The crate's parse errors about a call's arguments.
pub const CRATE_MESSAGES: &[&str] = &[
    "positional argument after non positional",
    "named argument after *args or **kwargs",
    "Args array after another args or kwargs",
    "Multiple kwargs dictionary in arguments",
    "repeated named argument",
];

/// Every refused argument of the calls in `code`: its byte offset and ytt's words, in the
/// order starlark-go's resolver reports them.
pub fn refusals(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (start, end) in super::parens::closed(code) {
        if is_call(&code[..start - 1]) {
            check_call(code, start, end, &mut out);
        }
    }
    // The resolver walks a call's arguments before what is inside the next: by position.
    out.sort_by_key(|(at, _)| *at);
    out
}

/// The refusals of the call whose arguments are `code[start..end]`.
fn check_call(code: &str, start: usize, end: usize, out: &mut Vec<(usize, String)>) {
    let args = &code[start..end];
    if !args.contains('*') && !args.contains('=') {
        return;
    }
    let (mut varargs, mut kwargs) = (false, false);
    let mut names: Vec<&str> = Vec::new();
    for part in split_args(args) {
        let t = code_of(part);
        if t.is_empty() {
            continue;
        }
        let at = t.as_ptr() as usize - code.as_ptr() as usize;
        if t.starts_with("**") {
            if kwargs {
                out.push((at, "multiple **kwargs not allowed".to_string()));
            }
            kwargs = true;
        } else if t.starts_with('*') {
            if kwargs {
                out.push((at, "*args may not follow **kwargs".to_string()));
            } else if varargs {
                out.push((at, "multiple *args not allowed".to_string()));
            }
            varargs = true;
        } else if named(t) {
            if kwargs {
                out.push((at, "argument may not follow **kwargs".to_string()));
            }
            let name_len = t.bytes().position(|c| !is_ident(c)).unwrap_or(t.len());
            let name = &t[..name_len];
            if names.contains(&name) {
                out.push((at, format!("keyword argument {name} repeated")));
            } else {
                names.push(name);
            }
        } else if varargs {
            out.push((at, "argument may not follow *args".to_string()));
        } else if kwargs {
            out.push((at, "argument may not follow **kwargs".to_string()));
        } else if !names.is_empty() {
            out.push((at, "positional argument may not follow named".to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(code: &str) -> Vec<String> {
        refusals(code).into_iter().map(|(_, w)| w).collect()
    }

    #[test]
    fn each_refused_argument_in_starlark_gos_words() {
        assert_eq!(words("f(*a, x=1, 2)"), ["argument may not follow *args"]);
        assert_eq!(words("f(**k, 2)"), ["argument may not follow **kwargs"]);
        assert_eq!(words("f(*a, **k, 2)"), ["argument may not follow *args"]);
        assert_eq!(
            words("f(*a, x=1, **k, y=2)"),
            ["argument may not follow **kwargs"]
        );
        assert_eq!(
            words("f(x=1, 2)"),
            ["positional argument may not follow named"]
        );
        assert_eq!(words("f(*a, *b)"), ["multiple *args not allowed"]);
        assert_eq!(words("f(**k, *a)"), ["*args may not follow **kwargs"]);
        assert_eq!(words("f(**k, **k)"), ["multiple **kwargs not allowed"]);
        assert_eq!(words("f(*a, x=1, x=2)"), ["keyword argument x repeated"]);
        assert_eq!(
            words("v = f(*[], 1, 2)\nw = f(x=1, 3, x=2)"),
            [
                "argument may not follow *args",
                "argument may not follow *args",
                "positional argument may not follow named",
                "keyword argument x repeated"
            ]
        );
    }

    #[test]
    fn what_ytt_takes_is_not_refused() {
        for code in [
            "f(*a, x=1, **k)",
            "f(1, x=2, *a)",
            "def f(a, *args, b=1, **kw):\n  pass",
            "s = \"f(*a, 1)\"",
            "x = a == b",
            "f(*a,\n  # 1, 2\n  x=1)",
        ] {
            assert!(refusals(code).is_empty(), "{code}");
        }
    }

    #[test]
    fn the_offset_is_the_refused_arguments() {
        let code = "v = f(*a,\n  2)";
        assert_eq!(refusals(code)[0].0, code.find('2').unwrap());
    }
}
