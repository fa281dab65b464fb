//! A long flag that no version of ytt knows (`ytt -f config --colour never`): ytt as the
//! linter knows it stops with `unknown flag`, but the command may be meant for a later ytt, or
//! for a wrapper named `ytt` that takes flags of its own. The linter reads the rest of the
//! command as usual (the flag's value is the word after it, as ytt takes no positional
//! argument), and what it finds assumes that the flag changes nothing the linter checks
//! (`unknown-flag`). Before, such a command was dropped, its inputs linted by the layout.

use super::resolve::Outcome;
use crate::report::{Assumption, AssumptionKind};

/// The assumption of a command that gives `flags`, or `None` without any.
pub fn assumption(flags: &[String]) -> Option<Assumption> {
    if flags.is_empty() {
        return None;
    }
    let shown: Vec<String> = flags.iter().map(|f| format!("`{f}`")).collect();
    Some(Assumption::new(
        AssumptionKind::UnknownFlag,
        format!(
            "the command gives {}, which no ytt version the linter knows takes (ytt stops \
             with `unknown flag`): read as changing nothing the linter checks",
            shown.join(", ")
        ),
    ))
}

/// The outcomes with the assumption of `flags` among what a found or missing-input command
/// assumes.
pub fn assumed(out: Vec<Outcome>, flags: &[String]) -> Vec<Outcome> {
    let Some(a) = assumption(flags) else {
        return out;
    };
    out.into_iter()
        .map(|o| match o {
            Outcome::Missing(mut m) => {
                m.assumed.push(a.clone());
                Outcome::Missing(m)
            }
            other => other.assuming(&a),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_command_with_unknown_flags_assumes_something() {
        assert!(assumption(&[]).is_none());
        let a = assumption(&["--colour never".to_string()]).expect("an assumption");
        assert_eq!(a.kind, AssumptionKind::UnknownFlag);
        assert!(a.message.contains("`--colour never`"), "{}", a.message);
    }
}
