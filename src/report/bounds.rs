//! Bounds on what one finding holds, so that a template cannot make a finding (and with it the
//! memory that holds the report, the report files and standard output) as large as it likes:
//! `fail("M" * 20000000)` is a finding of [`MAX_TEXT`] bytes of message, not of 20 MB. Each
//! text of a finding is cut at a character boundary, with a note that says how much was cut;
//! a fix too large to keep whole is dropped (a part of a fix would change the file wrongly).

use super::diagnostic::Diagnostic;

/// The most bytes a finding's message, help or related message keeps (the note of a cut
/// comes on top).
pub const MAX_TEXT: usize = 16 << 10;

/// How much a text may exceed its bound before it is cut: room for the notes of a cut, so that
/// a text cut once is not cut again.
const SLACK: usize = 128;

/// The most related locations a finding keeps.
pub const MAX_RELATED: usize = 64;

/// The most bytes of replacement text a finding's fix may carry and be kept.
const MAX_FIX: usize = 64 << 10;

/// Cuts `text` to at most `max` bytes (at a character boundary), followed by a note of how
/// many bytes were cut; a text within `max` (and a few bytes more, for such notes) is left as
/// it is.
pub fn cut(text: &mut String, max: usize) {
    if text.len() <= max.saturating_add(SLACK) {
        return;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = text.len() - end;
    text.truncate(end);
    text.shrink_to_fit();
    text.push_str(&format!(" … [{cut} more bytes cut by yttlint]"));
}

/// The most bytes of a source line the terminal shows (a finding on a line of 20 MB shows the
/// start of it).
pub const MAX_LINE: usize = 4 << 10;

/// `text` with every line longer than [`MAX_LINE`] cut (see [`cut`]); `None` when no line is.
pub fn cut_lines(text: &str) -> Option<String> {
    if !text.split('\n').any(|l| l.len() > MAX_LINE + SLACK) {
        return None;
    }
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            let mut l = l.to_string();
            cut(&mut l, MAX_LINE);
            l
        })
        .collect();
    Some(lines.join("\n"))
}

/// `d` within the bounds: its texts cut to [`MAX_TEXT`], at most [`MAX_RELATED`] related
/// locations (the message says how many more there were), no fix larger than `MAX_FIX`.
pub fn bound(d: &mut Diagnostic) {
    cut(&mut d.message, MAX_TEXT);
    if let Some(help) = &mut d.help {
        cut(help, MAX_TEXT);
    }
    if let Some(object) = &mut d.object {
        cut(object, MAX_TEXT);
    }
    if d.related.len() > MAX_RELATED {
        let more = d.related.len() - MAX_RELATED;
        d.related.truncate(MAX_RELATED);
        d.related.shrink_to_fit();
        d.message
            .push_str(&format!(" [{more} more related locations cut by yttlint]"));
    }
    for r in &mut d.related {
        cut(&mut r.message, MAX_TEXT);
    }
    let fix_bytes = d.fix.as_ref().map_or(0, |f| {
        f.title.len() + f.edits.iter().map(|e| e.replacement.len()).sum::<usize>()
    });
    if fix_bytes > MAX_FIX {
        d.fix = None;
    }
}

/// About how many bytes of memory `d` takes (its texts and its structure): what the run
/// counts against the memory of the process that holds the findings.
pub fn weight(d: &Diagnostic) -> usize {
    let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    let span = |file: &str| file.len() + 4 * 4;
    std::mem::size_of::<Diagnostic>()
        + d.message.len()
        + d.span.as_ref().map_or(0, |s| span(&s.file))
        + opt(&d.root)
        + opt(&d.scenario)
        + opt(&d.object)
        + opt(&d.help)
        + d.related
            .iter()
            .map(|r| std::mem::size_of_val(r) + r.message.len() + span(&r.span.file))
            .sum::<usize>()
        + d.fix.as_ref().map_or(0, |f| {
            f.title.len()
                + f.edits
                    .iter()
                    .map(|e| std::mem::size_of_val(e) + e.file.len() + e.replacement.len())
                    .sum::<usize>()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Rule, Span};

    #[test]
    fn a_long_message_is_cut_at_a_character_boundary_with_a_note() {
        let mut text = "é".repeat(MAX_TEXT);
        cut(&mut text, MAX_TEXT);
        let (kept, note) = text.split_once(" … ").unwrap();
        assert_eq!(kept.len(), MAX_TEXT);
        assert_eq!(note, format!("[{MAX_TEXT} more bytes cut by yttlint]"));
        let mut odd = format!("a{}", "é".repeat(100));
        cut(&mut odd, 4);
        assert!(odd.starts_with("aé … [198 more bytes"), "{odd}");
        let mut short = "short".to_string();
        cut(&mut short, 5);
        assert_eq!(short, "short");
        // A text cut once is not cut again.
        let once = text.clone();
        cut(&mut text, MAX_TEXT);
        assert_eq!(text, once);
    }

    #[test]
    fn long_source_lines_are_cut_and_the_others_kept() {
        assert_eq!(cut_lines("a\nb\n"), None);
        let text = format!("a\n{}\nc\n", "b".repeat(1 << 20));
        let shown = cut_lines(&text).unwrap();
        let lines: Vec<&str> = shown.split('\n').collect();
        assert_eq!(lines.len(), 4);
        assert_eq!((lines[0], lines[2], lines[3]), ("a", "c", ""));
        assert!(lines[1].starts_with(&"b".repeat(MAX_LINE)));
        assert!(lines[1].len() < MAX_LINE + 100);
    }

    #[test]
    fn a_finding_is_bounded_in_every_text() {
        let span = Span::point("a.yml", 1, 1);
        let mut d = Diagnostic::new(Rule::TemplateError, "M".repeat(1 << 20))
            .with_help("h".repeat(1 << 20))
            .at(span.clone());
        for i in 0..100 {
            d = d.with_related(format!("r{i}"), span.clone());
        }
        d.related[0].message = "R".repeat(1 << 20);
        let before = weight(&d);
        bound(&mut d);
        let once = d.clone();
        bound(&mut d);
        assert_eq!(d, once);
        assert!(d.message.starts_with(&"M".repeat(MAX_TEXT)));
        assert!(d
            .message
            .ends_with("[36 more related locations cut by yttlint]"));
        assert!(d.message.len() < MAX_TEXT + 100);
        assert!(d.help.as_ref().unwrap().len() < MAX_TEXT + 100);
        assert_eq!(d.related.len(), MAX_RELATED);
        assert!(d.related[0].message.len() < MAX_TEXT + 100);
        assert!(weight(&d) < before / 20, "{} {before}", weight(&d));
    }
}
