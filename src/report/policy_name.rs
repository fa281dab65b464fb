//! The rule of a repository's own policy: `policy/NAME`, where NAME is the policy file's name
//! without `.star` (see [`crate::policy`]). Unlike the rules of the table, these come from the
//! repository, so a [`PolicyName`] is made at run time; it stays `Copy` (as [`super::Rule`]
//! is) by interning each id once per process. The number of ids interned is bounded, so a
//! repository with absurdly many policy files cannot grow the process without end.

use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock};

/// The id of a repository policy's rule, `policy/NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolicyName(&'static str);

/// What every policy rule id starts with.
pub const PREFIX: &str = "policy/";

/// The longest NAME accepted.
const MAX_NAME: usize = 100;

/// The most distinct policy ids one process interns.
const MAX_INTERNED: usize = 10_000;

impl PolicyName {
    /// The rule of the policy file `NAME.star`, `None` when NAME is not a valid name (see
    /// [`check_name`]) or the process holds too many already.
    pub fn new(name: &str) -> Option<PolicyName> {
        check_name(name).ok()?;
        intern(&format!("{PREFIX}{name}")).map(PolicyName)
    }

    /// The rule whose id is `policy/NAME`.
    pub fn from_id(id: &str) -> Option<PolicyName> {
        PolicyName::new(id.strip_prefix(PREFIX)?)
    }

    /// `policy/NAME`.
    pub const fn id(self) -> &'static str {
        self.0
    }

    /// NAME, the policy file's name without `.star`.
    pub fn name(self) -> &'static str {
        self.0.strip_prefix(PREFIX).unwrap_or(self.0)
    }
}

/// Whether `name` can name a policy: 1 to 100 ASCII letters, digits, `-` and `_`, starting
/// with a letter or digit (it becomes a rule id, a suppression key and a SARIF rule).
pub fn check_name(name: &str) -> Result<(), String> {
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let ok_start = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    if ok_chars && ok_start && name.len() <= MAX_NAME {
        Ok(())
    } else {
        Err(format!(
            "\"{name}\" cannot name a policy: its rule id is policy/NAME, so NAME may hold only \
             letters, digits, - and _ (at most {MAX_NAME}), starting with a letter or digit"
        ))
    }
}

fn intern(id: &str) -> Option<&'static str> {
    static IDS: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut ids = IDS.get_or_init(Default::default).lock().ok()?;
    if let Some(known) = ids.get(id) {
        return Some(known);
    }
    if ids.len() >= MAX_INTERNED {
        return None;
    }
    let leaked: &'static str = Box::leak(id.to_string().into_boxed_str());
    ids.insert(leaked);
    Some(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_interned_once_and_checked() {
        let a = PolicyName::new("team").unwrap();
        let b = PolicyName::from_id("policy/team").unwrap();
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.id(), b.id()));
        assert_eq!(a.id(), "policy/team");
        assert_eq!(a.name(), "team");
        for bad in ["", "-x", "a b", "a/b", "ü", &"x".repeat(101)] {
            assert!(PolicyName::new(bad).is_none(), "{bad:?}");
        }
        assert!(PolicyName::from_id("team").is_none());
        assert!(PolicyName::new("require_limits-2").is_some());
    }
}
