//! READMEs: the shell a README shows, in fenced code blocks of a shell language and in inline
//! code spans that start with a command (`` `ytt -f config/ --data-values-file values.yml` ``).
//! A documented command is how the repository tells its users to run ytt, so it counts as a
//! way the repository runs it. Like a script, it runs from wherever the reader is: the
//! repository root or the README's own directory.

use super::snippet::{Snippet, CALLER};
use super::word::Word;

/// Languages of fenced blocks that hold shell (an untagged block too).
const SHELL_LANGUAGES: [&str; 9] = [
    "",
    "sh",
    "bash",
    "shell",
    "console",
    "zsh",
    "terminal",
    "shell-session",
    "shellsession",
];

/// Whether a repository file is a README in Markdown.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.starts_with("readme") && (name.ends_with(".md") || name.ends_with(".markdown"))
}

/// The shell pieces of a README that `runs` accepts (text worth following): one snippet per
/// fenced shell block, and one per inline code span that reads as a command line.
pub fn snippets(path: &str, text: &str, runs: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let mut out = Vec::new();
    let mut fence: Option<(String, usize, Vec<String>, bool)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some((marker, start, lines, shell)) = &mut fence {
            if trimmed.starts_with(marker.as_str()) && trimmed.trim_end() == marker.as_str() {
                if *shell {
                    let body = commands(lines);
                    if runs(&body) {
                        out.push(block(path, *start, body));
                    }
                }
                fence = None;
            } else {
                lines.push(line.to_string());
            }
            continue;
        }
        if let Some((marker, lang)) = opening(trimmed) {
            let shell = SHELL_LANGUAGES.contains(&lang.as_str());
            fence = Some((marker, i + 1, Vec::new(), shell));
            continue;
        }
        for span in inline_spans(line) {
            if is_command(span) && runs(span) {
                out.push(block(path, i, span.to_string()));
            }
        }
    }
    out
}

/// A snippet whose first line is line `after + 1` of the README.
fn block(path: &str, after: usize, text: String) -> Snippet {
    let offset = u32::try_from(after).unwrap_or(u32::MAX);
    Snippet::new(path, offset, text, Word::lit(CALLER))
}

/// A fence that opens a code block: its marker (three or more backticks or tildes) and its
/// language, lower-cased (the info string's first word).
fn opening(line: &str) -> Option<(String, String)> {
    let ch = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = line.chars().take_while(|c| *c == ch).count();
    if n < 3 {
        return None;
    }
    let info = line[n..].trim();
    if ch == '`' && info.contains('`') {
        return None;
    }
    let lang = info
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .next()
        .unwrap_or("")
        .trim_start_matches('.')
        .to_ascii_lowercase();
    Some((line[..n].to_string(), lang))
}

/// A block's commands. When some lines start with a prompt (`$ `), only those lines and
/// their continuation lines are commands (the rest is output); line numbers are kept by
/// leaving the other lines empty.
fn commands(lines: &[String]) -> String {
    let prompted = lines
        .iter()
        .any(|l| l.trim_start().starts_with("$ ") || l.trim() == "$");
    if !prompted {
        return lines.join("\n") + "\n";
    }
    let mut out = Vec::with_capacity(lines.len());
    let mut continued = false;
    for l in lines {
        let t = l.trim_start();
        if let Some(cmd) = t.strip_prefix("$ ") {
            out.push(cmd.to_string());
            continued = cmd.trim_end().ends_with('\\');
        } else if continued {
            out.push(l.clone());
            continued = l.trim_end().ends_with('\\');
        } else {
            out.push(String::new());
        }
    }
    out.join("\n") + "\n"
}

/// Whether an inline span reads as a ytt command line: `ytt` with arguments. (A script a
/// README names is read as a script, where it is: the README's mention of it gives no
/// arguments.)
fn is_command(span: &str) -> bool {
    let mut words = span.split_whitespace();
    words.next() == Some("ytt") && words.next().is_some()
}

/// The single-backtick code spans of a line.
fn inline_spans(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let after = &rest[start..];
        let ticks = after.chars().take_while(|c| *c == '`').count();
        let body = &after[ticks..];
        let close = "`".repeat(ticks);
        let Some(end) = body.find(close.as_str()) else {
            break;
        };
        out.push(body[..end].trim());
        rest = &body[end + ticks..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ytt(text: &str) -> bool {
        text.contains("ytt")
    }

    #[test]
    fn readmes_by_name() {
        assert!(candidate("README.md"));
        assert!(candidate("docs/Readme.markdown"));
        assert!(!candidate("docs/usage.md"));
        assert!(!candidate("README"));
    }

    #[test]
    fn shell_blocks_and_inline_commands() {
        let text = "# App\n\
            Render it:\n\
            ```bash\n\
            ytt -f config/ \\\n  --data-values-file values.yml\n\
            ```\n\
            ```yaml\n\
            ytt: not a command\n\
            ```\n\
            Or `ytt -f config/ -v a=b` from the root; `ytt` and `@ytt:data` are no commands.\n";
        let s = snippets("README.md", text, &ytt);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].line_offset, 3);
        assert!(s[0].text.starts_with("ytt -f config/ \\\n"));
        assert_eq!(s[1].text, "ytt -f config/ -v a=b");
        assert_eq!(s[1].line_offset, 9);
    }

    #[test]
    fn prompts_mark_commands_and_output_is_dropped() {
        let text = "~~~console\n$ ytt -f a.yml \\\n  -f b.yml\nkind: ConfigMap\n$ echo done\n~~~\n";
        let s = snippets("README.md", text, &ytt);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].text, "ytt -f a.yml \\\n  -f b.yml\n\necho done\n");
    }

    #[test]
    fn an_unclosed_block_gives_nothing() {
        assert!(snippets("README.md", "```sh\nytt -f x\n", &ytt).is_empty());
    }
}
