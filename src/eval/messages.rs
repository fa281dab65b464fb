//! Rewords error messages of the Starlark crate into starlark-go's wording where ytt users (and
//! ytt's tests) rely on it, and adds ytt's hints for common mistakes.

/// Rewords a message from the crate as starlark-go would say it.
pub fn to_ytt_wording(raw: &str) -> String {
    // Leading space (from `fail`) goes; a final line break is part of the message.
    let msg = raw.trim_start();
    if let Some(name) = msg
        .strip_prefix("Variable `")
        .and_then(|r| r.split_once("` not found"))
        .map(|(n, _)| n)
    {
        return format!("undefined: {name}");
    }
    if let Some((ty, attr, guess)) = msg
        .strip_prefix("Object of type `")
        .and_then(|r| r.split_once("` has no attribute `"))
        .map(|(t, r)| {
            // The crate's suggestion is kept where starlark-go would make it too.
            let (r, guess) = match r.split_once("`, did you mean `") {
                Some((a, g)) => (a, g.split('`').next()),
                None => (r, None),
            };
            (t, r.strip_suffix('`').unwrap_or(r), guess)
        })
    {
        // `@ytt:` modules are starlark-go modules in ytt.
        let ty = if ty == "namespace" { "module" } else { ty };
        let hint = super::spell::hint(ty, attr, guess);
        return format!("{ty} has no .{attr} field or method{hint}");
    }
    if let Some((op, ty)) = msg
        .strip_prefix("Operation `")
        .and_then(|r| r.split_once("` not supported on type `"))
        .and_then(|(op, r)| r.strip_suffix('`').map(|t| (op, t)))
    {
        match op {
            "-" | "+" | "~" => return format!("unknown unary op: {op} {ty}"),
            "[::]" => return format!("invalid slice operand {ty}"),
            _ => {}
        }
        if let Some(attr) = op.strip_prefix('.') {
            // A lookup that went through `__ytt_attr` (see `gocompat`).
            let hint = super::spell::hint(ty, attr, None);
            return format!("{ty} has no .{attr} field or method{hint}");
        }
    }
    if let Some((op, left, right)) = msg
        .strip_prefix("Operation `")
        .and_then(|r| r.split_once("` not supported for types `"))
        .and_then(|(op, r)| r.split_once("` and `").map(|(a, b)| (op, a, b)))
        .and_then(|(op, a, b)| b.strip_suffix('`').map(|b| (op, a, b)))
    {
        if op == "[]" {
            return format!("unhandled index operation {left}[{right}]");
        }
        // An augmented assignment (`d |= x`) is the binary operator in starlark-go's words.
        let op = match op.strip_suffix('=') {
            Some(bin) if !bin.is_empty() && !matches!(bin, "=" | "!" | "<" | ">") => bin,
            _ => op,
        };
        // starlark-go shifts an int by an int only, and says what it got.
        if matches!(op, "<<" | ">>") && left == "int" {
            return format!("got {right}, want int");
        }
        return format!("unknown binary op: {left} {op} {right}");
    }
    // Integer division and modulo by zero (the crate names the operands).
    for (prefix, go) in [
        ("Floor division by zero: ", "floored division by zero"),
        ("Modulo by zero: ", "integer modulo by zero"),
        ("float division by zero: ", "real division by zero"),
    ] {
        if msg.starts_with(prefix) {
            return go.to_string();
        }
    }
    if let Some(key) = msg
        .strip_prefix("Key `")
        .and_then(|r| r.strip_suffix("` was not found"))
    {
        return format!("key {key} not in dict");
    }
    // The crate's `dict.pop` of a key the dict does not hold (its only use of these words).
    if msg.starts_with("Key `") && msg.contains("` not found in dictionary `") {
        return "pop: missing key".to_string();
    }
    if let Some(c) = msg
        .strip_prefix("Unsupported format character: '")
        .and_then(|r| r.strip_suffix('\''))
    {
        return format!("unknown conversion %{c}");
    }
    if let Some(text) = msg
        .strip_suffix(" is not a valid number: invalid float literal")
        .filter(|t| t.starts_with('"'))
    {
        return format!("float: strconv.ParseFloat: parsing {text}: invalid syntax");
    }
    if let Some(key) = msg
        .strip_prefix("Dictionary key repeated for `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return format!("duplicate key: {key}");
    }
    if let Some((param, function)) = msg
        .strip_prefix("Missing parameter `")
        .and_then(|r| r.split_once("` for call to `"))
        .and_then(|(p, r)| r.strip_suffix('`').map(|f| (p, f)))
    {
        // The crate names the function with its module (`file.yml.name`).
        let name = function.rsplit('.').next().unwrap_or(function);
        return format!("function {name} missing 1 argument ({param})");
    }
    if let Some(go) = parse_error(msg) {
        return go;
    }
    msg.to_string()
}

/// starlark-go's `got TOKEN, want TOKEN` for the crate's `Parse error: unexpected TOKEN,
/// expected TOKEN` (a missing `)` after an expression a `#` comment cut short, say), when
/// both tokens have a starlark-go name.
fn parse_error(msg: &str) -> Option<String> {
    // A character that starts no token (`$`, a byte-order mark).
    if let Some(c) = msg
        .strip_prefix("Parse error: invalid input `")
        .and_then(|r| r.strip_suffix('`'))
        .and_then(single_char)
    {
        return Some(format!("unexpected input character {}", go_quote_rune(c)));
    }
    let rest = msg.strip_prefix("Parse error: unexpected ")?;
    let (got, want) = rest
        .split_once(" here, expected ")
        .or_else(|| rest.split_once(", expected "))?;
    let want = match want {
        "expression" => "primary expression".to_string(),
        w => go_token(w)?,
    };
    Some(format!("got {}, want {want}", go_token(got)?))
}

/// The one character of `s`, if it has exactly one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// Go's `%q` of a rune (`strconv.QuoteRune`): `'c'`, with Go's escapes for quotes, control
/// characters and the invisible format characters (a byte-order mark is `'\ufeff'`).
fn go_quote_rune(c: char) -> String {
    let u = c as u32;
    let body = match c {
        '\'' => "\\'".to_string(),
        '\\' => "\\\\".to_string(),
        '\x07' => "\\a".to_string(),
        '\x08' => "\\b".to_string(),
        '\x0c' => "\\f".to_string(),
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        '\x0b' => "\\v".to_string(),
        _ if u < 0x20 || u == 0x7f => format!("\\x{u:02x}"),
        _ if (0x80..0xa0).contains(&u) || is_format_char(u) => format!("\\u{u:04x}"),
        _ => c.to_string(),
    };
    format!("'{body}'")
}

/// Unicode's invisible format characters of the Basic Multilingual Plane (category Cf) and
/// the line and paragraph separators, which Go does not print as they are.
fn is_format_char(u: u32) -> bool {
    matches!(u, 0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e | 0x200b..=0x200f
        | 0x2028..=0x202e | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff | 0xfff9..=0xfffb)
}

/// starlark-go's name of a token the crate describes as `text`.
fn go_token(text: &str) -> Option<String> {
    let quoted = |kind: &str| {
        text.strip_prefix(kind)
            .and_then(|r| r.strip_prefix(" '"))
            .and_then(|r| r.strip_suffix('\''))
    };
    if let Some(symbol) = quoted("symbol") {
        return Some(format!("'{symbol}'"));
    }
    if let Some(keyword) = quoted("keyword") {
        return Some(keyword.to_string());
    }
    let name = match text {
        "new line" => "newline",
        "new indentation block" => "indent",
        "end of indentation block" => "outdent",
        "end of file" => "end of file",
        "identifier" => "identifier",
        t if t.starts_with("identifier '") => "identifier",
        t if t.starts_with("string literal") => "string literal",
        t if t.starts_with("float literal") => "float literal",
        t if t.contains("integer literal") => "int literal",
        _ => return None,
    };
    Some(name.to_string())
}

/// starlark-go's message for a value of type `ty` that is not iterable, iterated by the
/// builtin `builtin` (a function or a method; the crate names methods `type.name`) or by the
/// program itself (a `for` loop or comprehension).
pub fn not_iterable(builtin: Option<&str>, ty: &str) -> String {
    let name = builtin.map(|b| b.rsplit('.').next().unwrap_or(b));
    match name {
        Some("sorted") => format!("sorted: for parameter iterable: got {ty}, want iterable"),
        Some(n @ ("min" | "max")) => format!("{n}: {ty} value is not iterable"),
        Some(n @ ("dict" | "update")) => format!("{n}: got {ty}, want iterable"),
        Some(n) => format!("{n}: for parameter 1: got {ty}, want iterable"),
        None => format!("{ty} value is not iterable"),
    }
}

/// ytt's hint for a message, with its leading space (empty when there is none).
pub fn hint(msg: &str) -> String {
    let h = match msg {
        "undefined: true" => "use 'True' instead of 'true' for boolean assignment",
        "undefined: false" => "use 'False' instead of 'false' for boolean assignment",
        "got newline, want ':'" => "missing colon at the end of 'if/for/def' statement?",
        "undefined: null" => "use 'None' instead of 'null' to indicate no value",
        "undefined: nil" => "use 'None' instead of 'nil' to indicate no value",
        "undefined: none" => "use 'None' instead of 'none' to indicate no value",
        m if m
            .strip_prefix("unknown binary op: ")
            .and_then(|r| r.split_once(" | "))
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()) =>
        {
            "use 'or' instead of '|' for logical-or"
        }
        m if m
            .strip_prefix("unknown binary op: ")
            .and_then(|r| r.split_once(" & "))
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()) =>
        {
            "use 'and' instead of '&' for logical-and"
        }
        _ => return String::new(),
    };
    format!(" (hint: {h})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_that_starts_no_token_is_quoted_as_go_does() {
        let said = |c: &str| to_ytt_wording(&format!("Parse error: invalid input `{c}`"));
        assert_eq!(said("$"), "unexpected input character '$'");
        assert_eq!(said("\u{feff}"), "unexpected input character '\\ufeff'");
        assert_eq!(said("'"), "unexpected input character '\\''");
        assert_eq!(said("\x01"), "unexpected input character '\\x01'");
        assert_eq!(said("é"), "unexpected input character 'é'");
    }

    #[test]
    fn undefined_variable_is_reworded() {
        assert_eq!(to_ytt_wording("Variable `x` not found"), "undefined: x");
        assert_eq!(
            to_ytt_wording("Object of type `NoneType` has no attribute `foo`"),
            "NoneType has no .foo field or method"
        );
        assert_eq!(
            to_ytt_wording("Object of type `struct` has no attribute `nope`, did you mean `name`?"),
            "struct has no .nope field or method"
        );
        assert_eq!(
            to_ytt_wording("Object of type `struct` has no attribute `nam`, did you mean `name`?"),
            "struct has no .nam field or method (did you mean .name?)"
        );
        assert_eq!(
            to_ytt_wording("Operation `.find` not supported on type `dict`"),
            "dict has no .find field or method"
        );
        assert_eq!(
            to_ytt_wording("Operation `-` not supported on type `struct`"),
            "unknown unary op: - struct"
        );
        assert_eq!(
            hint("undefined: true"),
            " (hint: use 'True' instead of 'true' for boolean assignment)"
        );
    }

    #[test]
    fn parse_errors_are_worded_as_starlark_go() {
        assert_eq!(
            to_ytt_wording(
                "Parse error: unexpected identifier '__ytt_tpl3_end_doc', expected symbol ')'"
            ),
            "got identifier, want ')'"
        );
        assert_eq!(
            to_ytt_wording("Parse error: unexpected new line, expected symbol ']'"),
            "got newline, want ']'"
        );
        assert_eq!(
            to_ytt_wording("Parse error: unexpected symbol '&', expected expression"),
            "got '&', want primary expression"
        );
        assert_eq!(
            to_ytt_wording("Parse error: unexpected keyword 'in', expected identifier"),
            "got in, want identifier"
        );
        assert_eq!(
            to_ytt_wording("Parse error: unexpected end of file, expected symbol ')'"),
            "got end of file, want ')'"
        );
        // What starlark-go would say differently stays the crate's.
        let odd = "Parse error: unexpected symbol '=', expected assignment operator";
        assert_eq!(to_ytt_wording(odd), odd);
    }

    #[test]
    fn operators_and_calls_are_worded_as_starlark_go() {
        assert_eq!(
            to_ytt_wording("Operation `+` not supported for types `int` and `string`"),
            "unknown binary op: int + string"
        );
        assert_eq!(
            to_ytt_wording("Missing parameter `a` for call to `stdin.yml.call2`"),
            "function call2 missing 1 argument (a)"
        );
        assert_eq!(
            to_ytt_wording("Floor division by zero: 1 // 0"),
            "floored division by zero"
        );
        assert_eq!(
            to_ytt_wording("Modulo by zero: 1 % 0"),
            "integer modulo by zero"
        );
        assert_eq!(
            to_ytt_wording("float division by zero: 1 / 0"),
            "real division by zero"
        );
        assert_eq!(
            to_ytt_wording("Key `\"x\"` was not found"),
            "key \"x\" not in dict"
        );
    }
}
