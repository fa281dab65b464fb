//! Fenced code blocks of a Markdown page, paired as CommonMark pairs them: a block opens with
//! a line of three or more backticks (or tildes) and an info string (no backtick in it after
//! backticks), and only a line of the same character, at least as long as the opening run
//! and with nothing after it but blanks, closes it (```` ```` ```` closes a block opened with
//! ```` ``` ````; ```` ``` ```` does not close one opened with ```` ```` ````; `~~~` never
//! closes a backtick block). A block left open runs to the page's end.
//!
//! Indentation: CommonMark allows up to three spaces before a fence at the top level, and
//! more inside a list item (the item's own indentation). A page's commands are often in list
//! items ("1. Render:" and an indented block), so a fence may be indented any amount here; the
//! closing fence is judged by its characters alone.

/// An opening fence: its character, the length of its run and its language (the info
/// string's first word, lower-cased, without a leading `.` or a `{` attribute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    ch: char,
    len: usize,
    /// The spaces before the opening run.
    indent: usize,
    pub lang: String,
}

impl Fence {
    /// The fence a line opens, if any (leading blanks ignored).
    pub fn opening(line: &str) -> Option<Fence> {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let ch = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
        let len = t.chars().take_while(|c| *c == ch).count();
        if len < 3 {
            return None;
        }
        // The run is of one ASCII character, so `len` is a byte offset too.
        let info = t.get(len..).unwrap_or("").trim();
        if ch == '`' && info.contains('`') {
            return None;
        }
        let lang = info
            .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
            .next()
            .unwrap_or("")
            .trim_start_matches('.')
            .to_ascii_lowercase();
        Some(Fence {
            ch,
            len,
            indent,
            lang,
        })
    }

    /// Whether the fence is of backticks (not tildes).
    pub fn backticks(&self) -> bool {
        self.ch == '`'
    }

    /// A line of the block's content as the page shows it: as CommonMark reads it, as many
    /// of the blanks before it as the opening fence had are removed (a block inside a list
    /// item, "1. Create config.yaml" and a YAML block indented under it, holds YAML at the
    /// left margin). A tab counts as one blank here.
    pub fn content<'a>(&self, line: &'a str) -> &'a str {
        let blanks = line
            .bytes()
            .take(self.indent)
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        line.get(blanks..).unwrap_or(line)
    }

    /// Whether `line` closes this fence: only this fence's character, at least as many, then
    /// blanks.
    pub fn closed_by(&self, line: &str) -> bool {
        let t = line.trim();
        let n = t.chars().take_while(|c| *c == self.ch).count();
        n >= self.len && n == t.chars().count()
    }
}

/// The fenced blocks of `lines`: for each, the index of its opening line, the fence, and the
/// index of its closing line (`lines.len()` when the page ends first).
pub fn blocks(lines: &[&str]) -> Vec<(usize, Fence, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(fence) = Fence::opening(lines[i]) else {
            i += 1;
            continue;
        };
        let end = (i + 1..lines.len())
            .find(|j| fence.closed_by(lines[*j]))
            .unwrap_or(lines.len());
        out.push((i, fence, end));
        i = end + 1;
    }
    out
}

/// For each line of `lines`, whether it is a fence line (opening or closing) or inside a
/// block: `Some(true)` for a fence, `Some(false)` inside, `None` for prose.
pub fn kinds(lines: &[&str]) -> Vec<Option<bool>> {
    let mut out = vec![None; lines.len()];
    for (start, _, end) in blocks(lines) {
        for (k, slot) in out.iter_mut().enumerate().take(end + 1).skip(start) {
            *slot = Some(k == start || k == end);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_loses_the_opening_fences_indentation_and_no_more() {
        let f = Fence::opening("   ```yaml").unwrap();
        assert_eq!(f.content("   common:"), "common:");
        assert_eq!(f.content("     registry: x"), "  registry: x");
        assert_eq!(f.content(" short"), "short");
        assert_eq!(f.content(""), "");
        let top = Fence::opening("```yaml").unwrap();
        assert_eq!(top.content("  nested: 1"), "  nested: 1");
    }

    #[test]
    fn a_longer_run_closes_and_a_shorter_does_not() {
        let f = Fence::opening("```bash").unwrap();
        assert_eq!(f.lang, "bash");
        assert!(f.closed_by("````"));
        assert!(f.closed_by("  ```  "));
        assert!(!f.closed_by("~~~"));
        assert!(!f.closed_by("``` sh"));
        let long = Fence::opening("````").unwrap();
        assert!(!long.closed_by("```"));
        assert!(long.closed_by("`````"));
        let tilde = Fence::opening("~~~console").unwrap();
        assert_eq!(tilde.lang, "console");
        assert!(!tilde.closed_by("```"));
        assert!(tilde.closed_by("~~~~"));
        assert!(Fence::opening("``").is_none());
        assert!(Fence::opening("``` a`b").is_none());
        assert_eq!(Fence::opening("   ```{.sh}").unwrap().lang, "");
    }

    #[test]
    fn blocks_pair_as_commonmark_does() {
        let page =
            "```\nkapp deploy\n````\nprose\n```\ncd cluster\nytt -f .\n```\n~~~\n```\n~~~\n```";
        let lines: Vec<&str> = page.lines().collect();
        let b: Vec<(usize, usize)> = blocks(&lines).iter().map(|(s, _, e)| (*s, *e)).collect();
        assert_eq!(b, vec![(0, 2), (4, 7), (8, 10), (11, 12)]);
        let k = kinds(&lines);
        assert_eq!(k[3], None);
        assert_eq!(k[5], Some(false));
        assert_eq!(k[9], Some(false));
        assert_eq!(k[11], Some(true));
    }
}
