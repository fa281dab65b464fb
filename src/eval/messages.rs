//! Rewords error messages of the Starlark crate into starlark-go's wording where ytt users (and
//! ytt's tests) rely on it, and adds ytt's hints for common mistakes.

/// Rewords a message from the crate as starlark-go would say it.
pub fn to_ytt_wording(raw: &str) -> String {
    let msg = raw.trim();
    if let Some(name) = msg
        .strip_prefix("Variable `")
        .and_then(|r| r.split_once("` not found"))
        .map(|(n, _)| n)
    {
        return format!("undefined: {name}");
    }
    msg.to_string()
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
        _ => return String::new(),
    };
    format!(" ({h})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_variable_is_reworded() {
        assert_eq!(to_ytt_wording("Variable `x` not found"), "undefined: x");
        assert_eq!(
            hint("undefined: true"),
            " (use 'True' instead of 'true' for boolean assignment)"
        );
    }
}
