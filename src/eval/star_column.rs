//! The column of an evaluation error in a `.star` module. The interpreter runs the module's
//! code rewritten (ytt's `end` blocks made indented blocks, method lookups made `__ytt_attr`
//! calls, an index made a `__ytt_index` call on a second run, ...): every rewrite keeps the
//! lines, not the columns. The error's column in the code that ran is taken back to the
//! module's own line by aligning the two texts of the line (their longest common
//! subsequence of characters): a character the rewrite kept is where it was written, and one
//! the rewrite added stands for the next kept one (`__ytt_attr(` for the object after it).

/// Lines longer than this (in characters, the product of the two) are not aligned: the
/// column is then the first of the line, as ytt shows none.
const MAX_CELLS: usize = 1 << 21;

/// The 1-based column in `written` (the module's line) of the character at the 0-based
/// column `col` of `ran` (the same line as the interpreter ran it); `None` when the lines
/// are too long to align.
pub fn written_column(ran: &str, written: &str, col: usize) -> Option<u32> {
    let a: Vec<char> = ran.chars().collect();
    let b: Vec<char> = written.chars().collect();
    if a == b {
        return u32::try_from(col.min(b.len()) + 1).ok();
    }
    let (n, m) = (a.len(), b.len());
    if (n + 1).saturating_mul(m + 1) > MAX_CELLS {
        return None;
    }
    // lcs[i * (m + 1) + j]: the longest common subsequence of a[i..] and b[j..].
    let w = m + 1;
    let mut lcs = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    // Walk the alignment; the first kept character at or after `col` gives the column. A
    // character of the code that ran is passed over when that loses nothing, so that a
    // written character is kept as the last one it can be (after an added `__ytt_attr(`, not
    // in it).
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let here = lcs[i * w + j];
        if lcs[(i + 1) * w + j] == here {
            i += 1;
        } else if a[i] == b[j] {
            if i >= col {
                return u32::try_from(j + 1).ok();
            }
            i += 1;
            j += 1;
        } else {
            j += 1;
        }
    }
    u32::try_from(m.max(1)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_of_rewritten_code_is_taken_back_to_the_written_line() {
        let written = "x = a[\"k\"] + b[\"k\"]";
        assert_eq!(written_column(written, written, 13), Some(14));
        let ran = "x = __ytt_index(a, \"k\") + __ytt_index(b, \"k\")";
        let at = ran.rfind("__ytt_index").unwrap();
        assert_eq!(written_column(ran, written, at), Some(14));
        let written = "    v = s.find(\"a\") + t.find(\"b\")";
        let ran = "  v = __ytt_attr(s, \"find\")(\"a\") + __ytt_attr(t, \"find\")(\"b\")";
        let at = ran.rfind("__ytt_attr").unwrap();
        assert_eq!(written_column(ran, written, at), Some(23));
    }

    #[test]
    fn lines_too_long_to_align_have_no_column() {
        let long = "a".repeat(3000);
        assert_eq!(written_column(&long, &format!("{long}b"), 5), None);
    }
}
