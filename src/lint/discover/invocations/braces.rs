//! Bash's brace expansion of a command's words, for the commands that move and copy files
//! (`mv ./demo/_ytt_lib{1,}` is `mv ./demo/_ytt_lib1 ./demo/_ytt_lib`: round seventeen's
//! R17B-2). A group is `{a,b}` in unquoted text, one level deep, with at least one comma; the
//! alternatives may be empty (`{1,}`). A word whose groups would give more than
//! [`MAX_WORDS`] words, a nested group or one that spans quoted text is left as written: a
//! page is untrusted, and `{a,b}{a,b}…` doubles with every group.

use super::word::{Piece, Word};

/// The most words one word expands into.
const MAX_WORDS: usize = 64;
/// The most words a command line expands into.
const MAX_FIELDS: usize = 256;

/// The command's fields with each word's brace groups expanded in place; the fields as they
/// are when that would give more than [`MAX_FIELDS`].
pub fn expand_fields(fields: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    for f in fields {
        out.extend(expand(f));
        if out.len() > MAX_FIELDS {
            return fields.to_vec();
        }
    }
    out
}

/// The words one word's brace groups give, in bash's order; the word alone when it has no
/// group or too many words would come of it.
pub fn expand(word: &Word) -> Vec<Word> {
    let mut done: Vec<Word> = Vec::new();
    let mut todo: Vec<Word> = vec![word.clone()];
    // Each round expands the first group of every word; a word has fewer groups after it, and
    // the words are bounded, so the rounds are too.
    while let Some(w) = todo.pop() {
        match first_group(&w) {
            Some(alts) => {
                if done.len() + todo.len() + alts.len() > MAX_WORDS {
                    return vec![word.clone()];
                }
                // Kept in order: the last pushed is expanded first, so push in reverse.
                todo.extend(alts.into_iter().rev());
            }
            None => done.push(w),
        }
    }
    done
}

/// The words the first brace group of `w` gives, if it has one: a `{` in unquoted text with
/// its `}` in the same text, holding a comma and no other `{`.
fn first_group(w: &Word) -> Option<Vec<Word>> {
    for (k, piece) in w.0.iter().enumerate() {
        let Piece::Lit { text, glob: true } = piece else {
            continue;
        };
        let mut from = 0;
        while let Some(open) = text[from..].find('{').map(|i| from + i) {
            let close = open + text[open..].find('}')?;
            let inner = &text[open + 1..close];
            if inner.contains('{') {
                return None;
            }
            if !inner.contains(',') {
                from = close + 1;
                continue;
            }
            let (head, tail) = (&text[..open], &text[close + 1..]);
            let alts = inner
                .split(',')
                .map(|alt| {
                    let mut out = Word(w.0[..k].to_vec());
                    out.push_lit(&format!("{head}{alt}{tail}"), true);
                    out.extend(&Word(w.0[k + 1..].to_vec()));
                    out
                })
                .collect();
            return Some(alts);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(text: &str) -> Word {
        let mut w = Word::default();
        w.push_lit(text, true);
        w
    }

    fn texts(words: &[Word]) -> Vec<String> {
        words
            .iter()
            .map(|w| w.literal().unwrap_or_default())
            .collect()
    }

    #[test]
    fn groups_give_each_alternative_in_order() {
        assert_eq!(
            texts(&expand(&glob("./demo/_ytt_lib{1,}"))),
            ["./demo/_ytt_lib1", "./demo/_ytt_lib"]
        );
        assert_eq!(
            texts(&expand(&glob("x{a,b}/y{1,2}"))),
            ["xa/y1", "xa/y2", "xb/y1", "xb/y2"]
        );
        // No comma, quoted, nested or unclosed: as written.
        for plain in ["a{b}c", "a{b", "{a,{b,c}}"] {
            assert_eq!(texts(&expand(&glob(plain))), [plain]);
        }
        assert_eq!(texts(&expand(&Word::lit("a{1,}"))), ["a{1,}"]);
        let fields = expand_fields(&[glob("mv"), glob("lib{1,}")]);
        assert_eq!(texts(&fields), ["mv", "lib1", "lib"]);
    }

    #[test]
    fn a_brace_bomb_is_left_as_written() {
        let bomb = "{a,b}".repeat(40);
        assert_eq!(texts(&expand(&glob(&bomb))), [bomb]);
        // Many words of a few alternatives each: the fields as written.
        let many: Vec<Word> = (0..200).map(|_| glob("{x,y}")).collect();
        assert_eq!(expand_fields(&many).len(), 200);
        // A long text of unclosed groups is read once.
        let long = "{".repeat(100_000);
        assert_eq!(expand(&glob(&long)).len(), 1);
    }
}
