//! A path whose first directory is partly a value known only at run time
//! (`vars-$code/vars-products.yml`, `$code` a script's argument) and that exactly one path of
//! the repository matches: the linter binds the value to that path's (`vars-lab`), and the
//! command is linted with it, under a `bound-argument` assumption that names the match.
//!
//! [`super::index::Index::bindings`] leaves a value in the first directory unbound (it would
//! match any directory of the top). A first directory with text of its own beside the value
//! (`vars-`) is specific enough when one path alone matches: round eleven's LR11-B2, a values
//! directory per foundation of which the repository holds one, whose `# PAS` comment fails
//! the README's command. Several matches stay unknown, as before: which one the user means is
//! theirs to say.

use super::index::{glob_regex, Binding, Index};
use super::word::{Piece, Word, REPO};
use crate::report::{Assumption, AssumptionKind};

/// The binding of `word`'s unknown parts for which exactly one repository path exists, with
/// the assumption that says so; `None` when the word has no unknown part in its first
/// directory, that directory has no text of its own, or not exactly one path matches.
pub fn binding(index: &Index, word: &Word) -> Option<(Binding, Assumption)> {
    let word = word.normalized().strip_prefix(REPO)?;
    let word = word.strip_prefix("/").unwrap_or(word);
    let first = word.segments().into_iter().next()?;
    let own_text = first
        .0
        .iter()
        .any(|p| matches!(p, Piece::Lit { text, .. } if !text.is_empty()));
    if first.unknowns().next().is_none() || !own_text {
        return None;
    }
    let mut re = String::from("^");
    let mut glob = Word::default();
    let mut names = Vec::new();
    for p in &word.0 {
        match p {
            Piece::Lit { text, glob: g } => {
                re.push_str(&match g {
                    true => glob_regex(text),
                    false => regex::escape(text),
                });
                glob.push_lit(text, *g);
            }
            Piece::Unknown(name) => {
                re.push_str("([^/]+)");
                glob.push_lit("*", true);
                names.push(name.clone());
            }
        }
    }
    re.push('$');
    let re = super::compiled::regex(&re)?;
    let mut rooted = Word::lit(REPO);
    rooted.push_lit("/", false);
    rooted.extend(&glob);
    let found = index.glob(&rooted);
    let [only] = found.as_slice() else {
        return None;
    };
    let caps = re.captures(only)?;
    let mut b = Binding::new();
    for (i, name) in names.iter().enumerate() {
        let value = caps.get(i + 1)?.as_str().to_string();
        if b.get(name).is_some_and(|v| *v != value) {
            return None;
        }
        b.insert(name.clone(), value);
    }
    let bound: Vec<String> = b.iter().map(|(k, v)| format!("{k} is `{v}`")).collect();
    let a = Assumption::new(
        AssumptionKind::BoundArgument,
        format!(
            "{}: {only} is the only path of the repository that {word} matches",
            bound.join(", ")
        ),
    );
    Some((b, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(parts: &[(&str, bool)]) -> Word {
        let mut w = Word::lit(REPO);
        w.push_lit("/", false);
        for (text, unknown) in parts {
            match unknown {
                true => w.0.push(Piece::Unknown((*text).to_string())),
                false => w.push_lit(text, false),
            }
        }
        w
    }

    #[test]
    fn one_match_binds_and_several_or_none_do_not() {
        let w = word(&[("vars-", false), ("$2", true), ("/values.yml", false)]);
        let one = Index::new(["vars-lab/values.yml", "vars-lab/other.yml", "pipeline.yml"]);
        let (b, a) = binding(&one, &w).expect("one match");
        assert_eq!(b.get("$2").map(String::as_str), Some("lab"));
        assert_eq!(a.kind, AssumptionKind::BoundArgument);
        assert!(a.message.contains("vars-lab/values.yml"), "{}", a.message);
        let two = Index::new(["vars-lab/values.yml", "vars-prod/values.yml"]);
        assert!(binding(&two, &w).is_none());
        assert!(binding(&Index::new(["pipeline.yml"]), &w).is_none());
        // A first directory that is the value alone matches anything: never bound.
        let bare = word(&[("$2", true), ("/values.yml", false)]);
        assert!(binding(&one, &bare).is_none());
        // No value in the first directory: the index binds it, not this.
        let deeper = word(&[("vars/", false), ("$2", true), ("/values.yml", false)]);
        assert!(binding(&one, &deeper).is_none());
    }
}
