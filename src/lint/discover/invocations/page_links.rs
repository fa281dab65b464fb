//! A page's command that names a file by a Markdown link: `ytt -f ./wf.yml -f
//! [helpers.star](https://github.com/ORG/CI/blob/main/helpers.star) > out.yml`, written as a
//! plain line of the page, which renders the link as the file's name. The reader downloads
//! the file the link points to and gives it by that name, so `-f [NAME](URL)` is the file
//! `NAME` taken from `URL`: an input from outside the repository, which the command is linted
//! without (an `outside-input` assumption naming it and its URL), not a path
//! `[helpers.star]` and a subshell (round fifty-three's R53-2).
//!
//! [`quoted`] makes each link of a plain line one shell word; [`link`] reads it back.

use crate::report::{Assumption, AssumptionKind, Subject};

/// `line` with each Markdown link `[NAME](URL)` whose URL is a web address single-quoted,
/// so that the shell reads it as one word. A line without such a link is returned as it is.
pub fn quoted(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let after = &rest[open..];
        match link_len(after) {
            Some(len) if at_word_start(&rest[..open], &out) => {
                out.push_str(&rest[..open]);
                out.push('\'');
                out.push_str(&after[..len]);
                out.push('\'');
                rest = &after[len..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether the text before a `[` ends a shell word (a blank, or the line's start).
fn at_word_start(before: &str, done: &str) -> bool {
    match before.chars().next_back() {
        Some(c) => c.is_whitespace(),
        None => done.chars().next_back().is_none_or(char::is_whitespace),
    }
}

/// The length of the Markdown link `[NAME](URL)` at the start of `text`, followed by a blank
/// or the line's end: NAME without brackets, quotes or blanks, URL a web address without
/// blanks, quotes or parentheses.
fn link_len(text: &str) -> Option<usize> {
    let close = text.find("](")?;
    let name = &text[1..close];
    let url_start = close + 2;
    let url_len = text[url_start..].find(')')?;
    let url = &text[url_start..url_start + url_len];
    let end = url_start + url_len + 1;
    let plain = |s: &str, extra: &[char]| {
        !s.is_empty()
            && !s.chars().any(|c| {
                c.is_whitespace() || matches!(c, '\'' | '"' | '[' | ']' | '(') || extra.contains(&c)
            })
    };
    let web = url.starts_with("https://") || url.starts_with("http://");
    let ends = text[end..].chars().next().is_none_or(char::is_whitespace);
    (plain(name, &['/']) && plain(url, &[]) && web && ends).then_some(end)
}

/// The file name and URL of a word that is a whole Markdown link (`[helpers.star](https://…)`).
pub fn link(word: &str) -> Option<(&str, &str)> {
    if link_len(word) != Some(word.len()) {
        return None;
    }
    let (name, url) = word
        .strip_prefix('[')?
        .strip_suffix(')')?
        .split_once("](")?;
    Some((name, url))
}

/// What linting the command without the linked file assumes.
pub fn assumption(name: &str, url: &str) -> Assumption {
    Assumption::new(
        AssumptionKind::OutsideInput,
        format!(
            "`-f [{name}]({url})`: the page's reader gives {name}, downloaded from {url} (a link \
             of the page), which is outside the repository; linted without it"
        ),
    )
    .about(Subject::Downloaded {
        name: name.to_string(),
        url: url.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_given_to_a_flag_is_one_quoted_word() {
        let line = "ytt -f ./wf.yml -f [helpers.star](https://github.com/o/ci/blob/main/helpers.star) -f [values.yml](https://github.com/o/ci/blob/main/app/values.yml) > ../out.yml";
        assert_eq!(
            quoted(line),
            "ytt -f ./wf.yml -f '[helpers.star](https://github.com/o/ci/blob/main/helpers.star)' -f '[values.yml](https://github.com/o/ci/blob/main/app/values.yml)' > ../out.yml"
        );
        assert_eq!(
            link("[helpers.star](https://github.com/o/ci/blob/main/helpers.star)"),
            Some((
                "helpers.star",
                "https://github.com/o/ci/blob/main/helpers.star"
            ))
        );
    }

    #[test]
    fn other_brackets_stay_as_they_are() {
        for line in [
            "ytt -f config --data-value x=[a](b)",
            "ytt -f [a.yml](./local/a.yml)",
            "ytt -f x[a](https://e.org/a)",
            "ytt -f [a b](https://e.org/a)",
            "ytt -f [a.yml](https://e.org/a)x",
            "ytt -f [a.yml] (https://e.org/a)",
            "ytt -f [unclosed(https://e.org",
        ] {
            assert_eq!(quoted(line), line);
        }
        assert_eq!(link("[a.yml](./a.yml)"), None);
        assert_eq!(link("[a.yml](https://e.org/a)x"), None);
        assert_eq!(link("a.yml"), None);
    }
}
