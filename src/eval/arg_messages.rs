//! starlark-go's wording of a builtin's argument of the wrong type (`replace: for parameter 1:
//! got struct, want string`, `chr: got list, want int`), of a key that cannot be hashed
//! (`get: unhashable type: list`) and of a sequence assignment that does not fit (`too many
//! values to unpack (got 3, want 2)`), an element a list does not hold (`index: value not in
//! list`), `min`/`max` of nothing and `in` a string, for the Starlark crate's messages of the
//! same errors.

/// The message starlark-go gives for the crate's `raw`, raised in builtin `builtin` (a
/// function, or a method the crate names `type.name`), when it has one.
pub fn reword(builtin: Option<&str>, raw: &str) -> Option<String> {
    let name = builtin.map(|b| b.rsplit('.').next().unwrap_or(b));
    if let Some(rest) = raw.strip_prefix("Type of parameter `") {
        let (param, rest) = rest.split_once("` doesn't match, expected `")?;
        let (expected, rest) = rest.split_once("`, actual `")?;
        let actual = rest.split(" (repr: ").next()?.trim_end_matches('`');
        // The crate does not always record a method's frame: some parameters name it.
        let name = name.or(match param {
            "old" | "new" | "count" => Some("replace"),
            "keepends" => Some("splitlines"),
            "to_join" => Some("join"),
            _ => None,
        });
        return parameter(name?, param, expected, actual);
    }
    if let Some(ty) = raw
        .strip_prefix("ord(): expected string or bytes, got '")
        .and_then(|r| r.strip_suffix('\''))
    {
        return Some(format!("ord: got {ty}, want string"));
    }
    if let Some(ty) = raw
        .strip_prefix("Value of type `")
        .and_then(|r| r.strip_suffix("` is not hashable"))
    {
        // The values of `@ytt:url`, `@ytt:ip` and `@ytt:assert` are ytt structs, whose
        // hash error names `struct`.
        let ty = if ty.starts_with("@ytt:") {
            "struct"
        } else {
            ty
        };
        return Some(match name {
            Some(n) => format!("{n}: unhashable type: {ty}"),
            None => format!("unhashable type: {ty}"),
        });
    }
    if let Some(ty) = raw
        .strip_prefix("Operation `len()` not supported on type `")
        .and_then(|r| r.strip_suffix('`'))
        .filter(|_| name.is_none())
    {
        return Some(format!("got {ty} in sequence assignment"));
    }
    if let Some(ty) = raw
        .strip_prefix("Type of parameters mismatch, expected `str`, actual `")
        .and_then(|r| r.split(" (repr: ").next())
        .filter(|_| name.is_none())
    {
        return Some(format!(
            "'in <string>' requires string as left operand, not {ty}"
        ));
    }
    if raw.starts_with("Element '") {
        if raw.contains("' not found in list '") {
            return Some("remove: element not found".to_string());
        }
        if raw.contains("' not found in '") {
            return Some("index: value not in list".to_string());
        }
    }
    if let Some(f) = raw
        .strip_prefix("Argument is an empty iterable, ")
        .and_then(|r| r.strip_suffix("() expect a non empty iterable"))
    {
        return Some(format!("{f}: argument is an empty sequence"));
    }
    if let Some((want, got)) = raw
        .strip_prefix("Expected `int`, but got `")
        .and_then(|r| r.split(" (repr: ").next())
        .map(|got| ("int", got.trim_end_matches('`')))
        .filter(|_| name.is_none())
    {
        // A list indexed (or assigned into) by a value that is no int.
        return Some(format!("got {got}, want {want}"));
    }
    if let Some(got) = raw
        .strip_prefix("Type of parameters mismatch, expected `int`, actual `")
        .and_then(|r| r.split(" (repr: ").next())
        .map(|got| got.trim_end_matches('`'))
        .filter(|_| name.is_none())
    {
        // A string indexed by a value that is no int (starlark-go says `string index: got
        // string, want int`; the crate's message does not say what was indexed).
        return Some(format!("got {got}, want int"));
    }
    if let Some((got, want)) = raw
        .strip_prefix("Unpacked ")
        .and_then(|r| r.split_once(" values but expected "))
    {
        let (g, w) = (got.parse::<u64>().ok()?, want.parse::<u64>().ok()?);
        let which = if g > w { "many" } else { "few" };
        return Some(format!("too {which} values to unpack (got {g}, want {w})"));
    }
    None
}

/// starlark-go's message for argument `param` of builtin `name`, of type `actual` where the
/// crate expected `expected`.
fn parameter(name: &str, param: &str, expected: &str, actual: &str) -> Option<String> {
    match name {
        "chr" => return Some(format!("chr: got {actual}, want int")),
        "float" => return Some(format!("float got {actual}, want number or string")),
        "join" => return Some(format!("join: in list, want string, got {actual}")),
        _ => {}
    }
    let index = match (name, param) {
        ("range", p) => p.strip_prefix('a')?.parse().ok()?,
        (_, "old" | "needle" | "keepends" | "index" | "a" | "sep" | "x") => 1,
        (_, "new") => 2,
        (_, "count") => 3,
        _ => return None,
    };
    let want = if expected.contains("str") {
        "string"
    } else if expected.contains("int") {
        "int"
    } else if expected.contains("bool") {
        "bool"
    } else {
        return None;
    };
    Some(format!(
        "{name}: for parameter {index}: got {actual}, want {want}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_that_is_no_int_is_said_in_go_s_words() {
        assert_eq!(
            reword(
                None,
                "Type of parameters mismatch, expected `int`, actual `string (repr: \"a\")`"
            )
            .as_deref(),
            Some("got string, want int")
        );
        assert_eq!(
            reword(None, "Expected `int`, but got `list (repr: [1])`").as_deref(),
            Some("got list, want int")
        );
    }

    #[test]
    fn argument_types_are_worded_as_starlark_go() {
        let said = |b: &str, raw: &str| reword(Some(b), raw).unwrap_or_default();
        assert_eq!(
            said(
                "string.replace",
                "Type of parameter `old` doesn't match, expected `str`, actual `list (repr: [])`"
            ),
            "replace: for parameter 1: got list, want string"
        );
        assert_eq!(
            said(
                "list.pop",
                "Type of parameter `index` doesn't match, expected `int`, actual `string (repr: \"a\")`"
            ),
            "pop: for parameter 1: got string, want int"
        );
        assert_eq!(
            said("dict.get", "Value of type `list` is not hashable"),
            "get: unhashable type: list"
        );
        assert_eq!(
            reword(None, "Unpacked 3 values but expected 2").unwrap_or_default(),
            "too many values to unpack (got 3, want 2)"
        );
        assert_eq!(
            reword(None, "Element '2' not found in list '[1]'").unwrap_or_default(),
            "remove: element not found"
        );
        assert_eq!(
            reword(
                Some("max"),
                "Argument is an empty iterable, max() expect a non empty iterable"
            )
            .unwrap_or_default(),
            "max: argument is an empty sequence"
        );
        assert_eq!(
            reword(None, "Operation `len()` not supported on type `int`").unwrap_or_default(),
            "got int in sequence assignment"
        );
        assert_eq!(
            reword(None, "Expected `int`, but got `string (repr: \"a\")`").unwrap_or_default(),
            "got string, want int"
        );
    }
}
