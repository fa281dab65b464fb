//! Educates workshop instructions (`workshop/content/**/*.md`): a ```` ```terminal:execute ````
//! block (also `terminal:execute-all`, and the older `execute`, `execute-1`, `execute-2`)
//! holds a YAML body whose `command:` the reader clicks to run in the workshop's terminal.
//! The terminal starts in the workshop's `exercises/` directory when it has one (its files are
//! copied to `~/exercises`), else in the workshop's directory (`~`). A command the
//! instructions give is a documented way to run ytt.

use super::fence::Fence;
use super::snippet::Snippet;
use super::word::{Word, REPO};

/// Whether a repository file is a page of Educates workshop instructions.
pub fn candidate(path: &str) -> bool {
    (path.starts_with("workshop/content/") || path.contains("/workshop/content/"))
        && path.ends_with(".md")
}

/// The commands of the clickable terminal blocks of `path` that `runs` accepts; `exercises`
/// says whether the workshop has an `exercises/` directory.
pub fn snippets(
    path: &str,
    text: &str,
    exercises: bool,
    runs: &dyn Fn(&str) -> bool,
) -> Vec<Snippet> {
    let home = workshop_dir(path);
    let cwd = match (home.is_empty(), exercises) {
        (true, true) => format!("{REPO}/exercises"),
        (true, false) => REPO.to_string(),
        (false, true) => format!("{REPO}/{home}/exercises"),
        (false, false) => format!("{REPO}/{home}"),
    };
    let mut out = Vec::new();
    let mut block: Option<(Fence, Vec<(usize, String)>)> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut block {
            Some((fence, lines)) if fence.closed_by(line) => {
                if let Some((at, command)) = command(lines) {
                    if runs(&command) {
                        let offset = u32::try_from(at).unwrap_or(u32::MAX);
                        out.push(Snippet::new(path, offset, command, Word::lit(cwd.clone())));
                    }
                }
                block = None;
            }
            Some((_, lines)) => lines.push((i, line.to_string())),
            None => block = terminal_block(line).map(|f| (f, Vec::new())),
        }
    }
    out
}

/// The workshop's directory (the one holding `workshop/`), repository-relative (empty for
/// the repository itself).
pub fn workshop_dir(path: &str) -> &str {
    if path.starts_with("workshop/content/") {
        return "";
    }
    match path.find("/workshop/content/") {
        Some(i) => &path[..i],
        None => "",
    }
}

/// The fence of a line that opens a clickable terminal block.
fn terminal_block(line: &str) -> Option<Fence> {
    Fence::opening(line).filter(|f| {
        f.backticks()
            && matches!(
                f.lang.as_str(),
                "terminal:execute" | "terminal:execute-all" | "execute" | "execute-1" | "execute-2"
            )
    })
}

/// The `command:` of a block's YAML body (one line, or a `|` block below it), with the line
/// before its first line (0-based line numbers of the page: the snippet's offset).
fn command(lines: &[(usize, String)]) -> Option<(usize, String)> {
    for (k, (at, line)) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("command:") else {
            continue;
        };
        let rest = rest.trim();
        if !rest.starts_with('|') && !rest.starts_with('>') {
            let text = unquote(rest);
            return (!text.is_empty()).then(|| (*at, format!("{text}\n")));
        }
        let indent = |l: &str| l.len() - l.trim_start().len();
        let body: Vec<&(usize, String)> = lines[k + 1..]
            .iter()
            .take_while(|(_, l)| l.trim().is_empty() || indent(l) > 0)
            .collect();
        let first = body.first()?;
        let cut = body
            .iter()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(_, l)| indent(l))
            .min()
            .unwrap_or(0);
        let text: Vec<&str> = body
            .iter()
            .map(|(_, l)| l.get(cut..).unwrap_or(""))
            .collect();
        return Some((first.0, text.join("\n") + "\n"));
    }
    None
}

/// A YAML scalar written plain or in quotes.
fn unquote(text: &str) -> String {
    let t = text.trim();
    for q in ['"', '\''] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return t[1..t.len() - 1].to_string();
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ytt(text: &str) -> bool {
        text.contains("ytt")
    }

    #[test]
    fn pages_by_place() {
        assert!(candidate("workshop/content/exercises/01-intro.md"));
        assert!(candidate(
            "labs/lab-a/workshop/content/workshop-overview.md"
        ));
        assert!(!candidate("docs/content/intro.md"));
        assert_eq!(
            workshop_dir("labs/lab-a/workshop/content/x.md"),
            "labs/lab-a"
        );
    }

    #[test]
    fn terminal_blocks_give_their_commands_in_the_exercises_directory() {
        let text = "Run it:\n\
            \n\
            ```terminal:execute\n\
            command: ytt -f resources-v2/\n\
            ```\n\
            \n\
            ```terminal:execute\n\
            command: |\n  ytt -f config \\\n    -v a=b\n\
            session: 2\n\
            ```\n\
            ```editor:open-file\n\
            file: ~/exercises/values.yaml\n\
            ```\n\
            ```execute\n\
            command: clear\n\
            ```\n";
        let s = snippets("lab/workshop/content/exercises/04.md", text, true, &ytt);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].text, "ytt -f resources-v2/\n");
        assert_eq!(s[0].line_offset, 3);
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/lab/exercises")));
        assert_eq!(s[1].text, "ytt -f config \\\n  -v a=b\n");
        assert_eq!(s[1].line_offset, 8);
        let plain = snippets("workshop/content/x.md", text, false, &ytt);
        assert_eq!(plain[0].cwd, Word::lit(REPO.to_string()));
    }
}
