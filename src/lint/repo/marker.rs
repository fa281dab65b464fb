//! Whether a YAML file is a ytt template: it has a `#@` comment (an annotation or a code
//! line). A `#@` inside a string does not count (an inline ytt template in a kapp-controller
//! App sits in a block scalar), so the question needs YAML's idea of what is a comment.
//!
//! Discovery asks it of every YAML file of the repository, so the common case is answered from
//! the lines alone: a line whose first text is `#@`, outside every block scalar and before any
//! line that may leave a quoted string open, is a comment. Only when the lines do not settle it
//! is the file parsed.

/// A `#@` at the start of a line or after whitespace (ytt's templating marker), anywhere.
pub fn has_annotation(text: &str) -> bool {
    // One search over the whole text for `#@` (memchr's, several times faster than a
    // search for `@` alone); a line start follows a line break, which is whitespace.
    memchr::memmem::find_iter(text.as_bytes(), b"#@").any(|hash| {
        text[..hash]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace)
    })
}

/// Whether a YAML file that shows `#@` has it in a comment, not only inside strings. A file
/// that does not parse keeps its `#@`: the evaluation reports it.
pub fn annotated(path: &str, text: &str) -> bool {
    match comment_line(text) {
        Some(found) => found,
        None => parsed_annotated(path, text),
    }
}

/// `Some(true)` when a line of `text` is a `#@` comment by its place alone; `None` when the
/// lines cannot tell (a quote left open, a `#@` only after other text, none at all outside a
/// block scalar).
fn comment_line(text: &str) -> Option<bool> {
    // The indentation a block scalar's lines must exceed.
    let mut block: Option<usize> = None;
    for line in text.lines() {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(parent) = block {
            if trimmed.trim().is_empty() || indent > parent {
                continue;
            }
            block = None;
        }
        if trimmed.starts_with("#@") {
            return Some(true);
        }
        let content = without_comment(trimmed);
        if content.contains(['"', '\'', '\t']) {
            // A quoted string may go on over the next lines; tabs make indentation unsure.
            return None;
        }
        if starts_block_scalar(content) {
            if content.starts_with("---") {
                // A document that is a block scalar: where its text ends is the parser's call.
                return None;
            }
            block = Some(indent + block_parent(content));
        }
    }
    None
}

/// The line without a trailing comment (a `#` after whitespace), trimmed at the end.
fn without_comment(line: &str) -> &str {
    let cut = line
        .match_indices('#')
        .find(|(i, _)| *i == 0 || line[..*i].ends_with([' ', '\t']))
        .map_or(line.len(), |(i, _)| i);
    line[..cut].trim_end()
}

/// Whether the line ends with a block scalar indicator (`|`, `>-`, `|2+` …).
fn starts_block_scalar(content: &str) -> bool {
    let last = content.rsplit(' ').next().unwrap_or("");
    let mut chars = last.chars();
    matches!(chars.next(), Some('|' | '>'))
        && last.len() <= 3
        && chars.all(|c| c == '+' || c == '-' || c.is_ascii_digit())
}

/// How far past the line's indentation the node that owns a block scalar starts: its lines
/// must be indented more than that. For `key: |` (after any `- ` entries) it is the key's
/// column; for an entry that is the scalar itself (`- |`, a shell script in a list of `args`)
/// it is the column of that entry's `-`.
fn block_parent(content: &str) -> usize {
    let mut rest = content;
    let mut width = 0;
    let mut last = 0;
    while let Some(after) = rest.strip_prefix("- ") {
        let spaces = after.len() - after.trim_start_matches(' ').len();
        last = width;
        width += 2 + spaces;
        rest = &after[spaces..];
    }
    if width > 0 && starts_block_scalar(rest) && !rest.contains(' ') {
        last
    } else {
        width
    }
}

/// [`annotated`] by parsing the file: whether any of its nodes carries a `#@` comment.
fn parsed_annotated(path: &str, text: &str) -> bool {
    let name: std::sync::Arc<str> = std::sync::Arc::from(path);
    match crate::yaml::parse::parse(text, &name, &Default::default()) {
        Ok(ds) => crate::library::plain::has_templating(&ds),
        Err(_) => true,
    }
}

/// What every suppression comment holds (`#! yttlint: disable=...`).
pub const DIRECTIVE_MARK: &str = "yttlint:";

/// Whether `text` may hold a suppression directive (has the mark somewhere): the suppression
/// scan finds none in a text without.
pub fn may_have_directive(text: &str) -> bool {
    super::holds(text, DIRECTIVE_MARK)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of answering agree on `text`, and give `expected`.
    fn check(text: &str, expected: bool) {
        assert_eq!(parsed_annotated("t.yml", text), expected, "parsed: {text}");
        assert_eq!(annotated("t.yml", text), expected, "annotated: {text}");
        if let Some(fast) = comment_line(text) {
            assert_eq!(fast, expected, "lines: {text}");
        }
    }

    #[test]
    fn a_marker_counts_at_a_line_start_or_after_whitespace_only() {
        assert!(has_annotation("#@ load(\"@ytt:data\", \"data\")\n"));
        assert!(has_annotation("a: 1\n#@overlay/match by=\"name\"\n"));
        assert!(has_annotation("a: 1 #@ data.values.x\n"));
        assert!(has_annotation("a:\t#@ 1\n"));
        assert!(
            has_annotation("é\u{a0}#@ x\n"),
            "a non-breaking space is whitespace"
        );
        assert!(!has_annotation("mail: me@example.com\n"));
        assert!(!has_annotation("a: b#@c\n"));
        assert!(!has_annotation("a: é#@c\n"));
        assert!(!has_annotation("@#@\n"));
        assert!(!has_annotation(""));
    }

    #[test]
    fn annotations_inside_strings_do_not_make_a_template() {
        let inline = "kind: App\nspec:\n  fetch:\n  - inline:\n      paths:\n        o.yml: |\n          #@ load(\"@ytt:overlay\", \"overlay\")\n          a: 1\n";
        assert!(has_annotation(inline));
        check(inline, false);
        check("a: #@ 1\n", true);
        check("#@data/values\n---\na: 1\n", true);
    }

    #[test]
    fn the_lines_settle_the_common_cases() {
        let cases = [
            ("#@ load(\"@ytt:data\", \"data\")\na: 1\n", true),
            (
                "a:\n  b: |\n    text\n  #@ if True:\n  c: 1\n  #@ end\n",
                true,
            ),
            (
                "- name: x\n  script: |\n    #@ not a comment\n- other\n",
                false,
            ),
            (
                "- name: x\n  script: |\n    #@ not a comment\n- #@ 1\n",
                true,
            ),
            (
                "- name: x\n  script: >-\n    #@ in the scalar\n  #@ after it\n  other: 1\n",
                true,
            ),
            // A shell script that is an entry of a list (a Concourse task's `args`).
            (
                "args:\n- -c\n- |\n  cat <<EOF > v.yml\n  #@data/values\n  ---\n  a: 1\n  EOF\n",
                false,
            ),
            (
                "run:\n  args:\n    - - |\n        #@data/values\n      - x\n",
                false,
            ),
            ("args:\n- |\n  text\n#@ if True:\nb: 1\n#@ end\n", true),
            (
                "--- |\n  text of the document\n---\n#@ a comment\na: 1\n",
                true,
            ),
            ("key: \"a\n  #@ b\"\n", false),
            ("key: 'x' #@ 1\n", true),
        ];
        for (text, expected) in cases {
            check(text, expected);
        }
        assert_eq!(comment_line(cases[0].0), Some(true));
        assert_eq!(comment_line(cases[1].0), Some(true));
        assert_eq!(comment_line(cases[4].0), Some(true));
        assert_eq!(comment_line(cases[5].0), None);
        assert_eq!(comment_line(cases[6].0), None);
    }

    #[test]
    fn annotations_are_found_at_line_start_or_after_space() {
        assert!(has_annotation("#@ load(\"@ytt:data\", \"data\")\na: 1\n"));
        assert!(has_annotation("a: #@ data.values.a\n"));
        assert!(has_annotation("  #@overlay/match by=\"name\"\n"));
        assert!(!has_annotation("url: http://x#@y\n#! a comment\n"));
    }
}
