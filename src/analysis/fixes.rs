//! What static findings need to carry a fix: the byte offset of a finding's position in its
//! file and an edit that replaces a word there, checked against the file's text (a fix is only
//! made when the text at the place is the word the finding is about).

use super::units::Unit;
use crate::fix::{edit, Edit};
use crate::pos::Pos;

/// The edit replacing `old` with `new`, `old` starting `skip` bytes after `pos` in the file of
/// `unit`; `None` when the text is not `old` there (or the file is not UTF-8 as read).
pub fn replace_at(unit: &Unit<'_>, pos: &Pos, skip: usize, old: &str, new: &str) -> Option<Edit> {
    if unit.file.raw.is_some() || old.is_empty() {
        return None;
    }
    let text: &str = &unit.file.data;
    let start = edit::offset(text, pos.line, pos.col)? + skip;
    let end = start.checked_add(old.len())?;
    if text.get(start..end)? != old {
        return None;
    }
    Edit::new(&unit.file.rel_path, text, start, end, new)
}

/// The one candidate closest to a misspelt `word` (see [`super::suggest`]); `None` when two
/// are as close, so that a fix never has to guess.
pub fn unique_suggestion(word: &str, candidates: &[String]) -> Option<String> {
    if crate::schema::spell::nearest(word, candidates).is_some() {
        return crate::schema::spell::nearest_unique(word, candidates);
    }
    let best = super::suggest(word, candidates)?;
    let swapped = candidates
        .iter()
        .filter(|c| super::suggest(word, std::slice::from_ref(c)).is_some())
        .count();
    (swapped == 1).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::unique_suggestion;

    #[test]
    fn a_suggestion_with_a_rival_is_no_fix() {
        let c = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            unique_suggestion("failed", &c(&["fail", "equals"])).as_deref(),
            Some("fail")
        );
        assert_eq!(
            unique_suggestion("prot", &c(&["port", "name"])).as_deref(),
            Some("port")
        );
        assert_eq!(unique_suggestion("a1", &c(&["a2", "a3"])), None);
        assert_eq!(
            unique_suggestion("teir", &c(&["tier", "name"])).as_deref(),
            Some("tier")
        );
        assert_eq!(unique_suggestion("zzzzzz", &c(&["tier"])), None);
    }
}
