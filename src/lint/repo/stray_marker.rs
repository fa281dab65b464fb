//! A plain manifest whose `#@` is only a YAML comment that happens to start with `@`:
//! `schedule: "0 0 * * *" #@daily`, `backup: "0 3 * * *" #@nightly`. ytt would read the
//! comment as an annotation it does not know on that value and ignore it, but nothing in such
//! a file is written for ytt: every `#@` in it trails a complete `key: value` on its line and
//! is one bare word that no ytt feature reads (ytt's own annotations have a namespace,
//! `overlay/match`, or are `comment`). Such a file is plain YAML to discovery (it makes no ytt
//! root of its own, as `kubectl apply -f` of it is not ytt's); a command of the repository
//! that gives it to ytt still lints it as an input. A `#@` anywhere else (a line of its own,
//! code after `#@ `, a value annotation after `key:`, a namespaced name) keeps the file a
//! template.

/// Whether every ytt marker (`#@` at the start of a line or after whitespace) in `text` is
/// a stray comment as above, and there is one at least.
pub fn only_stray(text: &str) -> bool {
    let mut any = false;
    for line in text.lines() {
        let Some(at) = marker(line) else {
            continue;
        };
        if !stray(line, at) {
            return false;
        }
        any = true;
    }
    any
}

/// The byte offset of the first marker of `line`.
fn marker(line: &str) -> Option<usize> {
    line.match_indices("#@")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || line[..i].ends_with([' ', '\t']))
}

/// Whether the marker at `at` of `line` trails a complete `key: value` and is one bare word
/// no ytt feature reads, the end of the line.
fn stray(line: &str, at: usize) -> bool {
    let before = line[..at].trim_end();
    let value = before
        .split_once(": ")
        .map(|(_, v)| v.trim())
        .or_else(|| before.trim_start().strip_prefix("- ").map(str::trim));
    let Some(value) = value else {
        return false;
    };
    let complete = !value.is_empty()
        && !value.ends_with(':')
        && !value.starts_with(['|', '>', '&', '*', '!'])
        && value != "-";
    let word = line[at + 2..].trim_end();
    let bare = word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    complete && bare && word != "comment"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_that_starts_with_at_after_a_value_is_stray() {
        assert!(only_stray(
            "kind: Schedule\nspec:\n  schedule: \"*/5 * * * *\" #@daily\n"
        ));
        assert!(only_stray("jobs:\n- \"0 3 * * *\" #@nightly\n"));
    }

    #[test]
    fn anything_written_for_ytt_keeps_the_file_a_template() {
        for text in [
            "#@ load(\"@ytt:data\", \"data\")\na: 1 #@daily\n",
            "a: #@ data.values.x\n",
            "a: #@data.values.x\n",
            "a: 1 #@overlay/match missing_ok=True\n",
            "a: 1 #@comment\n",
            "a: 1 #@ daily\n",
            "#@overlay/match by=overlay.all\n---\na: 1\n",
            "a: b\n",
            "a: |\n  x #@y\n",
            "url: \"http://x #@y\"\n",
        ] {
            assert!(!only_stray(text), "{text}");
        }
    }
}
