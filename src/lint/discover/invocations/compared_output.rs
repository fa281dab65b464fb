//! A command whose output nobody applies (round twenty-nine's R29-2): a script function
//! renders a file through a normalizing overlay into a file (`ytt -f normalize.yaml -f "$1" >
//! "$2"`, or `>> /tmp/norm.yaml` and then `awk … /tmp/norm.yaml | sort > "$2"`), and the
//! script only compares the rendered files (`kapp tools diff --file2 dst --file src`).
//!
//! The rule, read from the text of the command's line, its function's body and the script
//! after the line that runs it: the command's standard output goes to a file (a redirection,
//! possibly through text tools: `awk`, `sed`, `sort`, `grep`, `cat`…), a `$N` target named
//! by the function's caller; every later line that reads that file (or a file text tools make
//! of it) is a comparison (`diff`, `cmp`, `dyff`, `git diff`, `kapp tools diff`, `vimdiff`…;
//! not `kubectl diff`, which asks the API server), and one at least is; and no command of the
//! repository deploys a file of that name (`kubectl apply -f`, `kapp deploy -f`, a page's
//! included), nor is a committed manifest (`.yaml`, `.yml`, `.json`, which a GitOps tool
//! syncing its folder would apply) there. Anything else reading it, a target the linter
//! cannot name, or a command written on several lines: the output may be applied, nothing
//! said.
//!
//! Bounded: [`MAX_LINES`] lines of a function's body or of the script after the command.

use std::path::Path;

use super::index::Index;
use super::shell::Call;
use super::snippet::Snippet;
use crate::files::paths;
use crate::lint::config::compared_output::Compared;

/// Lines read after the command, in its function and in the script that runs it.
const MAX_LINES: usize = 400;

/// Tools that pass text on without giving it to anything else.
const TEXT_TOOLS: [&str; 12] = [
    "awk", "gawk", "sed", "sort", "uniq", "grep", "cat", "head", "tail", "tr", "cut", "yq",
];

/// Tools that compare files and nothing more.
const COMPARE_TOOLS: [&str; 8] = [
    "diff",
    "cmp",
    "dyff",
    "vimdiff",
    "colordiff",
    "icdiff",
    "sdiff",
    "delta",
];

/// The comparison that alone reads `call`'s output, in `snippet`; `root`: the repository's
/// directory (for a function written in another file); `deployed`: the base names of what
/// the repository's commands deploy.
pub fn find(
    call: &Call,
    snippet: &Snippet,
    root: Option<&Path>,
    deployed: &[String],
    index: &Index,
) -> Option<Compared> {
    let site_at = call.line.checked_sub(snippet.line_offset)?;
    let lines: Vec<&str> = snippet.text.lines().collect();
    let site = *lines.get(usize::try_from(site_at).ok()?.checked_sub(1)?)?;
    let site_words = words(site);
    // The command itself, or the function the site calls.
    let function = match mentions_ytt(site) {
        true => None,
        false => Some(site_words.first()?.clone()),
    };
    let other;
    let (body, at): (Vec<&str>, usize) = match (&call.written, &function) {
        (Some((file, line)), Some(_)) => {
            other = crate::files::repo_text::read_repo_text(root?, file)?;
            let at = usize::try_from(*line).ok()?.checked_sub(1)?;
            (other.lines().collect(), at)
        }
        (None, Some(name)) => {
            let at = ytt_in_function(&lines, name)?;
            (lines.clone(), at)
        }
        (_, None) => (
            lines.clone(),
            usize::try_from(site_at).ok()?.checked_sub(1)?,
        ),
    };
    let arg = |w: &str| -> Option<String> {
        match positional(w) {
            Some(n) if function.is_some() => site_words.get(n).cloned(),
            Some(_) => None,
            None if w.contains('$') || w.contains('`') => None,
            None => Some(w.to_string()),
        }
    };
    let line = body.get(at)?;
    if line.trim_end().ends_with('\\') {
        return None;
    }
    let mut outputs = vec![arg(&through_text_tools(line, true)?)?];
    // What the function's later lines make of it with text tools.
    if function.is_some() {
        for l in body.iter().skip(at + 1).take(MAX_LINES) {
            if l.trim() == "}" {
                break;
            }
            let (reads, _) = reads_and_target(l);
            if !reads
                .iter()
                .filter_map(|r| arg(r))
                .any(|r| outputs.contains(&r))
            {
                continue;
            }
            let made = arg(&through_text_tools(l, false)?)?;
            if !outputs.contains(&made) {
                outputs.push(made);
            }
        }
    }
    // The script after the site: only comparisons read them.
    let mut compared: Option<(u32, String)> = None;
    let from = usize::try_from(site_at).ok()?;
    for (i, l) in lines.iter().enumerate().skip(from).take(MAX_LINES) {
        let t = l.trim();
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        let (reads, _) = reads_and_target(l);
        if !reads.iter().any(|r| outputs.contains(r)) {
            continue;
        }
        let w = words(t);
        if function.as_ref().is_some_and(|f| w.first() == Some(f)) {
            // The function again, writing another file.
            continue;
        }
        let tool = comparison(&w)?;
        if compared.is_none() {
            let line = u32::try_from(i + 1)
                .ok()?
                .saturating_add(snippet.line_offset);
            compared = Some((line, tool));
        }
    }
    let (line, tool) = compared?;
    let cwd = call.cwd.as_ref().and_then(|c| c.repo_path());
    for out in &outputs {
        let name = out.rsplit('/').next().unwrap_or(out);
        if deployed.iter().any(|d| d == name) {
            return None;
        }
        let manifest = [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e));
        // A file outside the repository (`/tmp/norm.yaml`) is no committed manifest.
        let committed = match &cwd {
            _ if out.starts_with('/') => false,
            Some(dir) => index.exists(&paths::join(dir, out)),
            None => true,
        };
        if manifest && committed {
            return None;
        }
    }
    Some(Compared {
        file: snippet.file.clone(),
        line,
        tool,
        output: outputs.last()?.clone(),
    })
}

/// Whether a line runs ytt (by name, or through a variable named so: `${YTT}`).
fn mentions_ytt(line: &str) -> bool {
    line.to_ascii_lowercase().contains("ytt")
}

/// The index of the first line of the function `name`'s body in `lines` that runs ytt.
fn ytt_in_function(lines: &[&str], name: &str) -> Option<usize> {
    let start = lines.iter().position(|l| {
        let t = l.trim_start();
        let t = t.strip_prefix("function ").unwrap_or(t);
        t.strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with("()") || r.trim_start().starts_with('{'))
    })?;
    lines
        .iter()
        .enumerate()
        .skip(start + 1)
        .take(MAX_LINES)
        .take_while(|(_, l)| l.trim() != "}")
        .find(|(_, l)| mentions_ytt(l) && !l.trim_start().starts_with('#'))
        .map(|(i, _)| i)
}

/// `N` of a positional parameter `$N`, `${N}`.
fn positional(w: &str) -> Option<usize> {
    let rest = w.strip_prefix('$')?;
    let rest = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .unwrap_or(rest);
    rest.parse().ok().filter(|n| *n > 0)
}

/// The file a line's pipeline writes its standard output to, as written, when the stages
/// after the one running ytt (`first`: the line runs ytt; else after the first) are text
/// tools and the last one redirects to a file; `None` otherwise.
fn through_text_tools(line: &str, first: bool) -> Option<String> {
    let line = strip_comment(line);
    if line.contains("&&") || line.contains("||") || line.contains(';') {
        return None;
    }
    let stages: Vec<&str> = line.split('|').collect();
    let from = if first {
        stages.iter().position(|s| mentions_ytt(s))?
    } else {
        0
    };
    // The stage running ytt is not a filter; every other one must be.
    let filters = stages.iter().skip(from + usize::from(first));
    for s in filters {
        let w = words(s);
        if !TEXT_TOOLS.contains(&w.first()?.as_str()) || in_place(&w) {
            return None;
        }
    }
    let (_, target) = reads_and_target(stages.last()?);
    target
}

/// A text tool that edits its file in place (`sed -i`, `yq -i`): not a filter.
fn in_place(w: &[String]) -> bool {
    w.iter()
        .skip(1)
        .any(|a| a == "-i" || a.starts_with("-i.") || a == "--in-place" || a == "--inplace")
}

/// The words of a line that are not redirection targets, and the file its standard output
/// is redirected to (`> F`, `>> F`, `>F`).
fn reads_and_target(line: &str) -> (Vec<String>, Option<String>) {
    let mut reads = Vec::new();
    let mut target = None;
    let mut next_is_target = false;
    for w in words(strip_comment(line)) {
        if next_is_target {
            target = Some(w);
            next_is_target = false;
            continue;
        }
        let out = w.strip_prefix(">>").or_else(|| w.strip_prefix('>'));
        let other_fd = w.starts_with("2>") || w.starts_with("&>") || w.contains(">&");
        match out {
            _ if other_fd => {}
            Some("") => next_is_target = true,
            Some(rest) => target = Some(rest.to_string()),
            None => reads.push(w),
        }
    }
    (reads, target)
}

/// A comparing command's name, for words `w` of a line whose every stage after the first is
/// a text tool or a pager; `None` for anything else.
fn comparison(w: &[String]) -> Option<String> {
    let first = w.first()?.as_str();
    let name = match first {
        "kapp" if w.get(1).map(String::as_str) == Some("tools") => {
            (w.get(2).map(String::as_str) == Some("diff")).then_some("kapp tools diff")?
        }
        "git" => (w.get(1).map(String::as_str) == Some("diff")).then_some("git diff")?,
        other => COMPARE_TOOLS.iter().find(|t| **t == other).copied()?,
    };
    Some(name.to_string())
}

/// The line before a `#` that starts a comment (outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if prev.is_whitespace() => return &line[..i],
            _ => {}
        }
        prev = c;
    }
    line
}

/// A line's words, split at blanks outside quotes, quotes removed (enough to name files).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                started = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if started || !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::word::Word;

    fn snippet(file: &str, text: &str) -> Snippet {
        Snippet::new(file, 0, text.to_string(), Word::lit("."))
    }

    fn call_at(line: u32) -> Call {
        Call::new(line, Vec::new(), None)
    }

    const FUNCTION: &str = "normalize() {\n  ytt -f normalize.yaml -f \"$1\" > \"$2\"\n}\nnormalize before.yaml src\nnormalize after.yaml dst\n# vimdiff src dst\nkapp tools diff -c --file2 dst --file src\n";

    #[test]
    fn an_output_only_compared_is_found_with_its_comparison() {
        let index = Index::new(["before.yaml", "after.yaml", "normalize.yaml"]);
        let s = snippet("demo.sh", FUNCTION);
        let got = find(&call_at(5), &s, None, &[], &index);
        let got = got.expect("compared");
        assert_eq!((got.line, got.tool.as_str()), (7, "kapp tools diff"));
        assert_eq!(got.output, "dst");
        // Through `>>` into a temporary file, then text tools into the caller's file.
        let tmp = "normalize() {\necho --- > /tmp/n.yaml\n${YTT} -f n.yaml -f \"$1\" >> /tmp/n.yaml\nawk '/^---/{print}' /tmp/n.yaml | sort | sed 's/a/b/' > \"$2\"\n}\nnormalize a.yaml dst\ndiff src dst\n";
        let mut c = call_at(6);
        c.cwd = None;
        let got = find(&c, &snippet("d.sh", tmp), None, &[], &index);
        assert_eq!(got.map(|c| c.tool), Some("diff".to_string()));
    }

    #[test]
    fn an_output_anything_else_reads_or_deploys_is_not() {
        let index = Index::new(["before.yaml", "after.yaml", "normalize.yaml", "out.yaml"]);
        // Applied after the comparison.
        let applied = format!("{FUNCTION}kubectl apply -f dst\n");
        assert!(find(&call_at(5), &snippet("d.sh", &applied), None, &[], &index).is_none());
        // Deployed by another command of the repository (a page's `kapp deploy -f dst`).
        let s = snippet("demo.sh", FUNCTION);
        assert!(find(&call_at(5), &s, None, &["dst".into()], &index).is_none());
        // `kubectl diff` asks the API server.
        let server = FUNCTION.replace(
            "kapp tools diff -c --file2 dst --file src",
            "kubectl diff -f dst",
        );
        assert!(find(&call_at(5), &snippet("d.sh", &server), None, &[], &index).is_none());
        // Nothing reads it: written for someone.
        let unread = FUNCTION.replace("kapp tools diff -c --file2 dst --file src\n", "");
        assert!(find(&call_at(5), &snippet("d.sh", &unread), None, &[], &index).is_none());
        // Piped on to kubectl, or into a committed manifest a GitOps tool may sync.
        let piped = "ytt -f a.yaml | kubectl apply -f- > log\ndiff log old\n";
        assert!(find(&call_at(1), &snippet("d.sh", piped), None, &[], &index).is_none());
        let mut c = call_at(1);
        c.cwd = Some(Word::lit("."));
        let committed = "ytt -f a.yaml > out.yaml\ndiff out.yaml old.yaml\n";
        let got = find(&c, &snippet("d.sh", committed), None, &[], &index);
        assert!(got.is_none(), "{got:?}");
    }

    #[test]
    fn words_and_targets() {
        assert_eq!(words("a \"b c\" 'd'"), ["a", "b c", "d"]);
        let (reads, target) = reads_and_target("ytt -f x 2>/dev/null >> \"$2\"");
        assert_eq!(reads, ["ytt", "-f", "x"]);
        assert_eq!(target.as_deref(), Some("$2"));
        assert_eq!(positional("${2}"), Some(2));
        assert_eq!(strip_comment("diff a b # c"), "diff a b ");
    }
}
