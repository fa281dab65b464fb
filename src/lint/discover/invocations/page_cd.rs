//! The directory an earlier block of a page left its reader in. A page's reader types its
//! blocks into one shell: after a block with `cd templates`, a later block's `ytt -f
//! claim.yaml` runs in `templates/` although that block does not say so (round twenty-three's
//! N23-2). The linter places a page's command from where the reader may be (the page's
//! directory, the repository's top: see [`super::resolve`]); only when its inputs exist from
//! none of those does it try the directory the page's earlier `cd` lines lead to, and then the
//! command assumes it (`working-directory`).
//!
//! Only plain `cd DIR` lines count (a literal relative directory, one command on the line); a
//! `cd` to the home directory, back (`cd -`), to an absolute path or a variable forgets the
//! directory.

use super::fence;
use super::resolve::Outcome;
use super::snippet::Snippet;
use super::word::{Word, REPO};
use crate::files::paths;

/// Records in each snippet of the page `text` the directory its earlier blocks' `cd` lines
/// lead to (relative to where the reader started), with the line of the last one.
pub fn place(snippets: &mut [Snippet], text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let kinds = fence::kinds(&lines);
    for s in snippets.iter_mut() {
        if s.text.lines().any(|l| cd_target(l).is_some()) {
            continue;
        }
        let start = usize::try_from(s.line_offset).unwrap_or(usize::MAX);
        // The fence that opens the command's own block is not an earlier block.
        let before = start.saturating_sub(1).min(lines.len());
        let mut dir: Option<(String, u32)> = None;
        for (i, (line, kind)) in lines[..before].iter().zip(&kinds).enumerate() {
            if *kind != Some(false) {
                continue;
            }
            let Some(target) = cd_target(line) else {
                continue;
            };
            let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            dir = match (target, dir) {
                (Some(t), Some((d, _))) => Some((paths::join(&d, &t), line_no)),
                (Some(t), None) => Some((t, line_no)),
                (None, _) => None,
            };
        }
        s.reader_cd = dir.filter(|(d, _)| d != "." && !d.starts_with(".."));
    }
}

/// The directories a page's command may run in after its earlier blocks' `cd`: the one it
/// leads to from the repository's top and from the page's directory, each with the
/// assumption in words.
pub fn bases(snippet: &Snippet) -> Vec<(Word, String)> {
    let Some((dir, line)) = &snippet.reader_cd else {
        return Vec::new();
    };
    let page = paths::parent(&snippet.file);
    let mut out: Vec<(Word, String)> = Vec::new();
    for base in [dir.clone(), paths::join(page, dir)] {
        if out
            .iter()
            .any(|(w, _)| *w == Word::lit(format!("{REPO}/{base}")))
        {
            continue;
        }
        let why = format!(
            "{}:{line} `cd {dir}` in an earlier block of the page, which the reader's shell \
             keeps: the command runs from {base}",
            snippet.file
        );
        out.push((Word::lit(format!("{REPO}/{base}")), why));
    }
    out
}

/// Marks every command found as assuming the directory `why` says.
pub fn assume(out: &mut [Outcome], why: &str) {
    for o in out {
        if let Outcome::Found(inv) = o {
            inv.assumptions.push(super::conditional_cd::assumption(why));
        }
    }
}

/// What a line that is only a `cd` does: `Some(Some(dir))` for a relative directory,
/// `Some(None)` for one the linter cannot follow (home, back, absolute, a variable).
fn cd_target(line: &str) -> Option<Option<String>> {
    let line = line.trim();
    let line = line.strip_prefix("$ ").unwrap_or(line);
    let mut words = line.split_whitespace();
    if words.next() != Some("cd") {
        return None;
    }
    let target = words.next();
    if words.next().is_some() {
        return None;
    }
    let Some(t) = target else {
        return Some(None);
    };
    let t = t.trim_matches(['"', '\'']).trim_end_matches('/');
    let t = t.strip_prefix("./").unwrap_or(t);
    let followed = !t.is_empty()
        && !t.starts_with(['/', '~', '$', '-'])
        && !t.contains(['$', '`', '*', ';', '&', '|']);
    Some(followed.then(|| t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::snippet::CALLER;

    fn snippet(line_offset: u32, text: &str) -> Snippet {
        Snippet::new(
            "docs/guide.md",
            line_offset,
            text.to_string(),
            Word::lit(CALLER),
        )
    }

    #[test]
    fn a_later_block_keeps_the_directory_an_earlier_block_entered() {
        let page = "# Guide\n\n```\ncd templates\nytt -f a.yaml\n```\n\nThen:\n\n```\nytt -f claim.yaml\n```\n\n```\ncd ~\n```\n\n```\nytt -f b.yaml\n```\n";
        // Blocks start after the fences at lines 3, 10 and 18 (from 1).
        let mut s = vec![
            snippet(3, "cd templates\nytt -f a.yaml\n"),
            snippet(10, "ytt -f claim.yaml\n"),
            snippet(18, "ytt -f b.yaml\n"),
        ];
        place(&mut s, page);
        assert_eq!(s[0].reader_cd, None, "its own cd is its own");
        assert_eq!(s[1].reader_cd, Some(("templates".to_string(), 4)));
        assert_eq!(s[2].reader_cd, None, "`cd ~` forgets it");
    }

    #[test]
    fn only_plain_cd_lines_count() {
        assert_eq!(cd_target("cd templates"), Some(Some("templates".into())));
        assert_eq!(cd_target("$ cd ./a/b/"), Some(Some("a/b".into())));
        assert_eq!(cd_target("cd $DIR"), Some(None));
        assert_eq!(cd_target("cd -"), Some(None));
        assert_eq!(cd_target("cd"), Some(None));
        assert_eq!(cd_target("cd a && ytt -f ."), None);
        assert_eq!(cd_target("echo cd a"), None);
    }
}
