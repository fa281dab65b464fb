//! Golden files: a test's actual text compared with a file that holds what it must be, byte
//! for byte. With `YTTLINT_BLESS=1` in the environment the file is written from the actual
//! text instead (review the change with `git diff`); otherwise a difference fails with a
//! line diff (`-` the file, `+` the actual text).

use std::path::Path;

/// The variable that makes [`compare`] write golden files.
pub const BLESS: &str = "YTTLINT_BLESS";

/// Whether this run writes golden files (`YTTLINT_BLESS` set, and not to "" or "0").
pub fn blessing() -> bool {
    std::env::var_os(BLESS).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Compares `actual` with the golden file at `path` (or writes it when blessing); panics with
/// the difference.
pub fn check(path: &Path, actual: &str) {
    if let Err(message) = compare(path, actual) {
        panic!("{message}");
    }
}

/// [`check`] that returns the difference instead of panicking, for tests that go on and list
/// every golden file that differs.
pub fn compare(path: &Path, actual: &str) -> Result<(), String> {
    if blessing() {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        return std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()));
    }
    let expected = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: {e} ({BLESS}=1 writes it from the actual output)",
            path.display()
        )
    })?;
    if expected == actual {
        return Ok(());
    }
    Err(format!(
        "{} differs from the actual output ({BLESS}=1 writes it):\n--- {}\n+++ actual\n{}",
        path.display(),
        path.display(),
        diff(&expected, actual)
    ))
}

/// Lines kept around each change in [`diff`].
const CONTEXT: usize = 3;

/// Above this many line pairs the texts are too long to align: [`diff`] shows them whole.
const MAX_PAIRS: usize = 4_000_000;

/// A line diff of two texts: changed lines marked `-` (in `expected` only) and `+` (in
/// `actual` only), [`CONTEXT`] unchanged lines around them, `...` for the rest. A line without
/// a final newline says so, so that texts differing only there show a difference.
pub fn diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.split_inclusive('\n').collect();
    let new: Vec<&str> = actual.split_inclusive('\n').collect();
    if old.len().saturating_mul(new.len()) > MAX_PAIRS {
        let mut out = String::new();
        out.extend(old.iter().map(|l| shown('-', l)));
        out.extend(new.iter().map(|l| shown('+', l)));
        return out;
    }
    let ops = align(&old, &new);
    let changed: Vec<bool> = ops.iter().map(|(mark, _)| *mark != ' ').collect();
    let near_change = |i: usize| {
        let from = i.saturating_sub(CONTEXT);
        let to = (i + CONTEXT + 1).min(ops.len());
        changed[from..to].iter().any(|c| *c)
    };
    let mut out = String::new();
    let mut skipped = false;
    for (i, (mark, line)) in ops.iter().enumerate() {
        if near_change(i) {
            out.push_str(&shown(*mark, line));
            skipped = false;
        } else if !skipped {
            out.push_str("...\n");
            skipped = true;
        }
    }
    out
}

/// One line of the diff: its mark, the line, a note when it has no final newline.
fn shown(mark: char, line: &str) -> String {
    match line.strip_suffix('\n') {
        Some(text) => format!("{mark}{text}\n"),
        None => format!("{mark}{line}  (no newline at the end)\n"),
    }
}

/// The edit script from `old` to `new` along a longest common subsequence of lines: each line
/// with ' ' (in both), '-' (old only) or '+' (new only), in order.
fn align<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<(char, &'a str)> {
    // common[i][j]: the length of the longest common subsequence of old[i..] and new[j..].
    let width = new.len() + 1;
    let mut common = vec![0usize; (old.len() + 1) * width];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            common[i * width + j] = if old[i] == new[j] {
                common[(i + 1) * width + j + 1] + 1
            } else {
                common[(i + 1) * width + j].max(common[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(old.len() + new.len());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            ops.push((' ', old[i]));
            i += 1;
            j += 1;
        } else if i < old.len()
            && (j == new.len() || common[(i + 1) * width + j] >= common[i * width + j + 1])
        {
            ops.push(('-', old[i]));
            i += 1;
        } else {
            ops.push(('+', new[j]));
            j += 1;
        }
    }
    ops
}

#[test]
fn the_diff_marks_changed_lines_with_context() {
    let expected = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
    let actual = "a\nb\nc\nd\ne\nf\nG\nh\ni\nj";
    assert_eq!(
        diff(expected, actual),
        "...\n d\n e\n f\n-g\n+G\n h\n i\n+j  (no newline at the end)\n"
    );
    assert_eq!(diff("x\n", "x"), "-x\n+x  (no newline at the end)\n");
}
