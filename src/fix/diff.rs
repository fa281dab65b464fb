//! A unified diff (`diff -u`, three lines of context) between a file's text and the same text
//! with its fixes made, for `yttlint --diff`. Fixes change a few lines, so the lines that
//! differ are found by cutting the common first and last lines and comparing what is left line
//! by line (a longest common subsequence); hunks closer than twice the context are one.

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The most lines (old times new) compared line by line; past it, the middle is shown as
/// removed and added whole.
const MAX_CELLS: usize = 4_000_000;

/// One line of a hunk.
#[derive(Debug, PartialEq)]
enum Line<'a> {
    Same(&'a str),
    Old(&'a str),
    New(&'a str),
}

/// The unified diff of `path` from `old` to `new`; empty when they are equal.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let script = script(&a, &b);
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    for (start, end) in hunks(&script) {
        out.push_str(&hunk(&script, start, end));
    }
    out
}

/// Every line of both texts, in order, as kept, removed or added.
fn script<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Line<'a>> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut out: Vec<Line<'a>> = a[..head].iter().map(|l| Line::Same(l)).collect();
    if mid_a.len().saturating_mul(mid_b.len()) > MAX_CELLS {
        out.extend(mid_a.iter().map(|l| Line::Old(l)));
        out.extend(mid_b.iter().map(|l| Line::New(l)));
    } else {
        out.extend(common(mid_a, mid_b));
    }
    out.extend(a[a.len() - tail..].iter().map(|l| Line::Same(l)));
    out
}

/// `a` into `b` by a longest common subsequence of lines.
fn common<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Line<'a>> {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push(Line::Same(a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(Line::Old(a[i]));
            i += 1;
        } else {
            out.push(Line::New(b[j]));
            j += 1;
        }
    }
    out
}

/// The ranges of the script that make hunks: each change with its context, merged when they
/// touch.
fn hunks(script: &[Line<'_>]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (k, line) in script.iter().enumerate() {
        if matches!(line, Line::Same(_)) {
            continue;
        }
        let start = k.saturating_sub(CONTEXT);
        let end = (k + CONTEXT + 1).min(script.len());
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => out.push((start, end)),
        }
    }
    out
}

/// One hunk: its header and lines.
fn hunk(script: &[Line<'_>], start: usize, end: usize) -> String {
    let before = &script[..start];
    let old_at = before.iter().filter(|l| !matches!(l, Line::New(_))).count();
    let new_at = before.iter().filter(|l| !matches!(l, Line::Old(_))).count();
    let lines = &script[start..end];
    let old_len = lines.iter().filter(|l| !matches!(l, Line::New(_))).count();
    let new_len = lines.iter().filter(|l| !matches!(l, Line::Old(_))).count();
    // An empty side starts at the line before it (`-0,0` at the top of a file).
    let first = |at: usize, len: usize| if len == 0 { at } else { at + 1 };
    let mut out = format!(
        "@@ -{},{old_len} +{},{new_len} @@\n",
        first(old_at, old_len),
        first(new_at, new_len)
    );
    for line in lines {
        let (mark, text) = match line {
            Line::Same(t) => (' ', t),
            Line::Old(t) => ('-', t),
            Line::New(t) => ('+', t),
        };
        out.push(mark);
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a.yml", "x\n", "x\n"), "");
    }

    #[test]
    fn one_changed_line_with_context() {
        let old = "1\n2\n3\n4\nkey: #@data.values.x\n6\n7\n8\n9\n";
        let new = old.replace("#@data", "#@ data");
        assert_eq!(
            unified("t.yml", old, &new),
            "--- a/t.yml\n+++ b/t.yml\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-key: #@data.values.x\n+key: #@ data.values.x\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn removed_first_line_far_changes_and_no_final_newline() {
        let old = "#@ load(\"@ytt:yaml\", \"yaml\")\na\nb\nc\nd\ne\nf\ng\nh\nlast";
        let new = "a\nb\nc\nd\ne\nf\ng\nh\nLAST";
        assert_eq!(
            unified("t.yml", old, new),
            "--- a/t.yml\n+++ b/t.yml\n@@ -1,4 +1,3 @@\n-#@ load(\"@ytt:yaml\", \"yaml\")\n a\n b\n c\n\
             @@ -7,4 +6,4 @@\n f\n g\n h\n-last\n\\ No newline at end of file\n+LAST\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn near_changes_make_one_hunk() {
        let old = "a\nb\nc\nd\ne\nf\n";
        let new = "A\nb\nc\nd\ne\nF\n";
        assert_eq!(
            unified("t.yml", old, new),
            "--- a/t.yml\n+++ b/t.yml\n@@ -1,6 +1,6 @@\n-a\n+A\n b\n c\n d\n e\n-f\n+F\n"
        );
    }
}
