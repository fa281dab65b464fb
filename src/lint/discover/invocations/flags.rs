//! Branches on a script's boolean variables: `if ${DNS_ENABLED}; then` runs the variable's
//! value as a command, so the branch is taken when it holds `true`. Such a condition is a
//! [`Test::Flag`] of the variable: decided where the script itself gives the variable one
//! literal value, else carried with the values the branch sets.
//!
//! A script that sources one of several configuration files (`source config/${CONFIG}.sh`)
//! runs with one of them: each candidate file is followed on its own to learn the flags it
//! sets (a [`World`]; `INGRESS_DNS_ENABLED=${DNS_ENABLED}` ties one flag to another), and a
//! command whose branch conditions no candidate makes together never runs. What the linter
//! still combines itself (the values of a command's arguments set under two or more flags no
//! candidate decides, where one of them is a value that survived a later branch setting the
//! variable anew: a variable one sourced script sets, read by the next under another
//! condition) is an assumption the command's findings name (see [`chosen_assumption`]).

use std::collections::BTreeMap;

use tree_sitter::Node;

use super::env::{Alt, Cond, Env, Test};
use super::script_set::Parsed;
use super::shell::{Call, Interp};
use super::word::{Piece, Word, REPO};
use crate::report::{Assumption, AssumptionKind};

/// The most candidate files of one `source` followed for their flags.
const MAX_CANDIDATES: usize = 16;
/// The most variables another ties a flag to, followed in a row.
const MAX_TIES: usize = 8;
/// The most sourcing sites whose candidates are kept.
const MAX_SITES: usize = 8;

/// What one candidate configuration file sets a flag to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    /// The value of another variable the file does not set (`A=${B}`).
    Tie(String),
}

/// The flags one candidate file sets.
pub type World = BTreeMap<String, Value>;

/// The candidates of one sourcing site: the script runs with one of them.
pub type Site = Vec<World>;

/// Flags the linter combined itself, each a variable and the value assumed.
pub type Chosen = Vec<(String, bool)>;

/// The variable a condition command runs as its whole text: `${X}`, `$X`, `"${X}"`.
fn flag_name(text: &str) -> Option<&str> {
    let t = text.trim();
    let t = t
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(t);
    let t = t.strip_prefix('$')?;
    let t = match t.strip_prefix('{') {
        Some(inner) => inner.strip_suffix('}')?,
        None => t,
    };
    let mut chars = t.chars();
    let first = chars.next()?;
    let ok = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some(t)
}

/// A flag's condition: `holds` when the branch needs the variable to be `true`.
pub fn flag(name: &str, holds: bool) -> Cond {
    Cond {
        test: Test::Flag(name.to_string()),
        path: Word::default(),
        holds,
    }
}

/// The value a variable holds where every alternative the script gives it is the same
/// literal `true` or `false`.
fn literal_flag(alts: &[Alt]) -> Option<bool> {
    let mut out = None;
    for a in alts {
        if !a.when.is_empty() {
            return None;
        }
        let v = match a.word.literal().as_deref() {
            Some("true") => true,
            Some("false") => false,
            _ => return None,
        };
        if out.is_some_and(|o| o != v) {
            return None;
        }
        out = Some(v);
    }
    out
}

/// The variable a value only repeats (`${B}` of a file that does not set `B`).
fn tied(word: &Word) -> Option<String> {
    let [Piece::Unknown(u)] = word.0.as_slice() else {
        return None;
    };
    flag_name(u).map(str::to_string)
}

impl<'t> Interp<'t> {
    /// The condition of a command that is a variable alone (`if ${X}; then`).
    pub(super) fn flag_condition(&self, n: Node<'t>) -> Option<Cond> {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let [name] = kids.as_slice() else { return None };
        if name.kind() != "command_name" {
            return None;
        }
        flag_name(self.text(*name)).map(|v| flag(v, true))
    }

    /// Whether a branch under `cond` runs for certain (`Some(true)`) or never
    /// (`Some(false)`): a flag the script gives one literal value.
    pub(super) fn decided(&self, cond: &Cond, env: &Env) -> Option<bool> {
        let Test::Flag(name) = &cond.test else {
            return None;
        };
        literal_flag(env.get(name)?).map(|v| v == cond.holds)
    }

    /// `source config/${CONFIG}.sh` where the path is not known: the repository's files it
    /// may name, each followed on its own for the flags it sets (kept as a sourcing site).
    /// The variables a candidate sets are no longer known to hold their earlier value.
    pub(super) fn source_candidates(&mut self, word: &Word, env: &mut Env) {
        // A probe sources no candidates of its own; a name that is a variable alone
        // (`source $1`) names no set of configurations.
        if self.probing || !named_in_part(word) || self.sites.len() >= MAX_SITES {
            return;
        }
        let candidates = self.candidates(word, env);
        if candidates.len() < 2 {
            return;
        }
        let mut site: Site = Vec::new();
        let mut changed: Vec<String> = Vec::new();
        for file in candidates {
            let mut probe = Interp::new(self.src, self.ctx, self.scripts, self.site);
            probe.probing = true;
            probe.here = Some(file);
            probe.active = self.active.clone();
            probe.active.push(&file.path);
            probe.depth = self.depth;
            let mut penv = env.clone();
            probe.stmt(file.root(), &mut penv);
            let mut world = World::new();
            for (name, alts) in penv.vars() {
                if env.get(name) == Some(alts) {
                    continue;
                }
                changed.push(name.clone());
                let value = match (literal_flag(alts), alts) {
                    (Some(b), _) => Value::Bool(b),
                    (None, [one]) if one.when.is_empty() => match tied(&one.word) {
                        Some(t) => Value::Tie(t),
                        None => continue,
                    },
                    _ => continue,
                };
                world.insert(name.clone(), value);
            }
            site.push(world);
        }
        changed.sort();
        changed.dedup();
        for name in changed {
            env.unset(&name);
        }
        self.sites.push(site);
    }

    /// The repository's scripts and sourced files a path word with unknown parts may name.
    fn candidates(&self, word: &Word, env: &Env) -> Vec<&'t Parsed> {
        let full = match &env.cwd {
            Some(cwd) => word.relative_to(cwd),
            None => word.normalized(),
        };
        let patterns: Vec<regex::Regex> = match full.strip_prefix(super::snippet::CALLER) {
            Some(rest) => {
                let dir = self.ctx.script.dirname().repo_path().unwrap_or_default();
                super::resolve::caller_bases(&dir)
                    .into_iter()
                    .filter_map(|mut base| {
                        base.extend(&rest);
                        pattern(&base.normalized())
                    })
                    .collect()
            }
            None => pattern(&full).into_iter().collect(),
        };
        let mut out: Vec<&'t Parsed> = self
            .scripts
            .files()
            .filter(|p| {
                let at = format!("{REPO}/{}", p.path);
                patterns.iter().any(|re| re.is_match(&at))
            })
            .collect();
        if out.len() > MAX_CANDIDATES {
            out.clear();
        }
        out
    }

    /// `conds` (a command's branch conditions, `values` of them those its arguments' values
    /// were set under) without the flags, and the flags the linter combines itself; `None`
    /// when no candidate configuration makes them together, or they contradict each other.
    pub(super) fn settle_flags(
        &self,
        conds: Vec<Cond>,
        values: &[Cond],
    ) -> Option<(Vec<Cond>, Chosen)> {
        let mut wanted: BTreeMap<String, bool> = BTreeMap::new();
        let mut rest = Vec::new();
        for c in conds {
            match &c.test {
                Test::Flag(name) => {
                    if *wanted.entry(name.clone()).or_insert(c.holds) != c.holds {
                        return None;
                    }
                }
                Test::Carried(_) => {}
                _ => rest.push(c),
            }
        }
        if wanted.is_empty() {
            return Some((rest, Vec::new()));
        }
        for site in &self.sites {
            if !site.iter().any(|w| consistent(w, &wanted)) {
                return None;
            }
        }
        // The flags of the values that no candidate decides, by the variable they come to.
        let mut free: BTreeMap<String, (String, bool)> = BTreeMap::new();
        if !values.iter().any(|c| matches!(c.test, Test::Carried(_))) {
            return Some((rest, Vec::new()));
        }
        for c in values {
            let Test::Flag(name) = &c.test else { continue };
            if let Some(root) = self.undecided(name) {
                free.insert(root, (name.clone(), c.holds));
            }
        }
        let chosen = if free.len() >= 2 {
            free.into_values().collect()
        } else {
            Vec::new()
        };
        Some((rest, chosen))
    }

    /// The variable a flag comes to when no sourcing site's candidates all set it (itself,
    /// or the one every candidate ties it to); `None` when some site decides it.
    fn undecided(&self, name: &str) -> Option<String> {
        let mut name = name.to_string();
        for _ in 0..MAX_TIES {
            let mut next = None;
            for site in &self.sites {
                let values: Vec<Option<&Value>> = site.iter().map(|w| w.get(&name)).collect();
                if values.iter().all(|v| matches!(v, Some(Value::Bool(_)))) {
                    return None;
                }
                if let Some(Some(Value::Tie(t))) = values.first() {
                    if values.iter().all(|v| *v == Some(&Value::Tie(t.clone()))) {
                        next = Some(t.clone());
                    }
                }
            }
            match next {
                Some(t) if t != name => name = t,
                _ => return Some(name),
            }
        }
        Some(name)
    }
}

/// Whether a condition is a flag's.
pub fn is_flag(c: &Cond) -> bool {
    matches!(c.test, Test::Flag(_))
}

/// The mark of a value of `name` that survived a branch setting it anew.
pub fn carried(name: &str) -> Cond {
    Cond {
        test: Test::Carried(name.to_string()),
        path: Word::default(),
        holds: true,
    }
}

/// Whether some branch sets `name` anew (its values depend on no flag of the values before,
/// unlike `X="$X -f a"`), while the variable held values set under a flag.
pub fn overwritten(before: Option<&Vec<Alt>>, branches: &[(Env, Vec<Cond>)], name: &str) -> bool {
    let flagged = |alts: &[Alt]| alts.iter().any(|a| a.when.iter().any(is_flag));
    if !before.is_some_and(|b| flagged(b)) {
        return false;
    }
    branches.iter().any(|(e, _)| {
        e.get(name)
            .is_some_and(|v| Some(v) != before.map(Vec::as_slice) && !flagged(v))
    })
}

/// Whether one candidate's flags allow every wanted value (a flag it ties to a variable it
/// does not set asks that variable for the value).
fn consistent(world: &World, wanted: &BTreeMap<String, bool>) -> bool {
    let mut asked: BTreeMap<String, bool> = BTreeMap::new();
    for (name, holds) in wanted {
        let mut name = name.clone();
        let mut steps = 0;
        let free = loop {
            steps += 1;
            match world.get(&name) {
                Some(Value::Bool(b)) if steps <= MAX_TIES => {
                    if b != holds {
                        return false;
                    }
                    break None;
                }
                Some(Value::Tie(t)) if steps <= MAX_TIES => name = t.clone(),
                _ => break Some(name),
            }
        };
        if let Some(free) = free {
            if *asked.entry(free).or_insert(*holds) != *holds {
                return false;
            }
        }
    }
    true
}

/// The calls with the fewest combined flags among those that are the same command otherwise:
/// one the script runs without combining flags is known without the combination.
pub fn fewest_chosen(calls: Vec<Call>) -> Vec<Call> {
    if calls.iter().all(|c| c.chosen.is_empty()) {
        return calls;
    }
    let same = |a: &Call, b: &Call| {
        a.line == b.line
            && a.args == b.args
            && a.cwd == b.cwd
            && a.when == b.when
            && a.uncalled == b.uncalled
            && a.stdin == b.stdin
            && a.scripted == b.scripted
            && a.written == b.written
    };
    let mut out: Vec<Call> = Vec::new();
    for c in calls {
        match out.iter_mut().find(|o| same(o, &c)) {
            Some(o) if c.chosen.len() < o.chosen.len() => *o = c,
            Some(_) => {}
            None => out.push(c),
        }
    }
    out
}

/// Whether a path word names its file in part: an unknown part in its last segment beside
/// literal text (`${CONFIG}.sh`), in a directory written out.
fn named_in_part(word: &Word) -> bool {
    let mut slash = false;
    let mut dir_unknown = false;
    let mut unknowns = 0usize;
    let mut text = String::new();
    for p in &word.0 {
        match p {
            Piece::Lit { text: t, .. } => match t.rsplit_once('/') {
                Some((_, after)) => {
                    slash = true;
                    dir_unknown |= unknowns > 0;
                    unknowns = 0;
                    text = after.to_string();
                }
                None => text.push_str(t),
            },
            Piece::Unknown(_) => unknowns += 1,
        }
    }
    slash && !dir_unknown && unknowns == 1 && !text.is_empty()
}

/// A regular expression of the repository paths a word names, its unknown parts one path
/// segment's text each.
fn pattern(word: &Word) -> Option<regex::Regex> {
    let mut re = String::from("^");
    for p in &word.0 {
        match p {
            Piece::Lit { text, .. } => re.push_str(&regex::escape(text)),
            Piece::Unknown(_) => re.push_str("[^/]+"),
        }
    }
    re.push('$');
    regex::Regex::new(&re).ok()
}

/// What a command's findings assume when its arguments' values were set under branch
/// conditions the linter combined itself.
pub fn chosen_assumption(chosen: &[(String, bool)]) -> Assumption {
    let said: Vec<String> = chosen
        .iter()
        .map(|(name, holds)| format!("{name} {holds}"))
        .collect();
    Assumption::new(
        AssumptionKind::BoundArgument,
        format!(
            "the branch conditions {} hold together (the script's variables were combined by the linter; nothing in the repository sets them together)",
            said.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_name_written_in_part_has_candidates() {
        let mut w = Word::lit(format!("{REPO}/deploy/config/"));
        w.0.push(Piece::Unknown("${CONFIG}".into()));
        w.push_lit(".sh", false);
        assert!(named_in_part(&w));
        assert!(!named_in_part(&Word::unknown("$1")));
        let mut bare = Word::lit(format!("{REPO}/deploy/"));
        bare.0.push(Piece::Unknown("$1".into()));
        assert!(!named_in_part(&bare));
    }

    #[test]
    fn a_variable_alone_is_a_flag() {
        assert_eq!(flag_name("${DNS_ENABLED}"), Some("DNS_ENABLED"));
        assert_eq!(flag_name("\"$X\""), Some("X"));
        assert_eq!(flag_name("$1"), None);
        assert_eq!(flag_name("${X:-true}"), None);
        assert_eq!(flag_name("make"), None);
    }

    #[test]
    fn a_candidate_tying_two_flags_rules_out_their_difference() {
        let mut world = World::new();
        world.insert("DNS".into(), Value::Bool(false));
        world.insert("INGRESS_DNS".into(), Value::Tie("DNS".into()));
        let mut wanted = BTreeMap::new();
        wanted.insert("INGRESS_DNS".to_string(), true);
        assert!(!consistent(&world, &wanted));
        wanted.insert("INGRESS_DNS".to_string(), false);
        wanted.insert("DNS".to_string(), false);
        assert!(consistent(&world, &wanted));
        // Tied to a variable the file leaves to the environment: both the same, either way.
        let mut open = World::new();
        open.insert("INGRESS_DNS".into(), Value::Tie("DNS".into()));
        let mut wanted = BTreeMap::new();
        wanted.insert("INGRESS_DNS".to_string(), true);
        wanted.insert("DNS".to_string(), false);
        assert!(!consistent(&open, &wanted));
        wanted.insert("DNS".to_string(), true);
        assert!(consistent(&open, &wanted));
    }
}
