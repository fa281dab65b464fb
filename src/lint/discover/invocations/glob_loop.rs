//! A loop over a glob: `for p in pipelines/*; do ytt -f "$p"; done` runs ytt once per entry
//! the glob matches, not once with all of them (round eleven's FW11-B2: one pipeline per
//! subdirectory, each with its own data values). Inside the loop's body the variable holds
//! the glob's directory and a marker for the part that varies (`pipelines/$(for p in *)`),
//! which binds, as a listing does (see `listing.rs`), to exactly the repository paths the glob
//! matches, each its own invocation, in the shell's sorted order; the file tests of the body
//! (`[[ -d "$p" ]]`) are decided per entry. After the loop, what the body built from the
//! variable (`args="$args -f $p"`) stands for the whole glob again, as the shell's last
//! iteration has seen every entry. A glob that matches nothing is one entry, the glob as
//! written (ytt then fails to read it), unless `shopt -s nullglob` (zsh's `setopt nullglob`)
//! was set before the loop: then it is no entry at all, and the command does not run for it
//! (round forty-two's R42-2).

use super::env::Env;
use super::index::glob_regex;
use super::index::Binding;
use super::resolve::Origin;
use super::word::{Piece, Word};
use crate::report::{Assumption, AssumptionKind};

/// The marker's text: `$(for VAR in GLOB)`.
const OPEN: &str = "$(for ";
/// The marker's text under `nullglob`: `$(nullglob for VAR in GLOB)`.
const NULL_OPEN: &str = "$(nullglob for ";
/// A `find` loop's marker text: `$(find GLOB -maxdepth D | while read VAR)`.
const FIND_OPEN: &str = "$(find ";
/// The deepest a `find` loop's marker descends (the walk's files are all there is).
pub const MAX_FIND_DEPTH: usize = 32;

/// A loop variable's marker: the word it holds in the body, and the glob's varying part
/// that the marker stands for (restored after the loop).
pub struct Marker {
    /// The glob's directory, then the marker (`pipelines/$(for p in *)`).
    pub word: Word,
    /// The marker's name.
    pub name: String,
    /// The glob's varying part (`*`), as a glob word.
    pub tail: Word,
}

/// The marker of a loop variable in the body of `for VAR in WORD`, when `WORD` is a glob
/// whose varying part is literal (`"$ROOT"/pipelines/*`, `values/*.yml`): the directory before
/// the first glob character, then the marker. `None` for another word. `nullglob`: the
/// shell drops a glob that matches nothing (see [`unmatched`]).
pub fn marker(var: &str, word: &Word, nullglob: bool) -> Option<Marker> {
    if !word.has_glob() {
        return None;
    }
    let mut prefix = Word::default();
    let mut rest = String::new();
    let mut in_glob = false;
    for p in &word.0 {
        match p {
            Piece::Lit { text, glob } if !in_glob => {
                match glob.then(|| text.find(['*', '?', '['])).flatten() {
                    None => prefix.push_lit(text, *glob),
                    Some(at) => {
                        let cut = text[..at].rfind('/').map_or(0, |i| i + 1);
                        prefix.push_lit(&text[..cut], false);
                        rest.push_str(&text[cut..]);
                        in_glob = true;
                    }
                }
            }
            // A quoted `*` after the glob is a literal star, which the marker cannot say.
            Piece::Lit { text, glob } => {
                if !glob && text.contains(['*', '?', '[']) {
                    return None;
                }
                rest.push_str(text);
            }
            // What varies must be the glob alone.
            Piece::Unknown(_) if in_glob => return None,
            Piece::Unknown(u) => prefix.0.push(Piece::Unknown(u.clone())),
        }
    }
    // `for d in envs/*/`: the entries are directories, named without the slash.
    let rest = rest.trim_end_matches('/');
    let open = if nullglob { NULL_OPEN } else { OPEN };
    let name = format!("{open}{var} in {rest})");
    regex(&name)?;
    let mut word = prefix;
    word.0.push(Piece::Unknown(name.clone()));
    let mut tail = Word::default();
    tail.push_lit(rest, true);
    Some(Marker { word, name, tail })
}

/// Whether a variable's value is a glob written as text (`"${PWD}/tpl/jobs/*"`): a glob
/// character in its quoted text, none where the text keeps glob meaning (what a loop gathers
/// from a glob's entries, restored after it: `args="$args $p"`), and no loop marker.
pub fn assigned_glob(word: &Word) -> bool {
    let quoted = word.0.iter().any(|p| match p {
        Piece::Lit { text, glob } => !*glob && text.contains(['*', '?', '[']),
        Piece::Unknown(_) => false,
    });
    quoted && !word.has_glob() && !word.unknowns().any(is_marker)
}

/// Whether an unknown part is a loop's marker: it stands for the paths its glob matches, not
/// for a value given at run time.
pub fn is_marker(name: &str) -> bool {
    regex(name).is_some()
}

/// Whether a marker's entries are names within its directory (its glob has no `/`, and a
/// `find` does not descend), so that an entry's last path segment is the whole entry.
pub fn entries_are_names(name: &str) -> bool {
    parts(name).is_some_and(|(_, glob, depth)| !glob.contains('/') && depth.unwrap_or(0) == 0)
}

/// Whether a marker's glob, matching nothing, is no entry of its loop: it was written
/// under `nullglob`.
pub fn dropped_when_unmatched(name: &str) -> bool {
    name.starts_with(NULL_OPEN) && parts(name).is_some()
}

/// The marker of a `find GLOB -maxdepth D | while read VAR` loop (see `find_loop.rs`): its
/// entries are the paths the glob matches and those up to `depth` levels below them.
pub fn find_marker(var: &str, glob: &str, depth: usize) -> String {
    format!("{FIND_OPEN}{glob} -maxdepth {depth} | while read {var})")
}

/// A marker's variable, glob, and for a `find` loop how deep it descends.
fn parts(name: &str) -> Option<(&str, &str, Option<usize>)> {
    let (var, glob, depth) = match name.strip_prefix(FIND_OPEN) {
        Some(rest) => {
            let (walk, var) = rest.strip_suffix(')')?.split_once(" | while read ")?;
            let (glob, depth) = walk.split_once(" -maxdepth ")?;
            (var, glob, Some(depth.parse::<usize>().ok()?))
        }
        None => {
            let body = name
                .strip_prefix(OPEN)
                .or_else(|| name.strip_prefix(NULL_OPEN))?
                .strip_suffix(')')?;
            let (var, glob) = body.split_once(" in ")?;
            (var, glob, None)
        }
    };
    let bad = glob.is_empty()
        || glob.starts_with('/')
        || glob.split('/').any(|s| s == ".." || s.is_empty())
        || glob.contains(['$', '(', ')', '`', '"', '\'', ' '])
        || depth.is_some_and(|d| d > MAX_FIND_DEPTH);
    if var.is_empty() || var.contains([' ', ')']) || bad {
        return None;
    }
    Some((var, glob, depth))
}

/// A regular expression (without a capture group) for the paths a marker stands for, each
/// relative to the directory before it.
pub fn regex(name: &str) -> Option<String> {
    let (_, glob, depth) = parts(name)?;
    let below = match depth {
        Some(d) if d > 0 => format!("(?:/[^/]+){{0,{d}}}"),
        _ => String::new(),
    };
    Some(format!("{}{below}", glob_regex(glob)))
}

/// The binding of a word whose unknown parts are all loop markers to their globs as written:
/// what the shell gives a loop over a glob that matches nothing (`packaging/package*.yaml`).
/// A `find` whose start matches nothing lists nothing, and under `nullglob` the glob is
/// dropped: no binding.
pub fn unmatched(word: &Word) -> Option<Binding> {
    let mut b = Binding::new();
    for u in word.unknowns() {
        let (_, glob, depth) = parts(u)?;
        if depth.is_some() || dropped_when_unmatched(u) {
            return None;
        }
        b.insert(u.to_string(), glob.to_string());
    }
    (!b.is_empty()).then_some(b)
}

/// What an invocation bound to a loop's entry assumes: that the entry runs the command, the
/// tests of the loop's body other than file tests (`[[ "$name" == buildpack ]]`) being left
/// undecided.
pub fn entry_assumptions(b: &Binding, origin: &Origin) -> Vec<Assumption> {
    b.iter()
        .filter_map(|(k, v)| {
            let (var, glob, depth) = parts(k)?;
            let walk = match depth {
                Some(_) => format!("the `find {glob}` loop"),
                None => format!("the loop over `{glob}`"),
            };
            Some(Assumption::new(
                AssumptionKind::BoundArgument,
                format!(
                    "${var} is `{v}`, one entry of {walk} at {origin}: every entry is taken \
                     to run the command (the loop's tests other than file tests, string \
                     tests of its name and `grep`s of its text are not decided)"
                ),
            ))
        })
        .collect()
}

/// `env` with every marker of `markers` in its variables replaced by the glob's varying part.
pub fn restore(env: &mut Env, markers: &[Marker]) {
    if markers.is_empty() {
        return;
    }
    env.map_words(|w| {
        let mut out = Word::default();
        for p in &w.0 {
            match p {
                Piece::Unknown(u) => match markers.iter().find(|m| m.name == *u) {
                    Some(m) => out.extend(&m.tail),
                    None => out.0.push(p.clone()),
                },
                Piece::Lit { text, glob } => out.push_lit(text, *glob),
            }
        }
        out
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(prefix: &str, rest: &str) -> Word {
        let mut w = Word::lit(prefix);
        w.push_lit(rest, true);
        w
    }

    #[test]
    fn a_glob_s_varying_part_becomes_the_marker() {
        let m = marker("p", &glob("/r/pipelines/", "*"), false).unwrap();
        assert_eq!(m.word.to_string(), "/r/pipelines/$(for p in *)");
        let re = regex("$(for p in *)").unwrap();
        let re = regex::Regex::new(&format!("^(?:{re})$")).unwrap();
        assert!(re.is_match("a") && !re.is_match("a/b"));
        let m = marker("v", &glob("", "values/*/x-*.yml"), false).unwrap();
        assert_eq!(m.word.to_string(), "values/$(for v in */x-*.yml)");
        // Not a glob, or one whose varying part is not literal.
        assert!(marker("p", &Word::lit("pipelines/*"), false).is_none());
        let mut w = glob("a/", "*");
        w.0.push(Piece::Unknown("$X".into()));
        assert!(marker("p", &w, false).is_none());
        assert!(regex("$(for p in ../*)").is_none());
        assert!(regex("$(ls -d *)").is_none());
        assert!(is_marker("$(for p in *.yml)") && !is_marker("$p"));
        let m = marker("d", &glob("envs/", "*/"), false).unwrap();
        assert_eq!(m.word.to_string(), "envs/$(for d in *)");
    }

    #[test]
    fn under_nullglob_an_unmatched_glob_is_no_entry() {
        let plain = marker("f", &glob("conf/", "*.yaml"), false).unwrap();
        let null = marker("f", &glob("conf/", "*.yaml"), true).unwrap();
        assert_eq!(null.word.to_string(), "conf/$(nullglob for f in *.yaml)");
        // Both stand for the same entries when the glob matches.
        assert_eq!(regex(&plain.name), regex(&null.name));
        assert!(is_marker(&null.name) && entries_are_names(&null.name));
        // Matching nothing, the plain glob is its own text; the nullglob one is nothing.
        let lit = unmatched(&plain.word).unwrap();
        assert_eq!(lit.get(&plain.name).map(String::as_str), Some("*.yaml"));
        assert!(unmatched(&null.word).is_none());
        assert!(dropped_when_unmatched(&null.name) && !dropped_when_unmatched(&plain.name));
    }

    #[test]
    fn after_the_loop_the_marker_is_the_glob_again() {
        let m = marker("p", &glob("/r/pipelines/", "*.yml"), false).unwrap();
        let mut args = Word::lit("-f ");
        args.extend(&m.word);
        let mut env = Env::default();
        env.set("args", vec![super::super::env::Alt::plain(args)]);
        restore(&mut env, &[m]);
        let back = &env.get("args").unwrap()[0].word;
        assert_eq!(back.to_string(), "-f /r/pipelines/*.yml");
        assert!(back.has_glob());
    }
}
