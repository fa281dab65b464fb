//! "Did you mean ...?": the candidate closest to a misspelled word (ytt's `spell.Nearest`),
//! ignoring case and underscores and allowing edits to at most half of the word.

/// The closest candidate to `word`, if one is close enough; ties go to the earlier candidate.
pub fn nearest(word: &str, candidates: &[String]) -> Option<String> {
    let word = fold(word);
    let mut best: Option<&String> = None;
    let mut best_distance = word.len().div_ceil(2);
    for c in candidates {
        let d = distance(word.as_bytes(), fold(c).as_bytes());
        if d < best_distance {
            best_distance = d;
            best = Some(c);
        }
    }
    best.cloned()
}

/// The closest candidate to `word` when exactly one candidate is that close: a correction
/// with no rival.
pub fn nearest_unique(word: &str, candidates: &[String]) -> Option<String> {
    let best = nearest(word, candidates)?;
    let folded = fold(word);
    let d = distance(folded.as_bytes(), fold(&best).as_bytes());
    let rivals = candidates
        .iter()
        .filter(|c| distance(folded.as_bytes(), fold(c).as_bytes()) == d)
        .count();
    (rivals == 1).then_some(best)
}

/// The edits between two words, ignoring case and underscores.
pub fn edits(a: &str, b: &str) -> usize {
    distance(fold(a).as_bytes(), fold(b).as_bytes())
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance over bytes.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = prev + usize::from(ca != cb);
            let deletion = row[j + 1] + 1;
            let insertion = row[j] + 1;
            prev = row[j + 1];
            row[j + 1] = substitution.min(deletion).min(insertion);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn finds_close_keys_ignoring_case_and_underscores() {
        let c = keys(&["hostname", "port", "log_level"]);
        assert_eq!(nearest("hostnme", &c).as_deref(), Some("hostname"));
        assert_eq!(nearest("LogLevel", &c).as_deref(), Some("log_level"));
        assert_eq!(nearest("zzzzzz", &c), None);
    }

    #[test]
    fn a_unique_correction_has_no_rival_at_the_same_distance() {
        let c = keys(&["overlay/match", "overlay/merge", "overlay/replace"]);
        assert_eq!(
            nearest_unique("overlay/mach", &c).as_deref(),
            Some("overlay/match")
        );
        assert_eq!(
            nearest_unique("overlay/marge", &c).as_deref(),
            Some("overlay/merge")
        );
        let tied = keys(&["ab/cd", "ab/ce"]);
        assert_eq!(nearest_unique("ab/cf", &tied), None);
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance(b"kitten", b"sitting"), 3);
        assert_eq!(distance(b"", b"abc"), 3);
    }
}
