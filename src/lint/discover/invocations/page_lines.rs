//! The ends of the lines of a page's shell (a README's block, a plain command line), read as a
//! shell reads them where the bash grammar reads them otherwise:
//!
//! - a line that ends in `\` followed by a blank (`ytt -f config/ \␠`): the backslash escapes
//!   the blank, which is an argument of its own, and the newline ends the command; the lines
//!   after run as commands of their own (round thirty-seven's R37-2). The grammar drops the
//!   escaped blank, so it is written as the word the shell reads, `" "`; ytt then stops on it,
//!   whatever its inputs ("command 'ytt' does not accept extra arguments ' '"), which
//!   [`findings`] reports as `command-fails`, at that line.
//! - a line whose last word is a redirection with no target (`export $PROFILE=<profile-name>`):
//!   the shell stops there with a syntax error and runs nothing of the line, and the reader runs
//!   the next line on its own; the grammar takes the next line's first word as the target and
//!   swallows the command (round thirty-five's N35-1). Such a line is left out (left empty, so
//!   that line numbers stay), unless it runs ytt (what its command gives is then read as
//!   before).
//!
//! Here-document bodies are text, left as they are.

use super::angle::heredoc_delimiter;
use super::shell::Call;
use super::snippet::Snippet;
use super::word::Word;
use super::ytt_args::{self, Command};
use crate::lint::discover::provenance::source_of;
use crate::report::{Basis, Diagnostic, Provenance, Rule, Span};

/// `text` with each line-ending escaped blank written as the word the shell reads, and each
/// line that ends in a redirection without a target, and runs no ytt, left empty.
pub fn as_shell_reads(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut heredoc: Option<String> = None;
    let mut continued = false;
    for piece in text.split_inclusive('\n') {
        let (line, end) = match piece.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (piece, ""),
        };
        if let Some(delim) = &heredoc {
            if line.trim() == delim.as_str() {
                heredoc = None;
            }
            out.push_str(piece);
            continue;
        }
        heredoc = heredoc_delimiter(line);
        let was_continued = continued;
        continued = continues(line);
        if let Some((at, blank)) = escaped_blank(line) {
            out.push_str(&line[..at]);
            out.push('"');
            out.push(blank);
            out.push('"');
        } else if !was_continued && heredoc.is_none() && dangling(line) && !runs_ytt(line) {
            // Nothing of the line runs: a syntax error.
        } else {
            out.push_str(line);
        }
        out.push_str(end);
    }
    out
}

/// Whether a line continues on the next: it ends in a backslash that is not escaped.
pub fn continues(line: &str) -> bool {
    let slashes = line.chars().rev().take_while(|c| *c == '\\').count();
    slashes % 2 == 1 && matches!(scan(&line[..line.len() - 1]), State::Plain)
}

/// Where a line-ending escaped blank is (the byte of its backslash) and the blank, when the
/// backslash is the shell's (outside quotes and comments).
fn escaped_blank(line: &str) -> Option<(usize, char)> {
    let body = line.trim_end_matches([' ', '\t']);
    if body.len() == line.len() {
        return None;
    }
    let slashes = body.chars().rev().take_while(|c| *c == '\\').count();
    if slashes % 2 == 0 {
        return None;
    }
    let at = body.len() - 1;
    if !matches!(scan(&body[..at]), State::Plain) {
        return None;
    }
    let blank = line[body.len()..].chars().next()?;
    Some((at, blank))
}

/// Whether a line's last word is a redirection operator (`>`, `>>`, `<`, `2>`), with no target
/// after it on the line: outside quotes and comments, not escaped.
fn dangling(line: &str) -> bool {
    let body = line.trim_end();
    if !body.ends_with(['<', '>']) {
        return false;
    }
    let op = body.trim_end_matches(['<', '>', '&', '|']);
    let slashes = op.chars().rev().take_while(|c| *c == '\\').count();
    slashes % 2 == 0 && matches!(scan(op), State::Plain)
}

/// Whether a line runs ytt: `ytt` as a word of it.
fn runs_ytt(line: &str) -> bool {
    line.split(|c: char| c.is_whitespace() || matches!(c, '(' | '|' | ';' | '&' | '`' | '$'))
        .any(|w| w == "ytt")
}

/// Where the shell is at the end of a text.
#[derive(Debug, PartialEq, Eq)]
enum State {
    Plain,
    /// Inside quotes.
    Quoted,
    /// In a comment.
    Comment,
}

/// The shell's state at the end of `text` (one line).
fn scan(text: &str) -> State {
    let mut single = false;
    let mut double = false;
    let mut escaped = false;
    let mut prev_blank = true;
    for c in text.chars() {
        if escaped {
            escaped = false;
            prev_blank = false;
            continue;
        }
        match c {
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev_blank => return State::Comment,
            _ => {}
        }
        prev_blank = c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(');
    }
    if single || double {
        State::Quoted
    } else {
        State::Plain
    }
}

/// The `command-fails` finding of a page's ytt command that an escaped blank at the end of one
/// of its lines ends, with that blank its extra argument.
pub fn findings(call: &Call, snippet: &Snippet) -> Vec<Diagnostic> {
    if !super::readme::candidate(&snippet.file) {
        return Vec::new();
    }
    let Command::Unreadable(reason) = ytt_args::parse(&call.args) else {
        return Vec::new();
    };
    let Some(blank) = call
        .args
        .iter()
        .filter_map(Word::literal)
        // The shell walk may read the quoted blank as an empty word.
        .find(|w| w.chars().all(|c| c == ' ' || c == '\t'))
    else {
        return Vec::new();
    };
    if !reason.starts_with(&format!("unexpected argument `{blank}`")) {
        return Vec::new();
    }
    let lines: Vec<&str> = snippet.text.lines().collect();
    let first = usize::try_from(call.line.saturating_sub(snippet.line_offset))
        .unwrap_or(usize::MAX)
        .saturating_sub(1);
    let Some(at) =
        (first..lines.len()).find(|&j| lines[j].ends_with("\" \"") || lines[j].ends_with("\"\t\""))
    else {
        return Vec::new();
    };
    let line = snippet
        .line_offset
        .saturating_add(u32::try_from(at).unwrap_or(u32::MAX))
        .saturating_add(1);
    let shown = if lines[at].ends_with("\"\t\"") {
        "'\\t'"
    } else {
        "' '"
    };
    let next = lines
        .get(at + 1)
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .map(|l| format!("; the next line (`{l}`) runs as a command of its own"))
        .unwrap_or_default();
    let mut d = Diagnostic::new(
        Rule::CommandFails,
        format!(
            "`\\` followed by a blank at the end of the line does not continue the command: \
             ytt gets the extra argument {shown} and fails (\"command 'ytt' does not accept \
             extra arguments {shown}\"){next}"
        ),
    )
    .at(Span::point(&snippet.file, line, 1))
    .with_help("delete the blanks after the `\\`, so that the line continues the command");
    let origin = format!("{}:{}", snippet.file, call.line);
    let p = Provenance::of(source_of(&origin), Some(origin));
    d.certainty = Some(p.certainty(Basis::Command));
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escaped_blank_is_the_word_the_shell_reads() {
        let text = "ytt -f config/ \\ \n  -f ./overlay.yaml \\\n  -v name=demo2\n";
        assert_eq!(
            as_shell_reads(text),
            "ytt -f config/ \" \"\n  -f ./overlay.yaml \\\n  -v name=demo2\n"
        );
        // Escaped backslash, quoted, in a comment, glued: as written or read as such.
        assert_eq!(escaped_blank("echo a \\\\ "), None);
        assert_eq!(escaped_blank("echo 'a \\ "), None);
        assert_eq!(escaped_blank("echo a # see \\ "), None);
        assert_eq!(escaped_blank("ytt -f a\\\t "), Some((8, '\t')));
        assert_eq!(escaped_blank("ytt -f a \\"), None);
    }

    #[test]
    fn a_redirection_without_a_target_ends_the_line() {
        let text = "export $PROFILE=<profile-name>\nytt -f a.yml\n";
        assert_eq!(as_shell_reads(text), "\nytt -f a.yml\n");
        // Quoted, escaped, a here-document's body, a line that runs ytt: as written.
        for kept in [
            "echo '<a>'\nls\n",
            "echo a\\>\nls\n",
            "cat <<EOF\n<b>\nEOF\n",
            "ytt -f x >\nls\n",
            "echo a \\\n  b >\nls\n",
        ] {
            assert_eq!(as_shell_reads(kept), kept, "{kept}");
        }
    }

    #[test]
    fn continuation_needs_the_newline_right_after_the_backslash() {
        assert!(continues("ytt -f a \\"));
        assert!(!continues("ytt -f a \\ "));
        assert!(!continues("ytt -f a \\\\"));
        assert!(!continues("echo 'a \\"));
    }
}
