//! Spans that cover what is wrong, not one column. The engine places most findings at a line
//! and column (a YAML node's key, a Starlark error's start); this turns such a point into the
//! range of the offending text on that line, read from the source: the value of `key: value`
//! for findings about a data value, the key for an undeclared one, the undefined name or the
//! failing call of a template error, the annotation or comment a comment rule is about.
//! Spans that already have an extent, and points that the source does not explain, stay, as do
//! the KubeVirt rules' spans (placed on the offending field by the checker itself).

use super::diagnostic::{Diagnostic, Span};
use super::rules::Rule;
use super::sources::Sources;

/// Widens the point spans of `diagnostics` (columns count characters; the end is exclusive).
pub fn widen_all(diagnostics: &mut [Diagnostic], sources: &Sources) {
    for d in diagnostics {
        let Some(span) = &d.span else { continue };
        if (span.end_line, span.end_column) != (span.line, span.column) {
            continue;
        }
        let Some(line) = sources.line(&span.file, span.line) else {
            continue;
        };
        let chars: Vec<char> = line.chars().collect();
        let start = usize::try_from(span.column.max(1) - 1).unwrap_or(usize::MAX);
        if start > chars.len() {
            continue;
        }
        let code = code_start(&span.file, &chars);
        if let Some((from, to)) = range_for(d.rule, &d.message, &chars, start, code) {
            if to > from {
                let mut wide: Span = span.clone();
                wide.column = col(from);
                wide.end_column = col(to);
                d.span = Some(wide);
            }
        }
    }
}

fn col(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// Where Starlark code starts on a line: anywhere in a `.star` file, after `#@` in a template;
/// `None` for a line without code.
fn code_start(file: &str, line: &[char]) -> Option<usize> {
    if file.ends_with(".star") {
        return Some(0);
    }
    line.windows(2).position(|w| w == ['#', '@']).map(|i| i + 2)
}

/// The character range `[from, to)` of `line` that a finding of `rule` is about; template
/// errors only within the line's code (`code`), so that an error reported at a YAML line does
/// not underline its key as if it were a name.
fn range_for(
    rule: Rule,
    message: &str,
    line: &[char],
    at: usize,
    code: Option<usize>,
) -> Option<(usize, usize)> {
    match rule {
        Rule::SchemaTypeMismatch
        | Rule::DataValueViolation
        | Rule::RequiredValue
        | Rule::OutputViolation
        | Rule::DataValueDeprecated
        | Rule::DataValueRemoved => yaml_value(line, at).or_else(|| yaml_key(line, at)),
        Rule::DataValueUndeclared | Rule::K8sSchema => yaml_key(line, at),
        Rule::TemplateError | Rule::LoadError | Rule::OverlayError | Rule::SchemaInvalid => {
            let code = code?;
            failing_name(message, line, at.max(code), code)
                .or_else(|| cut_short(message, line, code))
                .or_else(|| expression(line, at).filter(|_| at >= code))
        }
        Rule::NeedsInput => {
            let code = code?;
            failing_name(message, line, at.max(code), code)
        }
        Rule::UnknownAnnotation | Rule::AnnotationTypo => word(line, at, |c| !c.is_whitespace()),
        Rule::UnknownComment | Rule::UnusedSuppression => comment(line, at),
        _ => None,
    }
}

/// Skips a sequence item's `- ` and spaces from `at`.
fn skip_item_marks(line: &[char], mut at: usize) -> usize {
    loop {
        while line.get(at) == Some(&' ') {
            at += 1;
        }
        if line.get(at) == Some(&'-') && matches!(line.get(at + 1), Some(' ') | None) {
            at += 1;
        } else {
            return at;
        }
    }
}

/// Where the `: ` after a plain or quoted key starting at `at` is.
fn key_end(line: &[char], at: usize) -> Option<usize> {
    let mut i = at;
    if let Some(&q @ ('"' | '\'')) = line.get(i) {
        i = closing_quote(line, i, q)? + 1;
        return (line.get(i) == Some(&':')).then_some(i);
    }
    while i < line.len() {
        if line[i] == ':' && matches!(line.get(i + 1), Some(' ') | Some('\t') | None) {
            return Some(i);
        }
        if line[i] == '#' && i > at && line[i - 1] == ' ' {
            return None;
        }
        i += 1;
    }
    None
}

/// The key of `key: value` at `at`.
fn yaml_key(line: &[char], at: usize) -> Option<(usize, usize)> {
    let start = skip_item_marks(line, at);
    let end = key_end(line, start)?;
    Some((start, end))
}

/// The value of `key: value` (or of a sequence item) at `at`: a quoted scalar with its quotes,
/// a flow collection to its closing bracket, or a plain scalar up to a comment; `None` when
/// the value is on the lines below.
fn yaml_value(line: &[char], at: usize) -> Option<(usize, usize)> {
    let start = skip_item_marks(line, at);
    let value_start = match key_end(line, start) {
        Some(colon) => {
            let mut i = colon + 1;
            while matches!(line.get(i), Some(' ') | Some('\t')) {
                i += 1;
            }
            i
        }
        None => start,
    };
    scalar(line, value_start)
}

fn scalar(line: &[char], at: usize) -> Option<(usize, usize)> {
    match line.get(at)? {
        '#' | '|' | '>' => None,
        &q @ ('"' | '\'') => Some((at, closing_quote(line, at, q)? + 1)),
        &open @ ('[' | '{') => {
            let close = if open == '[' { ']' } else { '}' };
            let mut depth = 0;
            for (i, &c) in line.iter().enumerate().skip(at) {
                if c == open {
                    depth += 1;
                } else if c == close {
                    depth -= 1;
                    if depth == 0 {
                        return Some((at, i + 1));
                    }
                }
            }
            None
        }
        _ => {
            let mut end = at;
            while end < line.len() && !(line[end] == '#' && end > at && line[end - 1] == ' ') {
                end += 1;
            }
            while end > at && line[end - 1].is_whitespace() {
                end -= 1;
            }
            Some((at, end))
        }
    }
}

/// The index of the quote closing the one at `open` (`''` escapes `'`, `\` escapes in `"`).
fn closing_quote(line: &[char], open: usize, q: char) -> Option<usize> {
    let mut i = open + 1;
    while i < line.len() {
        match line[i] {
            '\\' if q == '"' => i += 2,
            c if c == q && q == '\'' && line.get(i + 1) == Some(&'\'') => i += 2,
            c if c == q => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The name a Starlark error is about, on the line: the unknown name of `undefined: NAME`,
/// or the attribute of `TYPE has no .NAME field or method` (after its `.`); at or after the
/// column first, else anywhere in the line's code.
fn failing_name(message: &str, line: &[char], at: usize, code: usize) -> Option<(usize, usize)> {
    let first_ident = |text: &str| -> Option<Vec<char>> {
        let name = text.split(|c: char| !is_ident(c)).next()?;
        (!name.is_empty()).then(|| name.chars().collect())
    };
    let (name, after_dot) = match message.split("undefined: ").nth(1) {
        Some(rest) => (first_ident(rest)?, false),
        None => {
            let rest = message.split(" has no .").nth(1)?;
            rest.contains(" field or method")
                .then_some(())
                .and_then(|_| first_ident(rest))
                .map(|n| (n, true))?
        }
    };
    let found = |from: usize| {
        (from..line.len().saturating_sub(name.len() - 1)).find(|&i| {
            let before = i.checked_sub(1).map(|b| line[b]);
            line[i..i + name.len()] == name[..]
                && line.get(i + name.len()).is_none_or(|&c| !is_ident(c))
                && if after_dot {
                    before == Some('.')
                } else {
                    before.is_none_or(|c| !is_ident(c) && c != '.')
                }
        })
    };
    let start = found(at).or_else(|| found(code))?;
    Some((start, start + name.len()))
}

/// A parse error that wanted a closing bracket, on a line whose code ends in a plain `#`
/// comment (`key: #@ data.values.x # note`): the comment, which cut the expression short.
fn cut_short(message: &str, line: &[char], code: usize) -> Option<(usize, usize)> {
    let first = message.lines().next().unwrap_or("");
    if !["want ')'", "want ']'", "want '}'"]
        .iter()
        .any(|w| first.ends_with(w))
    {
        return None;
    }
    let mut quote = None;
    let before = |i: usize| i.checked_sub(1).map(|b| line[b]);
    for i in code..line.len() {
        match (quote, line[i]) {
            (Some(q), c) if c == q && before(i) != Some('\\') => quote = None,
            (None, c @ ('"' | '\'')) => quote = Some(c),
            (None, '#') if before(i).is_some_and(char::is_whitespace) => return comment(line, i),
            _ => {}
        }
    }
    None
}

/// The expression at `at`: a dotted name and the call after it (to its closing parenthesis),
/// or the one token there.
fn expression(line: &[char], at: usize) -> Option<(usize, usize)> {
    let c = *line.get(at)?;
    if !is_ident(c) {
        return None;
    }
    let mut end = at;
    while end < line.len() && (is_ident(line[end]) || line[end] == '.') {
        end += 1;
    }
    if line.get(end) == Some(&'(') {
        let mut depth = 0;
        for (i, &c) in line.iter().enumerate().skip(end) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some((at, i + 1));
                    }
                }
                _ => {}
            }
        }
    }
    Some((at, end))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The run of characters from `at` that `keep` accepts.
fn word(line: &[char], at: usize, keep: impl Fn(char) -> bool) -> Option<(usize, usize)> {
    let end = (at..line.len())
        .find(|&i| !keep(line[i]))
        .unwrap_or(line.len());
    Some((at, end))
}

/// A comment from its `#` (at or after `at`) to the end of the line, without trailing blanks.
fn comment(line: &[char], at: usize) -> Option<(usize, usize)> {
    let start = (at..line.len()).find(|&i| line[i] == '#')?;
    let mut end = line.len();
    while end > start && line[end - 1].is_whitespace() {
        end -= 1;
    }
    Some((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widened(rule: Rule, message: &str, text: &str, line: u32, column: u32) -> (u32, u32) {
        let sources = Sources::new("/nonexistent");
        sources.insert("a.yml", text);
        let mut ds = vec![Diagnostic::new(rule, message).at(Span::point("a.yml", line, column))];
        widen_all(&mut ds, &sources);
        let s = ds[0].span.clone().unwrap();
        assert_eq!((s.line, s.end_line), (line, line));
        (s.column, s.end_column)
    }

    #[test]
    fn a_value_is_covered_whole() {
        let text =
            "replicas: \"three\"\nport: 80 # the port\n- name: 'it''s'\nlist: [1, [2]]\nmap:\n";
        assert_eq!(widened(Rule::SchemaTypeMismatch, "", text, 1, 1), (11, 18));
        assert_eq!(widened(Rule::DataValueViolation, "", text, 2, 1), (7, 9));
        assert_eq!(widened(Rule::DataValueViolation, "", text, 3, 3), (9, 16));
        assert_eq!(widened(Rule::RequiredValue, "", text, 4, 1), (7, 15));
        assert_eq!(widened(Rule::DataValueViolation, "", text, 5, 1), (1, 4));
        assert_eq!(widened(Rule::DataValueUndeclared, "", text, 2, 1), (1, 5));
    }

    #[test]
    fn template_errors_cover_the_name_or_the_call() {
        let text = "a: #@ data.values.x + undefined_thing\nb: #@ str(int(\"x\"), 1) + y\n";
        assert_eq!(
            widened(
                Rule::TemplateError,
                "undefined: undefined_thing",
                text,
                1,
                1
            ),
            (23, 38)
        );
        assert_eq!(widened(Rule::TemplateError, "boom", text, 2, 7), (7, 23));
        assert_eq!(
            widened(Rule::TemplateError, "boom", text, 2, 1),
            (1, 1),
            "not the key"
        );
        let attr = "v: #@ x.a + data.values.x.nope\n";
        assert_eq!(
            widened(
                Rule::TemplateError,
                "dict has no .a field or method",
                attr,
                1,
                4
            ),
            (9, 10)
        );
        assert_eq!(
            widened(
                Rule::NeedsInput,
                "this root needs data values that nothing sets here (`x.nope`): struct has no .nope field or method",
                attr,
                1,
                4
            ),
            (27, 31)
        );
        assert_eq!(
            widened(Rule::NeedsInput, "set `port`", attr, 1, 4),
            (4, 4),
            "nothing named: the point stays"
        );
        let cut = "key: #@ data.values.x + \"#\" # note  \nb: 2\n";
        assert_eq!(
            widened(
                Rule::TemplateError,
                "- got identifier, want ')'\n  a.yml:2 | b: 2",
                cut,
                1,
                6
            ),
            (29, 35)
        );
        assert_eq!(
            widened(Rule::TemplateError, "- got identifier, want ')'", cut, 2, 1),
            (1, 1),
            "no code on the line"
        );
        let plain = "enabled: true\n";
        assert_eq!(
            widened(Rule::TemplateError, "got newline", plain, 1, 1),
            (1, 1)
        );
    }

    #[test]
    fn comments_and_annotations() {
        let text = "#@overlay/delete\nkey: 1 # a comment  \n";
        assert_eq!(widened(Rule::UnknownAnnotation, "", text, 1, 1), (1, 17));
        assert_eq!(widened(Rule::UnknownComment, "", text, 2, 1), (8, 19));
    }

    #[test]
    fn extents_and_unreadable_files_are_kept() {
        let sources = Sources::new("/nonexistent");
        let mut ds =
            vec![Diagnostic::new(Rule::DataValueViolation, "").at(Span::point("gone.yml", 1, 1))];
        widen_all(&mut ds, &sources);
        assert_eq!(ds[0].span, Some(Span::point("gone.yml", 1, 1)));
    }
}
