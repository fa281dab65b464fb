//! `@ytt:regexp`: `match(pattern, string)` and `replace(pattern, string, replacement)` with
//! Go's regular expressions. A string replacement expands `$1`, `${1}`, `$name`, `${name}` and
//! `$$` as Go's `Regexp.Expand` does; a function replacement is called with each matched text.
//! Matches are found as Go's `ReplaceAll` finds them: an empty match right after the previous
//! match is not replaced.

use regex::{Captures, Regex};
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::Value;

use super::args::{as_str, err, is_callable, wrap, Args};
use super::regexp_go::compile;

/// Replaces every match of `re` in `src` by `repl(captures)`, matching as Go does.
pub fn replace_all<E>(
    re: &Regex,
    src: &str,
    mut repl: impl FnMut(&Captures<'_>) -> Result<String, E>,
) -> Result<String, E> {
    let mut out = String::with_capacity(src.len());
    let mut last_end = 0;
    let mut search = 0;
    while search <= src.len() {
        let Some(caps) = re.captures_at(src, search) else {
            break;
        };
        let Some(m) = caps.get(0) else {
            break;
        };
        out.push_str(src.get(last_end..m.start()).unwrap_or(""));
        if m.end() > last_end || m.start() == 0 {
            out.push_str(&repl(&caps)?);
        }
        last_end = m.end();
        // Always move on by at least one character.
        let width = src
            .get(search..)
            .and_then(|r| r.chars().next())
            .map_or(1, char::len_utf8);
        search = if search + width > m.end() {
            search + width
        } else {
            m.end()
        };
    }
    out.push_str(src.get(last_end..).unwrap_or(""));
    Ok(out)
}

/// A `$` reference in a template: the group's name (or number) and the text after it.
fn reference(s: &str) -> Option<(&str, &str)> {
    let t = s.strip_prefix('$')?;
    let (braced, t) = match t.strip_prefix('{') {
        Some(inner) => (true, inner),
        None => (false, t),
    };
    let len: usize = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .map(char::len_utf8)
        .sum();
    if len == 0 {
        return None;
    }
    let (name, after) = t.split_at(len);
    if braced {
        return after.strip_prefix('}').map(|rest| (name, rest));
    }
    Some((name, after))
}

/// A group number as Go reads one: digits only, no leading zero, below 10^8.
fn group_number(name: &str) -> Option<usize> {
    if !name.bytes().all(|b| b.is_ascii_digit()) || (name.len() > 1 && name.starts_with('0')) {
        return None;
    }
    name.parse::<usize>().ok().filter(|n| *n < 100_000_000)
}

/// Go's `Regexp.Expand` of `template` for one match.
pub fn expand(template: &str, re: &Regex, caps: &Captures<'_>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(after) = rest.strip_prefix("$$") {
            out.push('$');
            rest = after;
            continue;
        }
        let Some((name, after)) = reference(rest) else {
            out.push('$');
            rest = &rest[1..];
            continue;
        };
        let group = match group_number(name) {
            Some(n) => caps.get(n),
            None => re
                .capture_names()
                .position(|n| n == Some(name))
                .and_then(|i| caps.get(i)),
        };
        out.push_str(group.map_or("", |m| m.as_str()));
        rest = after;
    }
    out.push_str(rest);
    out
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn r#match<'v>(#[starlark(args)] args: Args<'v>) -> starlark::Result<bool> {
        const NAME: &str = "regexp.match";
        let [pattern, target] = args.items[..] else {
            return Err(err(NAME, "expected exactly two arguments"));
        };
        let pattern = as_str(NAME, pattern)?;
        let target = as_str(NAME, target)?;
        let re = compile(pattern).map_err(|m| err(NAME, m))?;
        Ok(re.is_match(target))
    }

    fn replace<'v>(
        #[starlark(args)] args: Args<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "regexp.replace";
        let [pattern, source, repl] = args.items[..] else {
            return Err(err(NAME, "expected exactly 3 arguments"));
        };
        let re = compile(as_str(NAME, pattern)?).map_err(|m| err(NAME, m))?;
        let source = as_str(NAME, source)?;
        let out = if is_callable(repl) {
            replace_all(&re, source, |caps| {
                let matched = caps.get(0).map_or("", |m| m.as_str());
                let arg = eval.heap().alloc_str(matched).to_value();
                let result = eval
                    .eval_function(repl, &[arg], &[])
                    .map_err(|e| wrap(NAME, &e))?;
                as_str(NAME, result).map(str::to_string)
            })?
        } else {
            let template = as_str(NAME, repl)?;
            replace_all(&re, source, |caps| {
                Ok::<_, starlark::Error>(expand(template, &re, caps))
            })?
        };
        Ok(eval.heap().alloc_str(&out).to_value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replace(p: &str, s: &str, t: &str) -> String {
        let Ok(re) = compile(p) else {
            return "<bad pattern>".to_string();
        };
        replace_all(&re, s, |c| Ok::<_, ()>(expand(t, &re, c))).unwrap_or_default()
    }

    #[test]
    fn empty_matches_after_a_match_are_skipped() {
        assert_eq!(replace("a*", "baaac", "X"), "XbXcX");
        assert_eq!(replace("", "ab", "-"), "-a-b-");
        assert_eq!(replace("x*", "é", "-"), "-é-");
    }

    #[test]
    fn templates_expand_like_go() {
        let p = "(?i)(?P<word>[a-z]+)([0-9]+)";
        let s = "__hello123__";
        assert_eq!(replace(p, s, "$1"), "__hello__");
        assert_eq!(replace(p, s, "${2}-$word"), "__123-hello__");
        assert_eq!(replace(p, s, "$1x"), "____");
        assert_eq!(replace(p, s, "${1}x"), "__hellox__");
        assert_eq!(replace(p, s, "$$1"), "__$1__");
        assert_eq!(replace(p, s, "$"), "__$__");
        assert_eq!(replace(p, s, "${1"), "__${1__");
        assert_eq!(replace(p, s, "$01"), "____");
        assert_eq!(replace(p, s, "$9"), "____");
        assert_eq!(replace(p, s, "$-"), "__$-__");
    }
}
