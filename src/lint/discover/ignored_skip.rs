//! A command discovery skips because `.gitignore` hides an input the repository does not hold
//! (`ytt -f build/app.yml` where `build/` is ignored: something makes it at run time) is said
//! in the report, a `needs-input` note at the command naming the input and the assumption,
//! not only in `--list-roots` (round thirty's R30-1: a skipped command is never silent).

use crate::lint::discover::invocations::missing::IGNORED_SKIP;
use crate::lint::discover::invocations::resolve::Skipped;
use crate::report::{Diagnostic, Rule, Span};

/// The notes of the commands of `skipped` left out because `.gitignore` hides their input.
pub fn notes(skipped: &[Skipped]) -> Vec<Diagnostic> {
    skip_notes(skipped.iter(), IGNORED_SKIP, |path| {
        (
            format!(
                "the ytt command is not linted: its input {path} is not in the repository, and .gitignore ignores it, so the linter assumes something makes it at run time"
            ),
            format!("commit {path}, or list the command in .yttlint.yaml with the files it reads"),
        )
    })
}

/// A `needs-input` note at each command of `skipped` whose reason ends in `suffix`, worded by
/// `say` from what stands before the suffix (the message and the help), once per place.
pub fn skip_notes<'a>(
    skipped: impl Iterator<Item = &'a Skipped>,
    suffix: &str,
    say: impl Fn(&str) -> (String, String),
) -> Vec<Diagnostic> {
    let mut notes: Vec<Diagnostic> = skipped
        .filter_map(|s| {
            let (message, help) = say(s.reason.strip_suffix(suffix)?);
            Some(
                Diagnostic::new(Rule::NeedsInput, message)
                    .at(Span::point(&s.origin.file, s.origin.line, 1))
                    .with_help(help),
            )
        })
        .collect();
    notes.dedup();
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn skipped(reason: String) -> Skipped {
        Skipped {
            origin: Origin {
                file: "Makefile".to_string(),
                line: 3,
            },
            reason,
            claims: Vec::new(),
            placeholder: None,
            left_out: Vec::new(),
            got: None,
        }
    }

    #[test]
    fn only_commands_skipped_for_an_ignore_pattern_are_noted() {
        let notes = notes(&[
            skipped(format!("build/app.yml{IGNORED_SKIP}")),
            skipped("input x.yml is outside the repository".to_string()),
        ]);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].rule, Rule::NeedsInput);
        assert!(notes[0].message.contains("its input build/app.yml"));
        assert_eq!(notes[0].span.as_ref().map(|s| s.line), Some(3));
    }
}
