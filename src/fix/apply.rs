//! Which fixes go together, and a file's text with their edits applied. Fixes are taken in the
//! order given (the report's: by file, line, column, rule); a fix whose edits overlap an edit
//! of one taken before is skipped whole (its finding stays, and a later pass may fix it). An
//! edit equal to one already taken (the same finding reported by two roots) is the same
//! change, not a conflict.

use std::collections::BTreeMap;

use super::{Edit, Fix};

/// The fixes of [`choose`]: which were taken and which were skipped for a conflict.
#[derive(Debug, Default)]
pub struct Chosen {
    /// Indexes (into the fixes given) of the fixes taken.
    pub taken: Vec<usize>,
    /// Indexes of the fixes skipped because an edit overlaps one taken before.
    pub skipped: Vec<usize>,
    /// The edits to make, per repository file, in file order, each once.
    pub edits: BTreeMap<String, Vec<Edit>>,
}

/// Takes each fix of `fixes` in turn unless it conflicts with one taken before.
pub fn choose(fixes: &[&Fix]) -> Chosen {
    let mut chosen = Chosen::default();
    for (i, fix) in fixes.iter().enumerate() {
        let conflict = fix.edits.iter().any(|e| {
            chosen
                .edits
                .get(&e.file)
                .is_some_and(|taken| taken.iter().any(|t| t != e && t.overlaps(e)))
        });
        // A fix with two edits of its own that overlap is not one to apply either.
        let inner = fix
            .edits
            .iter()
            .enumerate()
            .any(|(k, a)| fix.edits[k + 1..].iter().any(|b| a != b && a.overlaps(b)));
        if conflict || inner || fix.edits.is_empty() {
            chosen.skipped.push(i);
            continue;
        }
        chosen.taken.push(i);
        for e in &fix.edits {
            let taken = chosen.edits.entry(e.file.clone()).or_default();
            if !taken.contains(e) {
                taken.push(e.clone());
            }
        }
    }
    for edits in chosen.edits.values_mut() {
        edits.sort_by_key(|e| (e.start, e.end));
    }
    chosen
}

/// `text` with `edits` (of this file, sorted, not overlapping: see [`choose`]) made; an error
/// when an edit does not fit the text (the file changed since it was linted).
pub fn apply(text: &str, edits: &[Edit]) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.start < at
            || e.start > e.end
            || e.end > text.len()
            || !text.is_char_boundary(e.start)
            || !text.is_char_boundary(e.end)
        {
            return Err(format!(
                "{}: the edit at line {} column {} does not fit the file (did it change since it was linted?)",
                e.file, e.line, e.column
            ));
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str, edits: &[(&str, usize, usize, &str)]) -> Fix {
        Fix {
            title: "t".into(),
            applicability: super::super::Applicability::Safe,
            edits: edits
                .iter()
                .map(|(f, a, b, r)| Edit::new(f, text, *a, *b, r).unwrap())
                .collect(),
        }
    }

    #[test]
    fn overlapping_fixes_first_wins_and_equal_edits_are_one() {
        let text = "key: #@data.values.x\nother: #@overlay/appendx\n";
        let space = fix(text, &[("t.yml", 7, 7, " ")]);
        let again = space.clone();
        let rename = fix(text, &[("t.yml", 5, 20, "#@ data.values.y")]);
        let other = fix(text, &[("t.yml", 30, 45, "overlay/append")]);
        let fixes = [&space, &again, &rename, &other];
        let chosen = choose(&fixes);
        assert_eq!(chosen.taken, [0, 1, 3]);
        assert_eq!(chosen.skipped, [2]);
        let edits = &chosen.edits["t.yml"];
        assert_eq!(edits.len(), 2);
        assert_eq!(
            apply(text, edits).unwrap(),
            "key: #@ data.values.x\nother: #@overlay/append\n"
        );
    }

    #[test]
    fn an_edit_that_no_longer_fits_is_an_error() {
        let text = "a: 1\n";
        let e = Edit::new("t.yml", text, 3, 4, "2").unwrap();
        assert_eq!(apply(text, std::slice::from_ref(&e)).unwrap(), "a: 2\n");
        assert!(apply("a", std::slice::from_ref(&e))
            .unwrap_err()
            .contains("does not fit"));
        // An edit whose end comes before its start (one not made by `Edit::new`) is refused,
        // not applied with the text between its end and start written twice.
        let backwards = Edit {
            start: 4,
            end: 3,
            ..e
        };
        assert!(apply(text, &[backwards])
            .unwrap_err()
            .contains("does not fit"));
    }
}
