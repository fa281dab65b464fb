//! A loop over what `find` lists: `find DIR/*.yml -maxdepth 1 -type f -name "*.yml" ! -name
//! "*.lib.yml" | while read -r src; do ytt -f DIR/parts.lib.yml -f "$src"; done` runs ytt
//! once per path `find` prints (round fourteen's R14B-3), as a `for VAR in GLOB` loop runs it
//! once per entry (`glob_loop.rs`). The loop's variable holds the start's directory and a
//! marker that stands for the paths the start glob matches and those below them up to
//! `-maxdepth`, which binds against the repository's walked files only; `-type f`/`-type d`
//! are file tests and `-name`/`! -name` tests of the entry's last segment (`entry_tests.rs`),
//! decided per entry. A `find` the linter does not read whole (another predicate, several
//! starts, an unquoted variable) is followed as before: the variable is a value given at run
//! time.

use tree_sitter::Node;

use super::env::{Alt, Cond, Env, Test};
use super::glob_loop::{self, Marker, MAX_FIND_DEPTH};
use super::shell::Interp;
use super::word::{Piece, Word};

/// The most arguments of a `find` read.
const MAX_ARGS: usize = 64;

/// What a `find` lists, read from its arguments.
struct Walk {
    /// The start (a path or glob, relative to the working directory).
    start: Word,
    depth: usize,
    /// `-type f` / `-type d`.
    kind: Option<Test>,
    /// `-name P` (true) and `! -name P` (false).
    names: Vec<(String, bool)>,
}

impl<'t> Interp<'t> {
    /// Follows `find … | while read VAR; do …; done`; false (nothing done) for another
    /// pipeline, or a `find` it does not read.
    pub(super) fn find_loop(&mut self, n: Node<'t>, env: &mut Env) -> bool {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let [find, looped] = kids.as_slice() else {
            return false;
        };
        if find.kind() != "command" || looped.kind() != "while_statement" {
            return false;
        }
        let Some(var) = self.read_var(*looped) else {
            return false;
        };
        let Some(body) = looped.child_by_field_name("body") else {
            return false;
        };
        let Some(walk) = self.walk_of(*find, env) else {
            return false;
        };
        let Some(cwd) = env.cwd.clone() else {
            return false;
        };
        let Some(marker) = marker(&var, &walk) else {
            return false;
        };
        let entry = marker.word.relative_to(&cwd);
        let mut tests: Vec<Cond> = walk
            .names
            .iter()
            .map(|(p, holds)| Cond {
                test: Test::Matches {
                    patterns: vec![p.clone()],
                    base: true,
                },
                path: entry.clone(),
                holds: *holds,
            })
            .collect();
        tests.extend(walk.kind.map(|test| Cond {
            test,
            path: entry.clone(),
            holds: true,
        }));
        // The loop runs in a subshell: what its body sets stays there.
        let mut inner = env.clone();
        inner.set(&var, vec![Alt::plain(marker.word.clone())]);
        let depth = self.guards.len();
        self.guards.extend(tests);
        self.stmt(body, &mut inner);
        self.guards.truncate(depth);
        true
    }

    /// `read [-r] VAR`, the condition of a `while`.
    fn read_var(&self, looped: Node<'t>) -> Option<String> {
        let cond = looped.child_by_field_name("condition")?;
        let cond = if cond.kind() == "command" {
            cond
        } else {
            let mut c = cond.walk();
            let first = cond.named_children(&mut c).next()?;
            (first.kind() == "command").then_some(first)?
        };
        let mut c = cond.walk();
        let words: Vec<&str> = cond.named_children(&mut c).map(|k| self.text(k)).collect();
        let (name, rest) = words.split_first()?;
        if *name != "read" {
            return None;
        }
        let vars: Vec<&&str> = rest.iter().filter(|w| !w.starts_with('-')).collect();
        let bad_flag = rest.iter().any(|w| w.starts_with('-') && *w != "-r");
        match vars.as_slice() {
            [v] if !bad_flag && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Some(v.to_string())
            }
            _ => None,
        }
    }

    /// The arguments of a `find` the linter reads whole.
    fn walk_of(&mut self, find: Node<'t>, env: &mut Env) -> Option<Walk> {
        let mut c = find.walk();
        let kids: Vec<Node> = find.named_children(&mut c).collect();
        if kids.first().map(|k| self.text(*k)) != Some("find") || kids.len() > MAX_ARGS {
            return None;
        }
        let mut args = kids[1..].iter().peekable();
        let mut starts = Vec::new();
        while let Some(a) = args.peek() {
            let t = self.text(**a);
            if t.starts_with('-') || t == "!" || t == "(" {
                break;
            }
            starts.push(**a);
            args.next();
        }
        let [start] = starts.as_slice() else {
            return None;
        };
        let exps = self.expand(*start, env, false);
        let [one] = exps.as_slice() else { return None };
        let [start] = one.fields.as_slice() else {
            return None;
        };
        if !one.when.is_empty() {
            return None;
        }
        let mut walk = Walk {
            start: start.clone(),
            depth: MAX_FIND_DEPTH,
            kind: None,
            names: Vec::new(),
        };
        let mut negate = false;
        while let Some(a) = args.next() {
            let t = self.text(*a);
            match t {
                "!" | "-not" => {
                    negate = !negate;
                    continue;
                }
                "-print" => {}
                "-maxdepth" => {
                    let d: usize = self.text(*args.next()?).parse().ok()?;
                    walk.depth = walk.depth.min(d);
                }
                "-type" => {
                    let kind = match self.text(*args.next()?) {
                        "f" => Test::File,
                        "d" => Test::Dir,
                        _ => return None,
                    };
                    if negate || walk.kind.replace(kind).is_some() {
                        return None;
                    }
                }
                "-name" => {
                    let p = pattern(self.text(*args.next()?))?;
                    walk.names.push((p, !negate));
                }
                _ => return None,
            }
            negate = false;
        }
        (!negate).then_some(walk)
    }
}

/// A `-name` argument as a shell pattern (quotes removed); `None` with an expansion.
fn pattern(text: &str) -> Option<String> {
    super::entry_tests::literal_of(text).filter(|t| !t.contains('/'))
}

/// The loop variable's marker for a walk: the start's directory, then the marker of the start
/// and what lies below it (`.` is the entries below the working directory).
fn marker(var: &str, walk: &Walk) -> Option<Marker> {
    let mut prefix = Word::default();
    let mut rest = String::new();
    let mut in_rest = false;
    let pieces = walk.start.0.clone();
    for p in &pieces {
        match p {
            Piece::Lit { text, glob } if !in_rest => {
                let at = glob
                    .then(|| text.find(['*', '?', '[']))
                    .flatten()
                    .unwrap_or(text.len());
                let cut = text[..at].rfind('/').map_or(0, |i| i + 1);
                prefix.push_lit(&text[..cut], false);
                rest.push_str(&text[cut..]);
                in_rest = true;
            }
            Piece::Lit { text, glob } => {
                // Text after the last `/` is the start's name; a `/` after it starts over.
                if text.contains('/') && !glob {
                    return None;
                }
                if !glob && text.contains(['*', '?', '[']) {
                    return None;
                }
                rest.push_str(text);
            }
            Piece::Unknown(_) if in_rest => return None,
            Piece::Unknown(u) => prefix.0.push(Piece::Unknown(u.clone())),
        }
    }
    // A start whose varying part spans directories: the text before its last `/` is the
    // directory of the entries.
    if let Some(i) = rest.rfind('/') {
        if rest[..i].contains(['*', '?', '[']) {
            // `a/*/b*.yml`: the glob's directories vary; the marker holds them.
        } else {
            prefix.push_lit(&rest[..=i], false);
            rest = rest[i + 1..].to_string();
        }
    }
    let rest = rest.trim_end_matches('/');
    let (glob, depth) = match rest {
        // `find .` (or `find DIR/.`): the entries below, not the start itself.
        "." => ("*".to_string(), walk.depth.checked_sub(1)?),
        r if r.is_empty() || r == ".." || r.starts_with("../") => return None,
        r => (r.to_string(), walk.depth),
    };
    let name = glob_loop::find_marker(var, &glob, depth);
    glob_loop::regex(&name)?;
    let mut word = prefix;
    word.0.push(Piece::Unknown(name.clone()));
    Some(Marker {
        word,
        name,
        tail: Word::unknown(format!("${var}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(start: Word, depth: usize) -> Walk {
        Walk {
            start,
            depth,
            kind: None,
            names: Vec::new(),
        }
    }

    #[test]
    fn a_find_s_start_becomes_its_directory_and_a_marker() {
        let mut start = Word::lit("ytt/.github/workflows/");
        start.push_lit("*.yml", true);
        let m = marker("src", &walk(start, 1)).unwrap();
        assert_eq!(
            m.word.to_string(),
            "ytt/.github/workflows/$(find *.yml -maxdepth 1 | while read src)"
        );
        let re = glob_loop::regex(&m.name).unwrap();
        let re = regex::Regex::new(&format!("^(?:{re})$")).unwrap();
        assert!(re.is_match("diff.yml") && re.is_match("x.yml/inner"));
        assert!(!re.is_match("x.yml/a/b") && !re.is_match("diff.yaml"));
        // A directory start: the directory itself and everything below, to the depth.
        let m = marker("f", &walk(Word::lit("src/workflows"), 2)).unwrap();
        assert_eq!(
            m.word.to_string(),
            "src/$(find workflows -maxdepth 2 | while read f)"
        );
        let m = marker("f", &walk(Word::lit("."), 3)).unwrap();
        assert_eq!(m.word.to_string(), "$(find * -maxdepth 2 | while read f)");
        // `..` as the start itself is refused; a start below it binds only to the
        // repository's own paths later, as any other path does.
        assert!(marker("f", &walk(Word::lit(".."), 3)).is_none());
        assert!(marker("f", &walk(Word::unknown("$DIR"), 3)).is_none());
        assert!(!glob_loop::entries_are_names(&m.name));
    }

    #[test]
    fn name_arguments_are_patterns_without_quotes() {
        assert_eq!(pattern("\"*.lib.yml\"").as_deref(), Some("*.lib.yml"));
        assert_eq!(pattern("'*.yml'").as_deref(), Some("*.yml"));
        assert_eq!(pattern("\"$X\""), None);
        assert_eq!(pattern("a/b"), None);
    }
}
