//! READMEs and the other Markdown pages of a repository (`docs/deploy.md`, `oldreadme.md`;
//! not a website's content tree, release notes or design documents): the shell a page shows,
//! in fenced code blocks of a shell language, in inline code spans that start with a command
//! (`` `ytt -f config/ --data-values-file values.yml` ``) and in plain lines that start with
//! `ytt -` or deploy with ytt (`kapp deploy -a app -f <(ytt -f config/)`), continued with `\`;
//! their line ends as a shell reads them (`page_lines.rs`); and the files a page gives to write ("create `values.yml`
//! with:" and a YAML block). A documented command is how the repository tells its users to
//! run ytt, so it counts as a way the repository runs it. Like a script, it runs from wherever
//! the reader is: the repository root or the page's own directory.

use super::fence::{blocks, Fence};
use super::outputs::{Made, Written};
use super::page_lines;
use super::page_links;
use super::snippet::{Snippet, CALLER};
use super::word::Word;

/// Who writes a file that a page shows in a YAML block under "create FILE".
pub const YAML_BLOCK: &str = "a YAML block";

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

/// Names of Markdown files that are no instructions: release notes and the like. (A
/// CONTRIBUTING.md is a developer's setup guide, often the only page that says how a `hack/`
/// template is run: its commands count, round forty-three's N43-2.)
const NOT_INSTRUCTIONS: [&str; 5] = [
    "changelog",
    "changes",
    "history",
    "release",
    "code_of_conduct",
];

/// Directories of a website's pages (Hugo's `content/`, a `site/` or `website/` tree, a
/// blog): pages that show ytt in general, with files of their own examples.
const WEBSITE: [&str; 5] = ["content", "site", "website", "blog", "_posts"];

/// Whether a repository file is a Markdown page whose commands count: a README anywhere, or
/// another page outside a website's tree and outside design documents.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    if !(name.ends_with(".md") || name.ends_with(".markdown")) {
        return false;
    }
    if name.contains("readme") {
        return true;
    }
    let dirs: Vec<String> = path
        .split('/')
        .rev()
        .skip(1)
        .map(str::to_ascii_lowercase)
        .collect();
    !NOT_INSTRUCTIONS.iter().any(|n| name.starts_with(n))
        && !dirs.iter().any(|d| WEBSITE.contains(&d.as_str()))
        && crate::lint::discover::design_docs::dir_of(path).is_none()
}

/// The shell pieces of a README that `runs` accepts (text worth following): one snippet per
/// fenced shell block, and one per inline code span that reads as a command line.
pub fn snippets(path: &str, text: &str, runs: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let mut out = Vec::new();
    let mut fence: Option<(Fence, usize, Vec<String>, bool)> = None;
    let lines: Vec<&str> = text.lines().collect();
    // Lines of a plain command already taken.
    let mut continued = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let line = *line;
        if let Some((marker, start, body_lines, shell)) = &mut fence {
            if marker.closed_by(line) {
                if *shell {
                    let body = commands(body_lines);
                    if runs(&body) {
                        out.push(block(path, *start, body));
                    }
                }
                fence = None;
            } else {
                body_lines.push(line.to_string());
            }
            continue;
        }
        if let Some(opened) = Fence::opening(line) {
            let shell = SHELL_LANGUAGES.contains(&opened.lang.as_str());
            fence = Some((opened, i + 1, Vec::new(), shell));
            continue;
        }
        if continued > 0 {
            continued -= 1;
            continue;
        }
        if let Some(cmd) = plain_command(&lines, i) {
            continued = cmd.lines().count().saturating_sub(1);
            if runs(&cmd) {
                out.push(block(path, i, cmd));
            }
            continue;
        }
        // In a table row, `\|` writes the cell's pipe, in code spans too (GFM).
        let row = line.trim_start().starts_with('|');
        for span in inline_spans(line) {
            let span = if row {
                span.replace("\\|", "|")
            } else {
                span.to_string()
            };
            if is_command(&span) && runs(&span) {
                out.push(block(path, i, span));
            }
        }
    }
    // A block left open runs to the page's end, as CommonMark reads it: its lines are code
    // (round forty-one's N41-1).
    if let Some((_, start, body_lines, true)) = fence {
        let body = commands(&body_lines);
        if runs(&body) {
            out.push(block(path, start, body));
        }
    }
    out
}

/// A command written as a plain line of a page, outside code (`ytt --file a \` and the lines
/// it continues on), starting at line `i` (from 0): `ytt` followed by a flag.
fn plain_command(lines: &[&str], i: usize) -> Option<String> {
    // Trailing blanks are kept: a `\` they follow continues nothing (see `page_lines.rs`).
    let first = lines.get(i)?.trim_start();
    let first = first.strip_prefix("$ ").unwrap_or(first);
    let mut words = first.split_whitespace();
    let flagged =
        (words.next() == Some("ytt") && words.next().is_some_and(ytt_word)) || wraps_ytt(first);
    if !flagged {
        return None;
    }
    // A Markdown link the line gives a flag is the file it names (`page_links.rs`).
    let mut out = vec![page_links::quoted(first)];
    let mut j = i;
    while out.last().is_some_and(|l| page_lines::continues(l)) {
        j += 1;
        match lines.get(j) {
            Some(next) if !next.trim().is_empty() => {
                out.push(page_links::quoted(next.trim_start()))
            }
            _ => break,
        }
    }
    Some(out.join("\n"))
}

/// Whether the word after `ytt` makes a command of a line: a flag or the `template` command.
fn ytt_word(w: &str) -> bool {
    w.starts_with('-') || matches!(w, "template" | "t" | "tpl")
}

/// Whether a plain line is a deploy command that renders with ytt in a process or command
/// substitution, or a pipe (`kapp deploy -a app -f <(ytt -f config/ …)`, `kubectl apply -f
/// <(ytt --file x)`): `ytt` there followed by a flag.
fn wraps_ytt(line: &str) -> bool {
    let mut words = line.split_whitespace();
    if !matches!(words.next(), Some("kapp" | "kubectl")) {
        return false;
    }
    ["<(ytt ", "$(ytt ", "| ytt "].iter().any(|opening| {
        line.match_indices(opening).any(|(at, _)| {
            line[at + opening.len()..]
                .split_whitespace()
                .next()
                .is_some_and(ytt_word)
        })
    })
}

/// The files a page gives to write: a YAML block right after a line that names the file and
/// says to create, write or save it ("Create `values.yml` with:"), as made from the reader's
/// directory with that text.
pub fn written(text: &str) -> Vec<Made> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, fence, end) in blocks(&lines) {
        if !matches!(fence.lang.as_str(), "yaml" | "yml") {
            continue;
        }
        let Some(name) = (0..i).rev().take(3).find_map(|j| file_to_write(lines[j])) else {
            continue;
        };
        let body: Vec<&str> = lines[i + 1..end].iter().map(|l| fence.content(l)).collect();
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        out.push(Made {
            line,
            by: YAML_BLOCK.to_string(),
            path: Word::lit(format!("{CALLER}/{name}")),
            from: None,
            text: Some(Written {
                text: body.join("\n") + "\n",
                expanded: false,
                line: line.saturating_add(1),
            }),
            rendered: None,
            stdout: None,
        });
    }
    out
}

/// The YAML file a line of prose says to write (`create a file values.yml with`,
/// ``Save the following as `my-values.yaml`:``).
fn file_to_write(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let verbs = [
        "create", "write", "save", "put", "add", "make", "edit", "named", "called",
    ];
    if !verbs.iter().any(|v| lower.contains(v)) {
        return None;
    }
    line.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | ','))
        .map(|w| w.trim_end_matches([':', '.']))
        .find(|w| {
            (w.ends_with(".yml") || w.ends_with(".yaml"))
                && !w.contains("://")
                && !w.starts_with('/')
                && !w.contains("..")
        })
        .map(str::to_string)
}

/// A snippet whose first line is line `after + 1` of the README (its angle-bracket
/// placeholders the reader's values, see [`super::angle`]).
fn block(path: &str, after: usize, text: String) -> Snippet {
    let offset = u32::try_from(after).unwrap_or(u32::MAX);
    // Line ends as a shell reads them (`\␠`, `cmd <name>`: see `page_lines.rs`).
    let text = page_lines::as_shell_reads(&text);
    super::angle::marked(path, offset, &text, Word::lit(CALLER))
        .unwrap_or_else(|| Snippet::new(path, offset, text, Word::lit(CALLER)))
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
            continued = page_lines::continues(cmd);
        } else if continued {
            out.push(l.clone());
            continued = page_lines::continues(l);
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
    fn pages_by_name_and_place() {
        assert!(candidate("README.md"));
        assert!(candidate("docs/Readme.markdown"));
        assert!(candidate("wcp/tbs/oldreadme.md"));
        assert!(candidate("docs/kubernetes/deployment.md"));
        assert!(!candidate("site/content/ytt/docs/lang.md"));
        assert!(!candidate("workshop/content/exercises/01.md"));
        assert!(!candidate("CHANGELOG.md"));
        assert!(candidate("CONTRIBUTING.md"));
        assert!(!candidate("CODE_OF_CONDUCT.md"));
        assert!(!candidate("proposals/ytt/new.md"));
        assert!(!candidate("README"));
    }

    #[test]
    fn plain_lines_that_run_ytt() {
        let text = "## AWS\n\nytt --file _ytt_lib/resources \\\n    --file _ytt_lib/aws \\\n    --data-values-file eks.yaml\n\nytt is a tool.\n";
        let s = snippets("pkg/README.md", text, &ytt);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].line_offset, 2);
        assert_eq!(
            s[0].text,
            "ytt --file _ytt_lib/resources \\\n--file _ytt_lib/aws \\\n--data-values-file eks.yaml"
        );
    }

    #[test]
    fn a_yaml_block_to_write_is_a_file_made() {
        let text = "First create `values.yml` with:\n\n```yaml\n#@data/values\n---\nname: app\n```\n\n```yaml\nkind: ConfigMap\n```\n";
        let w = written(text);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].path.to_string(), "values.yml");
        let t = w[0].text.as_ref().unwrap();
        assert_eq!(t.text, "#@data/values\n---\nname: app\n");
        assert_eq!(t.line, 4);
        assert_eq!(
            file_to_write("Save it as my-values.yaml."),
            Some("my-values.yaml".into())
        );
        assert_eq!(file_to_write("See values.yml for details"), None);
    }

    #[test]
    fn a_table_cell_s_escaped_pipe_is_the_pipe() {
        let text = "| target | what |\n|---|---|\n| deploy | `ytt -f ./k8s \\| kapp deploy -a app -f-` |\n\nOutside a table `ytt -f a \\| b` stays.\n";
        let s = snippets("README.md", text, &ytt);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].text, "ytt -f ./k8s | kapp deploy -a app -f-");
        assert_eq!(s[1].text, "ytt -f a \\| b");
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
    fn an_unclosed_block_runs_to_the_page_s_end() {
        let s = snippets("README.md", "# Install\n```sh\nytt -f x\n", &ytt);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].line_offset, 2);
        assert_eq!(s[0].text, "ytt -f x\n");
        // One of another language is no shell, closed or not.
        assert!(snippets("README.md", "```yaml\nytt: x\n", &ytt).is_empty());
    }
}
