//! One input argument (`-f`, the path of `--data-values-file`): ytt's `[name=]path` syntax, and
//! the explicit form the linter writes for the paths it resolves itself.
//!
//! ytt splits an input at every `=`: one piece is a path, two are a name and a path, more are
//! an error. So a directory the linter finds, `evil=decoy/`, would be read by ytt's rule as the
//! file `decoy` named `evil`, and `x=y=z/` would be an error. A path the linter resolves (a
//! discovered root, a configured input made absolute, a values file) is written instead as
//! [`path`] or [`named`]: a NUL byte, then the path, or the name, a NUL byte and the path. No
//! command line can hold a NUL byte, and the configuration's arguments are refused when they
//! do (`lint::config::flags::resolve`), so no argument of the repository can take this form;
//! [`parse`] reads both.

/// The byte that starts (and splits) the explicit form.
const EXPLICIT: char = '\0';

/// An input: the name ytt gives it (for a file) and its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input<'a> {
    pub name: Option<&'a str>,
    pub path: &'a str,
}

/// The explicit form of a path the linter resolved (no name).
pub fn path(p: &str) -> String {
    format!("{EXPLICIT}{p}")
}

/// The explicit form of a path the linter resolved, with the name ytt gives it.
pub fn named(name: &str, p: &str) -> String {
    format!("{EXPLICIT}{name}{EXPLICIT}{p}")
}

/// Reads an input: the explicit form, or ytt's syntax with ytt's error for more than one `=`.
/// An empty name (`=path`) is no name, as in ytt.
pub fn parse(arg: &str) -> Result<Input<'_>, String> {
    if let Some(rest) = arg.strip_prefix(EXPLICIT) {
        let (name, path) = match rest.split_once(EXPLICIT) {
            Some((name, path)) => (Some(name), path),
            None => (None, rest),
        };
        if path.contains(EXPLICIT) {
            return Err("an input holds a NUL byte".to_string());
        }
        return Ok(Input { name, path });
    }
    let pieces: Vec<&str> = arg.split('=').collect();
    match pieces.as_slice() {
        [p] => Ok(Input {
            name: None,
            path: p,
        }),
        [n, p] => Ok(Input {
            name: (!n.is_empty()).then_some(*n),
            path: p,
        }),
        _ => Err(format!(
            "Expected file '{arg}' to only have single '=' sign to for relative path assignment"
        )),
    }
}

/// The path of an input, whichever its form; an input ytt refuses is its own text.
pub fn path_of(arg: &str) -> &str {
    parse(arg).map_or(arg, |i| i.path)
}

/// The input as a message shows it: ytt's syntax as written; the explicit form by its name
/// (a repository path), else its path.
pub fn shown(arg: &str) -> &str {
    match (arg.starts_with(EXPLICIT), parse(arg)) {
        (true, Ok(input)) => input.name.unwrap_or(input.path),
        _ => arg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_with_equal_signs_keep_them_in_the_explicit_form() {
        for p in ["/r/evil=decoy", "/r/x=y=z", "/r/-", "/r/a=b/c.yml"] {
            assert_eq!(
                parse(&path(p)),
                Ok(Input {
                    name: None,
                    path: p
                })
            );
            assert_eq!(path_of(&path(p)), p);
        }
        assert_eq!(
            parse(&named("v.yml", "/r/a=b/v.yml")),
            Ok(Input {
                name: Some("v.yml"),
                path: "/r/a=b/v.yml"
            })
        );
        assert_eq!(shown(&named("a=b/v.yml", "/r/a=b/v.yml")), "a=b/v.yml");
        assert_eq!(shown(&path("/r/a=b")), "/r/a=b");
        assert_eq!(shown("x=y"), "x=y");
    }

    #[test]
    fn ytt_syntax_is_read_as_ytt_reads_it() {
        assert_eq!(
            parse("evil=decoy"),
            Ok(Input {
                name: Some("evil"),
                path: "decoy"
            })
        );
        assert_eq!(parse("=x.yml").map(|i| i.name), Ok(None));
        assert_eq!(parse("-").map(|i| i.path), Ok("-"));
        assert_eq!(
            parse("x=y=z"),
            Err("Expected file 'x=y=z' to only have single '=' sign to for relative path assignment".to_string())
        );
        assert!(parse("\0a\0b\0c").is_err());
    }
}
