//! What a shell script knows at one point of its text, followed without running it: the
//! variables assigned so far (each with its possible values and the file tests under which it
//! has them), the working directory, the directory stack and a function's arguments.

use std::collections::BTreeMap;

use super::word::{Piece, Word};

/// The most values a variable keeps before it counts as unknown.
pub const MAX_ALTS: usize = 8;

/// A test of a condition: a file test (`[ -d DIR ]`), or a test of a loop's entry that the
/// linter decides per entry (see `entry_tests.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Test {
    Dir,
    File,
    Exists,
    /// `-h`/`-L`: the linter reads no symlinks, so for it this never holds.
    Symlink,
    /// The value of the condition's word (its last path segment with `base`) matches one of
    /// these shell patterns: `[[ "$name" == buildpack ]]`, a `case` arm, `find -name`.
    Matches {
        patterns: Vec<String>,
        base: bool,
    },
    /// The file the condition's word names holds a line one of these patterns matches:
    /// `grep -q TEXT "$file"`.
    Contains(Vec<super::entry_tests::Grep>),
    /// The variable holds `true`: `if ${NAME}; then` runs its value (see `flags.rs`).
    Flag(String),
    /// Marks a value of the variable `NAME` set under a flag that survived a later branch
    /// which sets the variable anew under another flag (see `flags.rs`): the value holds only
    /// where the two flags differ. Always holds.
    Carried(String),
}

/// A file test with the path it tests (relative to the repository when it can be) and whether
/// the branch needs it to hold or to fail.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cond {
    pub test: Test,
    pub path: Word,
    pub holds: bool,
}

impl Cond {
    pub fn negated(&self) -> Cond {
        Cond {
            holds: !self.holds,
            ..self.clone()
        }
    }
}

/// One possible value and the conditions under which a variable has it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Alt {
    pub word: Word,
    pub when: Vec<Cond>,
}

impl Alt {
    pub fn plain(word: Word) -> Alt {
        Alt {
            word,
            when: Vec::new(),
        }
    }
}

/// The state of a script at one point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Env {
    vars: BTreeMap<String, Vec<Alt>>,
    /// The working directory; `None` when it cannot be known.
    pub cwd: Option<Word>,
    /// Why `cwd` is not certain (see `conditional_cd.rs`); `None`: it is.
    pub cwd_assumed: Option<String>,
    /// `pushd`'s stack.
    pub dirs: Vec<Option<Word>>,
    /// A function's arguments (`$1`...) while its body is followed; `None` outside functions.
    pub positional: Option<Vec<Word>>,
    /// A glob that matches nothing expands to nothing (`shopt -s nullglob`, zsh's `setopt
    /// nullglob`), instead of to itself (see `glob_loop.rs`).
    pub nullglob: bool,
}

impl Env {
    /// A script starting in `cwd`.
    pub fn at(cwd: Word) -> Env {
        Env {
            cwd: Some(cwd),
            ..Env::default()
        }
    }

    pub fn get(&self, name: &str) -> Option<&[Alt]> {
        self.vars.get(name).map(Vec::as_slice)
    }

    pub fn set(&mut self, name: &str, alts: Vec<Alt>) {
        let alts = cap(alts, name);
        self.vars.insert(name.to_string(), alts);
    }

    /// Every value of every variable, mapped by `f`.
    pub fn map_words(&mut self, f: impl Fn(&Word) -> Word) {
        for alts in self.vars.values_mut() {
            for a in alts.iter_mut() {
                a.word = f(&a.word);
            }
        }
    }

    /// Every variable with its values.
    pub fn vars(&self) -> impl Iterator<Item = (&String, &[Alt])> {
        self.vars.iter().map(|(k, v)| (k, v.as_slice()))
    }

    pub fn unset(&mut self, name: &str) {
        self.vars.remove(name);
    }

    /// The state after one of several branches ran, each under its conditions: a variable
    /// the branches leave alike keeps its value, one they set differently gets the value of
    /// each branch under that branch's conditions; the working directory stays only when all
    /// agree.
    pub fn merge(base: &Env, branches: Vec<(Env, Vec<Cond>)>) -> Env {
        let mut out = base.clone();
        let mut names: Vec<&String> = branches.iter().flat_map(|(e, _)| e.vars.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let same = branches
                .iter()
                .all(|(e, _)| e.vars.get(name) == base.vars.get(name));
            if same {
                continue;
            }
            let overwritten = super::flags::overwritten(base.vars.get(name), &branches, name);
            let mut alts = Vec::new();
            for (e, when) in &branches {
                let Some(values) = e.vars.get(name) else {
                    alts.push(Alt::plain(Word::unknown(format!("${name}"))));
                    continue;
                };
                let carried = overwritten
                    && e.vars.get(name) == base.vars.get(name)
                    && when.iter().any(super::flags::is_flag);
                for a in values {
                    let mut a = a.clone();
                    if carried && a.when.iter().any(super::flags::is_flag) {
                        a.when.push(super::flags::carried(name));
                    }
                    a.when.extend(when.iter().cloned());
                    a.when.sort();
                    a.when.dedup();
                    alts.push(a);
                }
            }
            alts.sort();
            alts.dedup();
            out.set(name, merge_flags(alts));
        }
        // The same directory reached another way (`cd "$saved"` back to a `saved=$(pwd)`,
        // whose unquoted text may hold glob characters) is the same directory.
        let key = |c: &Option<Word>| c.as_ref().map(path_key);
        if branches.iter().any(|(e, _)| key(&e.cwd) != key(&base.cwd)) {
            let first = branches.first().map(|(e, _)| key(&e.cwd));
            let agree = branches.iter().all(|(e, _)| Some(key(&e.cwd)) == first);
            out.cwd = match (agree, branches.first()) {
                (true, Some((e, _))) => e.cwd.clone(),
                _ => None,
            };
        }
        // An option some branch sets and another does not is not known to be set.
        if !branches.is_empty() {
            out.nullglob = branches.iter().all(|(e, _)| e.nullglob);
        }
        // A directory some branch entered by a `cd` that may not run stays assumed.
        out.cwd_assumed = match out.cwd {
            Some(_) => branches
                .iter()
                .find_map(|(e, _)| e.cwd_assumed.clone())
                .or_else(|| base.cwd_assumed.clone()),
            None => None,
        };
        out
    }
}

/// A directory word as a path, for comparing two ways of writing it: normalized, and its
/// literal text without glob meaning where it holds no glob character (an unquoted `$dir`
/// and the quoted text it was assigned name the same directory).
fn path_key(w: &Word) -> Word {
    let mut out = Word::default();
    for p in &w.normalized().0 {
        match p {
            Piece::Lit { text, glob } => {
                out.push_lit(text, *glob && text.contains(['*', '?', '[']))
            }
            Piece::Unknown(_) => out.0.push(p.clone()),
        }
    }
    out
}

/// One alternative for the values that differ only by the flags they were set under (see
/// `flags.rs`), under the flags they share: a value set in several branches stays one value,
/// and the variable does not reach [`MAX_ALTS`] sooner than without flags.
fn merge_flags(alts: Vec<Alt>) -> Vec<Alt> {
    let is_flag = |c: &Cond| matches!(c.test, Test::Flag(_));
    let mut out: Vec<Alt> = Vec::new();
    for a in alts {
        let key = |x: &Alt| {
            let other: Vec<&Cond> = x.when.iter().filter(|c| !is_flag(c)).collect();
            (
                x.word.clone(),
                other.into_iter().cloned().collect::<Vec<Cond>>(),
            )
        };
        match out.iter_mut().find(|o| key(o) == key(&a)) {
            Some(o) => o.when.retain(|c| !is_flag(c) || a.when.contains(c)),
            None => out.push(a),
        }
    }
    out
}

/// Too many values make a variable unknown.
fn cap(alts: Vec<Alt>, name: &str) -> Vec<Alt> {
    if alts.len() > MAX_ALTS {
        vec![Alt::plain(Word::unknown(format!("${name}")))]
    } else {
        alts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branches_that_set_a_variable_differently_give_both_values() {
        let mut base = Env::at(Word::lit("r"));
        base.set("cmd", vec![Alt::plain(Word::lit("ytt -f ."))]);
        let cond = Cond {
            test: Test::Dir,
            path: Word::lit("values"),
            holds: true,
        };
        let mut then = base.clone();
        then.set("cmd", vec![Alt::plain(Word::lit("ytt -f . -f values"))]);
        let merged = Env::merge(
            &base,
            vec![
                (then, vec![cond.clone()]),
                (base.clone(), vec![cond.negated()]),
            ],
        );
        let alts = merged.get("cmd").unwrap();
        assert_eq!(alts.len(), 2);
        assert!(alts.iter().any(|a| a.when == vec![cond.clone()]));
        assert!(alts.iter().any(|a| a.when == vec![cond.negated()]));
        assert_eq!(merged.cwd, base.cwd);
    }

    #[test]
    fn branches_in_different_directories_lose_the_directory() {
        let base = Env::at(Word::lit("r"));
        let mut a = base.clone();
        a.cwd = Some(Word::lit("r/a"));
        let merged = Env::merge(&base, vec![(a, Vec::new()), (base.clone(), Vec::new())]);
        assert_eq!(merged.cwd, None);
    }
}
