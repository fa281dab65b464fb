//! Placeholders a page writes in angle brackets: `--data-value-file KEY=<path_to/ssh/id_rsa>`,
//! `-f <PATH-TO-VALUES>`, `values-<env>.yaml`. The shell would read `<path_to/ssh/id_rsa>` as
//! two redirections (in from `path_to/ssh/id_rsa`, out to the next word), which leaves the
//! flag without its value; the page means "your file here". Each such placeholder is the
//! reader's value, known only at run time: the snippet holds an unknown word spelt as the page
//! spells it (see [`super::snippet::Marked`]). A placeholder that is the value of `-v KEY=<value>`
//! (also `--data-value`, `--data-value-yaml`) is the reader's text for a key the command gives:
//! it stays that text, quoted, so the key is given as the page writes it and the redirections
//! the shell would read do not swallow the flags after it (round twelve's FW12-B3); a value
//! that holds a placeholder makes what rests on it a warning (the `placeholder` assumption).
//!
//! A placeholder is `<` followed by a letter or `_`, then characters other than blanks, quotes,
//! brackets and the shell's operators, then `>` not followed by another `>`, `&`, `|` or `(`.
//! A redirection written as shells are (`< in.yml > out.yml`, `<<EOF`, `<(cmd)`, `2>&1`) never
//! has that shape, and a here-document's body is left as it is (its text is a file's).

use super::snippet::{Marked, Snippet};
use super::word::Word;

/// Characters a placeholder's name may not hold.
const NOT_IN_NAME: [char; 13] = [
    '<', '>', '(', ')', '|', '&', ';', '$', '`', '"', '\'', '\\', '*',
];

/// The snippet of `text`, with each angle-bracket placeholder an unknown value, or `None`
/// when the text has none.
pub fn marked(file: &str, line_offset: u32, text: &str, cwd: Word) -> Option<Snippet> {
    let mut out = Marked::default();
    let mut any = false;
    let mut heredoc: Option<String> = None;
    for line in text.split_inclusive('\n') {
        if let Some(end) = &heredoc {
            if line.trim() == end.as_str() {
                heredoc = None;
            }
            out.push(line);
            continue;
        }
        heredoc = heredoc_delimiter(line);
        let mut rest = line;
        while let Some((before, name, after, kind)) = placeholder(rest) {
            out.push(before);
            match kind {
                Kind::File => out.unknown(name),
                Kind::Value => out.push(&format!("'{name}'")),
            }
            any = true;
            rest = after;
        }
        out.push(rest);
    }
    any.then(|| out.into_snippet(file, line_offset, cwd))
}

/// What a placeholder stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The reader's file: a value known only at run time.
    File,
    /// The reader's text for a data value the command gives.
    Value,
}

/// The first placeholder of `line`: the text before it, the placeholder with its brackets,
/// the text after it, and what it stands for.
fn placeholder(line: &str) -> Option<(&str, &str, &str, Kind)> {
    let mut from = 0;
    while let Some(at) = line[from..].find('<').map(|i| i + from) {
        from = at + 1;
        // Inside single quotes the shell reads no redirection, and expands nothing.
        if line[..at].matches('\'').count() % 2 == 1 {
            continue;
        }
        let body = &line[at + 1..];
        if !body.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            continue;
        }
        let Some(len) = body.find(|c: char| c.is_whitespace() || NOT_IN_NAME.contains(&c)) else {
            continue;
        };
        if !body[len..].starts_with('>') {
            continue;
        }
        let after = &body[len + 1..];
        if after.starts_with(['>', '&', '|', '(']) {
            continue;
        }
        let before = &line[..at];
        let kind = if names_a_file(before) {
            Kind::File
        } else if gives_a_value(before) {
            Kind::Value
        } else {
            continue;
        };
        let end = at + 1 + len + 1;
        return Some((before, &line[at..end], &line[end..], kind));
    }
    None
}

/// Whether the text before a placeholder makes it a path a flag takes (`-f <PATH>`,
/// `--data-value-file KEY=<path>`, `--data-values-file=<f>`): the reader's file. A placeholder
/// value of `-v KEY=<value>` is left as the shell reads it: the key the command gives is the
/// command's, whatever the reader types (`webhook_image` that the schema does not declare).
fn names_a_file(before: &str) -> bool {
    let words: Vec<&str> = before.split_whitespace().collect();
    let ends_with_space = before.ends_with(char::is_whitespace);
    let flag = |w: &str| {
        matches!(
            w,
            "-f" | "--file" | "--data-values-file" | "--data-value-file"
        )
    };
    match (words.last(), ends_with_space) {
        (Some(last), true) => flag(last),
        (Some(last), false) => {
            let name = last.split_once('=').map_or(*last, |(n, _)| n);
            // `--file=<x>`, `--data-value-file=KEY=<x>`, or `KEY=` after `--data-value-file`;
            // inside a path too (`-f deploy/<SITE>/values.yaml`, `--file=dir/<x>`: round
            // twenty-four's R24-2), which the shell would cut at the `<`.
            let before_flag = words.len() >= 2 && flag(words[words.len() - 2]);
            flag(name)
                || (before_flag
                    && !last.starts_with('-')
                    && (words[words.len() - 2] != "--data-value-file" || last.contains('=')))
        }
        (None, _) => false,
    }
}

/// Whether the text before a placeholder makes it the value of a data value flag, outside
/// double quotes (where the shell reads no redirection): `-v KEY=<value>`,
/// `--data-value-yaml KEY=<value>`, `--data-value=KEY=<value>`.
fn gives_a_value(before: &str) -> bool {
    if before.matches('"').count() % 2 == 1 || before.ends_with(char::is_whitespace) {
        return false;
    }
    let flag = |w: &str| matches!(w, "-v" | "--data-value" | "--data-value-yaml");
    let words: Vec<&str> = before.split_whitespace().collect();
    let Some(last) = words.last().filter(|w| w.ends_with('=')) else {
        return false;
    };
    match last.split_once('=') {
        Some((name, rest)) if flag(name) => rest.len() > 1,
        _ => !last.starts_with('-') && words.len() >= 2 && flag(words[words.len() - 2]),
    }
}

/// The word that ends a here-document a line opens (`cat <<EOF`, `<<-'END'`), if it opens
/// one.
pub(super) fn heredoc_delimiter(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = &line[at + 2..];
    if rest.starts_with('<') {
        return None;
    }
    let rest = rest.strip_prefix('-').unwrap_or(rest).trim_start();
    let word: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '|' | '&' | ')' | '>'))
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect();
    (!word.is_empty()).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(line: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = line;
        while let Some((_, name, after, _)) = placeholder(rest) {
            out.push(name);
            rest = after;
        }
        out
    }

    #[test]
    fn placeholders_inside_a_word_after_equals_and_bare() {
        assert_eq!(
            names("ytt -f t.yml --data-value-file KEY=<path_to/ssh/id_rsa> > s.yml"),
            ["<path_to/ssh/id_rsa>"]
        );
        assert_eq!(
            names("ytt -f <PATH-TO-VALUES-YAML> --file=<other> --data-values-file <v>"),
            ["<PATH-TO-VALUES-YAML>", "<other>", "<v>"]
        );
        // A data value's text; anything else is left as the shell reads it.
        assert_eq!(
            names("ytt -f x -v webhook_image=<pod-webhook-image> --data-value=k=<v>"),
            ["<pod-webhook-image>", "<v>"]
        );
        assert!(names("ytt -f x -v \"k=<v>\" -v <k>").is_empty());
        // Inside a path a flag takes.
        assert_eq!(
            names("ytt -f t -f deploy/<SITE>/values.yaml --file=x/<y>/z.yml"),
            ["<SITE>", "<y>"]
        );
        assert_eq!(
            names("ytt --data-value-file k=dir/<f>.txt --data-value-file dir/<g>"),
            ["<f>"]
        );
        assert!(names("cat x/<y>/z").is_empty());
        assert!(names("kubectl -n <namespace> apply").is_empty());
    }

    #[test]
    fn redirections_stay_redirections() {
        for line in [
            "ytt -f - < in.yml > out.yml",
            "ytt -f x <in.yml >out.yml",
            "diff <(ytt -f a) <(ytt -f b)",
            "cat <<EOF > v.yml",
            "cat <<<\"$x\"",
            "ytt -f x 2>&1 | tee log",
            "sort <a>>b",
            "ytt -f <your values>",
            "echo '<literal>' > f",
        ] {
            assert!(names(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_page_s_placeholder_is_an_unknown_value_outside_here_documents() {
        let text = "cat <<'EOF' > v.yml\n-f <your-name>\nEOF\nytt -f t.yml -f <name>\n";
        let s = marked("README.md", 3, text, Word::lit("x")).unwrap();
        assert_eq!(
            s.text,
            "cat <<'EOF' > v.yml\n-f <your-name>\nEOF\nytt -f t.yml -f ${__yttlint_0}\n"
        );
        assert_eq!(s.vars.len(), 1);
        assert_eq!(s.line_offset, 3);
        assert!(marked("README.md", 0, "ytt -f a > b\n", Word::lit("x")).is_none());
        let s = marked(
            "README.md",
            0,
            "ytt -f t -v id=<ID> \\\n  -v b=1\n",
            Word::lit("x"),
        );
        let s = s.unwrap();
        assert_eq!(s.text, "ytt -f t -v id='<ID>' \\\n  -v b=1\n");
        assert!(s.vars.is_empty());
    }
}
