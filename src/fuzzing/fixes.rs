//! The fix engine's target: random fixes over two random texts (edits made with
//! `Edit::new`, as findings make them, or written raw, as an editor sends a code action's data
//! back), chosen (`fix::apply::choose`), applied (`fix::apply::apply`) and shown as a unified
//! diff (`fix::diff::unified`, what `--diff` prints). Besides not panicking, it checks that an
//! edit's line and column lead back to its byte offset; that the chosen edits are those of the
//! fixes taken, sorted and never overlapping; that a text applies exactly as the edits say
//! (compared with a plain splice), or is refused only for an edit that does not fit; and that
//! the diff is empty exactly when nothing changed, its hunks count their lines right, and,
//! applied to the old text, gives the new one.

use super::input::Input;
use super::setup;
use crate::fix::apply::{apply, choose};
use crate::fix::diff::unified;
use crate::fix::edit::{line_col, offset};
use crate::fix::{Applicability, Edit, Fix};

/// The most fixes, and edits per fix, an input makes.
const MAX_FIXES: u8 = 12;
const MAX_EDITS: u8 = 3;

/// The fix engine on fuzz bytes: two texts (each up to a NUL byte), then fixes.
pub fn fix_apply(data: &[u8]) {
    setup();
    let mut input = Input::new(data);
    let files = [
        ("a.yml".to_string(), input.text()),
        ("b.star".to_string(), input.text()),
    ];
    let mut fixes = Vec::new();
    for _ in 0..input.below(MAX_FIXES + 1) {
        let mut edits = Vec::new();
        for _ in 0..=input.below(MAX_EDITS) {
            let (name, text) = &files[input.below(2)];
            edits.extend(edit(&mut input, name, text));
        }
        let applicability = if input.flag() {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        };
        let fix = Fix {
            title: "fuzz".to_string(),
            applicability,
            edits,
        };
        // What an editor sends back in a code action's data reads as it was written.
        let json = serde_json::to_value(&fix).ok();
        let back = json.and_then(|v| serde_json::from_value::<Fix>(v).ok());
        assert_eq!(
            back.as_ref(),
            Some(&fix),
            "a fix does not read back from JSON"
        );
        fixes.push(fix);
    }
    let refs: Vec<&Fix> = fixes.iter().collect();
    let chosen = choose(&refs);
    let mut all: Vec<usize> = chosen
        .taken
        .iter()
        .chain(&chosen.skipped)
        .copied()
        .collect();
    all.sort_unstable();
    assert_eq!(all, (0..fixes.len()).collect::<Vec<_>>(), "a fix is lost");
    for (name, edits) in &chosen.edits {
        for (k, e) in edits.iter().enumerate() {
            assert_eq!(&e.file, name);
            assert!(
                chosen.taken.iter().any(|&t| fixes[t].edits.contains(e)),
                "an edit of no fix taken"
            );
            for other in &edits[k + 1..] {
                assert!(
                    !e.overlaps(other),
                    "two chosen edits overlap: {e:?} {other:?}"
                );
                assert!(
                    (e.start, e.end) <= (other.start, other.end),
                    "edits unsorted"
                );
            }
        }
    }
    for (name, text) in &files {
        let edits = chosen.edits.get(name).cloned().unwrap_or_default();
        match apply(text, &edits) {
            Ok(new) => {
                assert_eq!(
                    new,
                    splice(text, &edits),
                    "applied otherwise than the edits say"
                );
                check_diff(name, text, &new);
            }
            Err(_) => assert!(
                edits.iter().any(|e| !fits(text, e)),
                "a text refused with every edit fitting"
            ),
        }
    }
}

/// An edit of `text`: made as findings make them (then its line and column are checked), or
/// raw, with any offsets, lines and columns.
fn edit(input: &mut Input<'_>, name: &str, text: &str) -> Option<Edit> {
    let raw = input.byte().is_multiple_of(4);
    let start = position(input, text);
    let end = if input.flag() {
        start
    } else {
        position(input, text)
    };
    let replacement: String = input.text().chars().take(64).collect();
    if raw {
        return Some(Edit {
            file: name.to_string(),
            start,
            end,
            replacement,
            line: input.number(),
            column: input.number(),
            end_line: input.number(),
            end_column: input.number(),
        });
    }
    let e = Edit::new(name, text, start.min(end), start.max(end), &replacement)?;
    assert_eq!(line_col(text, e.start), (e.line, e.column));
    // `offset` is `line_col`'s inverse at every character boundary, inside a CR LF and after
    // a CR that ends the text too (both were found here: `tests/data/fuzz/fix_apply-*`).
    assert_eq!(offset(text, e.line, e.column), Some(e.start), "{e:?}");
    assert_eq!(offset(text, e.end_line, e.end_column), Some(e.end), "{e:?}");
    Some(e)
}

/// A byte offset into `text`: mostly inside it, at its ends, or beyond them.
fn position(input: &mut Input<'_>, text: &str) -> usize {
    let len = text.len();
    match input.byte() % 8 {
        0 => 0,
        1 => len,
        2 => len + 1 + input.below(4),
        3 => usize::try_from(input.number()).unwrap_or(usize::MAX),
        _ => {
            let at = usize::from(input.byte()) << 8 | usize::from(input.byte());
            at % (len + 1)
        }
    }
}

/// Whether `e` fits `text` on its own.
fn fits(text: &str, e: &Edit) -> bool {
    e.start <= e.end
        && e.end <= text.len()
        && text.is_char_boundary(e.start)
        && text.is_char_boundary(e.end)
}

/// `text` with sorted, fitting, non-overlapping `edits` spliced in, the plain way.
fn splice(text: &str, edits: &[Edit]) -> String {
    let mut out = text.to_string();
    for e in edits.iter().rev() {
        out.replace_range(e.start..e.end, &e.replacement);
    }
    out
}

/// The diff from `old` to `new`: empty exactly when they are equal, and a patch that turns
/// `old` into `new`.
fn check_diff(path: &str, old: &str, new: &str) {
    let diff = unified(path, old, new);
    assert_eq!(diff.is_empty(), old == new, "{diff}");
    if old != new {
        assert_eq!(patch(old, &diff, path).as_deref(), Ok(new), "{diff}");
    }
}

/// One line of a hunk: its mark and its text (with its line break, unless the file ends
/// without one there).
type HunkLine = (char, String);

/// A hunk's header counts (`-A,B +C,D`).
type Counts = (usize, usize, usize, usize);

/// `old` with the unified diff `diff` applied, checking its headers and hunk counts.
fn patch(old: &str, diff: &str, path: &str) -> Result<String, String> {
    let mut lines = diff.split_inclusive('\n');
    if lines.next() != Some(&format!("--- a/{path}\n"))
        || lines.next() != Some(&format!("+++ b/{path}\n"))
    {
        return Err("bad file header".to_string());
    }
    let mut hunks: Vec<(Counts, Vec<HunkLine>)> = Vec::new();
    for line in lines {
        if let Some(header) = line.strip_prefix("@@ -") {
            hunks.push((counts(header)?, Vec::new()));
            continue;
        }
        let Some((_, body)) = hunks.last_mut() else {
            return Err(format!("a line before any hunk: {line:?}"));
        };
        if line == "\\ No newline at end of file\n" {
            let last = body.last_mut().ok_or("a no-newline mark first")?;
            if last.1.pop() != Some('\n') {
                return Err("no-newline mark twice".to_string());
            }
            continue;
        }
        let mut chars = line.chars();
        let mark = chars.next().ok_or("an empty line")?;
        if !matches!(mark, ' ' | '-' | '+') {
            return Err(format!("an unknown mark {mark:?}"));
        }
        body.push((mark, chars.as_str().to_string()));
    }
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let mut out = String::new();
    let (mut i, mut j) = (0usize, 0usize);
    for ((a, b, c, d), body) in hunks {
        let old_side = body.iter().filter(|(m, _)| *m != '+').count();
        let new_side = body.iter().filter(|(m, _)| *m != '-').count();
        if (old_side, new_side) != (b, d) {
            return Err(format!("hunk counts {b},{d}, holds {old_side},{new_side}"));
        }
        let start = if b == 0 {
            a
        } else {
            a.checked_sub(1).ok_or("line 0")?
        };
        let new_start = if d == 0 {
            c
        } else {
            c.checked_sub(1).ok_or("line 0")?
        };
        if start < i || start > old_lines.len() {
            return Err(format!("hunk at old line {a} out of order"));
        }
        for l in &old_lines[i..start] {
            out.push_str(l);
            j += 1;
        }
        i = start;
        if j != new_start {
            return Err(format!("hunk at new line {c}, expected {}", j + 1));
        }
        for (mark, text) in body {
            if mark != '+' {
                if old_lines.get(i) != Some(&text.as_str()) {
                    return Err(format!("line {} is not {text:?}", i + 1));
                }
                i += 1;
            }
            if mark != '-' {
                out.push_str(&text);
                j += 1;
            }
        }
    }
    for l in &old_lines[i..] {
        out.push_str(l);
    }
    Ok(out)
}

/// `A,B +C,D @@\n` of a hunk header.
fn counts(header: &str) -> Result<Counts, String> {
    let bad = || format!("bad hunk header {header:?}");
    let rest = header.strip_suffix(" @@\n").ok_or_else(bad)?;
    let (old, new) = rest.split_once(" +").ok_or_else(bad)?;
    let pair = |s: &str| -> Result<(usize, usize), String> {
        let (x, y) = s.split_once(',').ok_or_else(bad)?;
        Ok((x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?))
    };
    let ((a, b), (c, d)) = (pair(old)?, pair(new)?);
    Ok((a, b, c, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_patches_its_old_text_into_the_new() {
        for (old, new) in [
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("x", "y"),
            ("", "new\n"),
            ("gone\n", ""),
            (
                "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
                "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n",
            ),
            ("no end", "no end\n"),
        ] {
            check_diff("t.yml", old, new);
        }
    }

    #[test]
    fn seeds_and_edges_run_clean() {
        for data in [
            &b""[..],
            b"k: 1\n\0x = 1\n\0\x05\x00\x01\x04\x00\x00\x00",
            b"\xc3\xa9\0\0\x0c\x00\x04\x00\x01\x03\xff\xff\xff\xff\x00",
            b"abc\0def\0\x03\x00\x00\x02\x07\x00\x01x\x00\x01\x00\x00\x01\x01y\x00",
        ] {
            fix_apply(data);
        }
    }
}
