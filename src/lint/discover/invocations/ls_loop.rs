//! A loop over the names `ls DIR` prints: `for name in $(ls examples/); do ytt -f
//! examples/${name}; done` runs ytt once per entry of `DIR`, as a loop over `DIR/*` does
//! (`glob_loop.rs`), but its variable holds an entry's name alone. Where every use of the
//! variable in the loop's body is a path written right after `DIR/`, an operand of a test
//! (`[ "$name" != skip ]`, `case`) or a word of an `echo`, the variable holds the glob loop's
//! marker for `*`: `DIR/$name` then binds to exactly the entries of `DIR`, and a test of the
//! name is decided per entry (`entry_tests.rs`). Any other use (the name under another
//! directory, an assignment, a `cd` in the body) leaves the variable a value given at run
//! time, as before.

use super::glob_loop::Marker;
use super::index::Binding;
use super::resolve::{Origin, Outcome, Skipped};
use super::word::Word;

/// The directory `ls` lists in a loop's header word (`$(ls DIR)`, `$(ls -1 DIR/)` or in
/// backticks), without a trailing slash or a leading `./`; `None` for another word (a flag
/// that changes what `ls` prints, several or no operands, a glob, a variable, a pipe).
pub fn listed_dir(text: &str) -> Option<&str> {
    let words = super::listing::ls_arguments(text)?;
    let mut dir = None;
    for w in words {
        if let Some(flags) = w.strip_prefix('-') {
            // `-1`: one a line, the same names; `-d` prints the directory itself
            // (`listing.rs`), and others change what is printed.
            if flags.is_empty() || !flags.chars().all(|c| c == '1') {
                return None;
            }
            continue;
        }
        if dir.is_some() {
            return None;
        }
        dir = Some(w);
    }
    let dir = clean(dir?);
    let bad = dir.is_empty()
        || dir.starts_with('/')
        || dir.contains([
            '$', '"', '\'', '`', '>', '<', '|', ';', '&', '(', ')', '*', '?', '[', '{', '~', '\\',
        ])
        || dir.split('/').any(|s| s == ".." || s.is_empty());
    (!bad).then_some(dir)
}

/// The marker the loop's variable holds: the glob loop's for `*` (an entry's name), bound
/// where the body writes it under `DIR/`.
pub fn marker(var: &str) -> Option<Marker> {
    let mut every = Word::default();
    every.push_lit("*", true);
    super::glob_loop::marker(var, &every, false)
}

/// A command's run for a loop entry that a test of the entry's name leaves out (`[ "$name"
/// != example-x ]`): skipped, naming the paths it would read there (its words that hold the
/// entry). It claims none of them: they stay roots of their own, whose findings rest on
/// their being rendered alone (`post::left_out`).
pub fn left_out(origin: &Origin, words: &[Word], b: &Binding) -> Option<Outcome> {
    let entries: Vec<String> = words
        .iter()
        .filter(|w| w.unknowns().any(|u| b.contains_key(u)))
        .filter_map(|w| super::resolve::substitute(w, b).repo_path())
        .collect();
    let first = entries.first()?.clone();
    Some(Outcome::Skipped(Skipped {
        origin: origin.clone(),
        reason: format!("a test of the loop's entry leaves out `{first}`"),
        claims: Vec::new(),
        placeholder: None,
        left_out: entries,
        got: None,
    }))
}

/// `path` without a leading `./` or trailing slashes.
fn clean(path: &str) -> &str {
    let mut p = path;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.trim_end_matches('/')
}

/// Whether every use of `$var` in a loop's `body` (its text) is a path under `dir`, a test's
/// operand or an `echo`'s word; false when the body changes directory, assigns the variable
/// or uses it nowhere.
pub fn uses_are_under(body: &str, var: &str, dir: &str) -> bool {
    let mut uses = 0;
    for line in body.lines() {
        let trimmed = line.trim_start();
        if starts_command(trimmed, "cd") || starts_command(trimmed, "pushd") {
            return false;
        }
        let echo = starts_command(trimmed, "echo") || starts_command(trimmed, "printf");
        let mut from = 0;
        while let Some((at, len, plain)) = next_use(&line[from..], var) {
            let at = from + at;
            uses += 1;
            let under = plain && after_dir(&line[..at], dir);
            if !echo && !under && !tested(&line[..at]) {
                return false;
            }
            from = at + len;
        }
        if assigns(trimmed, var) {
            return false;
        }
    }
    uses > 0
}

/// Whether `line` starts with the command `name`.
fn starts_command(line: &str, name: &str) -> bool {
    line.strip_prefix(name)
        .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', ';']))
}

/// Whether `line` assigns `var` (`var=…`, `read var`, a nested `for var in`).
fn assigns(line: &str, var: &str) -> bool {
    line.split([';', '&', '|']).map(str::trim_start).any(|s| {
        s.strip_prefix(var).is_some_and(|r| r.starts_with('='))
            || (s.starts_with("read ") && s.split_whitespace().any(|w| w == var))
            || s.strip_prefix("for ")
                .is_some_and(|r| r.split_whitespace().next() == Some(var))
    })
}

/// The next use of `$var` or `${var}` in `text`: its offset, its length, and whether it is
/// plain (`${var%.yml}` is not: it names no entry as it is).
fn next_use(text: &str, var: &str) -> Option<(usize, usize, bool)> {
    let mut from = 0;
    while let Some(i) = text[from..].find('$') {
        let at = from + i;
        let rest = &text[at + 1..];
        if let Some(r) = rest.strip_prefix('{') {
            if let Some(after) = r.strip_prefix(var) {
                if after.starts_with('}') {
                    return Some((at, var.len() + 3, true));
                }
                if !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                    return Some((at, var.len() + 2, false));
                }
            }
        } else if let Some(after) = rest.strip_prefix(var) {
            if !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                return Some((at, var.len() + 1, true));
            }
        }
        from = at + 1;
    }
    None
}

/// Whether the text before a use ends with `dir/` (quotes allowed around either part),
/// `dir` starting a word.
fn after_dir(before: &str, dir: &str) -> bool {
    let b = before.trim_end_matches(['"', '\'']);
    let Some(head) = b.strip_suffix('/') else {
        return false;
    };
    let head = head.trim_end_matches(['"', '\'']);
    let Some(start) = head.strip_suffix(dir) else {
        return false;
    };
    let start = start.strip_suffix("./").unwrap_or(start);
    start.is_empty() || start.ends_with([' ', '\t', '"', '\'', '='])
}

/// Whether the text before a use makes it an operand of a test or a `case` word.
fn tested(before: &str) -> bool {
    let b = before.trim_end_matches(['"', '\'']).trim_end();
    ["[", "[[", "test", "!=", "==", " =", "case", "-z", "-n"]
        .iter()
        .any(|t| b.ends_with(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_directory_is_read_from_a_plain_ls() {
        assert_eq!(
            listed_dir("$(ls examples/playground/)"),
            Some("examples/playground")
        );
        assert_eq!(listed_dir("`ls -1 ./charts`"), Some("charts"));
        assert_eq!(listed_dir("$(ls -d examples/*)"), None);
        assert_eq!(listed_dir("$(ls -la examples)"), None);
        assert_eq!(listed_dir("$(ls a b)"), None);
        assert_eq!(listed_dir("$(ls $DIR)"), None);
        assert_eq!(listed_dir("$(ls ../x)"), None);
        assert_eq!(listed_dir("$(ls)"), None);
        assert_eq!(listed_dir("$(cat list)"), None);
    }

    #[test]
    fn uses_under_the_directory_or_in_tests_and_echoes_are_accepted() {
        let body = r#"
  echo "testing $name"
  if [ "$name" != "example-assert" ] && [[ "${name}" != x ]]; then
      ./ytt -f examples/playground/${name} > /dev/null
      ytt -f "examples/playground/$name/values.yml"
  fi
"#;
        assert!(uses_are_under(body, "name", "examples/playground"));
    }

    #[test]
    fn other_uses_leave_the_variable_unknown() {
        assert!(!uses_are_under("ytt -f other/$name", "name", "examples"));
        assert!(!uses_are_under("ytt -f $name", "name", "examples"));
        assert!(!uses_are_under(
            "cd examples\nytt -f examples/$name",
            "name",
            "examples"
        ));
        assert!(!uses_are_under(
            "x=$name\nytt -f examples/$x",
            "name",
            "examples"
        ));
        assert!(!uses_are_under(
            "name=a; ytt -f examples/$name",
            "name",
            "examples"
        ));
        assert!(!uses_are_under(
            "ytt -f examples/${name%.yml}",
            "name",
            "examples"
        ));
        assert!(!uses_are_under(
            "ytt -f myexamples/$name",
            "name",
            "examples"
        ));
        assert!(!uses_are_under("ytt -f .", "name", "examples"));
        // `$names` is another variable.
        assert!(uses_are_under(
            "ytt -f examples/$name -f other/$names",
            "name",
            "examples"
        ));
    }
}
